#!/usr/bin/env bash
# The main job: installs what is missing, builds, and starts a game against
# bots (`lit play`; options pass through: scripts/run.sh --players 8 --bot
# expert). With --demo first instead: a self-played game written as a record
# and replayed event by event, then the engine benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build/release -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
lit=build/release/lit
if [ "${1:-}" != "--demo" ]; then
  exec "$lit" play --record build/last-game.lit "$@"
fi
shift
seed=${SEED:-$(( $(date +%s) % 100000 ))}
record=build/demo.lit
"$lit" selfplay --games 1 --seed "$seed" --record "$record" "$@" >/dev/null
"$lit" replay "$record"
echo
echo "that game is $record (seed $seed); replay it with: $lit replay $record"
echo "the engine benchmark, 20,000 games:"
"$lit" selfplay --games 20000 --seed 1
