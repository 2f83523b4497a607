#!/usr/bin/env python3
"""Soft labels for the learned Go prior: Pachi's pattern ratings of every position.

A game's move says which one move a player chose; Pachi's pattern model (Coulom-style
gammas over large spatial patterns and tactical features, the prior its tree leans on
at a few thousand playouts) rates every candidate. `gogui-pattern_rating` prints that
distribution in whole percent. This script replays games (tournament results `.jsonl`
or `bench/go_prior_games.py` lines), asks a Pachi the user built (outside this
repository) for the rating before each move, and writes one position a line:

    GAME<TAB>SIZE<TAB>KOMI<TAB>MOVES SO FAR<TAB>MOVE PLAYED<TAB>V:PERCENT V:PERCENT ...

`bench/go_prior_train.rs --ratings FILE` trains on the ratings instead of the move played.

    bench/go_pachi_ratings.py --pachi /path/to/pachi --size 9 --out ratings.tsv \
        bench/data/results/pachi9-*.jsonl bench/data/go-prior-games-pachi9.txt

Games are read once each (the same first `--max-plies` moves in two files count once);
`--max-games` caps them. Pachi loads its patterns once per job, then `clear_board`s.
"""

import argparse
import concurrent.futures
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_file  # noqa: E402
from gtp_client import Gtp  # noqa: E402


def games_of(path, size):
    """(komi, moves) of each game of `size` in a results or game file."""
    if path.endswith(".jsonl"):
        for game, rec in results_file.games([path]):
            if game.get("game") == "go" and game.get("size") == size and rec["moves"]:
                yield game.get("komi"), rec["moves"]
    else:
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) > 4 and int(w[0]) == size:
                    yield float(w[1]), w[4:]


def rate(pachi, size, chunk, max_plies):
    """The rated positions of the games in `chunk`, (index, komi, moves) each."""
    engine = Gtp([pachi, "threads=1,pondering=0"])
    ask = engine.ask
    out = []
    ask(f"boardsize {size}")
    for index, komi, moves in chunk:
        ask("clear_board")
        ask(f"komi {komi}")
        colour = "b"
        for i, mv in enumerate(moves[:max_plies]):
            if mv.lower() == "pass":
                break
            words = ask("gogui-pattern_rating").split()
            labels = [f"{words[k + 1]}:{words[k + 2]}" for k in range(len(words) - 2)
                      if words[k] == "LABEL"]
            out.append(f"{index}\t{size}\t{komi}\t{' '.join(moves[:i])}\t{mv}\t{' '.join(labels)}")
            try:
                ask(f"play {colour} {mv}")
            except RuntimeError as e:
                print(f"game {index} stopped: {e}", file=sys.stderr)
                break
            colour = "w" if colour == "b" else "b"
    engine.quit()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--pachi", required=True)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-games", type=int, default=100000)
    ap.add_argument("--max-plies", type=int, default=80)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    seen = set()
    games = []
    for path in a.files:
        for komi, moves in games_of(path, a.size):
            key = " ".join(moves[:a.max_plies])
            if key not in seen:
                seen.add(key)
                games.append((komi, moves))
    games = games[:a.max_games]
    print(f"{len(games)} games", file=sys.stderr)
    chunks = [[(i, k, m) for i, (k, m) in enumerate(games) if i % a.jobs == j]
              for j in range(a.jobs)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda c: rate(a.pachi, a.size, c, a.max_plies), chunks))
    lines = sorted((line for r in results for line in r), key=lambda l: int(l.split("\t")[0]))
    with open(a.out, "w") as out:
        out.writelines(line + "\n" for line in lines)
    print(f"{len(lines)} positions", file=sys.stderr)


if __name__ == "__main__":
    main()
