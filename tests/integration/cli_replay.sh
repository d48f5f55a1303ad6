#!/usr/bin/env bash
# cli_replay.sh LIT SOURCE_DIR - `lit replay` on the records of tests/data
# (see tests/data/README.md): exact stdout, stderr and exit status.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

header6() { # the lines replay prints before the moves of a 6-seat record
  printf '%s\n' "rules: $1; dealer 1; deal $2"
  printf '%s\n' "seat 1: team A$3" "seat 2: team B$4" "seat 3: team A" "seat 4: team B" \
    "seat 5: team A" "seat 6: team B"
}

# ---- the example of docs/NOTATION.md -----------------------------------------
run 0 "$lit" replay tests/data/example.lit
{
  header6 classic known ", Asha" ', Ben "the fish"'
  cat <<'EOF'
1. 1 asks 2 for 3c: miss
2. 2 asks 1 for 5c: hit
3. 2 asks 3 for 4c: hit
4. 2 asks 5 for 6c: miss
5. 5 asks 4 for 4s: hit
6. 5 asks 2 for 7s: hit
7. 5 claims low-spades 1:3s 3:2s,6s 5:4s,5s,7s won  [score 1-0]
8. 5 claims high-hearts 1:Jh 3:9h,Th,Qh,Kh 5:Ah lost (4:Th,Kh 6:9h,Qh)  [score 1-1]
result: unfinished, score 1-1 after 8 actions
EOF
} >"$tmp/example.out"
same "replay example.lit: stdout" "$tmp/example.out" "$tmp/out"
same_text "replay example.lit: stderr" "" "$tmp/err"
tail -n 1 "$tmp/out" >"$tmp/last"
same_text "replay example.lit: last line" "result: unfinished, score 1-1 after 8 actions" "$tmp/last"

# The same from standard input, and with CRLF line ends.
run 0 "$lit" replay - <tests/data/example.lit
same "replay - < example.lit" "$tmp/example.out" "$tmp/out"
sed 's/$/\r/' tests/data/example.lit >"$tmp/crlf.lit"
run 0 "$lit" replay "$tmp/crlf.lit"
same "replay of example.lit with CRLF" "$tmp/example.out" "$tmp/out"

# ---- a complete classic game (lit selfplay --games 1 --seed 7) ---------------------
run 0 "$lit" replay tests/data/classic_game.lit
same "replay classic_game.lit" tests/data/classic_game.out "$tmp/out"
same_text "replay classic_game.lit: stderr" "" "$tmp/err"
tail -n 1 "$tmp/out" >"$tmp/last"
same_text "classic_game: result" "result: team B wins, score 3-5 after 149 actions" "$tmp/last"
# The printed moves are the record's canonical lines.
grep -E '^[0-9]+\. ' tests/data/classic_game.lit >"$tmp/moves.want"
grep -E '^[0-9]+\. ' "$tmp/out" | sed 's/  \[score -\{0,1\}[0-9]*--\{0,1\}[0-9]*\]$//' >"$tmp/moves.got"
same "classic_game: printed moves" "$tmp/moves.want" "$tmp/moves.got"

# ---- the same game without its deal: public information only -----------------------
run 0 "$lit" replay tests/data/no_deal.lit
{
  header6 classic "unknown (public information only)" "" ""
  tail -n +8 tests/data/classic_game.out
} >"$tmp/no_deal.out"
same "replay no_deal.lit" "$tmp/no_deal.out" "$tmp/out"
same_text "replay no_deal.lit: stderr" "" "$tmp/err"

# ---- an illegal action at a known line -----------------------------------------------
run 1 "$lit" replay tests/data/illegal_turn.lit
same_text "illegal_turn.lit: stderr" \
  "tests/data/illegal_turn.lit:9: not_your_turn: it is not your turn" "$tmp/err"
{
  header6 classic known "" ""
  printf '%s\n' "1. 1 asks 2 for 3c: miss" "2. 2 asks 1 for 5c: hit"
} >"$tmp/want"
same "illegal_turn.lit: stdout" "$tmp/want" "$tmp/out"

# ---- a malformed line ------------------------------------------------------------------
run 1 "$lit" replay tests/data/bad_card.lit
same_text "bad_card.lit: stderr" \
  "tests/data/bad_card.lit:8: bad_card: there is no such card in this deck" "$tmp/err"
same_text "bad_card.lit: stdout" "" "$tmp/out"

# ---- a folder is no record: the reason, not "read error" --------------------------------
run 1 "$lit" replay tests/data
same_text "a folder: stderr" "lit: tests/data: Is a directory" "$tmp/err"

