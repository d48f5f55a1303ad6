#!/usr/bin/env bash
# cli_bench.sh LIT SOURCE_DIR - `lit bench` prints the behaviour signature
# committed in bench/signature: a fixed workload, so any change of what the
# engine or the self-play policy does changes the line.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

signature=$src/bench/signature
if [ ! -f "$signature" ]; then
  echo "FAIL: $signature is missing: create it with \`lit bench > bench/signature\`" >&2
  exit 1
fi

# The signature's workload is the normal build's check. Under the
# sanitizers (LIT_SANITIZED, tests/CMakeLists.txt) it took 60 to 70 s of a
# suite that must end within 15 minutes, and what it runs is run there by
# tests of its own: the engine (test_property, cli_selfplay), the
# deduction along games (test_infer_games) and the bots (test_bot,
# test_master, cli_arena).
if [ "${LIT_SANITIZED:-0}" != 1 ]; then
  rc=0
  "$lit" bench >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" != 0 ]; then
    fail "lit bench: exit status $rc"
    sed 's/^/    stderr: /' "$tmp/err" >&2
  fi
  if [ "$(cksum <"$signature")" != "$(cksum <"$tmp/out")" ]; then
    fail "lit bench does not print bench/signature"
    echo "    bench/signature: $(cat "$signature")" >&2
    echo "    lit bench:       $(cat "$tmp/out")" >&2
    echo "  the behaviour changed: if on purpose, update bench/signature in the same commit" >&2
  fi
  if ! grep -Eqx 'bench: [0-9]+ actions in [0-9]+ games, signature [0-9a-f]{16}' "$tmp/out"; then
    fail "lit bench: not one signature line: $(cat "$tmp/out")"
  fi
  # Timing goes to stderr only, on one line.
  if ! grep -Eqx 'bench: [0-9.]+ s, .* actions/s' "$tmp/err"; then
    fail "lit bench: stderr is not the timing line: $(cat "$tmp/err")"
  fi
fi

# --decisions: one line per player count, the bot's decisions timed.
run 0 "$lit" bench --decisions --games 1 --players 4 --bot expert:2
grep -q '^bot expert:2 against basic, classic rules$' "$tmp/out" || fail "bench --decisions: no header: $(cat "$tmp/out")"
grep -Eq '^ +4 +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$tmp/out" || fail "bench --decisions: no figures: $(cat "$tmp/out")"
run 2 "$lit" bench --decisions --bot grandmaster
same_text "bench --bot grandmaster" "lit: --bot: unknown_bot: there is no bot of that name: 'grandmaster'" "$tmp/err"
run 0 "$lit" bench --decisions --games 1 --players 4 --bot basic --against master:2
grep -q '^bot basic against master:2, classic rules$' "$tmp/out" || fail "bench --decisions --against: no header: $(cat "$tmp/out")"
run 2 "$lit" bench --decisions --against grandmaster
same_text "bench --against grandmaster" "lit: --against: unknown_bot: there is no bot of that name: 'grandmaster'" "$tmp/err"
run 2 "$lit" bench --decisions --against cmd:true
same_text "bench --against cmd:true" "lit: --against: unknown_bot: there is no bot of that name: 'cmd:true'" "$tmp/err"

rc=0
"$lit" bench extra >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "lit bench extra: exit status $rc, want 2"
[ ! -s "$tmp/out" ] || fail "lit bench extra: printed to stdout"

rc=0
"$lit" bench --help >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" = 0 ] || fail "lit bench --help: exit status $rc, want 0"
[ "$(head -n 1 "$tmp/out")" = "usage: lit bench [--know | --odds [--sample] [--coverage] | --decisions]" ] || fail "lit bench --help: $(head -n 1 "$tmp/out")"

# --know times certain knowledge: a header and one line per player count.
run 0 "$lit" bench --know --games 10
[ "$(head -n 1 "$tmp/out")" = "players  updates  seconds  us/update" ] ||
  fail "bench --know: header: $(head -n 1 "$tmp/out")"
[ "$(awk 'NR > 1 && $1 ~ /^(4|6|8|10|12)$/ && $4 > 0' "$tmp/out" | wc -l)" = 5 ] ||
  fail "bench --know: not five lines of figures"

# --odds times exact counting.
header="players  positions  exact  median_ms  p90_ms  worst_ms  beyond  est_median_ms  est_max_se_median"
run 0 "$lit" bench --odds --games 1 --players 4
[ "$(head -n 1 "$tmp/out")" = "$header" ] || fail "bench --odds: header: $(head -n 1 "$tmp/out")"
[ "$(awk 'NR > 1 && $1 == 4 && $2 > 0 && $2 == $3' "$tmp/out" | wc -l)" = 1 ] ||
  fail "bench --odds: no line of figures for 4 players, every position exact"
