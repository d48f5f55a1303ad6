#!/usr/bin/env bash
# cli_play.sh LIT SOURCE_DIR - `lit play` in plain mode, driven through a pipe
# as a script or a screen reader would (tests/data/play_driver.py plays the
# hints): complete games under several rule sets, saved records that replay,
# every illegal command refused with its exact message, a resume, and bad
# arguments.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

driver="$python3 $src/tests/data/play_driver.py"

# 1. Whole games, each to its end, under several rule sets and bots, played
# by the hints (each with its chance).
i=0
for args in "--players 6" "--rules club --players 4 --bot casual" \
  "--rules quartets --players 8 --rule must-claim=on --rule after-claim=team" \
  "--rule pass-play=on --rule claim-time=any-time --bots random,casual,expert:4,basic,casual" \
  "--rules jokers --players 10 --seat 4"; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  run 0 $driver 0 "$lit" play --seed $((100 + i)) --record "$tmp/g$i.lit" $args
  grep -Eq '^result: (A|B|draw)  score: A -?[0-9]+, B -?[0-9]+$' "$tmp/out" || fail "game $i ($args): no result line"
  grep -q "^saved: $tmp/g$i.lit$" "$tmp/out" || fail "game $i: not saved"
  [ "$(grep -c '^> hint' "$tmp/out")" = "$(grep -c '^; hint: ' "$tmp/g$i.lit")" ] ||
    fail "game $i: the record does not mark every hint"
  # a hint says why: an ask the chance it hits, from the player's view
  ! grep -E '^hint: asks ' "$tmp/out" | grep -Evq ' \(hits [0-9]+%\)$' ||
    fail "game $i: an ask's hint without its chance: $(grep -E '^hint: asks ' "$tmp/out" | grep -Ev ' \(hits [0-9]+%\)$' | head -n 1)"
  grep -Eq '^hint: asks .* \(hits [0-9]+%\)$' "$tmp/out" || fail "game $i: no ask hinted"
  # a claim the chance it is right (at most the likeliest placement's, for
  # another)
  ! grep -E '^hint: claims ' "$tmp/out" | grep -Evq ' \(right (at most )?[0-9]+%\)$' ||
    fail "game $i: a claim's hint without its chance: $(grep -E '^hint: claims ' "$tmp/out" | head -n 1)"
  # the record marks the move alone
  ! grep -q '^; hint: .*(' "$tmp/g$i.lit" || fail "game $i: a hint's chance in the record"
  run 0 "$lit" replay "$tmp/g$i.lit"
  grep -Eq '^\[Result "(A|B|draw)"\]$' "$tmp/g$i.lit" || fail "game $i: the record has no result"
  grep -q '^\[Event "lit play"\]$' "$tmp/g$i.lit" || fail "game $i: no Event tag"
done
grep -q '^\[Name4 "you"\]$' "$tmp/g5.lit" || fail "--seat 4: seat 4 is not the player's"
# at the start nothing is known: any ask hits with the target's share of
# the cards the player does not hold, 8 of 40 (6 players)
printf 'hint\nquit\n' >"$tmp/hint.in"
run 0 "$lit" play --seed 42 --record "$tmp/start.lit" <"$tmp/hint.in"
grep -Eq '^hint: asks [2-6] for [0-9TJQKA][cdhs] \(hits 20%\)$' "$tmp/out" ||
  fail "the first hint's chance: $(grep '^hint' "$tmp/out")"

# 2. Illegal commands: the exact message, and nothing changes (a claim
# with its outcome written too; commands in capitals or with blanks are
# the same commands).
printf '%s\n' fly "asks 2 for Zz" "asks 9 for 3c" "asks 3 for 3c" "asks 2 for 9c" "asks 2 for 2h" \
  "claims lh 1:2h" "claims lh 1:2h,2h,3h,4h,5h,6h,7h" "claims lh 1:2h,3h,4h 2:5h,6h,7h" "passes to 3" "chooses 3" sheet \
  "claims purple 1:2h" "ask 2" "ask 4 Qh junk" "pass 3 4" "" "claims lh 1:2h,3h,4h,5h,6h,7h won" \
  "HAND " "Aid  On" quit >"$tmp/in"