# ---- a Result tag that does not match ----------------------------------------------------
run 1 "$lit" replay tests/data/result_mismatch.lit
same_text "result_mismatch.lit: stderr" \
  "tests/data/result_mismatch.lit:6: result_mismatch: the Result or Score tag does not match the game" \
  "$tmp/err"
{
  header6 classic known "" ""
  grep -E '^[1-8]\. ' "$tmp/example.out"
} >"$tmp/want"
same "result_mismatch.lit: stdout (every move, no result line)" "$tmp/want" "$tmp/out"

# ... and a Score tag alone: its own line.
sed -e '/^\[Result /d' -e 's/^\[Score "1-1"\]/[Score "2-1"]/' tests/data/result_mismatch.lit \
  >"$tmp/score.lit"
run 1 "$lit" replay "$tmp/score.lit"
same_text "Score mismatch: stderr" \
  "$tmp/score.lit:6: result_mismatch: the Result or Score tag does not match the game" "$tmp/err"
# ... and the right Result and Score replay.
sed -e 's/^\[Result "A"\]/[Result "*"]/' tests/data/result_mismatch.lit >"$tmp/right.lit"
run 0 "$lit" replay "$tmp/right.lit"
tail -n 1 "$tmp/out" >"$tmp/last"
same_text "Result * Score 1-1" "result: unfinished, score 1-1 after 8 actions" "$tmp/last"

# ---- more statuses at their lines, from edits of the example ----------------------------
sed 's/^1\. 1 asks 2 for 3c: miss$/1. 1 asks 2 for 3c: hit/' tests/data/example.lit >"$tmp/answer.lit"
run 1 "$lit" replay "$tmp/answer.lit"
same_text "a wrong answer" \
  "$tmp/answer.lit:16: outcome_mismatch: the written answer or outcome is not what happened" \
  "$tmp/err"
grep -v '^\[\(Seed\|Hand\)' tests/data/example.lit | sed 's/^2\. 2 asks 1 for 5c: hit$/2. 2 asks 1 for 5c/' \
  >"$tmp/missing.lit"
run 1 "$lit" replay "$tmp/missing.lit"
same_text "a missing answer without a deal" \
  "$tmp/missing.lit:10: missing_outcome: without a known deal every answer and claim outcome must be written" \
  "$tmp/err"
grep -v '^\[\(Seed\|Hand\)' tests/data/example.lit | sed 's/ lost (4:Th,Kh 6:9h,Qh)$/ cancelled (4:Th,Kh 6:9h,Qh)/' \
  >"$tmp/outcome.lit"
run 1 "$lit" replay "$tmp/outcome.lit"
same_text "an outcome that does not follow from the holders" \
  "$tmp/outcome.lit:16: outcome_mismatch: the written answer or outcome is not what happened" \
  "$tmp/err"
sed 's/^\[Seed "1"\]/[Seed "2"]/' tests/data/example.lit >"$tmp/seed.lit"
run 1 "$lit" replay "$tmp/seed.lit"
if ! grep -Eqx "$tmp/seed.lit:[0-9]+: deal_mismatch: the seed does not give the hands written" "$tmp/err"; then
  fail "a Seed that does not give the hands: stderr is"
  cat "$tmp/err" >&2
fi
{ printf '[Rules "classic"]\n[Dealer "1"]\n'; head -c 1048576 /dev/zero | tr '\0' ';'; } >"$tmp/long.lit"
run 1 "$lit" replay "$tmp/long.lit"
same_text "a record over 1 MiB" \
  "$tmp/long.lit:1: too_long: the line or the record is too long" "$tmp/err"

# ---- --trace ---------------------------------------------------------------------------
run 0 "$lit" replay --trace tests/data/trace.lit
same "replay --trace trace.lit" tests/data/trace.trace "$tmp/out"
same_text "replay --trace trace.lit: stderr" "" "$tmp/err"
# a mark after a move line says who chose it: "by" in the trace
sed 's/^2\. 2 asks 1 for 5c: hit$/& ; timeout: the basic bot moved/; s/^3\. 2 asks 3 for 4c: hit$/& ;fallback: timeout/' \
  tests/data/example.lit >"$tmp/by.lit"
run 0 "$lit" replay --trace "$tmp/by.lit"
[ "$(grep -o '"by":[a-z"]*' "$tmp/out" | tr '\n' ' ')" = '"by":null "by":null "by":"timeout" "by":"fallback" "by":null "by":null "by":null "by":null "by":null ' ] ||
  fail "trace by: $(grep -o '"by":[a-z"]*' "$tmp/out" | tr '\n' ' ')"