run 2 "$lit" bench --odds --players 5
same_text "--players 5" "lit: --players: 4, 6, 8, 10 or 12, not '5'" "$tmp/err"
run 2 "$lit" bench --odds --know
same_text "--odds --know" "lit: bench: one of --know, --odds (--sample and --coverage add to it), --decisions" "$tmp/err"

# --sample also times exact sampling; --corpus reads records, folders or
# files; --public takes the public view; beyond the budget (12 players,
# early) the estimates are timed.
run 0 "$lit" bench --sample --corpus tests/data/example.lit --corpus tests/data/complete.lit
[ "$(head -n 1 "$tmp/out")" = "$header  draws_per_s  sampler_init_ms" ] ||
  fail "bench --sample: header: $(head -n 1 "$tmp/out")"
[ "$(awk 'NR > 1 && ($1 == 4 && $2 == 11 || $1 == 6 && $2 == 9) && $11 > 0' "$tmp/out" | wc -l)" = 2 ] ||
  fail "bench --sample: not the 11 positions of complete.lit and the 9 of example.lit"
run 0 "$lit" bench --odds --public --corpus bench/corpus/12 --games 1 --samples 100
[ "$(awk 'NR == 2 && $1 == 12 && $7 > 0 && $9 > 0' "$tmp/out" | wc -l)" = 1 ] ||
  fail "bench --odds --public at 12 players: no estimates timed: $(cat "$tmp/out")"
# ... and the slowest of the positions past the budget, named to be timed again
grep -Eq '^beyond: +12 +[0-9]+ +[0-9.]+  bench/corpus/12/[0-9]+\.lit --after [0-9]+ --public$' "$tmp/out" ||
  fail "bench --odds --public at 12 players: no position named past the budget: $(grep beyond "$tmp/out")"
# --coverage: the estimate beside the exact figures at exact positions,
# as shares of figures within 1, 1.96, 2, 2.023 and 3 standard errors (rising)
run 0 "$lit" bench --coverage --corpus bench/corpus/10 --games 2 --samples 200
awk '$1 == "coverage:" && $2 == 10 && $3 > 0 && $4 > 0 && $5 <= $6 && $6 <= $7 && $7 <= $8 &&
     $8 <= $9 && $9 <= 1 { ok = 1 } END { exit !ok }' "$tmp/out" ||
  fail "bench --coverage: $(grep coverage "$tmp/out")"
run 1 "$lit" bench --odds --corpus "$tmp/none"
same_text "--corpus missing" "lit: $tmp/none: cannot open the folder" "$tmp/err"
mkdir "$tmp/empty"
run 1 "$lit" bench --odds --corpus "$tmp/empty"
same_text "--corpus empty" "lit: $tmp/empty: no record (*.lit) in the folder" "$tmp/err"
mkdir "$tmp/bad" && cp tests/data/no_deal.lit "$tmp/bad/"
run 1 "$lit" bench --odds --corpus "$tmp/bad"
same_text "--corpus without a deal" "lit: $tmp/bad/no_deal.lit: not a record with its deal" "$tmp/err"
# a record whose deal the counting cannot take stops the bench (it was
# skipped: a table of the rest, or an empty one, and exit 0)
for mode in --odds --sample --coverage; do
  run 1 "$lit" bench "$mode" --corpus tests/data/uneven_deal.lit
  same_text "--corpus of an uneven deal ($mode)" \
    "tests/data/uneven_deal.lit:7: bad_deal: seat 1 holds 13 cards, where the deal (one card at a time from the dealer's left) gives it 12: the counting and the bots take only a dealt game" \
    "$tmp/err"
done
run 2 "$lit" bench --public
same_text "--public alone" "lit: bench: --public goes with --odds, --sample or --coverage" "$tmp/err"
# every option a mode does not take is refused by name, not ignored
run 2 "$lit" bench --know --corpus tests/data/example.lit --games 1
same_text "--know --corpus" "lit: bench: --corpus goes with --odds, --sample or --coverage" "$tmp/err"
run 2 "$lit" bench --odds --bot master --games 1
same_text "--odds --bot" "lit: bench: --bot goes with --decisions" "$tmp/err"
run 2 "$lit" bench --decisions --slowest 3 --games 1
same_text "--decisions --slowest" "lit: bench: --slowest goes with --odds, --sample or --coverage" "$tmp/err"
run 2 "$lit" bench --players 8
same_text "the signature's workload --players" \
  "lit: bench: --players goes with --know, --odds, --sample, --coverage or --decisions" "$tmp/err"
