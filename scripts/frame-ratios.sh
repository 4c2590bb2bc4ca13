#!/usr/bin/env bash
# The game's frame times against a bare Bevy 2D app with as many sprites, side by side in one
# run (issue 26). Each case runs the game with `--frame-stats N` under Xvfb, then the bare app
# (`examples/bare_sprites.rs`, same profile) with the sprite count the game reported, in turn,
# PAIRS times; prints every run's line and, per case, the medians and the ratios of p50, p95,
# p99 and of the time to the first frame.
#
#   bash scripts/frame-ratios.sh [PROFILE] [FRAMES] [PAIRS]     (PROFILE: debug or release)
#
# Cases: idle (skirmish, a person's turn, nothing moving), busy (war, 24 units, the computer
# playing both sides with animations, against spinning sprites), handoff (the hot-seat cover).
# The bare app's camera is set up as the game's is (no multisampling), so the ratio is the
# game's own cost and not a difference of camera settings.
set -euo pipefail
profile=${1:-debug}
frames=${2:-300}
pairs=${3:-3}
flag=()
[ "$profile" = debug ] || flag=(--profile "$profile")
cargo build "${flag[@]}" --bin gridclash --example bare_sprites
game="target/$profile/gridclash"
bare="target/$profile/examples/bare_sprites"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

xvfb() { xvfb-run -a -s "-screen 0 1280x720x24" "$@" 2>/dev/null | grep ' frames: '; }
# Field $2 of a report line: p50, p95, p99 (ms) or first (ms) or sprites.
field() {
  case $2 in
    p50|p95|p99) sed -E "s/.*$2 ([0-9.]+) ms.*/\1/" <<< "$1" ;;
    # "nan" when the report says no frame was drawn in full (no time to compare).
    first) if grep -q 'first frame [0-9]' <<< "$1"; then sed -E 's/.*first frame ([0-9.]+) ms.*/\1/' <<< "$1"; else echo nan; fi ;;
    sprites) sed -E 's/.*; ([0-9]+) sprites.*/\1/' <<< "$1" ;;
  esac
}
median() { sort -n | awk '{v[NR]=$1} END {if (NR == 0) print "n/a "; else print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

run_case() {
  local name=$1 spin=$2; shift 2
  : > "$work/$name.ratios"
  for i in $(seq "$pairs"); do
    local g b n
    g=$(xvfb "$game" play "$@" --frame-stats "$frames" --data-dir "$work/data")
    n=$(field "$g" sprites)
    b=$(xvfb "$bare" --sprites "$n" --frames "$frames" --no-msaa $spin)
    echo "$name pair $i: game $g"
    echo "$name pair $i: bare $b"
    local r=""
    for f in p50 p95 p99 first; do
      r+=$(awk -v a="$(field "$g" $f)" -v b="$(field "$b" $f)" 'BEGIN {if (a == "nan" || b == "nan") printf "nan "; else printf "%.3f ", a / b}')
    done
    echo "$r" >> "$work/$name.ratios"
  done
  local out="$name: game / bare, median of $pairs pairs:"
  local col=1
  for f in p50 p95 p99 first; do
    out+=" $f $(cut -d' ' -f$col "$work/$name.ratios" | grep -v nan | median)x"
    col=$((col + 1))
  done
  echo "$out"
}

run_case idle "" --scenario skirmish --sides human,ai --seed 1
run_case busy --spin --scenario war --sides ai,ai --ai-pace 0.05 --seed 1
run_case handoff "" --scenario skirmish --sides human,human --seed 1
