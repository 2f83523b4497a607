#!/usr/bin/env python3
"""Where Tengen's lost games against a peer were lost, in a referee's eyes.

For every game of a tournament results file that an engine (`--engine`, default the one
that is not `--peer`) lost to the peer, a referee brain (Rapfi classical, built outside
this repository) evaluates at a fixed node count the position after each of the
engine's moves, from the engine's view, walking forward from the opening until the
evaluation first falls below `--lost` (a mate against the engine counts as lost). That
move is the game's turning point; the script prints, per lost game, its ply, the
referee's evaluation before and after it, and the kind of fall:

- `blunder`: before the move the engine stood at or above `--even` (the game was open);
  one move lost it. `mate` is added when the referee sees a forced win after it.
- `drift`: the engine was already below `--even` before the move (worse, not yet lost):
  the game slid away over several moves.
- `never`: the referee never saw the engine lost at its moves (the end came by the
  opponent's play, or too fast for the referee's depth).

The summary says how many losses are sudden (tactics the search did not see) and how
many gradual (judgement), which is what the next change of the search or the
evaluation should aim at. Evaluations are cached across runs (`--cache`).
`--positions-out FILE` writes the position after each turning move (the peer to move,
with the win the referee saw) as a positions file for `bench/wins_found.py`.

Usage:
  bench/loss_points.py --referee PATH/pbrain-rapfi --peer rapfi gauntlet.jsonl
"""
import argparse
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_file  # noqa: E402
from rapfi_agreement import MATE, Brain, referee_eval  # noqa: E402


def lost_games(paths, peer, engine):
    """(size, moves, engine is black, opening plies, name) of the games the engine lost."""
    for game, g in results_file.games(paths):
        size = game.get("width", game.get("size", 15))
        if peer not in (g["black"], g["white"]):
            continue
        name = g["white"] if g["black"] == peer else g["black"]
        if engine and name != engine:
            continue
        # A forfeit says nothing about the play.
        if results_file.points(g, name) != 0 or "+F" in g.get("result", ""):
            continue
        yield size, g["moves"], g["black"] == name, g["opening_plies"], name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results", nargs="+")
    ap.add_argument("--referee", required=True)
    ap.add_argument("--referee-nodes", type=int, default=100_000)
    ap.add_argument("--peer", default="rapfi")
    ap.add_argument("--engine", default=None)
    ap.add_argument("--lost", type=int, default=-1500)
    ap.add_argument("--even", type=int, default=-300)
    ap.add_argument("--cache", default="/tmp/loss-points-cache.json")
    ap.add_argument("--positions-out", help="write the positions after the turning moves")
    args = ap.parse_args()
    cache = json.load(open(args.cache)) if os.path.exists(args.cache) else {}
    refs = {}
    kinds = {}
    out = open(args.positions_out, "w") if args.positions_out else None
    try:
        for size, moves, black, opening, name in lost_games(args.results, args.peer, args.engine):
            if size not in refs:
                refs[size] = Brain(shlex.split(args.referee), size, nodes=args.referee_nodes)
            ref = refs[size]
            prev = 0
            kind, at, before, after = "never", None, None, None
            first = opening + (0 if (opening % 2 == 0) == black else 1)
            # The engine's moves, but not one that ended the game: nothing follows it to judge.
            for ply in range(first, len(moves) - 1, 2):
                ev, _ = referee_eval(ref, cache, moves[: ply + 1])
                if ev is None:
                    continue
                ev = -ev  # the referee scores for the side to move: the peer
                if ev <= args.lost:
                    kind = "blunder" if prev >= args.even else "drift"
                    if kind == "blunder" and ev <= -(MATE - 1000):
                        kind = "blunder mate"
                    at, before, after = ply, prev, ev
                    break
                prev = ev
            kinds[kind] = kinds.get(kind, 0) + 1
            if out and at is not None and after <= -(MATE - 1000):
                out.write(f"{size} | {' '.join(moves[: at + 1])}\n")
            print(f"{name} {'black' if black else 'white'} plies {len(moves)} {kind:12} "
                  f"at {at} ({before} -> {after})", flush=True)
    finally:
        json.dump(cache, open(args.cache, "w"))
        if out:
            out.close()
        for ref in refs.values():
            ref.close()
    total = sum(kinds.values())
    for k, n in sorted(kinds.items()):
        print(f"{k:12} {n:4} {n / max(total, 1):6.1%}")


if __name__ == "__main__":
    main()