run 0 "$lit" play --seed 42 --record "$tmp/bad.lit" <"$tmp/in"
cat >"$tmp/want" <<'TXT'
game: classic, seed 42, dealer 1; you are seat 1 (team A)
seats: 1 you (A), 2 basic (B), 3 basic (A), 4 basic (B), 5 basic (A), 6 basic (B)
hand: 2c 5c 9c Tc 5d Kd 9s Ts
your turn: play
error: syntax: that is no move or command (try: help)
error: bad_card: there is no such card in this deck
error: bad_seat: there is no such seat
error: ask_teammate: you may ask only a player of the other team
error: own_card: you hold that card
error: no_base_card: you hold no other card of that set
error: claim_incomplete: a claim must name a holder for every card of the set
error: bad_claim_cards: a claim may list only cards of its set, each once
error: claim_names_opponent: a claim may name only players of your own team
error: pass_not_allowed: you may not pass the turn now
error: nothing_to_choose: there is no choice to make now
error: aid_off: the scoresheet aid is off (turn it on with: aid on)
error: bad_set: there is no such set in this deck
error: syntax: that is no move or command (try: help)
error: syntax: that is no move or command (try: help)
error: syntax: that is no move or command (try: help)
error: outcome_mismatch: a claim is written without its outcome: the referee gives it
hand: 2c 5c 9c Tc 5d Kd 9s Ts
aid: on
quit after 0 actions
TXT
echo "saved: $tmp/bad.lit (lit play --resume $tmp/bad.lit goes on with it)" >>"$tmp/want"
same "illegal commands" "$tmp/want" "$tmp/out"
grep -q '^\[Result "\*"\]$' "$tmp/bad.lit" || fail "a quit game is saved unfinished"

# the aid and the moves of the notation's words and their short forms
printf '%s\n' "aid on" sheet "ask 2 9d" quit >"$tmp/in"
run 0 "$lit" play --seed 42 --record "$tmp/aid.lit" <"$tmp/in"
grep -q '^consistent deals: ' "$tmp/out" || fail "sheet: no scoresheet with the aid on"
grep -q '^1\. 1 asks 2 for 9d: miss$' "$tmp/out" || fail "ask 2 9d was not played"
grep -q '^; aid on$' "$tmp/aid.lit" || fail "the record does not mark the aid"

# hand sizes by the rules' display option
printf '%s\n' sizes quit >"$tmp/in"
run 0 "$lit" play --seed 42 --rules encyclopedia --record "$tmp/hid.lit" <"$tmp/in"
grep -qx 'error: sizes_hidden: hand sizes are not shown under these rules' "$tmp/out" ||
  fail "counts=hidden: sizes were not refused"
run 0 "$lit" play --seed 42 --record "$tmp/req.lit" <"$tmp/in"
grep -qx 'sizes: 1:8 2:8 3:8 4:8 5:8 6:8' "$tmp/out" || fail "counts=request: no sizes"
grep -qx '; hand sizes asked for' "$tmp/req.lit" || fail "counts=request: the request is not marked"

# 3. Quit after a few moves, then resume to the end; marks kept.
run 0 $driver 3 "$lit" play --seed 7 --record "$tmp/r.lit" --bots casual,expert:4,basic,casual,random --aid
grep -q '^\[Result "\*"\]$' "$tmp/r.lit" || fail "resume: the first part is not unfinished"
before=$(grep -c '^; ' "$tmp/r.lit")
run 0 $driver 0 "$lit" play --resume "$tmp/r.lit"
grep -q '^game: classic, seed 7, dealer 1; you are seat 1 (team A), resumed$' "$tmp/out" ||
  fail "resume: no resumed line: $(head -1 "$tmp/out")"
