#!/usr/bin/env bash
# `lit serve` over loopback: protocol clients (serve_client.mjs, Node.js with
# npm's ws, from scripts/test_tools.sh) play whole games and send every kind
# of bad message; then SIGTERM must tell the clients to reconnect and stop the
# server cleanly.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. scripts/serve_port.sh
scripts/test_tools.sh ||
  { fail "scripts/test_tools.sh failed: no node or no ws for the clients"; finish cli_serve; }

# refusals of the command line
run 2 "$lit" serve --port 70000
grep -q "^lit: --port: not a port (0 to 65535): '70000'" "$tmp/err" || fail "--port 70000: $(cat "$tmp/err")"
run 2 "$lit" serve --bind localhost
grep -q "^lit: --bind: not an IPv4 address: 'localhost'" "$tmp/err" || fail "--bind: $(cat "$tmp/err")"
run 2 "$lit" serve --max-rooms 0
grep -q "^lit: --max-rooms: not a number from 1 to 100000: '0'" "$tmp/err" || fail "--max-rooms: $(cat "$tmp/err")"
for w in 0 65 two; do
  run 2 "$lit" serve --workers "$w"
  grep -q "^lit: --workers: not a number from 1 to 64: '$w'" "$tmp/err" || fail "--workers $w: $(cat "$tmp/err")"
  run 2 "$lit" serve --loops "$w"
  grep -q "^lit: --loops: not a number from 1 to 64: '$w'" "$tmp/err" || fail "--loops $w: $(cat "$tmp/err")"
done

"$lit" serve --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
port=$(served_port "$tmp/serve.out")
[ -n "$port" ] || { fail "no address printed: $(cat "$tmp/serve.out" "$tmp/serve.err")"; finish cli_serve; }

# the expert workers and the event loops: one a core each by default (issue 27)
cores=$(nproc)
[ "$cores" -gt 64 ] && cores=64
want="serve: $cores expert worker"
grep -q "^$want" "$tmp/serve.err" || fail "workers by default: $(grep workers "$tmp/serve.err")"
grep -q "on $cores event loop" "$tmp/serve.err" || fail "loops by default: $(grep loop "$tmp/serve.err")"

# it listens on IPv4 loopback only: a socket a loop (SO_REUSEPORT), each
# on 127.0.0.1
listen=$(ss -Hltn "sport = :$port" 2>/dev/null | awk '{print $4}' | sort -u)
[ "$listen" = "127.0.0.1:$port" ] || fail "listens on: $listen"
[ "$(ss -Hltn "sport = :$port" 2>/dev/null | wc -l)" = "$cores" ] ||
  fail "listening sockets: $(ss -Hltn "sport = :$port")"
# a second server on the port is refused, with one loop or several (whose
# SO_REUSEPORT would have let it share the port, the kernel spreading the
# clients over both servers)
for loops in 1 2; do
  run 1 timeout 10 "$lit" serve --port "$port" --loops "$loops"
  grep -qx "serve: cannot listen on 127.0.0.1:$port: Address already in use" "$tmp/err" ||
    fail "a second server on the port, --loops $loops: $(cat "$tmp/err")"
done

LIT_SECRETS="$tmp/secrets" timeout 300 node tests/integration/serve_client.mjs "$port" \
  >"$tmp/client.out" 2>&1 || fail "protocol clients: $(cat "$tmp/client.out")"

# the limits: a second server trusting loopback as its proxy
run 2 "$lit" serve --proxy example.org
grep -q "^lit: --proxy: not an IPv4 address: 'example.org'" "$tmp/err" || fail "--proxy: $(cat "$tmp/err")"
run 2 "$lit" serve --max-rate 0
grep -q "^lit: --max-rate: not a number from 1 to 100000: '0'" "$tmp/err" || fail "--max-rate: $(cat "$tmp/err")"
"$lit" serve --port 0 --proxy 127.0.0.1 --max-per-address 2 --max-rooms-per-address 1 \
  --max-rate 5 --workers 3 >"$tmp/limits.out" 2>"$tmp/limits.err" &
lpid=$!
lport=$(served_port "$tmp/limits.out")
grep -q "^serve: 3 expert workers and a review worker\( a loop\)\?, on $cores event loops\?$" \
  "$tmp/limits.err" || fail "--workers 3: $(grep workers "$tmp/limits.err")"
timeout 60 node tests/integration/serve_client.mjs "$lport" limits >"$tmp/client.out" 2>&1 ||
  fail "limits: $(cat "$tmp/client.out") $(tail -5 "$tmp/limits.err")"
kill -TERM "$lpid"
wait "$lpid"

# a finished game in review (replay, sheet, review): a server with a store,
# its figures against `lit infer` and `lit review` on the game's record
"$lit" serve --port 0 --db "$tmp/games.db" >"$tmp/review.out" 2>"$tmp/review.err" &
rpid=$!
rport=$(served_port "$tmp/review.out")
LIT="$lit" timeout 300 node tests/integration/serve_client.mjs "$rport" review \
  >"$tmp/client.out" 2>&1 ||
  fail "review: $(cat "$tmp/client.out") $(tail -5 "$tmp/review.err")"
kill -TERM "$rpid"
wait "$rpid" || fail "the review server's exit status: $?"

# SIGTERM: a connected client (in a room: it says so on stderr) is told to
# reconnect, and the server exits 0
timeout 20 node tests/integration/serve_client.mjs "$port" closing >"$tmp/stop.out" \
  2>"$tmp/stop.err" &
client=$!
for _ in $(seq 100); do
  grep -q "^in a room$" "$tmp/stop.err" && break
  sleep 0.1
done
grep -q "^in a room$" "$tmp/stop.err" ||
  fail "the SIGTERM client is in no room: $(cat "$tmp/stop.out" "$tmp/stop.err")"
kill -TERM "$pid"
wait "$pid"; rc=$?
[ "$rc" = 0 ] || fail "exit status after SIGTERM: $rc"
wait "$client"
[ "$(cat "$tmp/stop.out")" = "closing 1001" ] ||
  fail "on SIGTERM the client saw: $(cat "$tmp/stop.out" "$tmp/stop.err")"
# the log of whole games, chat, resumes and refusals holds none of the room
# codes, tokens, game ids, names, cards of a hand or chat lines the clients
# saw (docs/PROTOCOL.md; issue 27), each looked for as a whole word
[ "$(wc -l <"$tmp/secrets")" -gt 50 ] || fail "the clients saw few secrets: $(wc -l <"$tmp/secrets")"
grep -c "room #" "$tmp/serve.err" >/dev/null || fail "no room lines in the log: $(head "$tmp/serve.err")"
while IFS= read -r secret; do
  [ -n "$secret" ] || continue
  if grep -qwF -- "$secret" "$tmp/serve.err"; then
    fail "the log holds \"$secret\": $(grep -wF -- "$secret" "$tmp/serve.err" | head -3)"
    break
  fi
done <"$tmp/secrets"
# on a failure, the servers' logs (what they did, and any sanitizer report)
if [ "$failures" -ne 0 ]; then
  for f in serve.err limits.err review.err; do
    [ -s "$tmp/$f" ] || continue
    echo "--- the server's log ($f, last 60 lines):" >&2
    tail -60 "$tmp/$f" >&2
  done
fi
finish cli_serve
