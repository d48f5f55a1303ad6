#!/usr/bin/env bash
# The load test's short run (docs/BENCHMARKS.md): 100 tables of six protocol
# clients (tools/load.c) against `lit serve`, each pinned to its own core,
# for 20 seconds at an action a second a table. Every action must come back
# to all six clients, with no error frame and no connection lost; the
# figures are printed (the full run, 1,000 tables, is a documented command).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
load="$(dirname "$lit")/lit-load"

# refusals of the command line
run 2 "$load" --tables 5
grep -q "^usage: lit-load" "$tmp/err" || fail "no --port: $(cat "$tmp/err")"
run 2 "$load" --port 1 --tables x
grep -q "^usage: lit-load" "$tmp/err" || fail "--tables x: $(cat "$tmp/err")"

scripts/load.sh "$(dirname "$lit")" --tables 100 --seconds 20 >"$tmp/load.out" 2>"$tmp/load.err" ||
  fail "load: $(cat "$tmp/load.out" "$tmp/load.err")"
cat "$tmp/load.out"
grep -q "^actions [0-9]* (.*errors 0, connections lost 0$" "$tmp/load.out" ||
  fail "load: $(cat "$tmp/load.out")"
finish cli_load
