#!/usr/bin/env python3
"""How much Gomocup brains' moves lose in a referee's eyes, on the same positions.

Self-play gains of Tengen have kept not carrying over to its games against Rapfi: a
match against Tengen's older self does not measure what Rapfi exploits, and a match
against Rapfi needs hundreds of games to see 30 Elo. This measures each engine's moves
instead: for every position of a positions file (early middle games where Tengen was to
move against Rapfi), each engine under test chooses a move in a fixed time, and a
referee brain (Rapfi classical, a peer built outside this repository) evaluates the
position before (its best) and after the move at a fixed node count. A move's loss is
the drop of the referee's evaluation from the mover's view; the script prints, per
engine, the mean loss, the share of moves losing more than 100 and 300, and how often
the move was the referee's own. The engines alternate position by position, so that the
machine's drift hits all; the referee's evaluations are cached (`--cache`) across runs.

`--nodes N` gives the engines a node budget instead of a time (free of the machine's
load); `--out FILE` keeps each engine's move and loss per position.

Usage:
  bench/rapfi_agreement.py --referee PATH/pbrain-rapfi --ms 1000 \
      --engine new="target/release/tengen gomocup" --engine old="/tmp/tengen-old gomocup"
  bench/rapfi_agreement.py --make-positions results.jsonl... > bench/positions-agreement-15.txt
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

import results_file
from gomocup_positions import board_block, read_positions

HERE = os.path.dirname(os.path.abspath(__file__))
# Evaluations beyond this are mates; a mate in n plies counts as MATE - n.
MATE = 20000
# A loss counts no more than this: a move that throws a won game away is one mistake.
LOSS_CAP = 2000


class Brain:
    """A Gomocup brain kept running; positions are sent as BOARD blocks."""

    def __init__(self, cmd, size, turn_ms=None, nodes=None):
        # The brain runs in its own directory (Rapfi reads its config there), so a
        # relative program path is made absolute first.
        if os.sep in cmd[0]:
            cmd = [os.path.abspath(cmd[0])] + cmd[1:]
        self.cmd = cmd
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                  cwd=os.path.dirname(cmd[0]) or ".")
        self.send(f"START {size}")
        self.wait_for(lambda line: line == "OK")
        settings = ["INFO rule 0", "INFO timeout_match 0", "INFO thread_num 1",
                    f"INFO timeout_turn {turn_ms or 60000}"]
        if nodes:
            settings.append(f"INFO max_node {nodes}")
        for line in settings:
            self.send(line)
        # Rapfi drops a BOARD that arrives while it is still starting up.
        time.sleep(0.3)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"{self.cmd[0]} exited")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines

    def play(self, moves):
        """The brain's move on the position after `moves` and the lines it printed."""
        for line in board_block(moves):
            self.send(line)
        lines = self.wait_for(lambda line: re.fullmatch(r"\d+,\d+", line) is not None)
        time.sleep(0.005)
        return lines[-1], lines

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def value(text):
    """Rapfi's `Eval` text as a number from the mover's view (mates near ±MATE)."""
    if "M" in text:
        n = int(re.sub(r"[^0-9]", "", text))
        return -(MATE - n) if text.startswith("-") else MATE - n
    return int(text)


def last_eval(lines):
    """The last `Eval` a brain reported among its output lines (mover's view), or None."""
    ev = None
    for line in lines:
        m = re.search(r"Eval ([+-]?M?-?\d+)", line)
        if m:
            ev = m.group(1)
    return value(ev) if ev is not None else None


def referee_eval(ref, cache, moves):
    """The referee's evaluation (mover's view) and best move of a position, cached."""
    key = " ".join(moves)
    if key not in cache:
        best, lines = ref.play(moves)
        cache[key] = [last_eval(lines), best]
    return cache[key]


