#!/usr/bin/env bash
# `lit serve` under valgrind's memcheck, in the normal build only (a
# sanitizer build cannot run under valgrind): with a store, a protocol
# client's smoke run (serve_client.mjs smoke: a game against expert bots,
# whose decisions are made on the worker thread, watched by a spectator; a
# connection cut with no close frame and its seat resumed with a catchup; an
# aid; refused messages; the record and the page over HTTP), then SIGTERM
# with two clients in the room. Then a second server on the same store takes
# the room up and stops. Any invalid access, use of uninitialised memory, or
# memory definitely or indirectly lost fails the test. tests/valgrind.supp
# holds the suppressions: system libraries only, each explained.
# Exit 77 (skipped) only when valgrind is missing and cannot be installed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh
command -v valgrind >/dev/null || scripts/deps.sh --only valgrind >&2
if ! command -v valgrind >/dev/null; then
  echo "cli_valgrind: SKIPPED: valgrind is not installed and scripts/deps.sh could not install it" >&2
  exit 77
fi
scripts/test_tools.sh ||
  { fail "scripts/test_tools.sh failed: no node or no ws for the client"; finish cli_valgrind; }

# vg NAME ARGS...: lit ARGS under memcheck in the background ($vg: its pid),
# its log in $tmp/NAME.vg, its output in $tmp/NAME.out and .err
vg() {
  local name=$1
  shift
  valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
    --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --num-callers=40 \
    --suppressions="$src/tests/valgrind.supp" --gen-suppressions=all \
    --log-file="$tmp/$name.vg" "$lit" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  vg=$!
}

# stop NAME PID: SIGTERM, then the exit status must be 0 and the log clean
stop() {
  local rc=0
  kill -TERM "$2"
  wait "$2" || rc=$?
  [ "$rc" = 0 ] || fail "$1: exit status $rc after SIGTERM (99: valgrind found errors)"
  if ! grep -q "ERROR SUMMARY: 0 errors" "$tmp/$1.vg"; then
    fail "$1: valgrind's report:"
    grep -v "^==[0-9]*== *$" "$tmp/$1.vg" | sed -n '/ERROR SUMMARY\|Invalid\|uninitialised\|lost in/,+25p' |
      head -120 >&2
  fi
}

# the port, waited for longer than served_port does: valgrind starts slowly
port_of() {
  for _ in $(seq 60); do
    grep -q "^serving on" "$1" && break
    sleep 0.5
  done
  served_port "$1"
}

# --max-rate: the client acts the moment its turn comes, and a game against
# bots of pace 0 can pass the default 20 messages a second (the limits are
# cli_serve's and cli_abuse's to test)
vg smoke serve --port 0 --db "$tmp/lit.db" --max-rate 1000
pid=$vg
port=$(port_of "$tmp/smoke.out")
[ -n "$port" ] || { fail "no address printed: $(cat "$tmp/smoke.err" "$tmp/smoke.vg")"; finish cli_valgrind; }
timeout 120 node tests/integration/serve_client.mjs "$port" smoke >"$tmp/client.out" \
  2>"$tmp/client.err" &
client=$!
for _ in $(seq 1200); do
  grep -q "^in a room$" "$tmp/client.err" && break
  kill -0 "$client" 2>/dev/null || break
  sleep 0.1
done
grep -q "^in a room$" "$tmp/client.err" ||
  fail "the smoke client: $(cat "$tmp/client.out" "$tmp/client.err")"
stop smoke "$pid"
wait "$client" || fail "the smoke client: $(cat "$tmp/client.out" "$tmp/client.err")"
[ "$(cat "$tmp/client.out")" = "closing 1001" ] ||
  fail "on SIGTERM the client saw: $(cat "$tmp/client.out" "$tmp/client.err")"

# the room taken up again from the store
vg again serve --port 0 --db "$tmp/lit.db"
pid=$vg
port_of "$tmp/again.out" >/dev/null
grep -q "^serve: 1 rooms taken up from the store$" "$tmp/again.err" ||
  fail "taken up: $(cat "$tmp/again.err")"
stop again "$pid"
finish cli_valgrind
