#!/bin/sh
# Judge conditions, measured: Tengen plays whole games through a real manager
# (c-gomoku-cli) at short Gomocup settings, every move and the memory of its process
# tree measured by bench/judge_proxy.py, then bench/soak_report.py sums up forfeits,
# time used against time allowed and peak USS against max_memory.
#
#   bench/soak_gomocup.sh CGC OPPONENT RULE SIZE GAMES OUT_DIR [TC]
#
# CGC: the c-gomoku-cli binary (built outside this repository); OPPONENT: a brain's
# command (e.g. pbrain-figrid, which plays 15x15 only, or Tengen itself); RULE: the
# Gomocup rule number (0 freestyle, 1 standard, 4 renju); TC: c-gomoku-cli's time
# control, match/turn seconds (default 30/1: timeout_match 30 s, timeout_turn 1 s).
# Both colours, each opening twice (-repeat), openings from bench/openings-SIZE.txt
# (60 random 3-stone openings near the centre, offset format; OPENINGS=FILE for others).
set -e
CGC=$1 OPP=$2 RULE=$3 SIZE=$4 GAMES=$5 OUT=$6 TC=${7:-30/1}
HERE=$(cd "$(dirname "$0")/.." && pwd)
TENGEN=${TENGEN:-$HERE/target/release/tengen}
mkdir -p "$OUT"
OPENINGS=${OPENINGS:-$HERE/bench/openings-$SIZE.txt}
SOAK_LOG=$OUT/soak.jsonl "$CGC" -each tc="$TC" \
    -engine name=tengen "cmd=$HERE/bench/judge_proxy.py $TENGEN gomocup --threads 1" \
    -engine name=opponent "cmd=$OPP" \
    -rule "$RULE" -boardsize "$SIZE" -games "$GAMES" -repeat \
    -openings file="$OPENINGS" order=random srand=12 \
    -sgf "$OUT/games.sgf" > "$OUT/cgc.txt" 2>&1 || true
grep -E "^Score|loses|timeout|crash|illegal" "$OUT/cgc.txt" | tail -5
python3 "$HERE/bench/soak_report.py" "$OUT/soak.jsonl" tengen
