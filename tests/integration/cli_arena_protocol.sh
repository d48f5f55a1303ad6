#!/usr/bin/env bash
# cli_arena_protocol.sh LIT SOURCE_DIR - external bots over the bot protocol
# (docs/BOT_PROTOCOL.md): the example bot plays whole matches; a bot that
# checks every message plays under rule sets with passes, choices and forced
# claims; a bot that resynchronises gets the whole view; and every wrong
# answer (garbage, a line too long, missing or unknown keys, bad names, an
# illegal action, late answers, a bot that exits or stops reading) is refused
# with its exact reason, replaced by the fallback, and counted; what a bot
# writes is logged escaped; a bot that never answers stops the match, and
# a signal that stops the arena stops the bots.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

command -v "$python3" >/dev/null || { fail "python3 is missing (scripts/deps.sh installs it)"; finish cli_arena_protocol; }
bot="$python3 $src/tests/data/protocol_bot.py"

# json FILE EXPR: evaluates a Python expression over the report d.
json() {
  "$python3" -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$@"
}

# 1. The example bot: whole games, nothing refused, and it beats random.
run 0 "$lit" arena --team-a "cmd:$python3 examples/bot.py" --team-b random --games 10 --json --quiet
json "$tmp/out" 'd["bad_actions"] == [0, 0] and d["livelocks"] == 0 and d["score"] >= 0.9' ||
  fail "example bot against random: $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "example bot: something was logged: $(head -3 "$tmp/err")"
# ... and it plays to an end against a bot that only asks its first legal
# question (as the fallback does): when memory rules out every question
# left it claims, where asking again would go on for ever
run 0 "$lit" arena --team-a "cmd:$python3 examples/bot.py" --team-b "cmd:$bot check" --games 4 --json \
  --quiet
json "$tmp/out" 'd["livelocks"] == 0 and d["bad_actions"] == [0, 0]' ||
  fail "example bot against a first-legal bot: $(cat "$tmp/out")"
run 0 "$lit" arena --team-a basic --team-b "cmd:$python3 examples/bot.py" --games 4 --players 8 \
  --threads 2 --json --quiet
json "$tmp/out" 'd["bad_actions"] == [0, 0] and d["games"] == 8' ||
  fail "example bot as team B on 2 threads: $(cat "$tmp/out")"

# 2. Every message checked, under rules with passes, choices, must-claim.
for rules in "classic" "classic players=4 after-claim=team must-claim=on" \
  "classic pass-play=on players=8" "quartets split-claims=on" "jokers players=10 bluff=on"; do
  args=()
  for word in $rules; do
    case $word in *=*) args+=(--rule "$word") ;; *) args+=(--rules "$word") ;; esac
  done
  run 0 "$lit" arena --team-a "cmd:$bot check" --team-b casual --games 2 "${args[@]}" --json --quiet
  json "$tmp/out" 'd["bad_actions"] == [0, 0]' || fail "check under $rules: $(cat "$tmp/out") $(head -3 "$tmp/err")"
done
run 0 "$lit" arena --team-a random --team-b "cmd:$bot resync_once" --games 2 --json --quiet
json "$tmp/out" 'd["bad_actions"] == [0, 0]' || fail "resync_once: $(cat "$tmp/out") $(head -3 "$tmp/err")"

