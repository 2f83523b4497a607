#!/usr/bin/env python3
"""SPSA of Tengen's tunable numbers (`tengen gomocup --tune`) by games against a peer.

Self-play has often failed to predict play against Rapfi, so this tunes against the
peer itself. Each iteration draws a random direction D (each number +1 or -1), and
theta+c*D and theta-c*D each play the same openings (two by default, each with colours
swapped) against the peer, both sides at a fixed node count, so the machine's load does
not move the result. theta then moves along D by the difference of their scores:
theta_i += a * (score+ - score-) * c_i * D_i. Every iteration is a JSON line of --log
(k, both scores, seconds, theta); a rerun with the same --log resumes after its last line.

Usage:
  bench/spsa_rapfi.py --tengen BIN --peer /path/to/pbrain-rapfi --log spsa.jsonl \
      [--nodes 40000] [--a 0.03] [--iterations 800] [--openings 2] \
      [--book bench/openings-15-balanced.txt] [--size 15] [--seed 1] [--only fut,mfut]
  bench/spsa_rapfi.py --show spsa.jsonl [--from 400]   # theta averaged from iteration 400
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import results_file

# name: (built-in value, step c), in the order of `tengen gomocup --tune`'s names
# (src/search/ab/tune.rs). The values are the engine's built-in ones (eval::WEIGHTS and the
# search's constants): keep them in step when those change, or pass --start.
PARAMS = {
    "flex1": (15, 4),
    "block2": (18, 4),
    "flex2": (42, 8),
    "block3": (61, 12),
    "flex3": (316, 30),
    "block4": (507, 40),
    "flex4": (218, 30),
    "three": (175, 30),
    "fourthree": (5386, 300),
    "openfour": (2891, 400),
    "s_dtwo": (119, 20),
    "s_threeplus": (424, 40),
    "s_c3plus": (417, 40),
    "s_fourplus": (1394, 100),
    "ratio": (680, 60),
    "fut": (197, 30),
    "mfut": (179, 25),
    "razor": (307, 45),
    "lmr": (208, 25),
    "killer": (46, 8),
    "counter": (26, 6),
}


def tune_list(theta):
    return ",".join(f"{n}={round(v)}" for n, v in theta.items())


def play(args, theta, openings, tag, tmp):
    """Starts theta's games against the peer on the openings, each with colours swapped:
    the running process and its results file (see `score`)."""
    book = os.path.join(tmp, f"book-{tag}.txt")
    with open(book, "w") as f:
        f.write("".join(openings))
    out = os.path.join(tmp, f"games-{tag}.jsonl")
    if os.path.exists(out):
        os.remove(out)
    cmd = [
        args.tengen, "tournament", "--gauntlet",
        "--engine", "name=peer", f"cmd={args.peer}", f"nodes={args.nodes}",
        "--engine", "name=tuned", f"cmd={args.tengen} gomocup --tune {tune_list(theta)}",
        f"nodes={args.nodes}",
        "--each", "threads=1", "tc=0/5",
        "--size", str(args.size), "--games", str(2 * len(openings)), "--repeat",
        "--openings", f"file={book}", "order=sequential",
        "--results", out,
    ]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL), out


def score(out):
    return sum(results_file.points(rec, "tuned") for _, rec in results_file.games([out]))


def show(path, start):
    rows = [json.loads(line) for line in open(path)]
    rows = [r for r in rows if r["k"] >= start]
    if not rows:
        sys.exit("no iteration in range")
    names = rows[0].get("names", list(PARAMS))
    mean = [sum(r["theta"][i] for r in rows) / len(rows) for i in range(len(names))]
    print(",".join(f"{n}={round(v)}" for n, v in zip(names, mean)))
    sp = sum(r["sp"] for r in rows)
    sm = sum(r["sm"] for r in rows)
    games = sum(r.get("games", 8) for r in rows)
    print(f"{len(rows)} iterations, {games} games, score {100 * (sp + sm) / games:.1f}%",
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tengen")
    ap.add_argument("--peer")
    ap.add_argument("--log")
    ap.add_argument("--nodes", type=int, default=40000)
    ap.add_argument("--a", type=float, default=0.03)
    ap.add_argument("--iterations", type=int, default=800)
    ap.add_argument("--openings", type=int, default=2)
    ap.add_argument("--book", default=os.path.join(os.path.dirname(__file__), "openings-15-balanced.txt"))
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="tune these names only (the others stay at their start)")
    ap.add_argument("--start", help="start from this --tune list instead of the built-in values")
    ap.add_argument("--show", help="print theta averaged over a log's iterations")
    ap.add_argument("--from", dest="start_k", type=int, default=0)
    args = ap.parse_args()
    if args.show:
        return show(args.show, args.start_k)
    if not (args.tengen and args.peer and args.log):
        ap.error("--tengen, --peer and --log are needed")

    theta = {n: float(v) for n, (v, _) in PARAMS.items()}
    if args.start:
        for item in args.start.split(","):
            n, v = item.split("=")
            theta[n] = float(v)
    k = 0
    if os.path.exists(args.log):
        lines = open(args.log).read().splitlines()
        if lines:
            last = json.loads(lines[-1])
            theta = dict(zip(last["names"], last["theta"]))
            k = last["k"] + 1
    tuned = set(args.only.split(",")) if args.only else set(PARAMS)
    unknown = tuned - set(PARAMS)
    if unknown:
        ap.error(f"unknown names: {sorted(unknown)}")
    book = open(args.book).readlines()
    with tempfile.TemporaryDirectory() as tmp, open(args.log, "a") as log:
        while k < args.iterations:
            rng = random.Random(args.seed * 1_000_003 + k)
            openings = rng.sample(book, args.openings)
            delta = {n: (rng.choice((-1, 1)) if n in tuned else 0) for n in PARAMS}
            plus = {n: v + PARAMS[n][1] * delta[n] for n, v in theta.items()}
            minus = {n: v - PARAMS[n][1] * delta[n] for n, v in theta.items()}
            t0 = time.time()
            runs = [play(args, plus, openings, "plus", tmp), play(args, minus, openings, "minus", tmp)]
            for proc, _ in runs:
                proc.wait()
            sp, sm = score(runs[0][1]), score(runs[1][1])
            for n in theta:
                theta[n] += args.a * (sp - sm) * PARAMS[n][1] * delta[n]
            row = {"k": k, "sp": sp, "sm": sm, "games": 4 * args.openings,
                   "secs": round(time.time() - t0, 1), "names": list(theta),
                   "theta": [round(v, 3) for v in theta.values()]}
            log.write(json.dumps(row) + "\n")
            log.flush()
            k += 1


if __name__ == "__main__":
    main()
