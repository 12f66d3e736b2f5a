#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets from dancecard's own generators and stored data.

usage: seeds.py DANCECARD SOURCE_DIR OUT_DIR
One directory per reader under OUT_DIR (dance_json, directed_json, partner_matrix, hrel, torus_routing,
torus_evidence, drat_text, drat_binary, cutting_planes, collective_json, msccl_xml); two-document inputs are joined at a line
"%%".
"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile


def run(dancecard, *args):
    return subprocess.run([dancecard, *args], check=True, capture_output=True).stdout


def binary_drat_to_text(data):
    """Binary DRAT ('a'/'d', literals as 7-bit varints of 2|l| + sign, 0-terminated) as text DRAT."""
    lines, i = [], 0
    while i < len(data):
        kind, i = data[i:i + 1], i + 1
        lits, value, shift = [], 0, 0
        while True:
            byte, i = data[i], i + 1
            value |= (byte & 0x7F) << shift
            if byte & 0x80:
                shift += 7
                continue
            if value == 0:
                break
            lits.append(-(value >> 1) if value & 1 else value >> 1)
            value, shift = 0, 0
        lines.append(("d " if kind == b"d" else "") + " ".join(map(str, lits + [0])))
    return ("\n".join(lines) + "\n").encode()


def text_drat_to_binary(data):
    """Text DRAT as binary DRAT (comment lines dropped)."""
    out = bytearray()
    for line in data.decode().splitlines():
        words = line.split()
        if not words or words[0] == "c":
            continue
        out += b"d" if words[0] == "d" else b"a"
        for word in words[1:] if words[0] == "d" else words:
            lit = int(word)
            value = 2 * abs(lit) + (lit < 0) if lit else 0
            while value > 0x7F:
                out.append(value & 0x7F | 0x80)
                value >>= 7
            out.append(value)
    return bytes(out)


