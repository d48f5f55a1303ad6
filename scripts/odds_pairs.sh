#!/usr/bin/env bash
# odds_pairs.sh OLD_LIT NEW_LIT RECORD AFTER PAIRS [--memory MIB]: the
# exact counting of two builds at one position, measured as
# docs/BENCHMARKS.md asks, side by side in one run: PAIRS rounds of
# `lit bench --odds --repeat 5` over RECORD cut after AFTER actions (every
# position up to it), OLD_LIT then NEW_LIT, each reading the fastest of
# five countings at --after AFTER from seat 1. With --memory MIB, a loop
# writing MIB MiB over and over runs on the first core and both builds on
# the second: the memory traffic of a neighbour, which slows this
# program's passes over its tables the way this machine's slow spells do
# (docs/DEDUCTION.md, "Where the time goes", item 21). Prints every pair,
# then each build's fastest and median reading, the median of the pairs'
# ratios (new over old) and its quartiles, with lscpu's model name.
set -euo pipefail
usage="usage: scripts/odds_pairs.sh OLD_LIT NEW_LIT RECORD AFTER PAIRS [--memory MIB]"
old=${1:?$usage}
new=${2:?$usage}
record=${3:?$usage}
after=${4:?$usage}
pairs=${5:?$usage}
memory=0
if [ $# -ge 7 ] && [ "$6" = --memory ]; then
  memory=$7
elif [ $# -ne 5 ]; then
  echo "$usage" >&2
  exit 2
fi
for n in "$after" "$pairs" "$memory"; do
  case $n in
  '' | *[!0-9]*) echo "odds_pairs.sh: '$n' is not a whole number" >&2
    exit 2 ;;
  esac
done
[ "$pairs" -ge 1 ] || { echo "odds_pairs.sh: PAIRS must be at least 1" >&2; exit 2; }
for b in "$old" "$new"; do
  [ -x "$b" ] || { echo "odds_pairs.sh: $b is not a program" >&2; exit 2; }
done
[ -f "$record" ] || { echo "odds_pairs.sh: $record: no such record" >&2; exit 2; }
model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
echo "cpu: ${model:-unknown}"
tmp=$(mktemp -d)
hog=
cleanup() {
  [ -z "$hog" ] || kill "$hog" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
# the record up to its AFTER-th action: its tags, then that many action lines
awk -v n="$after" '/^\[/ { if ($1 != "[Result" && $1 != "[Score") print; next }
  NF && n > 0 { if (!moves++) print ""; print; n-- }' "$record" > "$tmp/cut.lit"
pin=
if [ "$memory" -gt 0 ]; then
  cat > "$tmp/memory.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    size_t n = (size_t)atol(argv[1]) << 20;
    unsigned char *p = malloc(n);
    for (unsigned x = 0; p; x++) {
        memset(p, (int)(x & 255), n);
        __asm__ volatile("" : : "r"(p) : "memory"); /* (the writes are kept) */
    }
    return 1;
}
EOF
  cc -O2 -o "$tmp/memory" "$tmp/memory.c"
  taskset -c 0 "$tmp/memory" "$memory" &
  hog=$!
  pin="taskset -c 1"
  sleep 1
fi
reading() {
  $pin "$1" bench --odds --corpus "$tmp/cut.lit" --repeat 5 --slowest 6 2>&1 |
    awk -v p="$after" '/^slow:/ && $8 == p { print $2 }'
}
: > "$tmp/pairs"
for _ in $(seq "$pairs"); do
  a=$(reading "$old")
  b=$(reading "$new")
  if [ -z "$a" ] || [ -z "$b" ]; then
    echo "odds_pairs.sh: --after $after is not among the slowest positions of the cut record" >&2
    exit 1
  fi
  echo "$a $b" | tee -a "$tmp/pairs"
done
python3 - "$tmp/pairs" <<'EOF'
import statistics as st, sys
rows = [tuple(map(float, l.split())) for l in open(sys.argv[1])]
r = sorted(b / a for a, b in rows)
q = st.quantiles(r, n=4) if len(r) > 1 else [r[0], r[0], r[0]]
print("old: fastest %.1f ms, median %.1f | new: fastest %.1f ms, median %.1f | "
      "new/old: median %.3f, quartiles %.3f %.3f (%d pairs)" %
      (min(a for a, _ in rows), st.median(a for a, _ in rows),
       min(b for _, b in rows), st.median(b for _, b in rows),
       st.median(r), q[0], q[2], len(rows)))
EOF
