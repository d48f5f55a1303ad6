#!/usr/bin/env bash
# `lit serve` out of memory over real sockets: a scripted session (the page,
# /healthz, a room with a host, a player who sits, a spectator, bots, a whole
# game, a resume, the record) against `lit-fault-serve`, first counting the
# allocations of the server's layers and libraries (the hub, jansson,
# SQLite, libwebsockets), then failing one allocation a run
# (netfault_client.mjs says what each run must show). Every allocation is
# the long run of docs/RELIABILITY.md, "Fault injection":
#
#     node tests/integration/netfault_client.mjs build/release/tests/lit-fault-serve \
#       build/release/lit /tmp/netfault 1-
#
# Called as cli_netfault.sh LIT SOURCE_DIR FAULT_SERVE RUNS (the runs, as
# netfault_client.mjs takes them).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
serve=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
runs=$4
scripts/test_tools.sh ||
  { fail "scripts/test_tools.sh failed: no node or no ws for the clients"; finish cli_netfault; }
timeout 600 node tests/integration/netfault_client.mjs "$serve" "$lit" "$tmp" "$runs" \
  >"$tmp/client.out" 2>&1 || fail "out of memory over sockets: $(tail -40 "$tmp/client.out")"
grep -q "^ok: " "$tmp/client.out" || fail "no summary: $(tail -5 "$tmp/client.out")"
cat "$tmp/client.out" >&2
finish cli_netfault
