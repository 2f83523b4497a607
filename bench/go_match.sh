#!/bin/sh
# Tengen against GNU Go 3.8 (level 10) on 9x9, komi 7, colours alternating, 2 s a move:
#   bench/go_match.sh [GAMES] [SIZE] [MS_PER_MOVE]
# Installs GNU Go if needed (bench/install-peers.sh). Prints every game and the score
# with its Elo margin; SGFs go to /tmp/tengen-gnugo-SIZE.
set -e
cd "$(dirname "$0")/.."
GAMES=${1:-50}
SIZE=${2:-9}
MS=${3:-2000}
GNUGO=$(bench/install-peers.sh | tail -1)
cargo build --release --quiet
exec target/release/tengen match --game go \
    --engine1 "target/release/tengen gtp --threads 1" \
    --engine2 "$GNUGO --mode gtp --level 10" \
    --size "$SIZE" --komi 7 --games "$GAMES" --time "$MS" --sgf-dir "/tmp/tengen-gnugo-$SIZE"
