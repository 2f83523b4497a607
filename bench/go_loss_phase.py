#!/usr/bin/env python3
"""When a Go engine's games are lost: a referee's score estimate along each game.

Reads tournament results files (`tengen tournament --results`, Go), takes the games of
one engine against another, replays each into a GTP referee (GNU Go by default) and asks
its `estimate_score` every few plies. Prints, for the engine's won and lost games apart,
the median estimate from the engine's side and the share of games it stood ahead in, at
each checkpoint. A loss that is already behind early points to the opening and early
middle game (priors, shape); one that turns late to the playouts' reading of fights
and the endgame.

Usage:
  bench/go_loss_phase.py --engine base --size 9 --komi 7 RESULTS.jsonl [MORE.jsonl]
"""
import argparse
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_file  # noqa: E402
from gtp_client import Gtp, gnugo_path  # noqa: E402


def games_of(files, engine):
    for _, g in results_file.games(files):
        if engine in (g["black"], g["white"]):
            yield g


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--engine", required=True, help="the engine's name in the results")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.0)
    ap.add_argument("--every", type=int, default=10, help="plies between estimates")
    ap.add_argument("--games", type=int, default=0, help="at most this many games")
    ap.add_argument(
        "--referee",
        help="a GTP engine with estimate_score (default: GNU Go, Chinese rules, level 8)",
    )
    a = ap.parse_args()
    if a.referee:
        ref = Gtp(shlex.split(a.referee))
    else:
        ref = Gtp([gnugo_path(), "--mode", "gtp", "--chinese-rules", "--level", "8"])
    rows = {"won": {}, "lost": {}}
    n = 0
    for g in games_of(a.results, a.engine):
        black = g["black"] == a.engine
        res = g["result"]
        if res.startswith("B+"):
            won = black
        elif res.startswith("W+"):
            won = not black
        else:
            continue  # a draw or no result
        ref.ask(f"boardsize {a.size}")
        ref.ask("clear_board")
        ref.ask(f"komi {a.komi}")
        colour = "B"
        for i, m in enumerate(g["moves"]):
            if i > 0 and i % a.every == 0:
                est = re.search(r"([BW])\+([\d.]+)", ref.ask("estimate_score"))
                if est:
                    v = float(est.group(2)) * (1 if est.group(1) == "B" else -1)
                    rows["won" if won else "lost"].setdefault(i, []).append(v if black else -v)
            ref.ask(f"play {colour} {m}")
            colour = "W" if colour == "B" else "B"
        n += 1
        if a.games and n >= a.games:
            break
    ref.quit()
    print(f"{a.engine}: {n} games; the referee's estimate from its side")
    print("games  ply  count  median  ahead")
    for kind in ("won", "lost"):
        for ply in sorted(rows[kind]):
            v = sorted(rows[kind][ply])
            ahead = sum(1 for x in v if x > 0) / len(v)
            print(f"{kind:5}  {ply:3}  {len(v):5}  {v[len(v) // 2]:+6.1f}  {ahead:5.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
