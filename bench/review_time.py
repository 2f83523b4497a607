#!/usr/bin/env python3
"""Wall time of `tengen review` on a record: ROUNDS runs at each thread count, the median.

    bench/review_time.py target/release/tengen bench/review-caro-115.sgf --time 200ms

The record in bench/ is a 115-move caro game of Tengen against itself (0.05 s a move,
its own tournament runner): caro's blocked fives keep games long enough to measure.
"""
import argparse
import statistics
import subprocess
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tengen")
    ap.add_argument("record")
    ap.add_argument("--time", default="200ms", help="each position's budget")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        for threads in a.threads.split(","):
            walls = []
            for _ in range(a.rounds):
                t = time.monotonic()
                subprocess.run(
                    [a.tengen, "review", a.record, "--time", a.time, "--threads", threads,
                     "--out", f"{d}/out.sgf", "--quiet"],
                    check=True, stdout=subprocess.DEVNULL)
                walls.append(time.monotonic() - t)
            print(f"threads {threads}: median {statistics.median(walls):.2f} s "
                  f"({', '.join(f'{w:.2f}' for w in walls)})")


if __name__ == "__main__":
    main()
