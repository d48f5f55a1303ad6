#!/usr/bin/env bash
# test_tools.sh [--browser]: the test tools from npm (package-lock.json:
# ws for the protocol clients, playwright-core for the browser tests),
# installed with `npm ci` when node_modules does not match the lockfile; with
# --browser also Debian's chromium headless shell (the package
# chromium-headless-shell: Blink without the browser's own shell, which the
# browser tests run in). Node.js and npm come from Debian when missing. The
# product never needs any of this.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
if [ "${1:-}" = "--browser" ] && ! command -v chromium-headless-shell >/dev/null; then
  need+=(chromium-headless-shell)
fi
# by command, not by package: Node.js may come from outside Debian
[ ${#need[@]} -eq 0 ] || scripts/deps.sh --only "${need[@]}"

# the lockfile npm ci last installed is kept beside it: the same, nothing to do
if ! cmp -s package-lock.json node_modules/.lit-lock.json; then
  npm ci --no-audit --no-fund --loglevel=error >&2
  cp package-lock.json node_modules/.lit-lock.json
fi
