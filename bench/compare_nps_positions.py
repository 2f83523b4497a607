#!/usr/bin/env python3
"""Nodes per second of Tengen and another Gomocup brain (Rapfi) on the same positions.

Both engines get each position of bench/positions-nps.txt through the Gomocup protocol
(BOARD, one thread, a fixed time a move) and report their own node counts: Rapfi in its
final `MESSAGE Speed … | Node …` line, Tengen in its `INFO show_detail` lines (the last
finished iteration). Both count the positions of their threat search at the leaves
(Rapfi's quiescence VCF, Tengen's leaf VCF) as nodes. The engines alternate position by
position so that the machine's drift hits both; the script prints each position's
figures and, per board size, the medians and the median of the per-position ratios.

Usage: bench/compare_nps_positions.py TENGEN RAPFI [--ms 2000] [--rounds 1]
(Rapfi is a peer built outside this repository.)
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

from gomocup_positions import board_block, read_positions

HERE = os.path.dirname(os.path.abspath(__file__))


def number(text):
    m = re.match(r"([\d.]+)([KMG]?)", text)
    scale = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[m.group(2)]
    return float(m.group(1)) * scale


def run(cmd, size, moves, ms, detail):
    """Plays one position; returns (nodes, milliseconds) as the engine reports them."""
    lines = [f"START {size}", f"INFO timeout_turn {ms}", "INFO timeout_match 0",
             "INFO thread_num 1"] + (["INFO show_detail 1"] if detail else []) + board_block(moves)
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, cwd=os.path.dirname(cmd[0]) or ".")
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    last = None
    for line in p.stdout:
        line = line.strip()
        m = re.search(r"Node ([\d.]+[KMG]?) \| Time (\d+)ms", line)
        if m:
            last = number(m.group(1)), int(m.group(2))
        m = re.search(r" n (\d+) n/s \d+ tm (\d+)", line)
        if m:
            last = int(m.group(1)), int(m.group(2))
        if re.match(r"^\d+,\d+$", line):
            break
    p.stdin.write("END\n")
    p.stdin.close()
    p.wait(timeout=10)
    return last


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tengen")
    ap.add_argument("rapfi")
    ap.add_argument("--ms", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=1)
    a = ap.parse_args()
    engines = {"tengen": [os.path.abspath(a.tengen), "gomocup"], "rapfi": [os.path.abspath(a.rapfi)]}
    ratios, nps = {}, {}
    for r in range(a.rounds):
        for i, (size, moves) in enumerate(read_positions(os.path.join(HERE, "positions-nps.txt"))):
            row = {}
            order = ["tengen", "rapfi"] if (i + r) % 2 == 0 else ["rapfi", "tengen"]
            for name in order:
                got = run(engines[name], size, moves, a.ms, name == "tengen")
                if got:
                    row[name] = got[0] * 1000 / max(got[1], 1)
            if len(row) == 2:
                for name, v in row.items():
                    nps.setdefault((size, name), []).append(v)
                ratios.setdefault(size, []).append(row["tengen"] / row["rapfi"])
                print(f"{size}x{size} position {i + 1}: tengen {row['tengen']:,.0f} n/s, "
                      f"rapfi {row['rapfi']:,.0f} n/s, ratio {row['tengen'] / row['rapfi']:.2f}")
            sys.stdout.flush()
    for size in sorted(ratios):
        t = statistics.median(nps[(size, "tengen")])
        rp = statistics.median(nps[(size, "rapfi")])
        print(f"{size}x{size}: median tengen {t:,.0f} n/s, rapfi {rp:,.0f} n/s, "
              f"median ratio {statistics.median(ratios[size]):.2f} over {len(ratios[size])} positions")


if __name__ == "__main__":
    main()
