#!/usr/bin/env python3
"""Sits between a manager and an engine and measures what a judge would hold against it.

    bench/judge_proxy.py [--gtp] [--move-ms MS] ENGINE ARGS...

The manager starts this script in place of the engine; every line passes through
unchanged. For Gomocup (the default) a move request is BEGIN, TURN, BOARD..DONE or
SWAP2BOARD..DONE, and the time allowed is the Gomocup judge's: min(timeout_turn,
time_left) from the INFO lines (time_left only when timeout_match is set). For GTP
(`--gtp`) a move request is genmove, and the time allowed is `--move-ms`. The time a
move takes is measured from forwarding the request to reading the reply.

Every 50 ms it samples the USS (private clean + private dirty pages) of the engine's
whole process tree from /proc/PID/smaps_rollup. When the engine ends, one JSON line
goes to the file named by $SOAK_LOG (default soak.jsonl):
    {"engine": [...], "moves": [[ms_used, ms_allowed], ...], "peak_uss": BYTES,
     "max_memory": BYTES or null, "exit": CODE}
bench/soak_report.py sums such lines up. Linux only (it reads /proc).
"""

import json
import os
import subprocess
import sys
import threading
import time


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(c) for c in f.read().split()]
    except OSError:
        return []


def uss(pid):
    """Private bytes of a process and its descendants."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith(("Private_Clean:", "Private_Dirty:", "Private_Hugetlb:")):
                        total += int(line.split()[1]) * 1024
        except OSError:
            pass
        stack.extend(children(p))
    return total


def main():
    args = sys.argv[1:]
    gtp = False
    move_ms = None
    while args and args[0].startswith("--"):
        if args[0] == "--gtp":
            gtp = True
            args = args[1:]
        elif args[0] == "--move-ms":
            move_ms = float(args[1])
            args = args[2:]
        else:
            sys.exit(f"judge_proxy: unknown option {args[0]}")
    if not args:
        sys.exit(__doc__)
    engine = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    lock = threading.Lock()
    state = {
        "turn": None, "match": 0, "left": None, "max_memory": None,
        "pending": None, "block": None, "peak": 0, "moves": [],
    }

    def allowed():
        if gtp:
            return move_ms
        turn = state["turn"] if state["turn"] is not None else 5000
        if state["match"] and state["left"] is not None:
            return min(turn, state["left"])
        return turn

    def from_manager():
        for raw in sys.stdin.buffer:
            line = raw.decode("utf-8", "replace").strip()
            words = line.split()
            word = words[0].upper() if words else ""
            with lock:
                if gtp:
                    name = words[1] if words and words[0].isdigit() and len(words) > 1 else (words[0] if words else "")
                    if name in ("genmove", "kgs-genmove_cleanup"):
                        state["pending"] = (time.monotonic(), allowed())
                elif state["block"]:
                    if word == "DONE":
                        if state["block"] in ("BOARD", "SWAP2BOARD"):
                            state["pending"] = (time.monotonic(), allowed())
                        state["block"] = None
                elif word == "INFO" and len(words) >= 3:
                    key, value = words[1].lower(), words[2]
                    try:
                        v = int(value)
                    except ValueError:
                        v = None
                    if v is not None:
                        if key == "timeout_turn":
                            state["turn"] = v
                        elif key == "timeout_match":
                            state["match"] = v
                        elif key == "time_left":
                            state["left"] = v
                        elif key == "max_memory":
                            state["max_memory"] = v
                elif word in ("BOARD", "YXBOARD", "SWAP2BOARD"):
                    state["block"] = word
                elif word in ("BEGIN", "TURN"):
                    state["pending"] = (time.monotonic(), allowed())
            try:
                engine.stdin.write(raw)
                engine.stdin.flush()
            except OSError:
                break
        try:
            engine.stdin.close()
        except OSError:
            pass

    def sampler():
        while engine.poll() is None:
            u = uss(engine.pid)
            with lock:
                state["peak"] = max(state["peak"], u)
            time.sleep(0.05)

    threading.Thread(target=from_manager, daemon=True).start()
    threading.Thread(target=sampler, daemon=True).start()
    for raw in engine.stdout:
        line = raw.decode("utf-8", "replace").strip()
        with lock:
            p = state["pending"]
            if p is not None:
                is_reply = line.startswith(("=", "?")) if gtp else (
                    line == "SWAP" or (line and line[0].isdigit() or line.startswith("-1")))
                if is_reply:
                    state["moves"].append([round((time.monotonic() - p[0]) * 1000, 1), p[1]])
                    state["pending"] = None
        try:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
        except OSError:
            break
    code = engine.wait()
    record = {
        "engine": args, "moves": state["moves"], "peak_uss": state["peak"],
        "max_memory": state["max_memory"], "exit": code,
    }
    with open(os.environ.get("SOAK_LOG", "soak.jsonl"), "a") as f:
        f.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
