#!/usr/bin/env python3
"""Does a long Go analysis keep deepening? Issue 16's measurement.

Starts `tengen gtp` (or any GTP engine with lz-analyze), sets up a 19x19 opening
position, runs `lz-analyze` for the longest checkpoint and, at each checkpoint (seconds),
prints the top move's visits, the length of its line, the visits of all the moves shown,
the share of the three most visited, and the engine's resident memory.

    bench/go_analysis_depth.py --engine "target/release/tengen gtp --threads 1" \
        --at 5 15 60 [--moves "Q16 D4 Q4"] [--size 19]
"""

import argparse
import os
import queue
import shlex
import subprocess
import threading
import time


def parse_info(line):
    """The moves of one lz-analyze line: (move, visits, pv length) each."""
    moves = []
    for chunk in line.split("info move ")[1:]:
        words = chunk.split()
        visits = int(words[words.index("visits") + 1])
        pv = words[words.index("pv") + 1:] if "pv" in words else []
        moves.append((words[0], visits, len(pv)))
    return moves


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/tengen gtp --threads 1")
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--moves", default="Q16 D4 Q4 D16 R10")
    ap.add_argument("--at", type=float, nargs="+", default=[5, 15, 60])
    args = ap.parse_args()

    p = subprocess.Popen(shlex.split(args.engine), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         bufsize=1)
    lines = queue.Queue()
    threading.Thread(target=lambda: [lines.put(l) for l in p.stdout], daemon=True).start()

    def ask(cmd):
        p.stdin.write(cmd + "\n")
        p.stdin.flush()
        answer = lines.get(timeout=30).strip()
        lines.get(timeout=30)  # the blank line
        if not answer.startswith("="):
            raise SystemExit(f"{cmd}: {answer}")

    ask(f"boardsize {args.size}")
    ask("clear_board")
    colour = "b"
    for mv in args.moves.split():
        ask(f"play {colour} {mv}")
        colour = "w" if colour == "b" else "b"

    p.stdin.write(f"lz-analyze {colour} 50\n")
    p.stdin.flush()
    start = time.monotonic()
    last = None
    print(f"engine: {args.engine}; position: {args.moves}; {colour} to move")
    print("seconds  top move  top visits  line length  shown visits  top-3 share  RSS MB")
    for at in sorted(args.at):
        while time.monotonic() - start < at:
            try:
                line = lines.get(timeout=max(0.01, at - (time.monotonic() - start)))
            except queue.Empty:
                continue
            if line.startswith("info"):
                last = line
        moves = parse_info(last or "")
        if not moves:
            print(f"{at:7.0f}  (no analysis yet)")
            continue
        top = max(moves, key=lambda m: m[1])
        shown = sum(m[1] for m in moves)
        three = sum(sorted((m[1] for m in moves), reverse=True)[:3])
        print(f"{at:7.0f}  {top[0]:>8}  {top[1]:>10}  {top[2]:>11}  {shown:>12}  "
              f"{three / max(shown, 1):11.1%}  {rss_mb(p.pid):6.0f}")
    p.stdin.write("\nquit\n")
    p.stdin.flush()
    p.wait(timeout=30)


if __name__ == "__main__":
    main()
