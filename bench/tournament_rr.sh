#!/bin/sh
# The tournament runner measured: a round-robin of Tengen, figrid and (when RAPFI
# names its binary, built outside this repository) Rapfi's classical brain, freestyle
# 15x15, 200 ms a move, one thread each, two games at once, the 60 openings of
# bench/openings-15.txt each played twice with colours swapped; then, for the same
# engines and openings, c-gomoku-cli (when CGC names it) beside `tengen tournament`
# on Tengen vs Rapfi (or figrid), so that the two runners' scores can be compared.
#
#   [RAPFI=…/pbrain-rapfi] [CGC=…/c-gomoku-cli] bench/tournament_rr.sh OUT [GAMES]
#
# GAMES: games per pair (default 40). figrid: `cargo install figrid-board --root
# /tmp/peers --features embed-weights` (FIGRID=… to name another binary).
set -e
OUT=$1 GAMES=${2:-40}
HERE=$(cd "$(dirname "$0")/.." && pwd)
TENGEN=${TENGEN:-$HERE/target/release/tengen}
FIGRID=${FIGRID:-/tmp/peers/bin/pbrain-figrid}
BOOK=$HERE/bench/openings-15.txt
mkdir -p "$OUT"
set -- --engine name=tengen "cmd=$TENGEN gomocup" --engine name=figrid "cmd=$FIGRID"
[ -n "$RAPFI" ] && set -- "$@" --engine name=rapfi "cmd=$RAPFI"
"$TENGEN" tournament "$@" --each threads=1 tc=0/0.2 --games "$GAMES" --repeat \
    --openings file="$BOOK" --concurrency 2 \
    --results "$OUT/rr.jsonl" --records "$OUT/rr-records" > "$OUT/rr.txt"
tail -n 20 "$OUT/rr.txt"
if [ -n "$CGC" ]; then
    # The same pairing through both runners: Tengen against Rapfi when given (the
    # closer match), else figrid; same openings in the same order, both colours.
    OPP=${RAPFI:-$FIGRID}
    "$CGC" -each tc=0/0.2 thread=1 \
        -engine name=tengen "cmd=$TENGEN gomocup" -engine name=opponent "cmd=$OPP" \
        -rule 0 -boardsize 15 -games "$GAMES" -repeat -concurrency 2 \
        -openings file="$BOOK" order=sequential > "$OUT/cgc.txt" 2>&1 || true
    grep -E "^Score|^Elo|^LOS" "$OUT/cgc.txt" | tail -3
    "$TENGEN" tournament --engine name=tengen "cmd=$TENGEN gomocup" \
        --engine name=opponent "cmd=$OPP" --each threads=1 tc=0/0.2 \
        --games "$GAMES" --repeat --openings file="$BOOK" --concurrency 2 \
        --results "$OUT/pair.jsonl" > "$OUT/pair.txt"
    grep -E "^  tengen vs opponent" "$OUT/pair.txt"
fi
