#!/usr/bin/env bash
# The main job: installs what is missing, builds, and plays a demonstration:
# a self-played game written as a record, then replayed event by event.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build/release -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
lit=build/release/lit
seed=${SEED:-$(( $(date +%s) % 100000 ))}
record=build/demo.lit
"$lit" selfplay --games 1 --seed "$seed" --record "$record" "$@" >/dev/null
"$lit" replay "$record"
echo
echo "that game is $record (seed $seed); replay it with: $lit replay $record"
echo "the engine benchmark, 20,000 games:"
"$lit" selfplay --games 20000 --seed 1