# Without --trace the same record stops at its first illegal action.
run 1 "$lit" replay tests/data/trace.lit
same_text "replay trace.lit" "tests/data/trace.lit:9: not_your_turn: it is not your turn" "$tmp/err"
# A malformed line ends a trace: the lines before it, then one naming it.
run 1 "$lit" replay --trace tests/data/bad_card.lit
same_text "replay --trace bad_card.lit: stderr" \
  "tests/data/bad_card.lit:8: bad_card: there is no such card in this deck" "$tmp/err"
same_text "replay --trace bad_card.lit: stdout" \
  '{"n":0,"status":"ok","result":null,"outcome":null,"turn":1,"phase":"play","score":[0,0],"auto":null,"by":null}
{"n":1,"status":"ok","result":"miss","outcome":null,"turn":2,"phase":"play","score":[0,0],"auto":null,"by":null}
{"error":"bad_card","line":8,"text":"there is no such card in this deck"}' "$tmp/out"
# ... a NUL byte or a line too long on the first move line too: the start
# (the header was whole), then the error
printf '[Rules "classic"]\n[Dealer "1"]\n[Seed "1"]\n\n1. 1 asks 2 for 3c\0\n' >"$tmp/nul_first.lit"
{ printf '[Rules "classic"]\n[Dealer "1"]\n[Seed "1"]\n\n1. 1 asks 2 for 3c ; '; head -c 5000 /dev/zero | tr '\0' x; echo; } \
  >"$tmp/long_first.lit"
for bad in nul_first:syntax:"the line cannot be read" long_first:too_long:"the line or the record is too long"; do
  IFS=: read -r name status text <<<"$bad"
  run 1 "$lit" replay --trace "$tmp/$name.lit"
  same_text "replay --trace $name.lit: stdout" \
    '{"n":0,"status":"ok","result":null,"outcome":null,"turn":1,"phase":"play","score":[0,0],"auto":null,"by":null}
{"error":"'"$status"'","line":5,"text":"'"$text"'"}' "$tmp/out"
done
# ... and a Result the game does not end with: the lines, then the error
# in place of the end (the record's own error, as lit replay says it)
sed 's/^\[Score "1-1"\]$/[Score "4-3"]/' tests/data/example.lit >"$tmp/score.lit"
run 1 "$lit" replay --trace "$tmp/score.lit"
[ "$(grep -c '^{"n":' "$tmp/out")" = 9 ] || fail "a wrong Score: the trace's lines: $(wc -l <"$tmp/out")"
[ "$(tail -n 1 "$tmp/out")" = '{"error":"result_mismatch","line":14,"text":"the Result or Score tag does not match the game"}' ] ||
  fail "a wrong Score: $(tail -n 1 "$tmp/out")"
# ... and one in the header: that line alone
printf '[Rules "classic"]\n[Dealer "9"]\n\n1. 2 asks 3 for 2c\n' >"$tmp/bad_dealer.lit"
run 1 "$lit" replay --trace "$tmp/bad_dealer.lit"
grep -Eq '^\{"error":"[a-z_]+","line":2,"text":"[^"]+"\}$' "$tmp/out" && [ "$(wc -l <"$tmp/out")" = 1 ] ||
  fail "replay --trace, a bad header: $(cat "$tmp/out")"
# ... and a missing tag: which one, in both
printf '1. 2 asks 3 for 2c\n' >"$tmp/no_header.lit"
run 1 "$lit" replay "$tmp/no_header.lit"
same_text "no header: stderr" \
  "$tmp/no_header.lit:1: missing_tag: a required header tag is missing: Rules" "$tmp/err"
run 1 "$lit" replay --trace "$tmp/no_header.lit"
same_text "replay --trace, no header: stdout" \
  '{"error":"missing_tag","line":1,"text":"a required header tag is missing","tag":"Rules"}' \
  "$tmp/out"
"$lit" deal --seed 3 | sed '/^\[Hand4 /d' >"$tmp/no_hand4.lit"
run 1 "$lit" replay "$tmp/no_hand4.lit"
same_text "no Hand4: stderr" \
  "$tmp/no_hand4.lit:8: missing_tag: a required header tag is missing: Hand4" "$tmp/err"
