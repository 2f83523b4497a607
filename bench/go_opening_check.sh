#!/usr/bin/env bash
# The 19x19 opening, at more seeds than the test: go_opening_check.sh TENGEN [SEEDS]
# plays go_regress's six openings (engine-tests/go_regress.rs,
# opening_moves_are_on_the_third_and_fourth_lines) with seeds 1..SEEDS (default 8),
# 10,000 playouts a move on one thread, and lists every move off the third and fourth
# lines, then how many of all. One seed per opening is what the test can afford; a
# model change that moves the opening shows in the count here first (README, issue 16).
set -euo pipefail
tengen=${1:?usage: go_opening_check.sh TENGEN [SEEDS]}
seeds=${2:-8}
openings=("" "Q16" "Q16 D4" "Q16 D4 Q3" "Q16 D4 Q3 D16" "R16 D4 Q3 C16")
columns=ABCDEFGHJKLMNOPQRST
off=0
n=0
for s in $(seq 1 "$seeds"); do
    for o in "${openings[@]}"; do
        input=$'boardsize 19\nkomi 7.5\n'
        colour=b
        for m in $o; do
            input+="play $colour $m"$'\n'
            [ "$colour" = b ] && colour=w || colour=b
        done
        input+="genmove $colour"$'\n'"quit"$'\n'
        mv=$(printf '%s' "$input" | "$tengen" gtp --threads 1 --playouts 10000 --seed "$s" 2>/dev/null |
            grep '^=' | tail -2 | head -1 | sed 's/^= *//')
        col=${mv:0:1}
        row=${mv:1}
        prefix=${columns%%"$col"*}
        x=${#prefix}
        y=$((row - 1))
        lx=$((x < 18 - x ? x : 18 - x))
        ly=$((y < 18 - y ? y : 18 - y))
        line=$(((lx < ly ? lx : ly) + 1))
        n=$((n + 1))
        if [ "$line" -lt 3 ] || [ "$line" -gt 4 ]; then
            off=$((off + 1))
            echo "seed $s, after '$o': $mv (line $line)"
        fi
    done
done
echo "$off of $n off the third and fourth lines"
