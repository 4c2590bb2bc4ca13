#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with the shipped files as the fuzzers' starting inputs: every
# rules file (with its `// file: RULESET/FILE.ron` line), every scenario, every golden replay.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p fuzz/corpus/rules_file fuzz/corpus/scenario fuzz/corpus/save
for f in rules/*/*.ron; do
  id=$(basename "$(dirname "$f")")
  { echo "// file: $id/$(basename "$f")"; cat "$f"; } > "fuzz/corpus/rules_file/$id-$(basename "$f")"
done
cp assets/scenarios/*.ron fuzz/corpus/scenario/
cp tests/replays/*.ron fuzz/corpus/save/
echo "seeded: $(ls fuzz/corpus/rules_file | wc -l) rules files, $(ls fuzz/corpus/scenario | wc -l) scenarios, $(ls fuzz/corpus/save | wc -l) saves"
