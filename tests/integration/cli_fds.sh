#!/usr/bin/env bash
# `lit serve` out of file handles, and half-open handshakes (fds_client.py,
# Python 3, loopback only): started with a low open-file limit, the server
# keeps 8 handshakes not over from one address and closes the rest at once,
# closes a handshake after 5 s without a request, logs at most a line a
# second while out of handles (libwebsockets' listener logged "accept: errno
# 24" millions of times a minute), and serves a client once handles free.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh

(ulimit -n 64 && exec "$lit" serve --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err") &
pid=$!
port=$(served_port "$tmp/serve.out")
[ -n "$port" ] || { fail "no address printed: $(cat "$tmp/serve.out" "$tmp/serve.err")"; finish cli_fds; }
timeout 300 "$python3" tests/integration/fds_client.py "$port" "$tmp/serve.err" >"$tmp/client.out" 2>&1 ||
  fail "half-open handshakes: $(cat "$tmp/client.out"; tail -5 "$tmp/serve.err")"
cat "$tmp/client.out"
kill -TERM "$pid"
wait "$pid" || fail "the server's exit status: $?"
lines=$(wc -l <"$tmp/serve.err")
[ "$lines" -lt 100 ] || fail "the log has $lines lines"
finish cli_fds
