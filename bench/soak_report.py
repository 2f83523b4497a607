#!/usr/bin/env python3
"""Sums up the JSON lines bench/judge_proxy.py wrote: move times against the time
allowed (worst, 99th percentile, median), moves over the Gomocup judge's forfeit line
(allowed + 1 s), and the peak USS against max_memory.

    bench/soak_report.py soak.jsonl [NAME_SUBSTRING]
"""

import json
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    want = sys.argv[2] if len(sys.argv) > 2 else ""
    sessions = []
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            if want in " ".join(r["engine"]):
                sessions.append(r)
    moves = [m for s in sessions for m in s["moves"] if m[1]]
    if not moves:
        sys.exit("no moves recorded")
    ratios = sorted(m[0] / m[1] for m in moves)
    worst = max(moves, key=lambda m: m[0] / m[1])
    over = [m for m in moves if m[0] > m[1] + 1000]
    late = [m for m in moves if m[0] > m[1]]
    p99 = ratios[min(len(ratios) - 1, int(len(ratios) * 0.99))]
    p50 = ratios[len(ratios) // 2]
    peak = max(s["peak_uss"] for s in sessions)
    limits = {s["max_memory"] for s in sessions if s["max_memory"]}
    crashes = [s for s in sessions if s["exit"] not in (0, None)]
    print(f"sessions {len(sessions)}, moves {len(moves)}")
    print(f"time used / allowed: median {p50:.3f}, p99 {p99:.3f}, worst {ratios[-1]:.3f} "
          f"({worst[0]:.0f} ms of {worst[1]:.0f} ms)")
    print(f"moves over the allowance: {len(late)}; over allowance + 1 s (judge forfeit): {len(over)}")
    limit = f" against max_memory {min(limits) / 1e6:.0f} MB" if limits else ""
    print(f"peak USS {peak / 1e6:.1f} MB{limit}")
    print(f"engine processes ending with an error status: {len(crashes)}")


if __name__ == "__main__":
    main()
