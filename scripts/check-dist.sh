#!/usr/bin/env bash
# Checks a Linux archive as a player gets it: unpacks it into an empty temporary directory and,
# from there, with GRIDCLASH_RULES and GRIDCLASH_ASSETS unset (saves and settings go to the
# temporary directory), asks where the
# game reads its data, validates every shipped file, simulates battles and runs a short windowed
# battle under xvfb-run that saves a screenshot. Usage: scripts/check-dist.sh [ARCHIVE]
set -euo pipefail
if [ $# -gt 0 ]; then
  archive=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fi
cd "$(dirname "$0")/.."
archive=${archive:-$(pwd)/$(ls -t dist/gridclash-*-x86_64-unknown-linux-gnu.tar.gz | head -n 1)}
name=$(basename "$archive" .tar.gz)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$archive" -C "$tmp"
cd "$tmp/$name"
unset GRIDCLASH_RULES GRIDCLASH_ASSETS GRIDCLASH_DATA_DIR GRIDCLASH_CONFIG_DIR
export GRIDCLASH_DATA_DIR="$tmp/data" GRIDCLASH_CONFIG_DIR="$tmp/config"

step() { printf '\n== %s\n' "$1"; }

step "contents"
ls -la
step "the licences ship beside the game (the credits screen names these files)"
ls -la LICENSE-MIT LICENSE-APACHE assets/licenses/THIRD-PARTY-LICENSES.md assets/fonts/LICENSE-DejaVu.txt \
  assets/icons/game-icons/LICENSE.md
step "where the game reads its data (must be this directory, not the source tree)"
./gridclash paths | tee "$tmp/paths.txt"
grep -q "^rules: $tmp/$name/rules$" "$tmp/paths.txt"
grep -q "^assets: $tmp/$name/assets$" "$tmp/paths.txt"

step "validate every shipped ruleset and scenario"
./gridclash validate rules/*/ assets/scenarios/*.ron

step "simulate: 20 battles on every shipped scenario"
for s in assets/scenarios/*.ron; do
  ./gridclash simulate --scenario "$(basename "$s" .ron)" --battles 20 --seed 7 | head -n 3
done

step "a windowed battle under xvfb-run, computer against computer, with a screenshot"
cat > "$tmp/smoke.script" <<SCRIPT
wait 90
shot $tmp/smoke.png
quit
SCRIPT
xvfb-run -a -s "-screen 0 1280x720x24" ./gridclash play --scenario duel --sides ai,ai \
  --ai-pace 0.05 --seed 3 --script "$tmp/smoke.script"
test -s "$tmp/smoke.png"
echo "screenshot: $(wc -c < "$tmp/smoke.png") bytes"
cp "$tmp/smoke.png" "${SMOKE_SHOT:-/dev/null}" 2>/dev/null || true

step "the archive works"