grep -q '^seats: 1 you (A), 2 casual (B), 3 expert:4 (A), 4 basic (B), 5 casual (A), 6 random (B)$' \
  "$tmp/out" || fail "resume: the bots are not the record's"
run 0 "$lit" replay "$tmp/r.lit"
grep -Eq '^\[Result "(A|B|draw)"\]$' "$tmp/r.lit" || fail "resume: not played to the end"
[ "$(grep -c '^; ' "$tmp/r.lit")" -gt "$before" ] || fail "resume: the earlier marks were lost"
grep -q '^; aid on$' "$tmp/r.lit" || fail "resume: the aid mark was lost"
run 1 "$lit" play --resume "$tmp/r.lit"
grep -Eqx "lit: $tmp/r.lit: that game is over \((A|B|draw)\)" "$tmp/err" ||
  fail "resume a finished game: $(cat "$tmp/err")"

# A record with two players' names: yours is the first; the other seat is
# played by basic and keeps its name in the record.
sed 's/^\[Name3 "[^"]*"\]$/[Name3 "bob"]/' "$tmp/bad.lit" >"$tmp/two.lit"
printf 'quit\n' | "$lit" play --resume "$tmp/two.lit" --record "$tmp/two-out.lit" >"$tmp/out"
grep -q '^seats: 1 you (A), 2 basic (B), 3 bob (played by basic) (A),' "$tmp/out" ||
  fail "two names: $(sed -n 2p "$tmp/out")"
grep -q '^\[Name1 "you"\]$' "$tmp/two-out.lit" || fail "two names: seat 1 renamed"
grep -q '^\[Name3 "bob"\]$' "$tmp/two-out.lit" || fail "two names: bob's name lost"

# A resumed record keeps the marks after its move lines (a server's
# stand-in, here), so that a review still leaves that move ungraded.
sed 's/^2\. 2 asks 1 for 5c: hit$/& ; timeout: the basic bot moved/' tests/data/example.lit >"$tmp/stood.lit"
grep -q '; timeout: the basic bot moved$' "$tmp/stood.lit" || fail "stood.lit: no mark made"
printf 'quit\n' | "$lit" play --resume "$tmp/stood.lit" --record "$tmp/stood-out.lit" >/dev/null
grep -qx '2\. 2 asks 1 for 5c: hit ; timeout: the basic bot moved' "$tmp/stood-out.lit" ||
  fail "resume: the stand-in's mark lost: $(grep '^2\. ' "$tmp/stood-out.lit")"

# A save that cannot be written leaves the saved game as it was, and says
# why (a review found a resumed game cut at the size limit, and a game of
# any length lost at its end for a --record in a missing folder, which is
# now refused before the game).
cp "$tmp/bad.lit" "$tmp/keep.lit"
printf 'quit\n' >"$tmp/in"
# (stderr through a pipe, which the size limit does not stop)
set +o pipefail
(trap '' XFSZ; ulimit -f 0; exec "$lit" play --resume "$tmp/keep.lit" <"$tmp/in" 2>&1 >/dev/null) |
  cat >"$tmp/err"
rc=${PIPESTATUS[0]}
set -o pipefail
[ "$rc" = 1 ] || fail "a save over the size limit: exit status $rc, want 1"
same_text "a save over the size limit" "lit: $tmp/keep.lit: cannot write the record: File too large" \
  "$tmp/err"
cmp -s "$tmp/bad.lit" "$tmp/keep.lit" || fail "a failed save changed the saved game"
[ -z "$(find "$tmp" -name 'keep.lit.*')" ] || fail "a failed save left a file: $(find "$tmp" -name 'keep.lit.*')"
run 1 "$lit" play --seed 42 --record "$tmp/no/such/x.lit" <"$tmp/in"
same_text "--record in a missing folder" \
  "lit: $tmp/no/such/x.lit: cannot write the record: No such file or directory" "$tmp/err"
