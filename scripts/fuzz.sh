#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time: scripts/fuzz.sh BUILD_DIR SECONDS
# New inputs go to a scratch corpus, the committed seed corpus is only read.
# The long run (docs/RELIABILITY.md): scripts/fuzz.sh build/fuzz 3600
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
secs=$2
status=0
for target in notation actions hub; do
  scratch=$(mktemp -d)
  log=$(mktemp)
  if "$dir/fuzz/fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$dir/" "$scratch" "fuzz/corpus/$target" >"$log" 2>&1; then
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz_$target: ${runs:-?} executions in ${secs}s, no finding"
  else
    echo "fuzz_$target: FINDING (see $dir/crash-* or leak-*)"
    tail -40 "$log"
    status=1
  fi
  rm -rf "$scratch" "$log"
done
exit $status
