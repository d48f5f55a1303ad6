#!/usr/bin/env bash
# `lit serve --loops 2` (docs/SCALING.md, "Every core"): rooms on both
# loops, members joining and resuming rooms of the other loop from `/` and
# at `/room/CODE`, the lobby and a game seen alike across them, the limits
# of an address across them, and kill -9 then a restart with two loops
# (loops_client.py). cli_serve and the rest run with the default, one loop
# a core.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh

start() { # start NAME ARGS...: a server on a free port, its port in $port
  local name=$1
  shift
  "$lit" serve --port 0 --loops 2 --max-rooms-per-address 40 "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pid=$!
  port=$(served_port "$tmp/$name.out")
  [ -n "$port" ] || { fail "$name: no address printed: $(cat "$tmp/$name.err")"; finish cli_loops; }
}

start serve --db "$tmp/lit.db" --max-per-address 64 --max-rate 100000
grep -q "on 2 event loops$" "$tmp/serve.err" || fail "two loops: $(grep loop "$tmp/serve.err")"
[ "$(ss -Hltn "sport = :$port" 2>/dev/null | wc -l)" = 2 ] ||
  fail "a listening socket a loop: $(ss -Hltn "sport = :$port")"
timeout 120 "$python3" tests/integration/loops_client.py "$port" rooms "$tmp/state.json" ||
  fail "rooms across the loops"
timeout 120 "$python3" tests/integration/loops_client.py "$port" resume "$tmp/state.json" ||
  fail "resumes across the loops"
rooms=$("$python3" -c "import sys, urllib.request as u; print(u.urlopen('http://127.0.0.1:%s/healthz' % sys.argv[1]).read().decode())" "$port")
# 16 made; the one of the bots-only game closed when its last member (a
# spectator, its host) went
case $rooms in *'"rooms":15,'*) ;; *) fail "healthz counts both loops' rooms: $rooms" ;; esac

# kill -9, and a new server of two loops takes every room up: each loop its own
kill -9 "$pid"
wait "$pid" 2>/dev/null
start again --db "$tmp/lit.db" --max-per-address 64
grep -q "^serve: 15 rooms taken up from the store$" "$tmp/again.err" ||
  fail "taken up: $(grep taken "$tmp/again.err")"
timeout 120 "$python3" tests/integration/loops_client.py "$port" resume "$tmp/state.json" ||
  fail "resumes after kill -9"
kill -TERM "$pid"
wait "$pid" || fail "the restarted server did not stop cleanly"

# the limits of an address, across the loops
start limits --max-per-address 4 --max-rooms-per-address 2
timeout 60 "$python3" tests/integration/loops_client.py "$port" limits || fail "limits across the loops"
kill -TERM "$pid"
wait "$pid" || fail "the limits' server did not stop cleanly"
for f in serve again limits; do
  if grep -q "AddressSanitizer\|LeakSanitizer\|runtime error\|ThreadSanitizer" "$tmp/$f.err"; then
    fail "$f: $(grep -m3 "AddressSanitizer\|LeakSanitizer\|runtime error\|ThreadSanitizer" "$tmp/$f.err")"
  fi
done
finish cli_loops
