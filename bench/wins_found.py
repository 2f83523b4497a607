#!/usr/bin/env python3
"""How many forced wins each engine finds, on positions where the side to move has one.

The positions (`bench/positions-wins-15.txt`, made by `bench/loss_points.py
--positions-out`) are those right after the move that lost each of Tengen's games
against Rapfi classical in a gauntlet: Rapfi, as referee at 100,000 nodes, saw a forced
win for the side to move there (most are wins by threes and fours, mates in 9 to 47
plies). Most of Tengen's lost games against Rapfi turn on one such moment, so how
soon an engine sees these wins (and, the other way round, sees them coming) is a large
part of the gap. Each engine searches every position with a fixed node budget (node
counts make the run deterministic and free of the machine's load; time is the other
axis, `--ms`); the script prints how many wins each announced, and for each pair of
engines the positions only one of them solved (a sign test on those says whether the
difference is more than the luck of this set).

Engines: `--tengen NAME=COMMAND` runs `COMMAND analyse ... --json` (an environment
prefix such as `env TENGEN_EXP=1` is allowed), `--rapfi NAME=PATH` a Rapfi-compatible
brain through the Gomocup protocol with `INFO max_node`.

Usage:
  bench/wins_found.py --nodes 200000 --tengen new=target/release/tengen \\
      --tengen old=/tmp/tengen-old --rapfi rapfi=/path/to/pbrain-rapfi
"""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gomocup_positions import read_positions  # noqa: E402
from rapfi_agreement import MATE, Brain, last_eval  # noqa: E402


def tengen_wins(cmd, size, moves, nodes, ms):
    """Whether Tengen's analysis announces a win for the side to move."""
    limit = ["--nodes", str(nodes)] if nodes else ["--time", f"{ms}ms"]
    out = subprocess.run(
        cmd + ["analyse", "--size", str(size), "--moves", " ".join(moves), "--threads", "1",
               "--json", "-q"] + limit,
        capture_output=True, text=True, check=True).stdout
    score = json.loads(out)["search"]["rootInfo"]["score"]
    return score["kind"] == "win"


def rapfi_wins(brain, moves):
    """Whether the brain's last reported evaluation is a mate for the side to move."""
    ev = last_eval(brain.play(moves)[1])
    return ev is not None and ev > MATE - 1000


def sign_test(a, b):
    """Two-sided p of a sign test on a wins only one side had and b the other's."""
    n = a + b
    if n == 0:
        return 1.0
    k = min(a, b)
    p = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * p)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", default=os.path.join(HERE, "positions-wins-15.txt"))
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--ms", type=int, default=0, help="a time a position instead of nodes")
    ap.add_argument("--tengen", action="append", default=[], help="NAME=COMMAND")
    ap.add_argument("--rapfi", action="append", default=[], help="NAME=PATH")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    if args.ms:
        args.nodes = 0
    positions = read_positions(args.positions)
    if args.limit:
        positions = positions[: args.limit]
    engines = []
    for spec in args.tengen:
        name, cmd = spec.split("=", 1)
        engines.append((name, "tengen", shlex.split(cmd)))
    brains = {}
    for spec in args.rapfi:
        name, path = spec.split("=", 1)
        engines.append((name, "rapfi", path))
    solved = {name: set() for name, _, _ in engines}
    try:
        for i, (size, moves) in enumerate(positions):
            for name, kind, cmd in engines:
                if kind == "tengen":
                    won = tengen_wins(cmd, size, moves, args.nodes, args.ms)
                else:
                    if (name, size) not in brains:
                        brains[(name, size)] = Brain(
                            [cmd], size, turn_ms=args.ms or None, nodes=args.nodes or None)
                    won = rapfi_wins(brains[(name, size)], moves)
                if won:
                    solved[name].add(i)
            print(f"{i + 1}/{len(positions)} "
                  + " ".join(f"{n} {len(s)}" for n, s in solved.items()),
                  file=sys.stderr, flush=True)
    finally:
        for brain in brains.values():
            brain.close()
    n = len(positions)
    budget = f"{args.nodes} nodes" if args.nodes else f"{args.ms} ms"
    print(f"{n} positions, {budget} each")
    for name, s in solved.items():
        print(f"{name:12} {len(s):4} found ({len(s) / n:.1%}): "
              + " ".join(str(i + 1) for i in sorted(s)))
    names = list(solved)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            only_a = len(solved[a] - solved[b])
            only_b = len(solved[b] - solved[a])
            print(f"{a} vs {b}: only {a} {only_a}, only {b} {only_b}, "
                  f"sign test p = {sign_test(only_a, only_b):.3f}")
            for who, only in ((a, solved[a] - solved[b]), (b, solved[b] - solved[a])):
                if only:
                    # Line numbers of the positions (1-based) so that one can be replayed.
                    print(f"  only {who}: " + " ".join(str(i + 1) for i in sorted(only)))


if __name__ == "__main__":
    main()