# 3. Wrong answers: each refused with its exact reason, every one counted.
# Each bad bot answers at once (or exits at once), so no request waits out
# its timeout and a long one costs nothing: 10 s, so that even a loaded
# machine sees the reason and not a timeout (a bot that exits after its
# first answer once took more than 20 ms to go under the sanitizers, and
# was logged as a timeout). The modes whose every answer is refused as a
# timeout (no answer, or an answer to another request) get 1 ms instead,
# and a start-up allowance of their own: each of their requests waits its
# timeout out, several hundred a game.
refused() {
  local mode=$1 want=$2
  shift 2
  run 0 "$lit" arena --team-a "cmd:$bot $mode" --team-b random --games 1 \
    --move-timeout "${MOVE_TIMEOUT:-10000}" --json --quiet "$@"
  json "$tmp/out" 'd["bad_actions"][0] > 0 and d["bad_actions"][1] == 0 and d["livelocks"] == 0' ||
    fail "$mode: $(cat "$tmp/out")"
  local logged
  logged=$(grep -c '^lit arena: deal ' "$tmp/err" || true)
  json "$tmp/out" "d['bad_actions'][0] == $logged" || fail "$mode: $logged lines logged, want one per refusal"
  local first
  first=$(head -1 "$tmp/err")
  case "$first" in
    "lit arena: deal 0a, action "*", seat "*" (cmd:$bot $mode): $want; played "*) ;;
    *) fail "$mode: first refusal logged as: $first (want the reason: $want)" ;;
  esac
}
refused garbage "not_json: '[' or '{' expected near 'hello'"
refused long "too_long: a line over 65536 bytes"
refused array "bad_message: not an object with a number n"
refused duplicate "not_json: duplicate object key near '\"n\"'"
refused missing "bad_message: ask without \"target\""
refused extra "bad_message: unknown key \"why\" in ask"
refused verb "bad_message: action is none of ask, claim, pass, choose, resync"
refused card "bad_card: no such card in this deck: 'Zz'"
refused seat "bad_seat: target is no seat of this game: 99 (1 to 6)"
refused set "bad_set: no such set in this deck: 'purple'"
refused teammate "ask_teammate: you may ask only a player of the other team"
refused resync "resync_again: a second resync for one request"
refused exit "exited: the bot has exited (exit status 3)"
MOVE_TIMEOUT=1 refused mute "timeout: no answer in time" --start-timeout 500
# what a bot writes reaches the log escaped: it can neither make a line of
# its own (the count of lines above) nor drive the terminal
refused forge 'bad_message: unknown key "\x0alit arena: deal 0a, action 2, seat 2 (random): own_card\x1b]0;x\x07" in ask'
refused twice "bad_claim_cards: holders name 2c twice"
# answers to another request: counted in the timeout's reason
MOVE_TIMEOUT=1 refused offbyone \
  "timeout: no answer in time (1 line with another n ignored, the last n 0, this request's 1)" --players 4 \
  --start-timeout 3000

# the records mark each action the arena played for a refused one, after
# its line (' ; fallback: REASON'), what the bot wrote escaped on one line;
# the records replay
for mode in card forge; do
  run 0 "$lit" arena --team-a "cmd:$bot $mode" --team-b random --games 1 --move-timeout 10000 --json --quiet \
    --records "$tmp/marked-$mode"
  marks=$(cat "$tmp/marked-$mode"/000000-[ab].lit | grep -c '^[0-9]*\. .* ; fallback: ' || true)
  json "$tmp/out" "d['bad_actions'][0] == $marks" || fail "$mode: $marks fallbacks marked in the records: $(cat "$tmp/out")"
  for side in a b; do
    "$lit" replay "$tmp/marked-$mode/000000-$side.lit" >/dev/null 2>&1 || fail "$mode: record $side does not replay"
  done
done
grep -q "^[0-9]*\. 1 asks [0-9]* for [^ ]*: [a-z]* ; fallback: bad_card: no such card in this deck: 'Zz'\$" \
  "$tmp/marked-card/000000-a.lit" || fail "card: no mark: $(grep -m2 fallback "$tmp/marked-card/000000-a.lit")"
grep -qF ' ; fallback: bad_message: unknown key "\x0alit arena: deal 0a, action ' "$tmp/marked-forge/000000-a.lit" ||
  fail "forge: the mark: $(grep -m2 fallback "$tmp/marked-forge/000000-a.lit")"
[ "$(grep -c '^lit arena: deal' "$tmp/marked-forge/000000-a.lit")" = 0 ] || fail "forge: a line of its own in the record"

# a slow bot: its first answer comes within the start-up allowance, the
# next ones late (and then ignored as stale)
run 0 "$lit" arena --team-a "cmd:$bot slow" --team-b random --games 1 --move-timeout 1 --json --quiet
grep -q "(cmd:$bot slow): timeout: no answer in time; played " "$tmp/err" || fail "slow: no timeout logged"
json "$tmp/out" 'd["livelocks"] == 0 and d["bad_actions"][1] == 0' || fail "slow: $(cat "$tmp/out")"

# 4. A bot that exits before it answers anything (a command that cannot
# run, a bot that fails at its start) stops the match: its games would be
# the fallback's. No record of the game it stopped.
run 1 "$lit" arena --team-a "cmd:/nonexistent/bot" --team-b random --games 2 --json --quiet \
  --records "$tmp/silent"
grep -qx "lit: the bot 'cmd:/nonexistent/bot' exited before it answered (exit status 127: no such command)" \
  "$tmp/err" || fail "missing command: $(cat "$tmp/err")"
