#!/usr/bin/env python3
"""Runs every command of the README's tour as written, in a scratch directory whose `build` is the build tree.

Usage: readme_tour_test.py README.md BUILD_DIR. A command ends its line with `# exit N` when it must exit N; every
other command must exit 0. Commands are the lines of the tour's ```sh blocks, with `\\` continuations joined and a
here-document kept with the command that opens it. Exit 0 when every command exits as stated, 1 otherwise.
"""
import os
import re
import subprocess
import sys
import tempfile


def tour_commands(readme):
    text = open(readme, encoding="utf-8").read()
    start = text.index("## A five-minute tour")
    end = text.index("\n## ", start + 1)
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text[start:end], re.S):
        lines = block.split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.strip():
                continue
            while line.endswith("\\") and i < len(lines):
                line = line[:-1] + " " + lines[i].strip()
                i += 1
            heredoc = re.search(r"<<'?(\w+)'?", line)
            if heredoc:
                body = []
                while i < len(lines) and lines[i] != heredoc.group(1):
                    body.append(lines[i])
                    i += 1
                i += 1
                line = line + "\n" + "\n".join(body) + "\n" + heredoc.group(1)
            commands.append(line)
    return commands


def main():
    readme, build = sys.argv[1], os.path.abspath(sys.argv[2])
    commands = tour_commands(readme)
    if len(commands) < 5:
        print(f"only {len(commands)} commands found in the tour of {readme}")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        os.symlink(build, os.path.join(work, "build"))
        for command in commands:
            expected = 0
            first_line = command.split("\n")[0]
            m = re.search(r"#\s*exit (\d+)\s*$", first_line)
            if m:
                expected = int(m.group(1))
            run = subprocess.run(["bash", "-c", command], cwd=work, capture_output=True, text=True, timeout=600)
            status = "ok" if run.returncode == expected else "FAILED"
            print(f"{status}: exit {run.returncode} (expected {expected}): {first_line}")
            if run.returncode != expected:
                failed += 1
                print(run.stdout[-2000:], run.stderr[-2000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
