// fork/exec with pipes, poll-based reading and a deadline; the child gets its own process group so that a timeout
// kills everything the command started.
#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace dancecard::cli {

std::string process_result::describe() const {
  if (!started) return "could not be started";
  if (timed_out) return "timed out";
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

process_result run_command(const std::string& command, unsigned timeout_ms, std::size_t max_bytes) {
  process_result result;
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0) return result;
  if (pipe(err_pipe) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return result;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return result;
  }
  if (pid == 0) {
    setpgid(0, 0);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    close(out_pipe[0]);
    close(err_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[1]);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);
  result.started = true;
  close(out_pipe[1]);
  close(err_pipe[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_streams = 2;
  char buffer[65536];
  while (open_streams > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    if (poll(fds, 2, static_cast<int>(left.count())) < 0) break;
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[k].fd, buffer, sizeof buffer);
      if (got <= 0) {
        close(fds[k].fd);
        fds[k].fd = -1;
        --open_streams;
      } else if (sinks[k]->size() < max_bytes) {
        sinks[k]->append(buffer, static_cast<std::size_t>(got));
      } else if (k == 0) {
        // More than the caller keeps: the run has failed already, so it is stopped now rather than read to its end
        // (a program that prints forever would otherwise be reported as a timeout).
        result.out_truncated = true;
        kill(-pid, SIGKILL);
        open_streams = 0;
        break;
      }
    }
  }
  for (auto& fd : fds)
    if (fd.fd >= 0) close(fd.fd);
  // The streams may close before the process ends (or it may hang after closing them): wait up to the deadline.
  int status = 0;
  pid_t done = 0;
  while (!result.timed_out && (done = waitpid(pid, &status, WNOHANG)) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      result.timed_out = true;
      break;
    }
    usleep(1000);
  }
  if (result.timed_out) {
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  if (!result.timed_out) {
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace dancecard::cli