same_text "--record in a missing folder: no game" "" "$tmp/out"
run 1 "$lit" play --seed 42 --record "$tmp" <"$tmp/in"
same_text "--record a folder" "lit: $tmp: cannot write the record: Is a directory" "$tmp/err"

# A signal to stop (here SIGTERM, as a terminal's close or a timeout sends)
# saves the game as quit does, with the signal's status; a review found
# plain mode lost the game. A line holding a NUL byte is refused, not cut
# at the NUL and played.
rm -f "$tmp/fifo"
mkfifo "$tmp/fifo"
"$lit" play --seed 42 --record "$tmp/sig.lit" <"$tmp/fifo" >"$tmp/out" 2>"$tmp/err" &
pid=$!
exec 7>"$tmp/fifo"
printf 'asks 2 for 9d\0junk\n' >&7
for _ in $(seq 600); do # on progress: the refusal printed (at most 60 s)
  grep -q 'holds no NUL' "$tmp/out" && break
  sleep 0.1
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
exec 7>&-
[ "$rc" = 143 ] || fail "SIGTERM: exit status $rc, want 143"
grep -qx 'error: syntax: a command holds no NUL byte' "$tmp/out" || fail "a NUL byte: $(cat "$tmp/out")"
grep -q 'asks 2 for 9d' "$tmp/out" && fail "the line with a NUL byte was played"
grep -qx 'stopped by signal 15 after 0 actions' "$tmp/out" || fail "SIGTERM: $(tail -2 "$tmp/out")"
grep -qx "saved: $tmp/sig.lit (lit play --resume $tmp/sig.lit goes on with it)" "$tmp/out" ||
  fail "SIGTERM: not saved: $(tail -2 "$tmp/out")"
run 0 "$lit" replay "$tmp/sig.lit"
grep -q '^\[Result "\*"\]$' "$tmp/sig.lit" || fail "SIGTERM: the save is not unfinished"
# whoever reads the answers goes away (a pipe whose reader has read the
# first line and closed it): no death by SIGPIPE, the move played after
# it saved, and the failed writes said
rm -f "$tmp/fifo" "$tmp/answers"
mkfifo "$tmp/fifo" "$tmp/answers"
"$lit" play --seed 42 --record "$tmp/pipe.lit" <"$tmp/fifo" >"$tmp/answers" 2>"$tmp/err" &
pid=$!
exec 7>"$tmp/fifo" 8<"$tmp/answers"
read -r first <&8
exec 8<&-
printf 'asks 2 for 4c\nhand\n' >&7
rc=0
wait "$pid" || rc=$?
exec 7>&-
[ "$rc" = 1 ] || fail "the reader gone: exit status $rc, want 1 ($first)"
grep -qx 'lit: standard output: Broken pipe' "$tmp/err" || fail "the reader gone: $(cat "$tmp/err")"
grep -q '^1\. 1 asks 2 for 4c: miss$' "$tmp/pipe.lit" || fail "the reader gone: the move not saved"

# 4. Bad arguments.
bad() {
  local want=$1
  shift
  run 2 "$lit" play "$@"
  same_text "play $*" "$want" "$tmp/err"
}
bad "lit: --bot: unknown_bot: there is no bot of that name: 'grandmaster'" --bot grandmaster </dev/null
bad "lit: --bots: 2 bots for 5 other seats" --bots basic,casual </dev/null
bad "lit: --bots: more bots than the 3 other seats" --players 4 --bots basic,basic,basic,basic </dev/null
bad "lit: --bots: bad_bot_option: that bot does not take that setting or value: 'basic:2'" \
  --players 4 --bots basic,basic:2,basic </dev/null
