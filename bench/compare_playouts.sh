#!/usr/bin/env bash
# Playouts per second of Tengen's MCTS and Pachi's (light and moggy playouts), one
# thread each, from the empty 9x9 and 19x19 boards, in one run on this machine, three
# times alternating. Pachi is a peer built outside this repository (pasky/pachi,
# `make DCNN=0`): point PACHI at its binary. Both wall-clock rates and rates per
# CPU-second (user + system, from /usr/bin/time) are printed, since a
# loaded machine slows the wall clock.
#   PACHI=/path/to/pachi bench/compare_playouts.sh [PLAYOUTS]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-40000}
cargo build --release --quiet
cpu() { # runs "$@" with its output on stderr; prints its user+system seconds
  /usr/bin/time -f "%U %S" -o /tmp/cpu-time.txt "$@" >&2
  awk '{print $1 + $2}' /tmp/cpu-time.txt
}
for run in 1 2 3; do
  for size in 9 19; do
    secs=$(cpu ./target/release/tengen bench --game go --size "$size" --playouts "$N" 2>/tmp/tengen-pl.txt)
    echo "run $run ${size}x${size} tengen: $(cat /tmp/tengen-pl.txt | sed 's/.*: //'); cpu ${secs}s"
    if [ -n "${PACHI:-}" ]; then
      for pl in light moggy; do
        secs=$( (cpu sh -c "printf 'boardsize $size\nclear_board\nkomi 7\ngenmove b\nquit\n' | $PACHI -t =$N threads=1,pondering=0,playout=$pl") 2>/tmp/pachi-pl.txt)
        rate=$(grep -o '([0-9]* games/s' /tmp/pachi-pl.txt | tr -d '(' | head -1)
        echo "run $run ${size}x${size} pachi $pl: $rate; ${N} playouts in cpu ${secs}s ($(echo "$N / $secs" | bc) per CPU-second)"
      done
    fi
  done
done
