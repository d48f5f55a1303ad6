#!/usr/bin/env bash
# cli_deal.sh LIT SOURCE_DIR - `lit deal`: the frozen deal of a seed
# (docs/RULES.md "Dealing"), rule options, the dealer, and the errors.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# replays LABEL FILE: the header replays as a game with no action yet.
replays() {
  local rc=0
  "$lit" replay "$2" >"$tmp/replay.out" 2>"$tmp/replay.err" || rc=$?
  if [ "$rc" != 0 ]; then
    fail "$1: lit replay exits $rc"
    sed 's/^/    /' "$tmp/replay.err" >&2
    return
  fi
  tail -n 1 "$tmp/replay.out" >"$tmp/replay.last"
  same_text "$1: lit replay" "result: unfinished, score 0-0 after 0 actions" "$tmp/replay.last"
}

# sizes FILE: the number of cards of each Hand tag, space separated.
sizes() {
  sed -n 's/^\[Hand[0-9]* "\(.*\)"\]$/\1/p' "$1" | awk '{ printf "%s%d", (NR > 1 ? " " : ""), NF } END { print "" }'
}

# distinct FILE: the number of distinct cards over all the hands.
distinct() {
  sed -n 's/^\[Hand[0-9]* "\(.*\)"\]$/\1/p' "$1" | tr ' ' '\n' | sort -u | grep -c .
}

# ---- the frozen deal of seed 1 ---------------------------------------------------
run 0 "$lit" deal --seed 1
same "deal --seed 1 (the frozen deal: tests/data/deal_seed1.lit)" tests/data/deal_seed1.lit "$tmp/out"
same_text "deal --seed 1: stderr" "" "$tmp/err"
grep '^\[Hand[16] ' "$tmp/out" >"$tmp/hands16"
same_text "deal --seed 1: the vectors of docs/RULES.md" '[Hand1 "2c 5c 4d 6d 7h Jh 3s As"]
[Hand6 "9c Td 2h 9h Qh Ts Js Ks"]' "$tmp/hands16"
replays "deal --seed 1" "$tmp/out"
# The example record holds the same deal.
grep '^\[Hand' tests/data/example.lit >"$tmp/example.hands"
grep '^\[Hand' "$tmp/out" >"$tmp/deal.hands"
same "the deal of example.lit" "$tmp/example.hands" "$tmp/deal.hands"
# The same again (nothing depends on the clock).
cp "$tmp/out" "$tmp/first"
run 0 "$lit" deal --seed 1 --rules classic --dealer 1
same "deal --seed 1 --rules classic --dealer 1" "$tmp/first" "$tmp/out"

# ---- options ------------------------------------------------------------------------
run 0 "$lit" deal --seed 1 --rules jokers
head -n 3 "$tmp/out" >"$tmp/head"
same_text "--rules jokers: header" '[Rules "jokers"]
[Dealer "1"]
[Seed "1"]' "$tmp/head"
same_text "--rules jokers: hand sizes" "9 9 9 9 9 9" <(sizes "$tmp/out")
same_text "--rules jokers: 54 cards" "54" <(distinct "$tmp/out")
grep -q 'JK1' "$tmp/out" && grep -q 'JK2' "$tmp/out" || fail "--rules jokers: no jokers dealt"
cp "$tmp/out" "$tmp/jokers.lit"
replays "--rules jokers" "$tmp/jokers.lit"

run 0 "$lit" deal --seed 1 --rule misclaim=opponents --rule bluff=on
head -n 1 "$tmp/out" >"$tmp/head"
same_text "--rule" '[Rules "classic misclaim=opponents bluff=on"]' "$tmp/head"
grep '^\[Hand' "$tmp/out" >"$tmp/rule.hands"
same "--rule: the same deal as classic" "$tmp/deal.hands" "$tmp/rule.hands"
cp "$tmp/out" "$tmp/rule.lit"
replays "--rule" "$tmp/rule.lit"

run 0 "$lit" deal --seed 1 --rules quartets --players 8
head -n 1 "$tmp/out" >"$tmp/head"
same_text "--rules quartets --players 8" '[Rules "quartets players=8"]' "$tmp/head"
same_text "--rules quartets --players 8: sizes" "6 7 7 7 7 6 6 6" <(sizes "$tmp/out")
same_text "--rules quartets --players 8: 52 cards" "52" <(distinct "$tmp/out")
cp "$tmp/out" "$tmp/quartets.lit"
replays "--rules quartets --players 8" "$tmp/quartets.lit"

# (dealer 1: seats 2..5 from its left get the four 7-card hands)
# 10 players, dealer 3: the eight seats from the dealer's left (4..10, 1)
# hold 5 cards, the last two (2, 3) hold 4.
run 0 "$lit" deal --seed 5 --players 10 --dealer 3
head -n 3 "$tmp/out" >"$tmp/head"
same_text "--players 10 --dealer 3: header" '[Rules "classic players=10"]
[Dealer "3"]
[Seed "5"]' "$tmp/head"
same_text "--players 10 --dealer 3: sizes" "5 4 4 5 5 5 5 5 5 5" <(sizes "$tmp/out")
same_text "--players 10 --dealer 3: 48 cards" "48" <(distinct "$tmp/out")
cp "$tmp/out" "$tmp/ten.lit"
replays "--players 10 --dealer 3" "$tmp/ten.lit"

