#!/usr/bin/env bash
# `lit serve`'s HTTP and WebSocket edge over raw sockets (http_client.py,
# Python 3): HEAD without the body, 405 with Allow for every other method
# (CONNECT too), the Host a request names (DNS rebinding: 403 unknown_host
# but for the server's own names and --host-name's), binary frames closed
# with 1003 text_only; a client that stops reading gets every frame, in
# order, when it reads again; and the log's lines for what was refused.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh
client=tests/integration/http_client.py

# refusals of the command line
run 2 "$lit" serve --host-name "evil example"
grep -q "^lit: --host-name: not a host name (letters, digits, '-' and '.', or an IP address; no port): 'evil example'$" \
  "$tmp/err" || fail "--host-name 'evil example': $(cat "$tmp/err")"
run 2 "$lit" serve --host-name fish.example.org:8443
grep -q "^lit: --host-name: not a host name (letters, digits, '-' and '.', or an IP address; no port): 'fish.example.org:8443'$" \
  "$tmp/err" || fail "--host-name with a port: $(cat "$tmp/err")"
run 2 "$lit" serve --host-name "[::1"
grep -q "^lit: --host-name: not a host name" "$tmp/err" || fail "--host-name '[::1': $(cat "$tmp/err")"
many=()
for i in $(seq 17); do many+=(--host-name "n$i.example"); done
run 2 "$lit" serve "${many[@]}"
grep -q "^lit: --host-name: at most 16 names$" "$tmp/err" || fail "17 --host-name: $(cat "$tmp/err")"

# a server with a name of its own (and an IPv6 one, to see both kinds taken)
"$lit" serve --port 0 --host-name fish.example.org --host-name "[2001:db8::1]" \
  >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
port=$(served_port "$tmp/serve.out")
[ -n "$port" ] || { fail "no address printed: $(cat "$tmp/serve.out" "$tmp/serve.err")"; finish cli_http; }
for case in methods binary slow; do
  timeout 300 "$python3" "$client" "$port" "$case" >"$tmp/client.out" 2>&1 ||
    fail "$case: $(cat "$tmp/client.out")"
done
# a peer that vanishes without a word is TCP's to find (gate.c): the
# server's side of a WebSocket has keepalive on, probing after 60 s idle
mkfifo "$tmp/hold.in"
"$python3" "$client" "$port" hold <"$tmp/hold.in" >"$tmp/hold.out" 2>&1 &
hold=$!
exec 7>"$tmp/hold.in"
for _ in $(seq 100); do
  grep -q "^open$" "$tmp/hold.out" && break
  sleep 0.1
done
timers=$(ss -Htno state established "( sport = :$port )" 2>&1)
case "$timers" in
  *"timer:(keepalive,"*) ;;
  *) fail "no keepalive on the server's side of a WebSocket: $timers $(cat "$tmp/hold.out")" ;;
esac
exec 7>&-
wait "$hold" || fail "hold: $(cat "$tmp/hold.out")"
for name in fish.example.org "[2001:db8::1]"; do
  timeout 300 "$python3" "$client" "$port" hosts "$name" >"$tmp/client.out" 2>&1 ||
    fail "hosts $name: $(cat "$tmp/client.out")"
done
# a name no --host-name gave
timeout 300 "$python3" "$client" "$port" none other.example >"$tmp/client.out" 2>&1 ||
  fail "none: $(cat "$tmp/client.out")"
# what refusals carry (a review found a refused HEAD's body sent, a refused
# upgrade without the security headers, a long :authority served, and an
# Origin's control bytes in the log)
timeout 300 "$python3" "$client" "$port" refusals fish.example.org >"$tmp/client.out" 2>&1 ||
  fail "refusals: $(cat "$tmp/client.out")"
kill -TERM "$pid"
wait "$pid" || fail "the server's exit status: $?"

# the log names what was refused, in one line each
for line in \
  "serve: refused a request for host evil.example: not a name of this server" \
  "serve: refused a request for host evil.example:$port: not a name of this server (an upgrade)" \
  "serve: refused a request for host other.example: not a name of this server (an upgrade)" \
  "serve: 127.0.0.1: binary frame: closed" \
  "serve: refused a WebSocket from origin http://a?[31mRED?"; do
  grep -qxF -- "$line" "$tmp/serve.err" || fail "no line in the log: $line"
done

# a server without --host-name: the loopback's names only
"$lit" serve --port 0 >"$tmp/plain.out" 2>"$tmp/plain.err" &
ppid=$!
pport=$(served_port "$tmp/plain.out")
timeout 300 "$python3" "$client" "$pport" none fish.example.org >"$tmp/client.out" 2>&1 ||
  fail "none fish.example.org: $(cat "$tmp/client.out")"
kill -TERM "$ppid"
wait "$ppid" || fail "the second server's exit status: $?"

# a server listening on another loopback address: its address is a name of
# its own, and the others are not
"$lit" serve --port 0 --bind 127.0.0.2 >"$tmp/bound.out" 2>"$tmp/bound.err" &
bpid=$!
for _ in $(seq 100); do
  grep -q "^serving on" "$tmp/bound.out" && break
  sleep 0.1
done
bport=$(sed -n 's|^serving on http://127\.0\.0\.2:\([0-9]*\)/$|\1|p' "$tmp/bound.out")
if [ -n "$bport" ]; then
  LIT_HTTP_ADDR=127.0.0.2 timeout 300 "$python3" "$client" "$bport" bound 127.0.0.3:"$bport" \
    >"$tmp/client.out" 2>&1 || fail "bound: $(cat "$tmp/client.out")"
else
  fail "--bind 127.0.0.2: no address printed: $(cat "$tmp/bound.out" "$tmp/bound.err")"
fi
kill -TERM "$bpid"
wait "$bpid" || fail "the third server's exit status: $?"

if [ "$failures" -ne 0 ]; then
  for f in serve.err plain.err bound.err; do
    [ -s "$tmp/$f" ] || continue
    echo "--- the server's log ($f, last 40 lines):" >&2
    tail -40 "$tmp/$f" >&2
  done
fi
finish cli_http
