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

# a Result or Score the moves do not give: the record is refused as lit
# replay refuses it, whatever position is asked about
sed 's/^\[Score "1-1"\]$/[Score "4-3"]/' tests/data/example.lit >"$tmp/score.lit"
for args in "infer --seat 1 --after 2" "infer --public --json" "replay" "review --seat 1 --budget 0"; do
  read -r -a words <<<"$args"
  run 1 "$lit" "${words[0]}" "$tmp/score.lit" "${words[@]:1}"
  same_text "a wrong Score ($args)" \
    "$tmp/score.lit:14: result_mismatch: the Result or Score tag does not match the game" "$tmp/err"
done
# hands no dealing gives (13, 11, 12 and 12 cards where the deal gives 12
# each): lit replay takes them (the engine does), the counting, the bots
# and so every command that needs them refuse them, saying why
run 0 "$lit" replay tests/data/uneven_deal.lit
want="tests/data/uneven_deal.lit:7: bad_deal: seat 1 holds 13 cards, where the deal (one card at a time from the dealer's left) gives it 12: the counting and the bots take only a dealt game"
for args in "infer --seat 2" "infer --public" "review --seat 1 --budget 0"; do
  read -r -a words <<<"$args"
  run 1 "$lit" "${words[0]}" tests/data/uneven_deal.lit "${words[@]:1}"
  same_text "an uneven deal ($args)" "$want" "$tmp/err"
done
printf 'quit\n' >"$tmp/quit"
run 1 "$lit" play --resume tests/data/uneven_deal.lit --record "$tmp/uneven.lit" <"$tmp/quit"
same_text "an uneven deal (play --resume)" "$want" "$tmp/err"
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

# The budget counts the work as it is done: after 14, where the forecast
# from the candidates alone that it replaced said 2^25.3 (over its 2^25),
# the work done is 2^20.8 (within 2^22) and the count exact.
run 0 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 14 --json
grep -q '"consistent":true,"exact":true,"consistent_deals":"[1-9]' "$tmp/out" ||
  fail "12 players after 14, within the budget: $(cut -c1-120 "$tmp/out")"
# The forward sweep with the free cards summed over pairs every vector the
# blocks so far give with every state of the layer after: those pairs are
# work the budget counts. Here they are past it (uncounted, the position
# was counted exactly in 111 ms, where the budget holds a count to about
# 40 on the same machine), so the count stops and estimates.
run 0 "$lit" infer bench/corpus/12/0086.lit --seat 1 --after 33 --json --samples 80
grep -q '"consistent":true,"exact":false' "$tmp/out" ||
  fail "12 players, 0086.lit after 33, the free cards' pairs past the budget: $(cut -c1-120 "$tmp/out")"
# Beyond the budget (12 players, early; since the layers keep only what the
# blocks before them reach, positions 15 to 18 are counted): exact false,
# estimates with their standard errors, the same for the same seed.
run 0 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 22 --json --samples 400 --seed 3
cp "$tmp/out" "$tmp/estimate.json"
for member in '"exact":false' '"consistent_deals":null' '"samples":400' '"consistent_deals_estimate":' '"cards_se":{' '"team_holds_all_se":'; do
  grep -qF "$member" "$tmp/estimate.json" || fail "estimate JSON: no $member"
done
run 0 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 22 --json --samples 400 --seed 3
same "the estimate again, same seed" "$tmp/estimate.json" "$tmp/out"
run 0 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 22 --samples 400
grep -q '^estimates from 400 weighted draws: ' "$tmp/out" || fail "estimate grid: no line on the draws"
run 2 "$lit" infer bench/corpus/12/0000.lit --seat 1 --samples 79
same_text "--samples 79" "lit: --samples: not a number from 80 to 200000: '79'" "$tmp/err"
run 2 "$lit" infer bench/corpus/12/0000.lit --seat 1 --samples 200001
same_text "--samples 200001" "lit: --samples: not a number from 80 to 200000: '200001'" "$tmp/err"
run 2 "$lit" infer bench/corpus/12/0000.lit --seat 1 --seed x
same_text "--seed x" "lit: --seed: not a number: 'x'" "$tmp/err"