run 0 "$lit" deal --seed 1 --dealer 3
head -n 2 "$tmp/out" | tail -n 1 >"$tmp/dealer"
same_text "--dealer 3" '[Dealer "3"]' "$tmp/dealer"
grep '^\[Hand' "$tmp/out" >"$tmp/d3.hands"
if [ "$(cksum <"$tmp/deal.hands")" = "$(cksum <"$tmp/d3.hands")" ]; then
  fail "--dealer 3 deals the same hands as dealer 1"
fi
cp "$tmp/out" "$tmp/d3.lit"
replays "--dealer 3" "$tmp/d3.lit"
# The dealer's left gets the first card: the shuffled deck is the same, so
# dealer 3's seat 4 gets what dealer 1's seat 2 got.
sed -n 's/^\[Hand2 \(.*\)$/\1/p' "$tmp/deal.hands" >"$tmp/a"
sed -n 's/^\[Hand4 \(.*\)$/\1/p' "$tmp/d3.hands" >"$tmp/b"
same "--dealer 3: seat 4 holds dealer 1's seat 2 hand" "$tmp/a" "$tmp/b"

run 0 "$lit" deal --seed 18446744073709551615 --rules encyclopedia --players 12 --dealer 12
head -n 3 "$tmp/out" >"$tmp/head"
same_text "the largest seed" '[Rules "encyclopedia players=12"]
[Dealer "12"]
[Seed "18446744073709551615"]' "$tmp/head"
same_text "12 players: sizes" "4 4 4 4 4 4 4 4 4 4 4 4" <(sizes "$tmp/out")
cp "$tmp/out" "$tmp/big.lit"
replays "the largest seed" "$tmp/big.lit"

run 0 "$lit" deal --help
head -n 1 "$tmp/out" >"$tmp/first"
same_text "deal --help" "usage: lit deal --seed N [rule options] [--dealer D]" "$tmp/first"

# ---- errors: exit 2, a message on stderr, nothing on stdout --------------------------
# error LABEL "FIRST LINE OF STDERR" ARGS...
error() {
  local label=$1 message=$2
  shift 2
  run 2 "$lit" deal "$@"
  head -n 1 "$tmp/err" >"$tmp/err1"
  same_text "$label: stderr" "$message" "$tmp/err1"
  same_text "$label: stdout" "" "$tmp/out"
}
error "no --seed" "lit: deal: --seed is required"
error "no --seed, with rules" "lit: deal: --seed is required" --rules jokers --dealer 2
error "a bad --rule value" \
  "lit: --rule players=7: bad_rule_value: that value is not allowed for this rule option" \
  --seed 1 --rule players=7
error "a bad --rule value" \
  "lit: --rule bluff=maybe: bad_rule_value: that value is not allowed for this rule option" \
  --seed 1 --rule bluff=maybe
error "an unknown --rule" \
  "lit: --rule colour=red: unknown_rule: there is no rule option of that name" \
  --seed 1 --rule colour=red
error "an unknown preset" \
  "lit: --rules chess: unknown_preset: there is no rule preset of that name" \
  --seed 1 --rules chess
error "--players 7" \
  "lit: --players 7: bad_rule_value: that value is not allowed for this rule option" \
  --seed 1 --players 7
error "--dealer 7 with 6 players" "lit: --dealer 7: there are only 6 seats" --seed 1 --dealer 7
error "--dealer 9 with 8 players" "lit: --dealer 9: there are only 8 seats" --seed 1 --players 8 --dealer 9
error "--dealer 0" "lit: --dealer: not a seat: '0'" --seed 1 --dealer 0
error "--seed x" "lit: --seed: not a number: 'x'" --seed x
error "--seed -1" "lit: --seed: not a number: '-1'" --seed -1
error "--seed 2^64" "lit: --seed: not a number: '18446744073709551616'" --seed 18446744073709551616
error "an argument" "lit: deal: unexpected argument 'extra'" --seed 1 extra
run 2 "$lit" deal --seed 1 --bogus
same_text "an unknown option: stdout" "" "$tmp/out"
[ -s "$tmp/err" ] || fail "an unknown option: nothing on stderr"

run 2 "$lit" deal --seed 1 --rule players
same_text "--rule without =" "lit: --rule: not KEY=VALUE: 'players'" "$tmp/err"

# output that does not get there is a failure, not a quiet 0 (any command:
# lit.c checks stdout once the command is done)
rc=0
"$lit" deal --seed 1 >/dev/full 2>"$tmp/err" || rc=$?
[ "$rc" = 1 ] || fail "deal to a full disk: exit status $rc, want 1"
same_text "deal to a full disk" "lit: standard output: No space left on device" "$tmp/err"

finish cli_deal
