#!/usr/bin/env bash
# load.sh BUILD_DIR [lit-load options]: a `lit serve` on a free loopback
# port pinned to core 1, and lit-load (tools/load.c) pinned to core 0 with
# the options given (docs/BENCHMARKS.md); LIT_SERVE_ARGS adds options to the
# server's. Exits with lit-load's status.
set -euo pipefail
. "$(dirname "$0")/serve_port.sh"
build=${1:?usage: scripts/load.sh BUILD_DIR [lit-load options]}
shift
# six sockets a client on each side: raise the open-file limit to the hard one
ulimit -n "$(ulimit -Hn)"
tmp=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT
# taskset execs its command, so $! is the server's own pid (for its memory)
pin0=() pin1=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin0=(taskset -c 0) pin1=(taskset -c 1)
fi
# LIT_SERVE_ARGS: more options for the server (say --loops 1)
# shellcheck disable=SC2086
"${pin1[@]}" "$build/lit" serve --port 0 --max-rooms 100000 ${LIT_SERVE_ARGS:-} >"$tmp/out" 2>"$tmp/err" &
server=$!
port=$(served_port "$tmp/out")
[ -n "$port" ] || { echo "load.sh: the server did not start: $(cat "$tmp/err")" >&2; exit 1; }
rc=0
"${pin0[@]}" "$build/lit-load" --port "$port" --server-pid "$server" "$@" || rc=$?
kill -TERM "$server"
wait "$server" || { echo "load.sh: the server did not stop cleanly" >&2; rc=1; }
server=
if grep -q "AddressSanitizer\|LeakSanitizer\|ThreadSanitizer\|runtime error" "$tmp/err"; then
  grep -m5 "AddressSanitizer\|LeakSanitizer\|ThreadSanitizer\|runtime error" "$tmp/err" >&2
  rc=1
fi
exit "$rc"