grep -qx "lit: the match stopped: an external bot exited before it answered (above)" "$tmp/err" ||
  fail "missing command: $(tail -1 "$tmp/err")"
[ -z "$(ls "$tmp/silent")" ] || fail "a stopped game was written: $(ls "$tmp/silent")"
[ ! -s "$tmp/out" ] || fail "a stopped match reported: $(cat "$tmp/out")"
run 1 "$lit" arena --team-a random --team-b "cmd:$bot silent" --games 1 --quiet
grep -qx "lit: the bot 'cmd:$bot silent' exited before it answered (exit status 3)" "$tmp/err" ||
  fail "silent: $(cat "$tmp/err")"
# a round robin writes its records too, a folder a pairing
run 0 "$lit" arena --entrant random --entrant "cmd:$bot check" --entrant basic --games 1 --quiet \
  --records "$tmp/rr"
for pair in 1-2 1-3 2-3; do
  for side in a b; do
    "$lit" replay "$tmp/rr/$pair/000000-$side.lit" >/dev/null 2>&1 || fail "round robin record $pair $side"
  done
done
# stopped by a signal: the bots go too, one that ignores SIGTERM and
# thinks for ever among them (they are process groups of their own, which
# a terminal's Ctrl-C does not reach). On progress: the signal is sent once
# the bot says it is thinking; then its process must be gone.
# (env --default-signal: a script's background job starts with SIGINT
# ignored, which the arena keeps so)
for sig in INT TERM HUP; do
  : >"$tmp/pids"
  PROTOCOL_BOT_PIDS="$tmp/pids" env --default-signal="$sig" "$lit" arena \
    --team-a "cmd:$bot stubborn" --team-b random --games 1 --quiet >"$tmp/out" 2>"$tmp/err" &
  arena=$!
  for _ in $(seq 600); do # at most 60 s for the bot to start
    [ -s "$tmp/pids" ] && break
    sleep 0.1
  done
  botpid=$(head -1 "$tmp/pids")
  [ -n "$botpid" ] || fail "SIG$sig: the bot never started thinking"
  kill -"$sig" "$arena"
  rc=0
  wait "$arena" || rc=$?
  want=$((128 + $(kill -l "$sig")))
  [ "$rc" = "$want" ] || fail "arena stopped by SIG$sig: exit status $rc, want $want"
  for _ in $(seq 100); do # the kill is sent before the arena goes: gone at once
    [ -n "$botpid" ] && kill -0 "$botpid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$botpid" ] && kill -0 "$botpid" 2>/dev/null &&
    { fail "a bot outlived the arena's SIG$sig"; kill -9 "$botpid"; }
done
# ... and one the arena was started with ignored (nohup) stays ignored
: >"$tmp/pids"
PROTOCOL_BOT_PIDS="$tmp/pids" nohup "$lit" arena --team-a "cmd:$bot stubborn" --team-b random \
  --games 1 --quiet --move-timeout 300000 >"$tmp/out" 2>"$tmp/err" &
arena=$!
for _ in $(seq 600); do
  [ -s "$tmp/pids" ] && break
  sleep 0.1
done
kill -HUP "$arena" # (delivered before the SIGTERM: the lower number goes first)
kill -TERM "$arena"
rc=0
wait "$arena" || rc=$?
[ "$rc" = 143 ] || fail "an arena under nohup: exit status $rc, want 143 (SIGHUP ignored, SIGTERM)"
run 2 "$lit" arena --team-a "cmd:$(printf '%0600d' 0)" --team-b random
same_text "arena, a long command" \
  "lit: --team-a: too_long: a cmd: entrant of at most 511 bytes (the command at most 507)" "$tmp/err"
run 2 "$lit" arena --team-a "cmd:" --team-b random
same_text "arena cmd:" "lit: --team-a: unknown_bot: there is no bot of that name: 'cmd:'" "$tmp/err"
run 2 "$lit" arena --team-a basic --move-timeout 0
same_text "arena --move-timeout 0" "lit: --move-timeout: not a number of milliseconds from 1 to 600000: '0'" "$tmp/err"
run 2 "$lit" arena --team-a basic --start-timeout x
same_text "arena --start-timeout x" "lit: --start-timeout: not a number of milliseconds up to 600000: 'x'" "$tmp/err"

# No bot process outlives the arena.
if pgrep -f "tests/data/protocol_bot.py" >/dev/null; then
  fail "bot processes are left running: $(pgrep -af tests/data/protocol_bot.py | head -3)"
fi

finish cli_arena_protocol
