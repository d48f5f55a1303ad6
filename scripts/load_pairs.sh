#!/usr/bin/env bash
# load_pairs.sh OLD_BUILD NEW_BUILD PAIRS [lit-load options]: the cost of an
# action of two builds measured as docs/BENCHMARKS.md asks, side by side in
# one run: PAIRS rounds of scripts/load.sh OLD_BUILD then NEW_BUILD, each
# with its own lit-load and the options given. OLD_ARGS and NEW_ARGS are
# each server's own options (LIT_SERVE_ARGS of load.sh; say NEW_ARGS="--loops
# 1", which a build older than event loops does not take). Prints each run's
# "server CPU over the window" line, then both medians of the microseconds an
# action and their ratio, with lscpu's model name. Exits non-zero when a run
# fails.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: scripts/load_pairs.sh OLD_BUILD NEW_BUILD PAIRS [lit-load options]}
new=${2:?usage: scripts/load_pairs.sh OLD_BUILD NEW_BUILD PAIRS [lit-load options]}
pairs=${3:?usage: scripts/load_pairs.sh OLD_BUILD NEW_BUILD PAIRS [lit-load options]}
shift 3
case $pairs in
'' | *[!0-9]* | 0) echo "load_pairs.sh: PAIRS must be a whole number of at least 1, not '$pairs'" >&2
  exit 2 ;;
esac
for b in "$old" "$new"; do
  if [ ! -x "$b/lit" ] || [ ! -x "$b/lit-load" ]; then
    echo "load_pairs.sh: $b has no lit and lit-load (build it first)" >&2
    exit 2
  fi
done
model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
echo "cpu: ${model:-unknown}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one run: its "server CPU" line, and the microseconds an action appended to
# the build's list
run() { # NAME BUILD ARGS [options]
  local name=$1 build=$2 args=$3 out="$tmp/out"
  shift 3
  if ! LIT_SERVE_ARGS="$args" scripts/load.sh "$build" "$@" >"$out" 2>&1; then
    echo "load_pairs.sh: the $name run failed:" >&2
    tail -5 "$out" >&2
    exit 1
  fi
  local line us
  line=$(grep -m1 '^server CPU over the window' "$out") ||
    { echo "load_pairs.sh: the $name run printed no server CPU line" >&2; exit 1; }
  us=$(sed -n 's/.* \([0-9][0-9]*\) us an action.*/\1/p' <<<"$line")
  echo "$name: $line"
  echo "$us" >>"$tmp/$name"
}
for ((i = 1; i <= pairs; i++)); do
  run old "$old" "${OLD_ARGS:-}" "$@"
  run new "$new" "${NEW_ARGS:-}" "$@"
done
median() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
mo=$(median "$tmp/old")
mn=$(median "$tmp/new")
awk -v o="$mo" -v n="$mn" -v p="$pairs" 'BEGIN {
  printf "medians over %d pairs: old %s us, new %s us an action: %.2f times less\n", p, o, n, o / n }'
