#!/usr/bin/env python3
"""The sources' format: every C++ file as clang-format (.clang-format at the root) writes it, and no line wider than
its ColumnLimit (120 columns, counted in characters, so that a comment's "≥" counts once).

Usage: format_check.py ROOT [--fix] [--clang-format PATH]. Checks the C++ sources under ROOT's library, tool, test,
Python-binding and benchmark directories (tests/data excepted); exit 0 when all conform, 1 naming each file and line
that does not, 2 when clang-format is missing. --fix rewrites the files in place first (what `./run format` does).
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys

DIRECTORIES = ["core", "checkers", "smt", "search", "properties", "cli", "tests", "bench", "python"]
SUFFIXES = {".cpp", ".hpp", ".h", ".cc"}


def sources(root: pathlib.Path):
    for directory in DIRECTORIES:
        for path in sorted((root / directory).rglob("*")):
            relative = path.relative_to(root).as_posix()
            if path.suffix in SUFFIXES and path.is_file() and not relative.startswith("tests/data/"):
                yield path


def column_limit(root: pathlib.Path) -> int:
    match = re.search(r"^ColumnLimit:\s*(\d+)", (root / ".clang-format").read_text(), re.M)
    return int(match.group(1)) if match else 80


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--fix", action="store_true")
    parser.add_argument("--clang-format", default=None)
    args = parser.parse_args()
    root = pathlib.Path(args.root).resolve()
    tool = args.clang_format or shutil.which("clang-format-14") or shutil.which("clang-format")
    if tool is None:
        print("format_check: clang-format not found (Debian: clang-format)", file=sys.stderr)
        return 2
    files = list(sources(root))
    if not files:
        print(f"format_check: no C++ sources under {root}", file=sys.stderr)
        return 2
    if args.fix:
        subprocess.run([tool, "-i", "--style=file", *map(str, files)], check=True)
    problems = []
    # One clang-format for all files (a process each cost about a third of the check); it names each file and line
    # that differs, and exits 0 unless it could not format some file: then each file alone names the one it cannot
    # read.
    result = subprocess.run([tool, "--style=file", "--dry-run", *map(str, files)], capture_output=True, text=True)
    places = {}
    for name, line in re.findall(r"^(.+?):(\d+):\d+: (?:warning|error): code should be clang-formatted", result.stderr,
                                 re.M):
        places.setdefault(pathlib.Path(name).resolve(), set()).add(int(line))
    if result.returncode != 0:
        for path in files:
            alone = subprocess.run([tool, "--style=file", "--dry-run", str(path)], capture_output=True, text=True)
            if alone.returncode != 0:
                problems.append(f"{path.relative_to(root)}: clang-format failed: {alone.stderr.strip()}")
    for path in files:
        if path.resolve() in places:
            lines = ", ".join(map(str, sorted(places[path.resolve()])[:10]))
            problems.append(f"{path.relative_to(root)}: not as clang-format writes it (lines {lines}; ./run format fixes it)")
    limit = column_limit(root)
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if len(line) > limit:
                problems.append(f"{path.relative_to(root)}:{number}: {len(line)} columns, more than {limit}")
    for problem in problems:
        print(problem)
    print(f"format_check: {len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
