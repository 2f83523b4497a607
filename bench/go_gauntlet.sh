#!/bin/sh
# A Go gauntlet through `tengen tournament`: Tengen (one thread) against GNU Go 3.8 at
# levels 10 and 1, 9x9, komi 7, Chinese rules, byo-yomi of 2 s a move, each pairing's
# games in pairs with colours swapped, two games at once; games ended by two passes are
# scored by GNU Go (--judge), as gogui-twogtp scores with a referee engine.
#
#   bench/go_gauntlet.sh OUT [GAMES]        (GNU Go: sh bench/install-peers.sh)
set -e
OUT=$1 GAMES=${2:-10}
HERE=$(cd "$(dirname "$0")/.." && pwd)
TENGEN=${TENGEN:-$HERE/target/release/tengen}
GNUGO=${GNUGO:-/usr/games/gnugo}
mkdir -p "$OUT"
"$TENGEN" tournament --game go --size 9 --komi 7 --rules chinese --gauntlet \
    --engine name=tengen "cmd=$TENGEN gtp --threads 1" \
    --engine name=gnugo-10 "cmd=$GNUGO --mode gtp --level 10" \
    --engine name=gnugo-1 "cmd=$GNUGO --mode gtp --level 1" \
    --tc 0+2x1 --games "$GAMES" --repeat --concurrency 2 \
    --judge "$GNUGO --mode gtp" \
    --results "$OUT/go.jsonl" --records "$OUT/go-records" > "$OUT/go.txt"
tail -n 16 "$OUT/go.txt"
