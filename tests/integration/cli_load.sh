#!/usr/bin/env bash
# The load test's short run (docs/BENCHMARKS.md, docs/RELIABILITY.md "Load
# and soak"): 100 tables of six protocol clients (tools/load.c) against
# `lit serve`, each pinned to its own core, for 20 seconds at an action a
# second a table, with 6 drops a table a minute (clean and abrupt, each
# client resuming from the last seq it saw). Every action must come back to
# all six clients, with no error frame, no connection lost but those the
# tool dropped, no inconsistent catchup or seq, and no table stalled; the
# figures are printed (the full runs, 1,000 tables, are documented commands).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
load="$(dirname "$lit")/lit-load"

# refusals of the command line
run 2 "$load" --tables 5
grep -q "^usage: lit-load" "$tmp/err" || fail "no --port: $(cat "$tmp/err")"
run 2 "$load" --port 1 --tables x
grep -q "^usage: lit-load" "$tmp/err" || fail "--tables x: $(cat "$tmp/err")"
run 2 "$load" --port 1 --drops x
grep -q "^usage: lit-load" "$tmp/err" || fail "--drops x: $(cat "$tmp/err")"
run 2 "$load" --port 1 --away-ms 10
grep -q "^usage: lit-load" "$tmp/err" || fail "--away-ms 10: $(cat "$tmp/err")"

scripts/load.sh "$(dirname "$lit")" --tables 100 --seconds 20 --drops 6 >"$tmp/load.out" \
  2>"$tmp/load.err" || fail "load: $(cat "$tmp/load.out" "$tmp/load.err")"
cat "$tmp/load.out"
grep -q "^actions [0-9]* (.*errors 0, connections lost 0, inconsistent 0, stalled 0$" \
  "$tmp/load.out" || fail "load: $(cat "$tmp/load.out")"
# the drops happened, and were resumed, caught up and acted again
n='[1-9][0-9]*'
grep -q "^drops $n ($n clean, $n abrupt), reconnections $n: .*; catchups $n .* sent again $n (" \
  "$tmp/load.out" || fail "drops: $(cat "$tmp/load.out")"
finish cli_load
