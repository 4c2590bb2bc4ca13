#!/usr/bin/env bash
# Compares two builds of the game on the same frames: each plays 600 frames of the idle
# `skirmish` board (a person's turn, nothing moving) under Xvfb and quits, in turn A B A B …
# after one warm-up each; prints every run's wall time, the medians and the A/B ratio of each
# pair. Whole-process time (start-up included), so compare builds, not absolute frame times.
#
#   bash scripts/compare-frames.sh target/release/gridclash target/fast/gridclash [PAIRS]
set -euo pipefail
a=${1:?usage: compare-frames.sh BINARY_A BINARY_B [PAIRS]}
b=${2:?usage: compare-frames.sh BINARY_A BINARY_B [PAIRS]}
pairs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'wait 600\nquit\n' > "$work/idle.script"

# Seconds one run of binary $1 takes, wall clock.
run() {
  local t0 t1
  t0=$(date +%s.%N)
  xvfb-run -a -s "-screen 0 1280x720x24" "$1" play --scenario skirmish --sides human,ai \
    --seed 1 --script "$work/idle.script" --data-dir "$work/data" > "$work/log" 2>&1 ||
    { cat "$work/log" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}

median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

run "$a" > /dev/null
run "$b" > /dev/null
: > "$work/a"; : > "$work/b"; : > "$work/ratio"
for i in $(seq "$pairs"); do
  ta=$(run "$a"); tb=$(run "$b")
  echo "$ta" >> "$work/a"; echo "$tb" >> "$work/b"
  awk -v a="$ta" -v b="$tb" 'BEGIN {printf "%.4f\n", a / b}' >> "$work/ratio"
  printf 'pair %d: A %.2f s  B %.2f s\n' "$i" "$ta" "$tb"
done
printf 'median: A %.2f s  B %.2f s  A/B %.3f (pairs: %s)\n' \
  "$(median < "$work/a")" "$(median < "$work/b")" "$(median < "$work/ratio")" \
  "$(tr '\n' ' ' < "$work/ratio")"
