#!/usr/bin/env python3
"""Throughput of `tengen analysis` (issue 15): positions per second on a batch of
five-in-a-row positions at a fixed node budget, with 1 worker and with 2, alternately.

The positions are the distinct prefixes of three or more moves of the games in
bench/positions-agreement-15.txt and engine-tests/data/puzzles/ (15x15, then 20x20),
the first N.

    bench/analysis_throughput.py target/release/tengen --positions 1000 --nodes 20000 --rounds 3
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gomocup_positions import read_positions  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FILE = os.path.join(HERE, "positions-agreement-15.txt")
PUZZLES = os.path.join(HERE, "..", "engine-tests", "data", "puzzles")


def games():
    """(size, moves) of the positions file, then of the puzzle files (their moves, before
    the `|`), 15x15 before 20x20."""
    yield from read_positions(FILE)
    for name in sorted(os.listdir(PUZZLES), key=lambda f: ("20x20" in f, f)):
        if not name.endswith(".txt"):
            continue
        size = 20 if "20x20" in name else 15
        with open(os.path.join(PUZZLES, name)) as f:
            for line in f:
                moves = line.split("|")[0].split()
                if moves:
                    yield size, moves


def queries(n, nodes):
    """Queries covering the first n positions, one query per game with its turns."""
    out, count, seen = [], 0, set()
    for i, (size, moves) in enumerate(games()):
        turns = [t for t in range(3, len(moves) + 1) if (size, tuple(moves[:t])) not in seen]
        turns = turns[: n - count]
        seen.update((size, tuple(moves[:t])) for t in turns)
        if not turns:
            continue
        names = [f"{chr(ord('a') + int(m.split(',')[0]))}{int(m.split(',')[1]) + 1}" for m in moves]
        out.append(json.dumps({"id": f"g{i}", "size": size, "moves": names,
                               "analyzeTurns": turns, "maxNodes": nodes}))
        count += len(turns)
        if count >= n:
            break
    return out, count


def run(binary, lines, workers):
    start = time.monotonic()
    p = subprocess.run([binary, "analysis", "--workers", str(workers)],
                       input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    wall = time.monotonic() - start
    answers = [json.loads(l) for l in p.stdout.splitlines()]
    finals = [a for a in answers if "turnNumber" in a and not a.get("isDuringSearch")]
    errors = [a for a in answers if "error" in a]
    if errors:
        sys.exit(f"errors: {errors[:3]}")
    return len(finals), wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    lines, n = queries(a.positions, a.nodes)
    print(f"{n} positions, {a.nodes} nodes each")
    rates = {1: [], 2: []}
    for r in range(a.rounds):
        for w in (1, 2):
            done, wall = run(a.binary, lines, w)
            if done != n:
                sys.exit(f"{done} answers for {n} positions")
            rates[w].append(done / wall)
            print(f"round {r + 1}, {w} worker(s): {done} positions in {wall:.1f} s, {done / wall:.1f}/s")
    med = {w: sorted(v)[len(v) // 2] for w, v in rates.items()}
    print(f"median: 1 worker {med[1]:.1f}/s, 2 workers {med[2]:.1f}/s, ratio {med[2] / med[1]:.2f}")


if __name__ == "__main__":
    main()
