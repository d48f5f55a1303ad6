#!/usr/bin/env bash
# cli_bench.sh LIT SOURCE_DIR - `lit bench` prints the behaviour signature
# committed in bench/signature: a fixed workload, so any change of what the
# engine or the self-play policy does changes the line.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

signature=$src/bench/signature
if [ ! -f "$signature" ]; then
  echo "FAIL: $signature is missing: create it with \`lit bench > bench/signature\`" >&2
  exit 1
fi

rc=0
"$lit" bench >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" != 0 ]; then
  fail "lit bench: exit status $rc"
  sed 's/^/    stderr: /' "$tmp/err" >&2
fi
if [ "$(cksum <"$signature")" != "$(cksum <"$tmp/out")" ]; then
  fail "lit bench does not print bench/signature"
  echo "    bench/signature: $(cat "$signature")" >&2
  echo "    lit bench:       $(cat "$tmp/out")" >&2
  echo "  the behaviour changed: if on purpose, update bench/signature in the same commit" >&2
fi
if ! grep -Eqx 'bench: [0-9]+ actions in [0-9]+ games, signature [0-9a-f]{16}' "$tmp/out"; then
  fail "lit bench: not one signature line: $(cat "$tmp/out")"
fi
# Timing goes to stderr only, on one line.
if ! grep -Eqx 'bench: [0-9.]+ s, .* actions/s' "$tmp/err"; then
  fail "lit bench: stderr is not the timing line: $(cat "$tmp/err")"
fi

rc=0
"$lit" bench extra >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "lit bench extra: exit status $rc, want 2"
[ ! -s "$tmp/out" ] || fail "lit bench extra: printed to stdout"

rc=0
"$lit" bench --help >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "lit bench --help: exit status $rc, want 0"
[ "$(head -n 1 "$tmp/out")" = "usage: lit bench [--know | --odds] [--games N] [--players N]" ] || fail "lit bench --help: $(head -n 1 "$tmp/out")"

# --know times certain knowledge: a header and one line per player count.
run 0 "$lit" bench --know --games 10
[ "$(head -n 1 "$tmp/out")" = "players  updates  seconds  us/update" ] ||
  fail "bench --know: header: $(head -n 1 "$tmp/out")"
[ "$(awk 'NR > 1 && $1 ~ /^(4|6|8|10|12)$/ && $4 > 0' "$tmp/out" | wc -l)" = 5 ] ||
  fail "bench --know: not five lines of figures"

# --odds times exact counting.
run 0 "$lit" bench --odds --games 1 --players 4
[ "$(head -n 1 "$tmp/out")" = "players  positions  beyond  median_ms  p90_ms  worst_ms" ] ||
  fail "bench --odds: header: $(head -n 1 "$tmp/out")"
[ "$(awk 'NR > 1 && $1 == 4 && $2 > 0' "$tmp/out" | wc -l)" = 1 ] ||
  fail "bench --odds: no line of figures for 4 players"
run 2 "$lit" bench --odds --players 5
run 2 "$lit" bench --odds --know

finish cli_bench
