#!/usr/bin/env bash
# cli_table.sh LIT SOURCE_DIR - the full-screen table of `lit play`, driven in
# a tmux pseudo-terminal with keys as a person would: under LANG=C.UTF-8 (suit
# symbols) an illegal ask refused with its rule, an ask, a claim cancelled and
# then made (only y makes it), the claim kept on the table under history=last,
# quit and the record saved; under LANG=C the ASCII fallback; SIGTERM, a
# closed terminal and a fault, each saving the game; q while the bots play;
# TERM=dumb (plain mode); a 54-card picker at 80x24; a terminal too small;
# seat 12 by its number.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null || { fail "tmux is missing (scripts/deps.sh installs it)"; finish cli_table; }
sock="$tmp/t1.sock"
# a failing tmux command (the game ended, say) is seen by wait_for, not fatal
tm() { tmux -S "$sock" "$@" 2>/dev/null || true; }
# each part's tmux server is its own (no race with the last one's exit)
trap 'for s in "$tmp"/*.sock; do tmux -S "$s" kill-server 2>/dev/null || true; done
      rm -rf "$tmp"' EXIT

screen() { tm capture-pane -p -t play; }

# wait_for TEXT: until the screen shows TEXT (20 s at most).
wait_for() {
  for _ in $(seq 200); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  fail "the screen never showed: $1"
  screen | sed 's/^/    | /' >&2
  return 1
}

keys() { tm send-keys -t play "$@"; sleep 0.2; }