# Master's beliefs (--model master, docs/BOTS.md): the exact count, the
# model's chances off 0 and 1 where the exact ones are not sure, the same
# for the same seed; never from the public view or beyond the exact count.
run 0 "$lit" infer tests/data/classic_game.lit --seat 2 --after 40 --json --model master --seed 5
cp "$tmp/out" "$tmp/master.json"
"$python3" - "$tmp/master.json" "$tmp/uniform.json" "$lit" <<'PY' || fail "master's beliefs: the checks above"
import json, subprocess, sys
m = json.load(open(sys.argv[1]))
u = json.loads(subprocess.run([sys.argv[3], "infer", "tests/data/classic_game.lit", "--seat", "2",
                               "--after", "40", "--json"], capture_output=True, text=True,
                              check=True).stdout)
assert m["model"] == "master" and m["exact"] is False and m["samples"] == 2048, m
assert 0 < m["effective_draws"] <= 2048, m["effective_draws"]
assert m["consistent_deals"] == u["consistent_deals"], (m["consistent_deals"], u["consistent_deals"])
moved = 0
for card, row in u["cards"].items():
    total = 0
    for seat, p in row.items():
        q = m["cards"][card][seat]
        total += q
        if p in (0, 1):
            assert q == p, (card, seat, p, q)
        else:
            assert 0 < q < 1, (card, seat, p, q)
            moved = max(moved, abs(p - q))
            se = m["cards_se"][card][seat]
            assert abs(se - (q * (1 - q) / m["effective_draws"]) ** 0.5) < 1e-9, (card, seat, se)
    assert abs(total - 1) < 1e-6, (card, total)
assert moved > 0.05, moved
# the claims (seat 3 after 36, where the model gives high-spades' likeliest
# placement 0.59): the model's figures, and master's read off its
# calibration's line (src/bot/behave.c) from them, rising with them, the
# chance the team holds a set all never below its claim's, and the fact the
# line reads besides
c = json.loads(subprocess.run([sys.argv[3], "infer", "tests/data/classic_game.lit", "--seat", "3",
                               "--after", "36", "--json", "--model", "master"],
                              capture_output=True, text=True, check=True).stdout)
assert c["stuck"] is False, c["stuck"]
hs = c["half_suits"]
for name, h in hs.items():
    assert 0 <= h["model_assignment_correct"] <= h["model_team_holds_all"] + 1e-9, (name, h)
    assert h["assignment_correct"] <= h["team_holds_all"] + 1e-9, (name, h)
    assert h["team_holds_all"] >= h["model_team_holds_all"] - 1e-12, (name, h)
    if 0 < h["model_assignment_correct"] < 1:
        assert 0 < h["assignment_correct"] < 1, (name, h)
    else:
        assert h["assignment_correct"] == h["model_assignment_correct"], (name, h)
    for other, o in hs.items():
        if h["model_assignment_correct"] < o["model_assignment_correct"]:
            assert h["assignment_correct"] <= o["assignment_correct"], (name, other)
# the exact count's likeliest placement and its chance, as lit infer's
# uniform figures name them, the exact chance of master's, and where it
# stands: the same placement, another as likely, or a less likely one.
# High-spades' is a tie broken the other way: Ks and 9s at seats 1 and 5 or
# at 5 and 1, each 0.5.
u = json.loads(subprocess.run([sys.argv[3], "infer", "tests/data/classic_game.lit", "--seat", "3",
                               "--after", "36", "--json"],
                              capture_output=True, text=True, check=True).stdout)["half_suits"]
