#!/usr/bin/env python3
"""The makespan of a cube-and-conquer run on W workers, simulated from measured cube times (docs/scale-out.md).

The scheduler simulated is the one `dancecard-mpi prove` runs: a worker that finishes a cube takes the next waiting
one, in plan order; a cube divided for its budget makes its children wait once it is done. Its input is what a run
measured on this machine:

  project_cubes.py --checkpoint FILE [--workers 2,64,1024]
      the checkpoint of a finished `dancecard-mpi prove … --checkpoint FILE` run: every refuted and divided cube with
      its seconds; the tree is rebuilt from the cubes' literals (a child is its parent plus one literal);
  project_cubes.py --split DIR --cubes K [--seed S] [--workers …]
      a sample: the cube-N.json results that `dancecard solve-cube` wrote in a split of K first cubes
      (`prove torus … --emit-cubes DIR`), some of them solved. Each of the K cubes is given the time of a sampled cube
      drawn at random (seeded); a sampled cube that spent its budget counts its budget, so the makespan printed is then
      a lower bound, and it says so.

It prints, per W, the simulated makespan, the work over the cubes, and the lower bounds max(longest chain, work / W).
"""

import argparse
import glob
import heapq
import json
import os
import random
import sys


def read_checkpoint(path):
    """Cubes (literals tuple -> seconds, divided) from a checkpoint; roots are the cubes whose parent is absent."""
    cubes = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.endswith("\n"):
                break  # cut off when the job was killed
            record = json.loads(line)
            if "cube" not in record:
                continue  # the header
            cubes[tuple(record["cube"])] = (float(record.get("seconds", 0.0)), bool(record.get("divided", False)))
    return cubes


def simulate(cubes, workers):
    """Makespan of the on-demand scheduler over the cube tree: roots in plan (literal) order, children after parents."""
    children = {}
    roots = []
    for literals in sorted(cubes):
        parent = literals[:-1]
        if parent in cubes and cubes[parent][1]:
            children.setdefault(parent, []).append(literals)
        else:
            roots.append(literals)
    waiting = list(roots)  # FIFO in plan order
    head = 0
    running = []  # (finish time, literals)
    now = 0.0
    idle = workers
    makespan = 0.0
    while head < len(waiting) or running:
        while idle > 0 and head < len(waiting):
            literals = waiting[head]
            head += 1
            heapq.heappush(running, (now + cubes[literals][0], literals))
            idle -= 1
        now, done = heapq.heappop(running)
        idle += 1
        makespan = max(makespan, now)
        waiting.extend(children.get(done, []))
    return makespan


def longest_chain(cubes):
    best = 0.0
    for literals, (seconds, _) in cubes.items():
        total, prefix = seconds, literals[:-1]
        while prefix in cubes:
            total += cubes[prefix][0]
            prefix = prefix[:-1]
        best = max(best, total)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint")
    parser.add_argument("--split")
    parser.add_argument("--cubes", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", default="2,64,1024")
    args = parser.parse_args()
    if (args.checkpoint is None) == (args.split is None):
        parser.error("give --checkpoint FILE or --split DIR --cubes K")
    lower_bound_only = False
    if args.checkpoint:
        cubes = read_checkpoint(args.checkpoint)
        source = f"{len(cubes)} cubes of {args.checkpoint}"
    else:
        if not args.cubes or args.cubes < 1:
            parser.error("--split needs --cubes K, the number of first cubes")
        sample = []
        for path in sorted(glob.glob(os.path.join(args.split, "cube-*.json"))):
            with open(path) as f:
                result = json.load(f)
            sample.append(float(result["seconds"]))
            if result["answer"] == "unknown":
                lower_bound_only = True
        if not sample:
            sys.exit(f"{args.split}: no cube-N.json results to sample")
        rng = random.Random(args.seed)
        cubes = {(k,): (rng.choice(sample), False) for k in range(args.cubes)}
        source = (f"{args.cubes} cubes drawn from {len(sample)} sampled in {args.split} "
                  f"(mean {sum(sample) / len(sample):.1f} s, longest {max(sample):.1f} s)")
    work = sum(seconds for seconds, _ in cubes.values())
    chain = longest_chain(cubes)
    print(f"{source}: work {work:.1f} s, longest chain {chain:.1f} s"
          + ("; some sampled cubes spent their budget: every figure is a lower bound" if lower_bound_only else ""))
    print("| workers | simulated makespan | max(longest chain, work / W) |")
    print("|---|---|---|")
    for w in (int(x) for x in args.workers.split(",")):
        print(f"| {w} | {simulate(cubes, w):.1f} s | {max(chain, work / w):.1f} s |")


if __name__ == "__main__":
    main()