run 2 "$lit" bench --know --decisions
same_text "two modes" "lit: bench: one of --know, --odds (--sample and --coverage add to it), --decisions" "$tmp/err"
run 2 "$lit" bench --odds --samples 5
same_text "--samples 5" "lit: --samples: a number from 80 to 200000, not '5'" "$tmp/err"

# --slowest N lists the slowest exact positions, slowest first, each as the
# record and the lit infer options that show it again.
run 0 "$lit" bench --odds --corpus tests/data/complete.lit --corpus tests/data/example.lit --slowest 3
[ "$(grep -c '^slow: ' "$tmp/out")" = 3 ] || fail "bench --slowest 3: not three lines: $(cat "$tmp/out")"
grep -Eq '^slow: [0-9.]+ ms  (4|6) players  tests/data/(complete|example)\.lit --after [0-9]+ --seat 1$' "$tmp/out" ||
  fail "bench --slowest: not a position: $(grep '^slow: ' "$tmp/out")"
[ "$(grep '^slow: ' "$tmp/out" | awk '{print $2}' | sort -g -r | tr '\n' ' ')" = "$(grep '^slow: ' "$tmp/out" | awk '{print $2}' | tr '\n' ' ')" ] ||
  fail "bench --slowest: not the slowest first"
run 0 "$lit" bench --odds --public --corpus tests/data/example.lit --slowest 100
[ "$(grep -c '^slow: .* --public$' "$tmp/out")" = 9 ] || fail "bench --slowest 100: not every one of 9 positions in public"
run 2 "$lit" bench --odds --slowest 0
same_text "--slowest 0" "lit: --slowest: a number from 1 to 100, not '0'" "$tmp/err"
run 2 "$lit" bench --odds --slowest 101
same_text "--slowest 101" "lit: --slowest: a number from 1 to 100, not '101'" "$tmp/err"
run 0 "$lit" bench --odds --corpus tests/data/example.lit --repeat 3
[ "$(awk 'NR == 2 && $1 == 6 && $2 == 9 && $3 == 9' "$tmp/out" | wc -l)" = 1 ] ||
  fail "bench --repeat 3: not the 9 positions of example.lit: $(cat "$tmp/out")"
# --repeat N with --slowest: the slowest are timed again in N rounds after
# the pass, and the worst case is the first of them.
run 0 "$lit" bench --odds --corpus tests/data/example.lit --corpus tests/data/complete.lit --repeat 3 --slowest 2
[ "$(grep -c '^slow: ' "$tmp/out")" = 2 ] || fail "bench --repeat 3 --slowest 2: not two lines: $(cat "$tmp/out")"
[ "$(grep '^slow: ' "$tmp/out" | awk '{print $2}' | sort -g -r | tr '\n' ' ')" = "$(grep '^slow: ' "$tmp/out" | awk '{print $2}' | tr '\n' ' ')" ] ||
  fail "bench --repeat 3 --slowest 2: not the slowest first: $(cat "$tmp/out")"
worst=$(awk '$1 ~ /^[0-9]+$/ {print $6}' "$tmp/out" | sort -g -r | head -1)
[ "$(grep -m1 '^slow: ' "$tmp/out" | awk '{print $2}')" = "$worst" ] ||
  fail "bench --repeat 3 --slowest 2: the worst case ($worst) is not the slowest listed: $(cat "$tmp/out")"
run 0 "$lit" bench --odds --games 1 --players 4 --repeat 2 --slowest 2
grep -Eq '^slow: [0-9.]+ ms  4 players  self-played game 0 --after [0-9]+ --seat 1$' "$tmp/out" ||
  fail "bench --repeat 2 --slowest 2 in self-play: not a position: $(cat "$tmp/out")"
run 2 "$lit" bench --odds --repeat 0
same_text "--repeat 0" "lit: --repeat: a number from 1 to 10, not '0'" "$tmp/err"
run 2 "$lit" bench --odds --repeat 11
same_text "--repeat 11" "lit: --repeat: a number from 1 to 10, not '11'" "$tmp/err"
run 2 "$lit" bench --repeat 3
same_text "--repeat alone" "lit: bench: --repeat goes with --odds, --sample or --coverage" "$tmp/err"
run 2 "$lit" bench --slowest 3
same_text "--slowest alone" "lit: bench: --slowest goes with --odds, --sample or --coverage" "$tmp/err"

finish cli_bench
