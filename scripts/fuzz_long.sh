#!/usr/bin/env bash
# The long fuzzing run (docs/RELIABILITY.md), outside the test command:
#   scripts/fuzz_long.sh BUILD_DIR [RUNS] [SECONDS] [TARGET...]
# runs each target (default: all five) in one process (-jobs=1 -workers=1)
# until RUNS executions (default 10,000,000) or SECONDS (default 0: no
# limit), whichever comes first, and prints per target the executions, the
# seconds, the executions a second and the findings. As in scripts/fuzz.sh,
# the committed corpus is only read; the scratch corpus and libFuzzer's log
# are kept in BUILD_DIR/fuzz-long/<target>/ (rerun from there to go on), a
# finding in BUILD_DIR/fuzz-long/<target>/ as crash-*, leak-*, timeout-*,
# oom-*. Build first:
#   CC=clang scripts/build.sh build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIT_FUZZ=ON
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=$(cd "$1" && pwd)
runs=${2:-10000000}
secs=${3:-0}
shift $(($# < 3 ? $# : 3))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(notation actions infer hub botline)
status=0
before=$(find fuzz/corpus -type f -exec sha1sum {} + | sort)
for target in "${targets[@]}"; do
  work=$dir/fuzz-long/$target
  mkdir -p "$work/corpus"
  dict=()
  [ -f "fuzz/$target.dict" ] && dict=(-dict="$root/fuzz/$target.dict")
  start=$(date +%s)
  # -jobs=1 runs the fuzzer in one child process whose output is fuzz-0.log
  # in the current directory
  if (cd "$work" && "$dir/fuzz/fuzz_$target" -jobs=1 -workers=1 -runs="$runs" \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 "${dict[@]}" \
        -print_final_stats=1 -artifact_prefix="$work/" \
        "$work/corpus" "$root/fuzz/corpus/$target" >/dev/null 2>&1); then
    found="none"
  else
    found="FINDING: $(ls "$work" | grep -E '^(crash|leak|timeout|oom)-' | tr '\n' ' ')"
    status=1
  fi
  elapsed=$(($(date +%s) - start))
  log=$work/fuzz-0.log
  done_runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
  rate=$(grep -E '^stat::average_exec_per_sec' "$log" | awk '{print $2}' || true)
  echo "fuzz_$target: ${done_runs:-?} executions in ${elapsed} s (${rate:-?} a second);" \
    "findings: $found"
done
if [ "$(find fuzz/corpus -type f -exec sha1sum {} + | sort)" != "$before" ]; then
  echo "fuzz: the committed corpus fuzz/corpus changed while fuzzing"
  status=1
fi
exit $status