for name, h in hs.items():
    e = h["uniform_assignment_correct"]
    assert h["uniform_best_assignment"] == u[name]["best_assignment"], (name, h)
    assert e == u[name]["assignment_correct"], (name, h)
    q = h["model_assignment_uniform"]
    assert q <= e, (name, h)
    if h["best_assignment"] == h["uniform_best_assignment"]:
        assert q == e and h["uniform_standing"] == "likeliest", (name, h)
    else:
        assert h["uniform_standing"] == ("tied" if q == e else "below"), (name, h)
hi = hs["high-spades"]
assert hi["best_assignment"] != hi["uniform_best_assignment"], hi
assert hi["uniform_assignment_correct"] == 0.5, hi
assert hi["model_assignment_uniform"] == 0.5, hi
assert hi["uniform_standing"] == "tied", hi
assert 0.5 < hi["model_assignment_correct"] < 0.7, hi
# and one the model overrules (an arena game of master's; seat 5 after 83
# claimed high-hearts with Th at 3): the exact count puts Th at 1 with 0.6,
# Th at 3 has 0.2, and the model lifts that to 0.8
o = json.loads(subprocess.run([sys.argv[3], "infer", "tests/data/master_overrules.lit", "--seat",
                               "5", "--after", "83", "--json", "--model", "master"],
                              capture_output=True, text=True, check=True).stdout)
hh = o["half_suits"]["high-hearts"]
assert hh["best_assignment"]["Th"] == 3 and hh["uniform_best_assignment"]["Th"] == 1, hh
assert hh["uniform_assignment_correct"] == 0.6, hh
assert abs(hh["model_assignment_uniform"] - 0.2) < 1e-12, hh
assert hh["model_assignment_correct"] > 0.75, hh
assert hh["uniform_standing"] == "below", hh
assert abs(hi["assignment_correct"] - hi["model_assignment_correct"]) > 0.05, hi
PY
run 0 "$lit" infer tests/data/classic_game.lit --seat 2 --after 40 --json --model master --seed 5
same "master's beliefs again, same seed" "$tmp/master.json" "$tmp/out"
# without --seed, master's beliefs draw from the position's own seed (the
# one master's decision there takes), which --seed 0 names
run 0 "$lit" infer tests/data/classic_game.lit --seat 2 --after 40 --json --model master
cp "$tmp/out" "$tmp/own.json"
run 0 "$lit" infer tests/data/classic_game.lit --seat 2 --after 40 --json --model master --seed 0
same "master's beliefs, the position's seed" "$tmp/own.json" "$tmp/out"
cmp -s "$tmp/own.json" "$tmp/master.json" && fail "the position's seed gave seed 5's draws"
run 0 "$lit" infer tests/data/classic_game.lit --seat 2 --after 40 --model master
grep -q "^master's beliefs (docs/BOTS.md): the deals weighted by how likely the asks seen were,$" \
  "$tmp/out" || fail "master's grid: no line on the model: $(head -n 3 "$tmp/out")"
grep -q '^consistent deals: [0-9]*$' "$tmp/out" || fail "master's grid: no exact count"
run 2 "$lit" infer tests/data/classic_game.lit --public --model master
same_text "--model master --public" \
  "lit: --model master: master's beliefs are a seat's: give --seat N" "$tmp/err"
run 2 "$lit" infer tests/data/classic_game.lit --seat 1 --model grandmaster
same_text "--model grandmaster" \
  "lit: --model: not a model: 'grandmaster' (uniform or master)" "$tmp/err"
run 1 "$lit" infer bench/corpus/12/0000.lit --seat 1 --after 22 --model master
same_text "--model master beyond the exact count" \
  "lit: --model master: this position is beyond the exact count (docs/DEDUCTION.md), where master plays as expert: there are no master's beliefs to show" "$tmp/err"
[ ! -s "$tmp/out" ] || fail "--model master beyond the exact count: printed to stdout"

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
  [ "$(sed -n 2p "$tmp/out")" = "                 [--samples N] [--seed S] [--model uniform|master]" ] ||
  fail "--help: $(head -n 1 "$tmp/out")"

finish cli_infer
