#!/usr/bin/env python3
"""Games for the learned Go prior: GNU Go or Pachi self-play, one game per line.

The prior (`bench/go_prior_train.rs`) learns from the moves a stronger player chose.
No game collection ships in the package registries, and GNU Go's and Pachi's own
pattern data are GPL: the games are generated here, by running GNU Go (installed by
bench/install-peers.sh) or a Pachi the user built (`--pachi PATH`, a fixed number of
playouts a move on one thread) against itself. A GNU Go game is reproducible from its seed,
size and level (a Pachi game is not quite: its search thread is stopped by a manager
thread, and the seed only varies the games); each output line is

    SIZE KOMI SEED LEVEL MOVE MOVE ... (GTP coordinates, `pass` for a pass)

where LEVEL is GNU Go's level, or `pachiN` for Pachi at N playouts a move.

    bench/go_prior_games.py --games 100 --first-seed 1 --out bench/data/go-prior-games.txt
        [--size 19] [--level 10] [--jobs 2] [--pachi PATH --playouts 5000]

Appends to `--out`, skipping seeds already in it, so a stopped run goes on where it
stopped.
"""

import argparse
import concurrent.futures
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_client import Gtp, gnugo_path  # noqa: E402


def play(cmd, size, komi, max_moves):
    engine = Gtp(cmd)
    ask = engine.ask
    ask(f"boardsize {size}")
    ask("clear_board")
    ask(f"komi {komi}")
    moves = []
    passes = 0
    colour = "b"
    while len(moves) < max_moves and passes < 2:
        mv = ask(f"genmove {colour}").upper()
        if mv == "RESIGN":
            break
        mv = "pass" if mv == "PASS" else mv
        passes = passes + 1 if mv == "pass" else 0
        moves.append(mv)
        colour = "w" if colour == "b" else "b"
    engine.quit()
    return moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--level", type=int, default=10)
    ap.add_argument("--max-moves", type=int, default=400)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--pachi", help="a Pachi binary to play instead of GNU Go")
    ap.add_argument("--playouts", type=int, default=5000, help="Pachi's playouts a move")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    done = set()
    if os.path.exists(args.out):
        with open(args.out) as f:
            for line in f:
                w = line.split()
                if len(w) >= 4:
                    done.add((int(w[0]), int(w[2]), w[3]))
    if args.pachi:
        level = f"pachi{args.playouts}"

        def command(seed):
            return [args.pachi, "-s", str(seed), "-t", f"={args.playouts}",
                    "threads=1,pondering=0"]
    else:
        level = str(args.level)
        gnugo = gnugo_path()

        def command(seed):
            return [gnugo, "--mode", "gtp", "--level", level, "--seed", str(seed)]
    seeds = [s for s in range(args.first_seed, args.first_seed + args.games)
             if (args.size, s, level) not in done]
    lock = threading.Lock()

    def one(seed):
        moves = play(command(seed), args.size, args.komi, args.max_moves)
        with lock, open(args.out, "a") as f:
            f.write(f"{args.size} {args.komi} {seed} {level} {' '.join(moves)}\n")
        print(f"seed {seed}: {len(moves)} moves", file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for f in [pool.submit(one, s) for s in seeds]:
            f.result()


if __name__ == "__main__":
    main()
