#!/usr/bin/env bash
# Limits and abuse of `lit serve` over real sockets (docs/RELIABILITY.md,
# "Limits and abuse"): abuse_client.mjs (Node.js with npm's ws, from
# scripts/test_tools.sh) opens thousands of connections from one address,
# floods messages, guesses room codes, tokens and game ids, acts for seats
# not its own and reuses tokens, against a server with the default limits;
# every refusal by its exact name. Then the server must stop cleanly (under
# ASan: no leak).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh
scripts/test_tools.sh ||
  { fail "scripts/test_tools.sh failed: no node or no ws for the clients"; finish cli_abuse; }
# two thousand sockets at once: a file each, in the server and in the client
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)"
[ "$(ulimit -n)" -ge 2500 ] || { fail "cannot open 2,500 files (ulimit -n $(ulimit -n))"; finish cli_abuse; }

"$lit" serve --port 0 --db "$tmp/lit.db" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
port=$(served_port "$tmp/serve.out")
[ -n "$port" ] || { fail "no address printed: $(cat "$tmp/serve.out" "$tmp/serve.err")"; finish cli_abuse; }
timeout 200 node tests/integration/abuse_client.mjs "$port" "$pid" >"$tmp/client.out" 2>&1 ||
  fail "abuse clients: $(cat "$tmp/client.out") $(tail -5 "$tmp/serve.err")"
cat "$tmp/client.out"
kill -TERM "$pid"
wait "$pid"; rc=$?
[ "$rc" = 0 ] || fail "exit status after SIGTERM: $rc: $(grep -m5 "Sanitizer\|runtime error" "$tmp/serve.err")"
finish cli_abuse
