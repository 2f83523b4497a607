#!/usr/bin/env python3
"""How much each Go move loses in a stronger search's eyes, along played games.

Reads tournament results files (`tengen tournament --results`, Go), takes the games
between two engines, and has a referee — Pachi (built outside this repository) at a fixed
playout count, well above the games' own — search every position from ply `--from` to
`--to` and report its win rate for the side to move (`*** WINNER is … with score P%` on
its stderr). A move's loss is the referee's win rate before it less one minus its win
rate after it. Prints, per engine and phase, the mean loss, the shares of moves losing
more than 5% and 10%, and how often the move was the referee's own; `--out` keeps every
position (the largest losses are the ones to look at with `tengen analyse --game go`).

The referee is Pachi, so Pachi's moves agree with it more often than anyone's: compare
engines of one run against each other, not against Pachi. Games are taken to start from
the empty board with black (no handicap, no opening moves), as the gauntlets here do.

Usage:
  bench/go_move_loss.py --pachi /path/to/pachi --engine base --opponent pachi \
      --playouts 10000 --jobs 2 --games 40 RESULTS.jsonl [MORE.jsonl]
"""
import argparse
import json
import os
import queue
import re
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_file  # noqa: E402
from gtp_client import Gtp  # noqa: E402

WINNER = re.compile(r"\*\*\* WINNER is (\S+) .*score ([\d.]+)%")


class Pachi(Gtp):
    """Pachi on pipes, its stderr kept for the search's verdict."""

    def __init__(self, path, playouts):
        super().__init__([path, "-t", f"={playouts}", "threads=1,pondering=0"],
                         keep_stderr=True)

    def win_rate(self, size, komi, moves):
        """The referee's move and its win rate for the side to move after `moves`
        (None when it resigned without a verdict)."""
        self.ask(f"boardsize {size}")
        self.ask("clear_board")
        self.ask(f"komi {komi}")
        colour = "B"
        for m in moves:
            self.ask(f"play {colour} {m}")
            colour = "W" if colour == "B" else "B"
        while not self.err.empty():
            self.err.get()
        move = self.ask(f"genmove {colour}")
        while True:
            try:
                line = self.err.get(timeout=10)
            except queue.Empty:
                return move, None
            m = WINNER.search(line)
            if m:
                return move, float(m.group(2)) / 100


def walk(args, game, g):
    """One game's positions: ply, move played, the referee's move and its win rate."""
    pachi = Pachi(args.pachi, args.playouts)
    size = game.get("size", 9)
    komi = game.get("komi", 7.0)
    rows = []
    try:
        for ply in range(args.from_ply, min(args.to_ply + 1, len(g["moves"]))):
            ref_move, wr = pachi.win_rate(size, komi, g["moves"][:ply])
            rows.append({"ply": ply, "played": g["moves"][ply], "referee": ref_move,
                         "win_rate": wr})
    finally:
        pachi.quit()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--pachi", required=True, help="Pachi's binary (the referee)")
    ap.add_argument("--engine", required=True, help="an engine's name in the results")
    ap.add_argument("--opponent", required=True, help="the other engine's name")
    ap.add_argument("--playouts", type=int, default=10000, help="the referee's playouts")
    ap.add_argument("--games", type=int, default=40, help="at most this many games")
    ap.add_argument("--from", dest="from_ply", type=int, default=4)
    ap.add_argument("--to", dest="to_ply", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=2, help="referees at once")
    ap.add_argument("--out", help="JSON lines: each game's positions")
    args = ap.parse_args()
    games = [(s, g) for s, g in results_file.games(args.results)
             if {g["black"], g["white"]} == {args.engine, args.opponent}][: args.games]
    with ThreadPoolExecutor(args.jobs) as pool:
        walked = list(pool.map(lambda sg: walk(args, *sg), games))
    out = open(args.out, "w") if args.out else None
    losses = {}  # (engine, phase) -> [(loss, agreed)]
    phases = [(args.from_ply, 20), (20, 30), (30, 40), (40, args.to_ply)]
    for (_, g), rows in zip(games, walked):
        if out:
            out.write(json.dumps({"game": g["game"], "black": g["black"], "white": g["white"],
                                  "result": g["result"], "rows": rows}) + "\n")
        for a, b in zip(rows, rows[1:]):
            if a["win_rate"] is None or b["win_rate"] is None:
                continue
            if not 0.1 < a["win_rate"] < 0.9:
                continue  # decided: no move tells much
            mover = g["black"] if a["ply"] % 2 == 0 else g["white"]
            loss = a["win_rate"] - (1 - b["win_rate"])
            for lo, hi in phases:
                if lo <= a["ply"] < hi:
                    losses.setdefault((mover, (lo, hi)), []).append(
                        (loss, a["played"] == a["referee"]))
    print(f"{len(games)} games; referee Pachi at {args.playouts} playouts; "
          "positions the referee gives 10-90%")
    print(f"{'engine':10} {'plies':>7} {'moves':>6} {'mean loss':>10} {'>5%':>6} {'>10%':>6} "
          f"{'agree':>6}")
    for who in (args.engine, args.opponent):
        for lo, hi in phases:
            v = losses.get((who, (lo, hi)), [])
            if not v:
                continue
            ls = [x for x, _ in v]
            print(f"{who:10} {lo:>3}-{hi:<3} {len(v):6} {statistics.mean(ls):10.3f} "
                  f"{sum(x > 0.05 for x in ls) / len(ls):6.0%} "
                  f"{sum(x > 0.10 for x in ls) / len(ls):6.0%} "
                  f"{sum(a for _, a in v) / len(v):6.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