def make_positions(paths, per_game):
    """Tengen's first `per_game` moves after the opening in its games against Rapfi."""
    for game, g in results_file.games(paths):
        if "rapfi" not in (g.get("black"), g.get("white")):
            continue
        size = game.get("width", 15)
        tengen_first = g["black"] != "rapfi"
        taken = 0
        for ply in range(g["opening_plies"], len(g["moves"])):
            if (ply % 2 == 0) == tengen_first and taken < per_game:
                print(f"{size} | {' '.join(g['moves'][:ply])}")
                taken += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--referee", help="the referee brain's command")
    ap.add_argument("--referee-nodes", type=int, default=200_000)
    ap.add_argument("--engine", action="append", default=[], help="NAME=COMMAND")
    ap.add_argument("--ms", type=int, default=1000, help="time a move of the engines")
    ap.add_argument("--nodes", type=int, default=0,
                    help="a node budget a move for the engines instead (load-free; sent as "
                         "INFO max_node, which the engines must honour: their turn is 10 min)")
    ap.add_argument("--out", help="JSON lines: each engine's move and loss per position")
    ap.add_argument("--positions", default=os.path.join(HERE, "positions-agreement-15.txt"))
    ap.add_argument("--cache", default="/tmp/rapfi-agreement-cache.json")
    ap.add_argument("--limit", type=int, default=0, help="first N positions only")
    ap.add_argument("--make-positions", nargs="+", metavar="RESULTS")
    ap.add_argument("--per-game", type=int, default=3)
    args = ap.parse_args()
    if args.make_positions:
        make_positions(args.make_positions, args.per_game)
        return
    if not args.referee or not args.engine:
        ap.error("--referee and --engine are needed")
    all_positions = read_positions(args.positions)
    if args.limit:
        all_positions = all_positions[: args.limit]
    size = all_positions[0][0]
    if any(s != size for s, _ in all_positions):
        raise SystemExit("one board size a positions file")
    cache = {}
    if os.path.exists(args.cache):
        cache = json.load(open(args.cache))
    ref = Brain(shlex.split(args.referee), size, nodes=args.referee_nodes)
    engines = []
    for spec in args.engine:
        name, cmd = spec.split("=", 1)
        turn_ms = 600_000 if args.nodes else args.ms
        engines.append((name, Brain(shlex.split(cmd), size, turn_ms=turn_ms,
                                    nodes=args.nodes or None)))
    out = open(args.out, "w") if args.out else None
    losses = {name: [] for name, _ in engines}
    by_position = {name: {} for name, _ in engines}
    same = {name: 0 for name, _ in engines}
    try:
        for i, (_, moves) in enumerate(all_positions):
            before, ref_best = referee_eval(ref, cache, moves)
            if before is None or abs(before) > MATE - 1000:
                continue  # decided already: no move tells anything
            for name, brain in engines:
                move, _ = brain.play(moves)
                after, _ = referee_eval(ref, cache, moves + [move])
                if after is None:
                    continue
                loss = min(max(before + after, 0), LOSS_CAP)
                losses[name].append(loss)
                by_position[name][i] = loss
                same[name] += move == ref_best
                if out:
                    out.write(json.dumps({"position": i + 1, "engine": name, "move": move,
                                          "loss": loss, "referee_move": ref_best,
                                          "before": before}) + "\n")
                    out.flush()
            print(f"{i + 1}/{len(all_positions)} "
                  + " ".join(f"{n} {statistics.mean(v):.0f}" for n, v in losses.items() if v),
                  file=sys.stderr, flush=True)
    finally:
        json.dump(cache, open(args.cache, "w"))
        ref.close()
        for _, brain in engines:
            brain.close()
    print(f"{'engine':10} {'moves':>6} {'mean loss':>10} {'median':>7} {'>100':>6} {'>300':>6} {'referee move':>13}")
    for name, v in losses.items():
        n = len(v)
        if not n:
            continue
        print(f"{name:10} {n:6} {statistics.mean(v):10.1f} {statistics.median(v):7.0f} "
              f"{sum(x > 100 for x in v) / n:6.1%} {sum(x > 300 for x in v) / n:6.1%} "
              f"{same[name] / n:13.1%}")
    # Paired: the first engine's loss less each other's, on the positions both were scored.
    names = [name for name, _ in engines]
    for other in names[1:]:
        common = sorted(set(by_position[names[0]]) & set(by_position[other]))
        d = [by_position[names[0]][i] - by_position[other][i] for i in common]
        if len(d) > 1:
            margin = 1.96 * statistics.stdev(d) / len(d) ** 0.5
            print(f"{names[0]} - {other}: mean loss difference {statistics.mean(d):+.1f} "
                  f"± {margin:.1f} (95%, {len(d)} positions)")


if __name__ == "__main__":
    main()
