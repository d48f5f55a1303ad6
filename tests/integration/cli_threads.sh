#!/usr/bin/env bash
# cli_threads.sh LIT SOURCE_DIR - the exact count on two threads (a helper
# thread lent to lit_odds_helped; docs/DEDUCTION.md "Two threads"): the same
# output as on one, at positions large enough for the forward sweep to go
# on two threads, and the option's errors. scripts/test.sh also runs it
# under ThreadSanitizer.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# 8 players, among the slowest positions; 6 players, and the public view
for args in "bench/corpus/8/0186.lit --seat 1 --after 9" \
  "bench/corpus/8/0137.lit --seat 1 --after 12" \
  "tests/data/example.lit --public --after 6"; do
  read -r -a words <<<"$args"
  run 0 "$lit" infer "${words[@]}" --json --threads 1
  mv "$tmp/out" "$tmp/one"
  run 0 "$lit" infer "${words[@]}" --json --threads 2
  same "two threads ($args)" "$tmp/one" "$tmp/out"
done

for bad in 0 3 two; do
  run 2 "$lit" infer tests/data/example.lit --seat 1 --threads "$bad"
  same_text "infer --threads $bad" "lit: --threads: 1 or 2, not '$bad'" "$tmp/err"
  run 2 "$lit" bench --odds --threads "$bad"
  same_text "bench --threads $bad" "lit: --threads: a number from 1 to 2, not '$bad'" "$tmp/err"
done
run 2 "$lit" bench --know --threads 2
same_text "bench --know --threads" "lit: bench: --threads goes with --odds, --sample or --coverage" \
  "$tmp/err"

# the bench says how many threads each count took
run 0 "$lit" bench --odds --corpus tests/data/example.lit --threads 1
grep -qx 'threads: 1' "$tmp/out" || fail "bench --threads 1: $(cat "$tmp/out")"
run 0 "$lit" bench --odds --corpus tests/data/example.lit --threads 2
grep -qx 'threads: 2' "$tmp/out" || fail "bench --threads 2: $(cat "$tmp/out")"
finish cli_threads