run 0 "$lit" replay --trace tests/data/illegal_turn.lit
same_text "replay --trace illegal_turn.lit" \
  '{"n":0,"status":"ok","result":null,"outcome":null,"turn":1,"phase":"play","score":[0,0],"auto":null,"by":null}
{"n":1,"status":"ok","result":"miss","outcome":null,"turn":2,"phase":"play","score":[0,0],"auto":null,"by":null}
{"n":2,"status":"ok","result":"hit","outcome":null,"turn":2,"phase":"play","score":[0,0],"auto":null,"by":null}
{"n":3,"status":"not_your_turn","result":null,"outcome":null,"turn":2,"phase":"play","score":[0,0],"auto":null,"by":null}
{"n":4,"status":"ok","result":"hit","outcome":null,"turn":2,"phase":"play","score":[0,0],"auto":null,"by":null}
{"end":"unfinished","score":[0,0],"actions":3}' "$tmp/out"
# The trace of a finished game: nobody on turn, then its result; the pass
# the engine made itself after action 127 (seat 5 emptied by its claim, 3
# its only teammate with cards) is on that action's line.
run 0 "$lit" replay --trace tests/data/classic_game.lit
tail -n 2 "$tmp/out" >"$tmp/last"
same_text "trace of classic_game.lit: last lines" \
  '{"n":149,"status":"ok","result":null,"outcome":"won","turn":null,"phase":"over","score":[3,5],"auto":null,"by":null}
{"end":"B","score":[3,5],"actions":149}' "$tmp/last"
grep -q '^{"n":127,.*"turn":3,"phase":"play",.*"auto":{"action":"pass","seat":5,"target":3},"by":null}$' "$tmp/out" ||
  fail "trace of classic_game.lit: no pass made by the engine at 127"
if grep -v '^{"end"' "$tmp/out" | grep -qv '"status":"ok"'; then fail "trace of classic_game.lit: a refused action"; fi
[ "$(wc -l <"$tmp/out")" -eq 151 ] || fail "trace of classic_game.lit: not 151 lines"
# A game stopped at the action bound says so (it would look finished).
run 0 "$lit" replay --trace tests/data/aborted.lit
tail -n 1 "$tmp/out" >"$tmp/last"
same_text "trace of aborted.lit: the end" '{"end":"aborted","score":[2,1],"actions":2000}' "$tmp/last"
# A record writes no pass the engine made: it is refused (not_your_turn).
awk '/^128\. / { print "128. 5 passes to 3"; exit } { print }' tests/data/classic_game.lit \
  >"$tmp/written_pass.lit"
run 1 "$lit" replay "$tmp/written_pass.lit"
grep -q "written_pass.lit:[0-9]*: not_your_turn: " "$tmp/err" ||
  fail "a record writing the engine's pass: $(cat "$tmp/err")"

# ---- usage ------------------------------------------------------------------------------
run 0 "$lit" replay --help
head -n 1 "$tmp/out" >"$tmp/first"
same_text "replay --help" "usage: lit replay [--trace] FILE" "$tmp/first"
same_text "replay --help: stderr" "" "$tmp/err"
run 1 "$lit" replay "$tmp/no-such-file.lit"
same_text "a missing file" "lit: $tmp/no-such-file.lit: No such file or directory" "$tmp/err"
same_text "a missing file: stdout" "" "$tmp/out"
run 2 "$lit" replay
head -n 1 "$tmp/err" >"$tmp/first"
same_text "replay without FILE" "lit: replay: give one FILE" "$tmp/first"
run 2 "$lit" replay tests/data/example.lit tests/data/example.lit
head -n 1 "$tmp/err" >"$tmp/first"
same_text "replay of two FILEs" "lit: replay: unexpected argument 'tests/data/example.lit'" "$tmp/first"
run 2 "$lit" replay --bogus tests/data/example.lit
# the command's own --help and --version: nothing after them, and a write
# that fails is said
run 2 "$lit" --version extra
same_text "--version extra" "lit: --version: unexpected argument 'extra'" "$tmp/err"
run 2 "$lit" --help extra
same_text "--help extra" "lit: --help: unexpected argument 'extra'" "$tmp/err"
for opt in --version --help help; do
  rc=0
  "$lit" $opt >/dev/full 2>"$tmp/err" || rc=$?
  [ "$rc" = 1 ] || fail "$opt to a full disk: exit status $rc"
  same_text "$opt to a full disk" "lit: standard output: No space left on device" "$tmp/err"
done

# A record with no deal must fit some deal: the claim shows the 3c where a
# miss said it was not.
run 1 "$lit" replay tests/data/inconsistent.lit
same_text "inconsistent.lit: stderr" \
  "tests/data/inconsistent.lit:7: inconsistent: no deal of the cards fits what has been seen" "$tmp/err"

finish cli_replay
