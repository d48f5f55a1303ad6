#!/usr/bin/env bash
# cli_selfplay.sh LIT SOURCE_DIR - `lit selfplay`: the JSON summary, the
# same counts from the same seed, --record, and bad options.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# field FILE KEY: the value of "KEY": in a one-line JSON object ("" if absent).
field() {
  grep -o "\"$2\":[^,}]*" "$1" | head -n 1 | cut -d: -f2- || true
}

# check_summary LABEL FILE GAMES: the JSON summary of a run of GAMES games.
check_summary() {
  local label=$1 f=$2 games=$3 key v
  if [ "$(wc -l <"$f")" -ne 1 ] || ! grep -Eq '^\{.*\}$' "$f"; then
    fail "$label: not one JSON object on one line:"
    cat "$f" >&2
    return
  fi
  for key in games actions team_a_wins team_b_wins draws aborted; do
    [ "$(grep -o "\"$key\":" "$f" | wc -l)" -eq 1 ] || fail "$label: key $key not there exactly once"
    v=$(field "$f" "$key")
    [[ $v =~ ^[0-9]+$ ]] || fail "$label: $key is '$v', not a count"
  done
  for key in seconds actions_per_second games_per_second; do
    [ "$(grep -o "\"$key\":" "$f" | wc -l)" -eq 1 ] || fail "$label: key $key not there exactly once"
    v=$(field "$f" "$key")
    [[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "$label: $key is '$v', not a number"
  done
  [ "$(field "$f" games)" = "$games" ] || fail "$label: games is $(field "$f" games), want $games"
  [ "$(field "$f" aborted)" = 0 ] || fail "$label: aborted is $(field "$f" aborted), want 0"
  local a b d
  a=$(field "$f" team_a_wins) b=$(field "$f" team_b_wins) d=$(field "$f" draws)
  if [[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ && $d =~ ^[0-9]+$ ]]; then
    [ $((a + b + d)) -eq "$games" ] || fail "$label: wins and draws $a + $b + $d are not $games"
  fi
  v=$(field "$f" actions)
  if [[ $v =~ ^[0-9]+$ ]]; then
    [ "$v" -ge "$games" ] || fail "$label: only $v actions in $games games"
  fi
}

# counts FILE: the fields that depend on the seed only, not on the clock.
counts() {
  local key
  for key in games actions team_a_wins team_b_wins draws aborted; do
    printf '%s=%s\n' "$key" "$(field "$1" "$key")"
  done
}

# ---- the JSON summary -------------------------------------------------------------
run 0 "$lit" selfplay --games 200 --seed 1 --json
cp "$tmp/out" "$tmp/run1.json"
check_summary "selfplay --games 200 --seed 1 --json" "$tmp/run1.json" 200
same_text "selfplay --json: stderr" "" "$tmp/err"

# The same seed gives the same counts.
run 0 "$lit" selfplay --games 200 --seed 1 --json
cp "$tmp/out" "$tmp/run2.json"
check_summary "the second run" "$tmp/run2.json" 200
same "the same seed twice" <(counts "$tmp/run1.json") <(counts "$tmp/run2.json")

# Another seed: another run, as valid.
run 0 "$lit" selfplay --games 200 --seed 2 --json
cp "$tmp/out" "$tmp/seed2.json"
check_summary "selfplay --seed 2" "$tmp/seed2.json" 200
if [ "$(field "$tmp/run1.json" actions)" = "$(field "$tmp/seed2.json" actions)" ]; then
  fail "seeds 1 and 2 played the same number of actions: is the seed used?"
fi

# Other rules.
run 0 "$lit" selfplay --games 50 --seed 3 --rules quartets --players 8 --json
check_summary "selfplay quartets players=8" "$tmp/out" 50
run 0 "$lit" selfplay --games 50 --seed 3 --rules jokers --rule double-high=on --rule early-end=on --json
check_summary "selfplay jokers double-high early-end" "$tmp/out" 50

# The text summary says the same counts.
run 0 "$lit" selfplay --games 200 --seed 1
head -n 2 "$tmp/out" | sed 's/  ([0-9.]* per game)$//' >"$tmp/text"
printf 'games %s  actions %s\nteam A %s  team B %s  draws %s  aborted %s\n' \
  "$(field "$tmp/run1.json" games)" "$(field "$tmp/run1.json" actions)" \
  "$(field "$tmp/run1.json" team_a_wins)" "$(field "$tmp/run1.json" team_b_wins)" \
  "$(field "$tmp/run1.json" draws)" "$(field "$tmp/run1.json" aborted)" >"$tmp/want"
same "the text summary" "$tmp/want" "$tmp/text"
[ "$(wc -l <"$tmp/out")" -eq 3 ] || fail "the text summary is not three lines"

# ---- --record ---------------------------------------------------------------------
run 0 "$lit" selfplay --games 1 --seed 7 --record "$tmp/g7.lit"
same "selfplay --games 1 --seed 7 --record (tests/data/classic_game.lit)" \
  tests/data/classic_game.lit "$tmp/g7.lit"
run 0 "$lit" replay "$tmp/g7.lit"
tail -n 1 "$tmp/out" >"$tmp/last"
same_text "replay of the record" "result: team B wins, score 3-5 after 149 actions" "$tmp/last"
# The record is the first game of the run, whatever the number of games.
run 0 "$lit" selfplay --games 5 --seed 7 --record "$tmp/g7b.lit"
same "--games 5 records the first game" "$tmp/g7.lit" "$tmp/g7b.lit"

run 0 "$lit" selfplay --games 2 --seed 11 --rules encyclopedia --players 12 --record "$tmp/e.lit"
grep '^\[Rules ' "$tmp/e.lit" >"$tmp/rules"
same_text "an encyclopedia record" '[Rules "encyclopedia players=12"]' "$tmp/rules"
run 0 "$lit" replay "$tmp/e.lit"
grep -Eq '^result: (team A wins|team B wins|a draw), score -?[0-9]+--?[0-9]+ after [0-9]+ actions$' "$tmp/out" ||
  fail "the encyclopedia record does not replay to a result: $(tail -n 1 "$tmp/out")"
# The record's Result and Score are checked by the replay: they are there.
grep -Eq '^\[Result "(A|B|draw)"\]$' "$tmp/e.lit" || fail "the record has no Result tag"
grep -Eq '^\[Score "-?[0-9]+--?[0-9]+"\]$' "$tmp/e.lit" || fail "the record has no Score tag"

run 1 "$lit" selfplay --games 1 --seed 1 --record "$tmp/no/such/dir/x.lit"
same_text "an unwritable record" \
  "lit: $tmp/no/such/dir/x.lit: cannot write the record: No such file or directory" "$tmp/err"

# ---- options ----------------------------------------------------------------------
run 0 "$lit" selfplay --help
head -n 1 "$tmp/out" >"$tmp/first"
same_text "selfplay --help" \
  "usage: lit selfplay --games N --seed S [rule options] [--json] [--record FILE]" "$tmp/first"

# bad LABEL "FIRST LINE OF STDERR" ARGS...: exit 2, nothing on stdout.
bad() {
  local label=$1 message=$2
  shift 2
  run 2 "$lit" selfplay "$@"
  same_text "$label: stdout" "" "$tmp/out"
  if [ -n "$message" ]; then
    head -n 1 "$tmp/err" >"$tmp/err1"
    same_text "$label: stderr" "$message" "$tmp/err1"
  elif [ ! -s "$tmp/err" ]; then
    fail "$label: nothing on stderr"
  fi
}
bad "--games 0" "lit: --games: not a positive number: '0'" --games 0
bad "--games x" "lit: --games: not a positive number: 'x'" --games x
bad "--games -3" "lit: --games: not a positive number: '-3'" --games -3
bad "--seed x" "lit: --seed: not a number: 'x'" --games 1 --seed x
bad "--rules chess" "lit: --rules chess: unknown_preset: there is no rule preset of that name" \
  --games 1 --rules chess
bad "--rule players=5" \
  "lit: --rule players=5: bad_rule_value: that value is not allowed for this rule option" \
  --games 1 --rule players=5
bad "--players 14" \
  "lit: --players 14: bad_rule_value: that value is not allowed for this rule option" \
  --games 1 --players 14
bad "--rule nonsense=on" "lit: --rule nonsense=on: unknown_rule: there is no rule option of that name" \
  --games 1 --rule nonsense=on
bad "--rule nonsense" "lit: --rule: not KEY=VALUE: 'nonsense'" --games 1 --rule nonsense
bad "an argument" "lit: selfplay: unexpected argument 'more'" --games 1 more
bad "an unknown option" "" --games 1 --bogus
bad "--games without a value" "" --games

# Every pair of rules that once stopped the policy plays through: must-claim
# with after-claim=team (a seat choosing the next asker still holding a whole
# set must claim it first).
for players in 4 6 12; do
  run 0 "$lit" selfplay --games 300 --seed 5 --rules quartets --rule after-claim=team \
    --rule must-claim=on --players "$players"
done

# --records DIR writes every game's record; each replays to its result.
mkdir "$tmp/games"
run 0 "$lit" selfplay --games 3 --seed 5 --players 8 --records "$tmp/games"
[ "$(ls "$tmp/games" | tr '\n' ' ')" = "0000.lit 0001.lit 0002.lit " ] ||
  fail "--records: files $(ls "$tmp/games" | tr '\n' ' ')"
for f in "$tmp"/games/*.lit; do
  run 0 "$lit" replay "$f"
done
# a folder not there is made, with its parents; under a file it cannot be
run 0 "$lit" selfplay --games 1 --records "$tmp/missing/deeper"
[ -f "$tmp/missing/deeper/0000.lit" ] || fail "--records: the missing folder was not made"
run 1 "$lit" selfplay --games 1 --records "$tmp/games/0000.lit/x"
same_text "--records under a file" "lit: $tmp/games/0000.lit: not a folder" "$tmp/err"
# stopped by a signal while writing records: the records written are
# whole and no half-written one is left (it left NNNN.lit.PID.tmp)
for sig in INT TERM; do
  mkdir "$tmp/stop$sig"
  # (env --default-signal: a script's background job starts with SIGINT
  # ignored, which lit keeps so)
  env --default-signal="$sig" "$lit" selfplay --games 1000000 --records "$tmp/stop$sig" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do # on progress: 50 records made (at most 60 s)
    [ -f "$tmp/stop$sig/0050.lit" ] && break
    sleep 0.1
  done
  kill -"$sig" "$pid"
  wait "$pid" 2>/dev/null || true
  [ -f "$tmp/stop$sig/0050.lit" ] || fail "SIG$sig: no records written"
  [ -z "$(find "$tmp/stop$sig" -name '*.tmp')" ] || fail "SIG$sig: left $(find "$tmp/stop$sig" -name '*.tmp')"
  for f in "$tmp/stop$sig"/00[0-4]*.lit; do
    "$lit" replay "$f" >/dev/null 2>&1 || fail "SIG$sig: $f does not replay"
  done
done

finish cli_selfplay