# table NAME [COLSxROWS] ARGS: lit play --seed 42 ARGS at a table of its own
# (tmux server NAME; 100x32 unless given) under LANG (C.UTF-8 unless set)
# and TERM (xterm-256color unless set), its exit status shown after it
table() {
  sock="$tmp/$1.sock"
  shift
  local x=100 y=32
  if [[ ${1:-} =~ ^[0-9]+x[0-9]+$ ]]; then
    x=${1%x*} y=${1#*x}
    shift
  fi
  local lang=${LANG_AT_TABLE:-C.UTF-8}
  tm new-session -d -s play -x "$x" -y "$y" \
    "env LANG=$lang LC_ALL=$lang TERM=${TERM_AT_TABLE:-xterm-256color} $lit play --seed 42 $*; echo exit=\$?; sleep 60"
}

# 1. UTF-8: suit symbols, the turn marker, an ask refused then made.
table t1 --instant --record "$tmp/u.lit"
wait_for "YOUR TURN (play)"
screen | grep -q 'your hand:  2♣ 5♣ │  9♣ T♣ │  5♦ │  K♦ │  9♠ T♠ │' || fail "utf-8: the hand is not shown with suit symbols"
keys a
wait_for "ask whom?"
# a key the terminal's description does not know (an escape sequence) is
# no key: the choice under way stays
tm send-keys -t play -l $'\e[99~'
sleep 0.2
screen | grep -qF "ask whom?" || fail "an unknown escape sequence cancelled the ask"
keys 3 Enter
wait_for "ask_teammate: you may ask only a player of the other team"
keys 2 Enter
wait_for "ask seat 2 for which card?"
keys Enter
wait_for "own_card: you hold that card"
keys Right Right Enter
wait_for "1. 1 asks 2 for 4c: miss"
wait_for "YOUR TURN"
# a second ask, of seat 4, by its number
keys f a 4 Enter
wait_for "ask seat 4 for which card?"
keys Right Enter
wait_for ". 1 asks 4 for 3c: "
wait_for "YOUR TURN"
keys f

# 2. A claim: built card by card, cancelled, then made.
keys c
wait_for "claim which set?"
keys Enter Enter Enter Enter Enter Enter Enter
wait_for "make this claim? y: yes"
# one Enter too many after the last seat makes no claim: only y does
keys Enter
screen | grep -qF "make this claim? y: yes" || fail "Enter at the question made the claim"
keys n
wait_for "claim cancelled"
keys c
wait_for "claim which set?"
keys Enter Enter Enter Enter Enter Enter Enter
wait_for "make this claim? y: yes"
keys y
wait_for "claims low-clubs 1:"
# under history=last a claim stays on the table with what it revealed
# after the next question (docs/RULES.md "Display rules")
wait_for "YOUR TURN"
keys a 2 Enter Right Right Enter
wait_for " 1 asks 2 for Jc: "
wait_for "YOUR TURN"
screen | grep -q "claims low-clubs 1:" || fail "history=last: the claim is gone after the next question"

# 3. The aid and the scoresheet, the whole history, quit.
keys s
wait_for "aid_off: the scoresheet aid is off"
keys A s
wait_for "scoresheet (s: hide)"
keys s f
wait_for "history (f: only the last question)"
keys q
wait_for "saved: $tmp/u.lit (lit play --resume"
run 0 "$lit" replay "$tmp/u.lit"
grep -q '^\[Result "\*"\]$' "$tmp/u.lit" || fail "quit: the record is not saved unfinished"
grep -q '^; aid on$' "$tmp/u.lit" || fail "the record does not mark the aid"
grep -q '^[0-9]*\. 1 claims low-clubs 1:' "$tmp/u.lit" || fail "the claim is not in the record"
tm kill-server

# 4. The ASCII fallback under LANG=C (a server of its own: no race with the
# first one's exit).
LANG_AT_TABLE=C table t4 --instant --record "$tmp/a.lit"
wait_for "YOUR TURN (play)"
screen | grep -q 'your hand:  2c 5c |  9c Tc |  5d |  Kd |  9s Ts |' || fail "LANG=C: the hand is not in letters"
if screen | grep -q '♣'; then fail "LANG=C: suit symbols on an ASCII terminal"; fi
keys q
tm kill-server

# 5. Passing the turn under pass-play: p, the teammate, Enter.
table t5 --instant --rule pass-play=on --record "$tmp/p.lit"
wait_for "YOUR TURN (play)"
keys p
wait_for "pass to whom?"
keys 3 Enter
wait_for "1. 1 passes to 3"
keys C-c
wait_for "saved: $tmp/p.lit"
grep -q '^1\. 1 passes to 3$' "$tmp/p.lit" || fail "Ctrl-C: the game was not saved"
tm kill-server

# pid_of RECORD: the process of lit play writing RECORD
pid_of() { pgrep -f -- "^$lit play .*--record $1" | head -n 1; }
# the first ask of seat 1 at seed 42 (part 1): a miss, so the bots play
first_ask() {
  wait_for "YOUR TURN (play)"
  keys a 2 Enter Right Right Enter
  wait_for "1. 1 asks 2 for 4c: miss"
}

# 6. A signal from outside (SIGTERM) closes the table, saves and exits
# 143; each move was kept as it was made.
table t6 --instant --record "$tmp/s.lit"
first_ask
wait_for "YOUR TURN"
grep -q '^1\. 1 asks 2 for 4c: miss$' "$tmp/s.lit" || fail "the move was not kept as it was made"
kill -TERM "$(pid_of "$tmp/s.lit")"
wait_for "exit=143"
screen | grep -q "^stopped by signal 15 after [0-9]* actions, score A" || fail "SIGTERM: $(screen | tail -4)"
screen | grep -qF "saved: $tmp/s.lit (lit play --resume $tmp/s.lit goes on with it)" ||
  fail "SIGTERM: not saved"
run 0 "$lit" replay "$tmp/s.lit"
tm kill-server

# 7. The terminal closed (its window gone: SIGHUP): the game saved, the
# aid turned on after the last move with it (only the last save writes it).
table t7 --instant --record "$tmp/h.lit"
first_ask
wait_for "YOUR TURN"
keys A
wait_for "the scoresheet aid is on"
tm kill-server
for _ in $(seq 200); do grep -q '^; aid on$' "$tmp/h.lit" && break; sleep 0.1; done
grep -q '^; aid on$' "$tmp/h.lit" || fail "SIGHUP: not saved at the end"
for _ in $(seq 200); do [ -z "$(pid_of "$tmp/h.lit")" ] && break; sleep 0.1; done
[ -z "$(pid_of "$tmp/h.lit")" ] || fail "SIGHUP: lit play is still running"
run 0 "$lit" replay "$tmp/h.lit"

# 8. q while the bots play (a minute a move): the table closes at once,
# not after their moves.
table t8 --pace 60000 --record "$tmp/q.lit"
first_ask
keys q
wait_for "saved: $tmp/q.lit"
wait_for "exit=0"
tm kill-server

# 9. A terminal that cannot draw the table (TERM=dumb): plain mode, said.
TERM_AT_TABLE=dumb table t9 --instant --record "$tmp/d.lit"
wait_for "lit: the terminal (TERM=dumb) cannot show the table: plain mode, one command a line (as --plain)"
wait_for "your turn: play"
keys quit Enter
wait_for "exit=0"
tm kill-server

# 10. At 80x24 the card picker of a 54-card deck takes the rows it needs
# (three), above the message and the keys' line, which stay whole.
table t10 80x24 --instant --rules jokers --record "$tmp/j.lit"
wait_for "YOUR TURN (play)"
keys a Enter
wait_for "ask seat 2 for which card?"
screen | grep -q "JK1 JK2" || fail "80x24: the picker's last row is hidden"
[ "$(screen | tail -n 1)" = "a ask  c claim  p pass  h hint  A aid on  s sheet  f history  z sizes  q quit" ] ||
  fail "80x24: the keys' line: $(screen | tail -n 1)"
keys Escape q
tm kill-server

# 11. A terminal too small for the table says so (and q still quits).
table t11 40x20 --instant --players 12 --record "$tmp/small.lit"
wait_for "The terminal is too small for the table"
keys q
wait_for "saved: "
tm kill-server

# 12. At 12 players seats 10 to 12 by their numbers: 1 then 2 is seat 12.
table t13 --instant --players 12 --record "$tmp/twelve.lit"
wait_for "YOUR TURN (play)"
keys a 1 2 Enter
wait_for "ask seat 12 for which card?"
keys Escape q
wait_for "saved: "
tm kill-server

# 13. A fault (a bug; here SIGSEGV from outside): the terminal put back,
# and where the game is said. Not under AddressSanitizer, which reports
# a fault itself.
if ! grep -q __asan_init "$lit"; then
  table t12 --instant --record "$tmp/f.lit"
  first_ask
  wait_for "YOUR TURN"
  kill -SEGV "$(pid_of "$tmp/f.lit")"
  wait_for "lit play: stopped by a fault; the game is saved up to its last move: lit play --resume"
  wait_for "exit=139"
  grep -q '^1\. 1 asks 2 for 4c: miss$' "$tmp/f.lit" || fail "SIGSEGV: the move was not kept"
  tm kill-server
fi

finish cli_table
