#!/usr/bin/env python3
"""What crossing into Python costs, against C++ in the same run.

Usage: PYTHONPATH=build/python python3 bench/python_bench.py BUILD_DIR [PEOPLE]. Prints the median of five checks of
a PEOPLE-person (default 10,000) factorization dance schedule given as a NumPy int32 array, the C++ check of the same
schedule (bench_dance's check_schedule<factorization>, run here), their ratio, and the time to import the module in
a fresh interpreter (median of five).
"""
import json
import statistics
import subprocess
import sys
import time


def main():
    build = sys.argv[1]
    people = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    name = f"check_schedule<dance_algorithm::factorization>/{people}$"
    cpp = subprocess.run([f"{build}/bin/bench_dance", f"--benchmark_filter={name}", "--benchmark_format=json",
                          "--benchmark_repetitions=3"], check=True, capture_output=True, text=True)
    runs = [b for b in json.loads(cpp.stdout)["benchmarks"] if b.get("run_type") == "iteration"]
    cpp_ms = statistics.median(b["real_time"] for b in runs)  # bench_dance reports milliseconds

    import dancecard as dc
    dances = dc.generate_dance("factorization", people)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        report = dc.check_dance_schedule(dances, people)
        times.append((time.perf_counter() - start) * 1000)
        assert report.holds
    python_ms = statistics.median(times)

    imports = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import dancecard; "
                              "print((time.perf_counter() - t) * 1000)"], check=True, capture_output=True, text=True)
        imports.append(float(out.stdout))
    print(f"dance check, {people} people, {dances.shape[0] * dances.shape[1]} dances: Python (NumPy int32) "
          f"{python_ms:.1f} ms, C++ {cpp_ms:.1f} ms, ratio {python_ms / cpp_ms:.2f}")
    print(f"import dancecard: {statistics.median(imports):.1f} ms (median of 5, fresh interpreters)")


if __name__ == "__main__":
    main()