def main():
    dancecard, source, out = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    dirs = {}
    for name in ["dance_json", "directed_json", "partner_matrix", "hrel", "torus_routing", "torus_evidence",
                 "drat_text", "drat_binary", "cutting_planes", "collective_json", "msccl_xml"]:
        dirs[name] = out / name
        shutil.rmtree(dirs[name], ignore_errors=True)
        dirs[name].mkdir(parents=True)

    for algo in ["sequential", "searching", "divide", "factorization"]:
        for n in [2, 3, 4, 5, 7, 8]:
            (dirs["dance_json"] / f"{algo}-{n}.json").write_bytes(run(dancecard, "generate", "dance", "--algo", algo, "--n", str(n)))
            (dirs["partner_matrix"] / f"{algo}-{n}.txt").write_bytes(
                run(dancecard, "generate", "dance", "--algo", algo, "--n", str(n), "--format", "matrix"))
    for algo in ["openmpi", "mpich", "factorization"]:
        for n in [2, 3, 4, 6]:
            (dirs["directed_json"] / f"{algo}-{n}.json").write_bytes(run(dancecard, "generate", "directed", "--algo", algo, "--n", str(n)))
    for algo, coll, n in [("ring", "allgather", 4), ("bruck", "allgather", 5), ("pairwise", "alltoall", 3),
                          ("binomial", "broadcast", 5), ("binomial", "reduce", 4), ("ring", "allreduce", 3),
                          ("rabenseifner", "allreduce", 4)]:
        schedule = run(dancecard, "generate", "collective", "--algo", algo, "--coll", coll, "-n", str(n))
        (dirs["collective_json"] / f"{algo}-{coll}-{n}.json").write_bytes(schedule)
        if algo in ("binomial",):
            continue  # rooted: MSCCL-IR has no root
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            f.write(schedule)
            f.flush()
            (dirs["msccl_xml"] / f"{algo}-{coll}-{n}.xml").write_bytes(run(dancecard, "export", "msccl", f.name))
    (dirs["collective_json"] / "custom.json").write_bytes(
        b'{"format": "dancecard.collective/1", "topology": {"name": "pair", "ranks": 2, "links": [[0, 1, 2], [1, 0, 2]]},'
        b' "ports": "all-port", "collective": {"kind": "allgather", "chunks": 2},'
        b' "steps": [{"rounds": 1, "transfers": [[0, 0, 1], [1, 0, 1], [2, 1, 0], [3, 1, 0, "copy"]]}]}')
    for path in sorted((source / "tests" / "data").glob("k4*")) + sorted((source / "tests" / "data").glob("*.txt")):
        shutil.copy(path, dirs["dance_json" if path.suffix == ".json" else "partner_matrix"] / path.name)

    for path in sorted((source / "tests" / "data").glob("hrel_*.json")):
        instance = path.read_bytes()
        if b'"dancecard.hrel/1"' not in instance:
            continue
        for algo in ["direct", "forwarding", "full-duplex"]:
            try:
                schedule = run(dancecard, "generate", "hrel", str(path), "--algo", algo)
            except subprocess.CalledProcessError:
                continue
            (dirs["hrel"] / f"{path.stem}-{algo}.txt").write_bytes(instance + b"\n%%\n" + schedule)

    for path in sorted((source / "core" / "data" / "torus").glob("*.json")):
        if path.stat().st_size <= 16384:
            shutil.copy(path, dirs["torus_routing"] / path.name)
    for dims, algo in [("4x4", "hamiltonian"), ("4x5", "one-packet"), ("6x5", "partial"), ("3x3", "hamiltonian-switch")]:
        (dirs["torus_routing"] / f"{dims}-{algo}.json").write_bytes(run(dancecard, "generate", "torus", "--dims", dims, "--algo", algo))

    evidence = source / "core" / "data" / "torus_evidence.json"
    shutil.copy(evidence, dirs["torus_evidence"] / "torus_evidence.json")
    document = json.loads(evidence.read_text())
    for k, cell in enumerate(document["cells"]):
        one = dict(document, cells=[cell])
        (dirs["torus_evidence"] / f"cell-{k}.json").write_text(json.dumps(one, indent=1))

    with tempfile.TemporaryDirectory() as emit:
        for n in [3, 4, 5]:
            run(dancecard, "prove", "dance", "--n", str(n), "--emit", emit)
            cnf = (pathlib.Path(emit) / f"dance-n{n}-lower.cnf").read_bytes()
            drat = (pathlib.Path(emit) / f"dance-n{n}-lower.drat").read_bytes()
            binary = drat[:1] == b"a" or b"\0" in drat[:64]
            text = binary_drat_to_text(drat) if binary else drat
            (dirs["drat_text"] / f"dance-{n}.txt").write_bytes(cnf + b"\n%%\n" + text)
            (dirs["drat_binary"] / f"dance-{n}.bin").write_bytes(cnf + b"\n%%\n" + (drat if binary else text_drat_to_binary(drat)))
            shutil.copy(pathlib.Path(emit) / f"dance-n{n}-lower.cp", dirs["cutting_planes"] / f"dance-{n}.cp")
    # The small refutations of the DRAT checker's own tests: text and binary.
    small = b"p cnf 4 6\n1 2 0\n1 -2 0\n-1 3 4 0\n-1 3 -4 0\n-1 -3 4 0\n-1 -3 -4 0\n"
    (dirs["drat_text"] / "abcd.txt").write_bytes(small + b"\n%%\n1 0\n3 0\n0\n")
    (dirs["drat_text"] / "units.txt").write_bytes(b"p cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-2 -3 0\n\n%%\nd -1 2 0\n3 0\n0\n")
    (dirs["drat_binary"] / "abcd.bin").write_bytes(small + b"\n%%\n" + b"a\x02\x00a\x06\x00a\x00")
    for path in sorted((source / "tests" / "data").glob("hrel_*.json")):
        try:
            with tempfile.NamedTemporaryFile(suffix=".cp") as certificate:
                subprocess.run([dancecard, "prove", "hrel", str(path), "--certificate", certificate.name],
                               capture_output=True, timeout=120)
                data = pathlib.Path(certificate.name).read_bytes()
                if data:
                    (dirs["cutting_planes"] / f"{path.stem}.cp").write_bytes(data)
        except subprocess.TimeoutExpired:
            pass
    # Cut certificates of collectives (instance collective): the least steps of small all-to-alls and all-gathers.
    for topology, coll in [("ring:4", "alltoall"), ("dgx1", "allgather"), ("hypercube:2", "alltoall")]:
        with tempfile.TemporaryDirectory() as emit:
            run(dancecard, "prove", "collective", "--topology", topology, "--coll", coll, "--emit", emit)
            below = pathlib.Path(emit) / "least-below.cp"
            if below.exists():
                shutil.copy(below, dirs["cutting_planes"] / f"collective-{topology.replace(':', '-')}-{coll}.cp")
    for name, d in dirs.items():
        print(f"{name}: {len(list(d.iterdir()))} seeds")


if __name__ == "__main__":
    main()
