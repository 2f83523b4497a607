#!/bin/sh
# Draws one picture of each game with `tengen analyse --svg`, and a review of a 20x20
# game (its final position and its evaluation graph) with `tengen review --svg`, then
# photographs every SVG in a real browser, headless Chromium, into the PNGs the README
# shows. Installs Chromium (Debian's package) if it is missing. The searches run on
# the clock, so the candidates can differ from one run to the next.
set -e
cd "$(dirname "$0")/../.."
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update
    $SUDO apt-get install -y chromium fonts-dejavu-core
fi
cargo build --release
T=target/release/tengen
D=docs/pictures
# Renju, black to move: j8 is a double three for black, the three best moves labelled.
$T analyse --variant renju --moves "h8 h9 i8 a1 j9 a3 j10 a5 g7 g9" --time 2s --threads 1 \
    --multipv 3 --numbers --svg $D/renju.svg -q >/dev/null
# Go, 13x13: the expected owner of each point shaded, the five most visited moves.
$T analyse --game go --size 13 --moves "K10 D4 K4 D10 G7 C7" --time 5s --threads 1 \
    --multipv 5 --svg $D/go.svg -q >/dev/null
# Gana after a few moves: the stacks counted, the kings ringed.
$T analyse --game gana --moves "e2n d7s e3n" --time 3s --threads 1 --multipv 3 \
    --svg $D/gana.svg -q >/dev/null
# A whole game reviewed at 200 ms a position.
$T review $D/game-20x20.sgf --time 200ms --threads 1 --out $D/game-20x20-review.sgf \
    --svg $D/review.svg -q >/dev/null
for f in $D/*.svg; do
    w=$(sed -n '1s/.* width="\([0-9]*\)".*/\1/p' "$f")
    h=$(sed -n '1s/.* height="\([0-9]*\)".*/\1/p' "$f")
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size="$w,$h" --screenshot="${f%.svg}.png" "file://$PWD/$f" 2>/dev/null
done
ls -l $D
