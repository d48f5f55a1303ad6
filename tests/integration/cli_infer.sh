#!/usr/bin/env bash
# cli_infer.sh LIT SOURCE_DIR - `lit infer`: the scoresheet of a seat's view
# and of the public view, against golden files, and its errors.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

run 0 "$lit" infer tests/data/example.lit --seat 1 --after 4
same "seat 1 after 4" tests/data/example_seat1_after4.infer "$tmp/out"
run 0 "$lit" infer tests/data/example.lit --public --after 6 --json
same "public after 6, JSON" tests/data/example_public_after6.json "$tmp/out"

# A record with no deal: the public view works, a seat's view cannot.
run 0 "$lit" infer tests/data/no_deal.lit --public
grep -q '^the public view after ' "$tmp/out" || fail "no_deal.lit --public: $(head -1 "$tmp/out")"
run 2 "$lit" infer tests/data/no_deal.lit --seat 2
same_text "no deal, --seat: stderr" \
  "lit: tests/data/no_deal.lit: the record has no deal: only --public can be taken" "$tmp/err"

# A history no deal fits is refused where it stopped fitting, as lit replay
# refuses it: by certain knowledge, and by counting alone (the same line).
run 1 "$lit" infer tests/data/inconsistent.lit --public
same_text "inconsistent: stderr" \
  "tests/data/inconsistent.lit:7: inconsistent: no deal of the cards fits what has been seen" "$tmp/err"
same_text "inconsistent: stdout" "" "$tmp/out"
run 1 "$lit" infer tests/data/inconsistent.lit --public --json
same_text "inconsistent --json: stdout" "" "$tmp/out"
# refused_at FILE LINE "COMMAND OPTIONS": lit COMMAND FILE OPTIONS refuses
# the record as one no deal fits, at LINE
refused_at() {
  local file=$1 line=$2 words
  read -r -a words <<<"$3"
  run 1 "$lit" "${words[0]}" "$file" "${words[@]:1}"
  same_text "$file refused ($3)" \
    "$file:$line: inconsistent: no deal of the cards fits what has been seen" "$tmp/err"
}
for args in "infer --public --json" "infer --public" "replay"; do
  # three seats that must each hold one of the same two cards
  refused_at tests/data/impossible_by_count.lit 20 "$args"
  # 12 players: a seat of 3 cards that must hold a card of 4 sets, found by
  # certain knowledge
  refused_at tests/data/impossible_seat_sets.lit 15 "$args"
done
# replay stops where certain knowledge sees it (action 8 not printed) ...
grep -q '^7\. 5 asks 2 for 5h: miss$' "$tmp/out" && ! grep -q '^8\. ' "$tmp/out" ||
  fail "impossible_seat_sets.lit: replay's lines: $(tail -n 2 "$tmp/out")"
# ... and prints every action before counting finds it at the end
run 1 "$lit" replay tests/data/impossible_by_count.lit
grep -q '^13\. 2 asks 5 for Qh: miss$' "$tmp/out" || fail "impossible_by_count.lit: replay's lines"
# before it stopped fitting, the view is there
run 0 "$lit" infer tests/data/impossible_by_count.lit --public --after 11 --json
grep -q '"consistent":true,"exact":true,"consistent_deals":"[1-9]' "$tmp/out" ||
  fail "impossible_by_count.lit after 11: $(cut -c1-120 "$tmp/out")"
# 12 players, counting beyond its budget: three seats that must each hold
# one of the same two cards, found by the exact feasibility check alone
for args in "infer --public --json" "infer --public" "replay"; do
  refused_at tests/data/impossible_beyond_budget.lit 27 "$args"
done
# (replay prints every action: the search runs once the record is read)
grep -q '^16\. 2 asks 7 for 3c: hit$' "$tmp/out" ||
  fail "impossible_beyond_budget.lit: replay's lines: $(tail -n 2 "$tmp/out")"
# before it, counting is beyond its budget and a deal fits: the estimate
run 0 "$lit" infer tests/data/impossible_beyond_budget.lit --public --after 15 --json --samples 400
grep -q '"consistent":true,"exact":false' "$tmp/out" ||
  fail "impossible_beyond_budget.lit after 15: $(cut -c1-120 "$tmp/out")"

# Beyond the budget (12 players, early): exact false, estimates with their
# standard errors, the same for the same seed.
run 0 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 14 --json --samples 400 --seed 3
cp "$tmp/out" "$tmp/estimate.json"
for member in '"exact":false' '"consistent_deals":null' '"samples":400' '"consistent_deals_estimate":' '"cards_se":{' '"team_holds_all_se":'; do
  grep -qF "$member" "$tmp/estimate.json" || fail "estimate JSON: no $member"
done
run 0 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 14 --json --samples 400 --seed 3
same "the estimate again, same seed" "$tmp/estimate.json" "$tmp/out"
run 0 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 14 --samples 400
grep -q '^estimates from 400 weighted draws: ' "$tmp/out" || fail "estimate grid: no line on the draws"
run 2 "$lit" infer bench/corpus/12/0000.lit --seat 1 --samples 79
same_text "--samples 79" "lit: --samples: not a number from 80 to 200000: '79'" "$tmp/err"
run 2 "$lit" infer bench/corpus/12/0000.lit --seat 1 --samples 200001
same_text "--samples 200001" "lit: --samples: not a number from 80 to 200000: '200001'" "$tmp/err"
run 2 "$lit" infer bench/corpus/12/0000.lit --seat 1 --seed x
same_text "--seed x" "lit: --seed: not a number: 'x'" "$tmp/err"

# Usage errors.
run 2 "$lit" infer tests/data/example.lit
run 2 "$lit" infer tests/data/example.lit --seat 1 --public
run 2 "$lit" infer tests/data/example.lit --seat 7
same_text "seat 7: stderr" "lit: --seat 7: the game has 6 seats" "$tmp/err"
run 2 "$lit" infer tests/data/example.lit --seat 0
# --after past the record's end, and past any number
n=$(grep -c '^[0-9]*\. ' tests/data/example.lit)
run 0 "$lit" infer tests/data/example.lit --seat 1 --after "$n"
run 2 "$lit" infer tests/data/example.lit --seat 1 --after $((n + 1))
same_text "--after past the end" \
  "lit: --after $((n + 1)): tests/data/example.lit has $n actions (--after 0 to $n)" "$tmp/err"
run 2 "$lit" infer tests/data/example.lit --seat 1 --after 99999999999999999999999
same_text "--after too large" \
  "lit: --after: '99999999999999999999999' is more actions than a record can hold (2000)" "$tmp/err"
run 2 "$lit" infer tests/data/example.lit --seat 1 --after 4x
same_text "--after 4x" "lit: --after: not a number: '4x'" "$tmp/err"
run 1 "$lit" infer tests/data/bad_card.lit --public
grep -q '^tests/data/bad_card.lit:8: bad_card: ' "$tmp/err" || fail "bad_card.lit: $(cat "$tmp/err")"
run 0 "$lit" infer --help
[ "$(head -n 1 "$tmp/out")" = "usage: lit infer FILE (--seat N | --public) [--after K] [--json]" ] &&
  [ "$(sed -n 2p "$tmp/out")" = "                 [--samples N] [--seed S]" ] ||
  fail "--help: $(head -n 1 "$tmp/out")"

finish cli_infer
