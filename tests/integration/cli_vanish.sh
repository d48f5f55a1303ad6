#!/usr/bin/env bash
# `lit serve` and clients that vanish: half an upgrade or half a frame then
# a FIN or a reset, a seated member reset mid-frame, and reconnect storms of
# a whole table during a game (vanish_client.mjs). The server must stay up,
# free every connection (no client left on /healthz, no leak under ASan at
# its exit) and stop cleanly on SIGTERM.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh
scripts/test_tools.sh ||
  { fail "scripts/test_tools.sh failed: no node or no ws for the clients"; finish cli_vanish; }

"$lit" serve --port 0 --db "$tmp/lit.db" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
port=$(served_port "$tmp/serve.out")
[ -n "$port" ] || { fail "no address printed: $(cat "$tmp/serve.out" "$tmp/serve.err")"; finish cli_vanish; }
timeout 300 node tests/integration/vanish_client.mjs "$port" >"$tmp/client.out" 2>&1 ||
  fail "vanishing clients: $(cat "$tmp/client.out")"
grep -q "^ok: " "$tmp/client.out" || fail "vanishing clients: $(tail -3 "$tmp/client.out")"
kill -0 "$pid" 2>/dev/null || fail "the server is gone: $(tail -5 "$tmp/serve.err")"
kill -TERM "$pid"
wait "$pid" || fail "exit status after SIGTERM: $? ($(tail -5 "$tmp/serve.err"))"
grep -q "ERROR: AddressSanitizer\|runtime error" "$tmp/serve.err" &&
  fail "sanitizer: $(grep -m3 "AddressSanitizer\|runtime error" "$tmp/serve.err")"
finish cli_vanish
