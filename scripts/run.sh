#!/usr/bin/env bash
# The main job: installs what is missing, builds, and starts `lit serve`:
# online tables for friends and bots, with its games kept in build/lit.db;
# it prints the address to open in a browser (PORT=N for another port than
# 8080; options pass through: scripts/run.sh --bind 0.0.0.0). With --play
# first instead: a game against bots in this terminal (`lit play`; options
# pass through: scripts/run.sh --play --players 8 --bot expert). With --demo
# first: a self-played game written as a record and replayed event by event,
# then the engine benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build/release -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
lit=build/release/lit
case "${1:-}" in
--play)
  shift
  exec "$lit" play --record build/last-game.lit "$@"
  ;;
--demo) ;;
*)
  echo "open the address below in a browser; Ctrl-C stops the server (games are kept)"
  exec "$lit" serve --port "${PORT:-8080}" --db build/lit.db "$@"
  ;;
esac
shift
seed=${SEED:-$(( $(date +%s) % 100000 ))}
record=build/demo.lit
"$lit" selfplay --games 1 --seed "$seed" --record "$record" "$@" >/dev/null
"$lit" replay "$record"
echo
echo "that game is $record (seed $seed); replay it with: $lit replay $record"
echo "the engine benchmark, 20,000 games:"
"$lit" selfplay --games 20000 --seed 1
