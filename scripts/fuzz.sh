#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time: scripts/fuzz.sh BUILD_DIR SECONDS
# (the test command: 20 seconds each; docs/RELIABILITY.md). Each target reads
# its committed seed corpus fuzz/corpus/<target> as a second corpus, which
# libFuzzer never writes to: new inputs go to a scratch corpus, removed
# afterwards, and the script fails if the committed corpus changed. A finding
# (crash-*, leak-*, timeout-*, oom-*) is kept in BUILD_DIR.
# The long run is scripts/fuzz_long.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
secs=$2
status=0
before=$(find fuzz/corpus -type f -exec sha1sum {} + | sort)
for target in notation actions infer hub botline; do
  scratch=$(mktemp -d)
  log=$(mktemp)
  dict=()
  [ -f "fuzz/$target.dict" ] && dict=(-dict="fuzz/$target.dict")
  if "$dir/fuzz/fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      "${dict[@]}" -print_final_stats=1 -artifact_prefix="$dir/" \
      "$scratch" "fuzz/corpus/$target" >"$log" 2>&1; then
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz_$target: ${runs:-?} executions in ${secs}s, no finding"
  else
    echo "fuzz_$target: FINDING (see $dir/crash-*, leak-*, timeout-* or oom-*)"
    tail -40 "$log"
    status=1
  fi
  rm -rf "$scratch" "$log"
done
if [ "$(find fuzz/corpus -type f -exec sha1sum {} + | sort)" != "$before" ]; then
  echo "fuzz: the committed corpus fuzz/corpus changed while fuzzing"
  status=1
fi
exit $status
