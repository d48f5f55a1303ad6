#!/usr/bin/env bash
# The main job: installs what is missing, builds, and plays a demonstration:
# a self-played game written as a record, then replayed event by event.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh build/release -DCMAKE_BUILD_TYPE=Release -DLIT_TESTS=OFF >/dev/null
lit=build/release/lit
seed=${SEED:-$(( $(date +%s) % 100000 ))}
record=$(mktemp /tmp/literature-XXXXXX.lit)
trap 'rm -f "$record"' EXIT
"$lit" selfplay --games 1 --seed "$seed" --record "$record" "$@" >/dev/null
"$lit" replay "$record"
echo
echo "the record: $(cat "$record" | wc -l) lines; replay it with: $lit replay FILE"
"$lit" selfplay --games 20000 --seed 1
