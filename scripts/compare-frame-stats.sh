#!/usr/bin/env bash
# Frame times of two builds of the game side by side (before and after a change): each case
# runs A then B with `--frame-stats FRAMES` under Xvfb, PAIRS times in turn, and prints every
# run's line and, per case, the medians of p50, p95 and p99 and the B/A ratio of each.
#
#   bash scripts/compare-frame-stats.sh OLD_BINARY NEW_BINARY [FRAMES] [PAIRS]
#
# Cases: idle (skirmish, a person's turn, nothing moving), busy (war, 24 units, the computer
# playing both sides at 0.05 s a command), war-idle (war's board on a person's turn).
set -euo pipefail
a=${1:?usage: compare-frame-stats.sh BINARY_A BINARY_B [FRAMES] [PAIRS]}
b=${2:?usage: compare-frame-stats.sh BINARY_A BINARY_B [FRAMES] [PAIRS]}
frames=${3:-300}
pairs=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

xvfb() { xvfb-run -a -s "-screen 0 1280x720x24" "$@" 2>/dev/null | grep ' frames: '; }
field() { sed -E "s/.*$2 ([0-9.]+) ms.*/\1/" <<< "$1"; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

run_case() {
  local name=$1; shift
  : > "$work/$name.a"; : > "$work/$name.b"
  for i in $(seq "$pairs"); do
    local la lb
    la=$(xvfb "$a" play "$@" --frame-stats "$frames" --data-dir "$work/data")
    lb=$(xvfb "$b" play "$@" --frame-stats "$frames" --data-dir "$work/data")
    echo "$name pair $i: A $la"
    echo "$name pair $i: B $lb"
    echo "$(field "$la" p50) $(field "$la" p95) $(field "$la" p99)" >> "$work/$name.a"
    echo "$(field "$lb" p50) $(field "$lb" p95) $(field "$lb" p99)" >> "$work/$name.b"
  done
  local out="$name: median of $pairs runs, A -> B:"
  for col in 1 2 3; do
    local ma mb label
    label=$(echo "p50 p95 p99" | cut -d' ' -f$col)
    ma=$(cut -d' ' -f$col "$work/$name.a" | median)
    mb=$(cut -d' ' -f$col "$work/$name.b" | median)
    out+=" $label $ma -> $mb ms ($(awk -v x="$ma" -v y="$mb" 'BEGIN {printf "%.2f", y / x}')x)"
  done
  echo "$out"
}

run_case idle --scenario skirmish --sides human,ai --seed 1
run_case busy --scenario war --sides ai,ai --seed 1 --ai-pace 0.05
run_case war-idle --scenario war --sides ai,human --seed 1
