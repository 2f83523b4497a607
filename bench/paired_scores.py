#!/usr/bin/env python3
"""Two engines' scores against the same opponent on the same games, paired.

Gauntlets against Rapfi run with the same `order=random srand=N` deal the same openings
and colours game by game, and at a fixed node count both brains search the same trees
whatever the machine's load; so two such runs (one engine each) can be compared game by
game, which removes most of the openings' weight from the difference. Prints each
engine's score on the games both played and the difference with its 95% margin, taken
over game pairs (each opening with colours swapped).

Usage:
  bench/paired_scores.py BASE_FILE:BASE_NAME NEW_FILE:NEW_NAME

A file is a `tengen tournament --results` file or a c-gomoku-cli `-sgf` file (`.sgf`):
c-gomoku-cli with the same book, `order=random srand=N` and `-repeat` deals the same
openings and colours by game number too.
"""
import math
import sys

import results_file


def scores(path, name):
    """Points of `name` by game number, with the game's opening and colour."""
    out = {}
    for _, rec in results_file.games([path]):
        if name not in (rec["first"], rec["second"]):
            continue
        out[rec["game"]] = (rec["opening"], rec["black"] == name, results_file.points(rec, name))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    (base_file, base), (new_file, new) = (a.rsplit(":", 1) for a in sys.argv[1:])
    a, b = scores(base_file, base), scores(new_file, new)
    common = sorted(set(a) & set(b))
    if not common:
        sys.exit("no game in common")
    for g in common:
        if a[g][:2] != b[g][:2]:
            sys.exit(f"game {g}: another opening or colour (not the same srand?)")
    pair_diffs = {}
    for g in common:
        pair_diffs[g // 2] = pair_diffs.get(g // 2, 0.0) + b[g][2] - a[g][2]
    d = list(pair_diffs.values())
    n = len(common)
    mean = sum(d) / len(d)
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / max(len(d) - 1, 1))
    margin = 1.96 * sd * math.sqrt(len(d)) / n * 100
    sa, sb = sum(a[g][2] for g in common), sum(b[g][2] for g in common)
    print(f"{n} games: {base} {100 * sa / n:.1f}%, {new} {100 * sb / n:.1f}%, "
          f"difference {100 * (sb - sa) / n:+.1f} +- {margin:.1f} points")


if __name__ == "__main__":
    main()
