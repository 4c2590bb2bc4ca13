#!/usr/bin/env bash
# Compares two builds of the game on the same headless battles: each plays
# `simulate --scenario siege --ai easy,easy --battles N --seed 1 --jobs 1` (DBU, 6 v 6, one
# thread) in turn A B A B … after one warm-up each; checks that both reports are byte-identical
# (the same battles, whatever changed), and prints every run's wall time, battles per second,
# the medians and the A/B ratio of each pair. Whole-process time (start-up included).
#
#   bash scripts/compare-headless.sh target/fast/gridclash /path/to/older/gridclash [PAIRS] [BATTLES]
#
# Build both with the same profile (`cargo build --profile fast --no-default-features`; an
# older commit in a `git worktree`). A build that predates `simulate --jobs` plays on one
# thread anyway, so the flag is given only to a build that has it.
set -euo pipefail
a=${1:?usage: compare-headless.sh BINARY_A BINARY_B [PAIRS] [BATTLES]}
b=${2:?usage: compare-headless.sh BINARY_A BINARY_B [PAIRS] [BATTLES]}
pairs=${3:-5}
battles=${4:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# `--jobs 1` for a build that has the flag, nothing for one that predates it.
one_thread() {
  if "$1" simulate --help | grep -q -- '--jobs'; then echo "--jobs 1"; fi
}
jobs_a=$(one_thread "$a")
jobs_b=$(one_thread "$b")

# Seconds one run of binary $1 takes, wall clock; its report goes to $2, $3 is its flag.
run() {
  local t0 t1
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # $3 is a flag and its value, or nothing.
  "$1" simulate --scenario siege --ai easy,easy --battles "$battles" --seed 1 --json $3 \
    > "$2" 2> "$work/err" || { cat "$work/err" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}

median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

run "$a" "$work/report-a" "$jobs_a" > /dev/null
run "$b" "$work/report-b" "$jobs_b" > /dev/null
if ! cmp -s "$work/report-a" "$work/report-b"; then
  echo "the two builds play different battles: their reports differ" >&2
  diff "$work/report-a" "$work/report-b" | head -20 >&2
  exit 1
fi
: > "$work/a"; : > "$work/b"; : > "$work/ratio"
for i in $(seq "$pairs"); do
  ta=$(run "$a" /dev/null "$jobs_a"); tb=$(run "$b" /dev/null "$jobs_b")
  echo "$ta" >> "$work/a"; echo "$tb" >> "$work/b"
  awk -v a="$ta" -v b="$tb" 'BEGIN {printf "%.4f\n", a / b}' >> "$work/ratio"
  printf 'pair %d: A %.2f s  B %.2f s\n' "$i" "$ta" "$tb"
done
ma=$(median < "$work/a"); mb=$(median < "$work/b")
printf 'median: A %.2f s (%.2f battles/s)  B %.2f s (%.2f battles/s)  A/B %.3f (pairs: %s)\n' \
  "$ma" "$(awk -v t="$ma" -v n="$battles" 'BEGIN {print n / t}')" \
  "$mb" "$(awk -v t="$mb" -v n="$battles" 'BEGIN {print n / t}')" \
  "$(median < "$work/ratio")" "$(tr '\n' ' ' < "$work/ratio")"