bad "lit: --seat: there are 6 seats" --seat 8 </dev/null
bad "lit: --seat: not a seat: '0'" --seat 0 </dev/null
bad "lit: --name: bad_name: 1 to 32 bytes of UTF-8 showing something, no control or format characters, no space at either end" \
  --name " x" </dev/null
bad "lit: --name: bad_name: 1 to 32 bytes of UTF-8 showing something, no control or format characters, no space at either end" \
  --name "$(printf 'a\342\200\256b')" </dev/null
for opt in "--players 8" "--seed 5" "--rules club" "--rule bluff=on" "--dealer 2" "--bot casual"; do
  # shellcheck disable=SC2086
  run 2 "$lit" play --resume "$tmp/bad.lit" $opt </dev/null
  same_text "--resume with $opt" "lit: ${opt%% *}: a resumed game keeps its own rules, seed, dealer and bots" \
    "$tmp/err"
done
# a Result tag the moves do not give: refused as lit replay refuses it
sed 's/^\[Result "\*"\]$/[Result "A"]/' "$tmp/bad.lit" >"$tmp/res.lit"
line=$(grep -n '^\[Result' "$tmp/res.lit" | cut -d: -f1)
run 1 "$lit" replay "$tmp/res.lit"
cp "$tmp/err" "$tmp/replay.err"
run 1 "$lit" play --resume "$tmp/res.lit" </dev/null
same_text "--resume, a wrong Result" \
  "$tmp/res.lit:$line: result_mismatch: the Result or Score tag does not match the game" "$tmp/err"
same "--resume and replay, a wrong Result" "$tmp/replay.err" "$tmp/err"
run 1 "$lit" play --resume "$tmp/bad.lit" --seat 7 </dev/null
same_text "--resume --seat 7 of 6" "lit: --seat: there are 6 seats" "$tmp/err"
# --seat moves you: marked in the record, so that the next resume without
# --seat finds you there (the seat you left keeps its name, played by basic)
printf 'quit\n' | "$lit" play --seed 5 --record "$tmp/moved.lit" >/dev/null
printf 'quit\n' | "$lit" play --resume "$tmp/moved.lit" --seat 3 >"$tmp/out" 2>&1 ||
  fail "--resume --seat 3: $(cat "$tmp/out")"
grep -q '^game: .*; you are seat 3 (team A), resumed$' "$tmp/out" || fail "--seat 3: $(head -2 "$tmp/out")"
[ "$(grep -c '^; you: seat 3$' "$tmp/moved.lit")" = 1 ] || fail "--seat 3: no mark: $(cat "$tmp/moved.lit")"
grep -q '^\[Name1 "you"\]$' "$tmp/moved.lit" || fail "--seat 3: seat 1 lost its name"
printf 'quit\n' | "$lit" play --resume "$tmp/moved.lit" >"$tmp/out" 2>&1 || fail "--resume: $(cat "$tmp/out")"
grep -q '; you are seat 3 (team A), resumed$' "$tmp/out" || fail "after --seat 3: $(head -2 "$tmp/out")"
[ "$(grep -c '^; you:' "$tmp/moved.lit")" = 1 ] || fail "a resume in place marked a move"
printf 'quit\n' | "$lit" play --resume "$tmp/moved.lit" --seat 1 >/dev/null 2>&1
printf 'quit\n' | "$lit" play --resume "$tmp/moved.lit" >"$tmp/out" 2>&1
grep -q '; you are seat 1 (team A), resumed$' "$tmp/out" || fail "back to seat 1: $(head -2 "$tmp/out")"
run 0 "$lit" replay "$tmp/moved.lit"
run 1 "$lit" play --resume "$tmp/no-such.lit" </dev/null
grep -q "no-such.lit" "$tmp/err" || fail "resume of a missing file: $(cat "$tmp/err")"
run 0 "$lit" play --help
grep -q '^usage: lit play' "$tmp/out" || fail "play --help: no usage"

finish cli_play
