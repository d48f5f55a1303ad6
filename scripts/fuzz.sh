#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time: scripts/fuzz.sh BUILD_DIR SECONDS
# (the test command: 12 seconds each, as many at once as there are cores;
# docs/RELIABILITY.md). Each target reads
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
# One target: its report in $out/$target.txt, its status in $out/$target.rc.
one() {
  local target=$1 scratch log dict=()
  scratch=$(mktemp -d)
  log=$(mktemp)
  [ -f "fuzz/$target.dict" ] && dict=(-dict="fuzz/$target.dict")
  if "$dir/fuzz/fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      "${dict[@]}" -print_final_stats=1 -artifact_prefix="$dir/" \
      "$scratch" "fuzz/corpus/$target" >"$log" 2>&1; then
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz_$target: ${runs:-?} executions in ${secs}s, no finding" >"$out/$target.txt"
    echo 0 >"$out/$target.rc"
  else
    { echo "fuzz_$target: FINDING (see $dir/crash-*, leak-*, timeout-* or oom-*)"
      tail -40 "$log"; } >"$out/$target.txt"
    echo 1 >"$out/$target.rc"
  fi
  rm -rf "$scratch" "$log"
}
# The targets side by side, a core each (each still fuzzes SECONDS).
targets=(notation actions infer hub botline)
lanes=$(nproc 2>/dev/null || echo 1)
out=$(mktemp -d)
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$lanes" ]; then
    wait -n
    running=$((running - 1))
  fi
  one "$target" &
  running=$((running + 1))
done
wait
for target in "${targets[@]}"; do
  cat "$out/$target.txt"
  [ "$(cat "$out/$target.rc")" = 0 ] || status=1
done
rm -rf "$out"
if [ "$(find fuzz/corpus -type f -exec sha1sum {} + | sort)" != "$before" ]; then
  echo "fuzz: the committed corpus fuzz/corpus changed while fuzzing"
  status=1
fi
exit $status
