#!/usr/bin/env bash
# cli_review.sh LIT SOURCE_DIR - `lit review`: a seat's decisions judged
# from its view against the master bot (docs/REVIEW.md). Games at 6, 8 and
# 12 players, the JSON checked against the record it reviews, the same bytes
# twice, an ask that must miss, and every refusal with its exact message and
# exit status. Master's budget is kept small (--budget 4) so that the
# sanitizer build stays well under half a minute on a loaded machine.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# check_json JSON RECORD SEAT: the review of SEAT in RECORD, read back;
# prints the number of decisions, or says what is wrong and exits 1.
check_json() {
  "$python3" - "$1" "$2" "$3" <<'EOF'
import json, re, sys
path, record, seat = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = json.load(open(path))
verbs = {"asks": "ask", "claims": "claim", "passes": "pass", "chooses": "choose"}
moves = []
stand_ins = 0  # the seat's actions marked as another's choice: no decisions
for line in open(record):
    m = re.match(r"^(\d+)\. (\d+) (asks|claims|passes|chooses) ", line)
    if m and int(m.group(2)) == seat:
        if re.search(r";\s*(timeout|away|fallback):", line):
            stand_ins += 1
            continue
        moves.append((int(m.group(1)), verbs[m.group(3)], line.split(";")[0].rstrip()))
problems = []
def check(ok, what):
    if not ok:
        problems.append(what)
check(r["seat"] == seat, "seat")
check(set(r) == {"seat", "rules", "bot", "seed", "decisions", "summary"}, "top keys %s" % sorted(r))
d = r["decisions"]
check(len(d) == len(moves), "%d decisions, %d moves of the seat in the record" % (len(d), len(moves)))
for x, (n, kind, line) in zip(d, moves):
    check(x["n"] == n and x["action"] == kind and x["seat"] == seat, "decision %s: %s" % (x["n"], line))
    check(x["line"] == line, "line %r, record %r" % (x["line"], line))
    for j in (x, x["best"]):
        if j["action"] in ("ask", "claim"):
            check(isinstance(j["chance"], float) and 0 <= j["chance"] <= 1, "chance %r at %d" % (j["chance"], n))
        else:
            check(j["chance"] is None, "a %s with a chance at %d" % (j["action"], n))
        check(isinstance(j["estimated"], bool), "estimated at %d" % n)
    check(x["cost"] >= 0, "cost %r at %d" % (x["cost"], n))
    sa = x["surest_ask"]
    check(sa is None or 0 <= sa <= 1, "surest_ask %r at %d" % (sa, n))
    if not x["same"]:
        ref = max(x["best"]["value"], -1 if sa is None else sa)
        check(abs(x["cost"] - max(0, ref - x["value"])) < 1e-9, "cost %r at %d against %r" % (x["cost"], n, ref))
    keys = [k for k in ("action", "seat", "card", "target", "set", "holders") if k in x["best"]]
    same_action = all(x.get(k) == x["best"][k] for k in keys) and x["best"]["action"] != "wait"
    check(x["same"] == same_action, "same %r at %d" % (x["same"], n))
    if x["same"]:
        check(x["cost"] == 0 and x["grade"] == "best", "master's own action at %d costs %r" % (n, x["cost"]))
    else:
        want = "good" if x["cost"] < 0.1 else "inaccuracy" if x["cost"] < 0.3 else "mistake"
        check(x["grade"] == want, "grade %s for cost %r at %d" % (x["grade"], x["cost"], n))
s = r["summary"]
check(s["decisions"] == len(d), "summary decisions")
check(s["stand_ins"] == stand_ins, "summary stand_ins %r, %d marked" % (s["stand_ins"], stand_ins))
check(s["asks"] == sum(x["action"] == "ask" for x in d), "summary asks")
check(s["hits"] == sum(x.get("answer") == "hit" for x in d), "summary hits")
check(s["claims"] == sum(x["action"] == "claim" for x in d), "summary claims")
check(sum(s["grades"].values()) == len(d), "summary grades")
check(abs(s["cost"] - sum(x["cost"] for x in d)) < 1e-9, "summary cost")
for k in ("hit_rate", "expected_hit_rate", "best_hit_rate"):
    check(s[k] is None if not s["asks"] else 0 <= s[k] <= 1, "summary %s %r" % (k, s[k]))
if problems:
    print("\n".join(problems[:10]), file=sys.stderr)
    sys.exit(1)
print(len(d))
EOF
}

# review RECORD SEAT [options]: the JSON, checked against the record, and
# the text, with one line per decision (kept in review.json, review.txt).
review() {
  local record=$1 seat=$2
  shift 2
  run 0 "$lit" review "$record" --seat "$seat" --json --budget 4 "$@"
  cp "$tmp/out" "$tmp/review.json"
  local n
  if ! n=$(check_json "$tmp/review.json" "$record" "$seat"); then
    fail "$record seat $seat: the JSON does not match the record"
    return 0
  fi
  run 0 "$lit" review "$record" --seat "$seat" --budget 4 "$@"
  cp "$tmp/out" "$tmp/review.txt"
  local lines
  lines=$(grep -cE "^[0-9]+\. $seat (asks|claims|passes|chooses) " "$tmp/review.txt" || true)
  [ "$lines" = "$n" ] || fail "$record seat $seat: $lines text lines, $n decisions"
  grep -q '^  grades against master: best ' "$tmp/review.txt" || fail "$record seat $seat: no summary"
  # the cost printed agrees with the grade: cut to three decimals, never
  # rounded up across a threshold ("0.100 good")
  "$python3" - "$tmp/review.txt" <<'EOF' || fail "$record seat $seat: a cost the grade does not match"
import re, sys
for line in open(sys.argv[1]):
    m = re.search(r"\| cost ([0-9.]+) (best|good|inaccuracy|mistake)$", line)
    if m:
        c, g = float(m.group(1)), m.group(2)
        want = "good" if c < 0.1 else "inaccuracy" if c < 0.3 else "mistake"
        if g != "best" and g != want:
            sys.exit("cost %s graded %s: %s" % (m.group(1), g, line))
EOF
}

# twice RECORD SEAT [options], after review with the same arguments: a
# second run gives the same bytes, JSON and text.
twice() {
  local record=$1 seat=$2
  shift 2
  run 0 "$lit" review "$record" --seat "$seat" --json --budget 4 "$@"
  same "$record seat $seat: JSON twice" "$tmp/review.json" "$tmp/out"
  run 0 "$lit" review "$record" --seat "$seat" --budget 4 "$@"
  same "$record seat $seat: text twice" "$tmp/review.txt" "$tmp/out"
}

# A 6-player game of the pinned self-play policy, one of master (team A,
# no search) against basic, and an 8-player game of the self-play policy.
review tests/data/classic_game.lit 1
review tests/data/classic_game.lit 4
! grep -q "not graded" "$tmp/review.txt" || fail "classic_game.lit: a stand-in where no action is marked"
twice tests/data/classic_game.lit 4
mkdir "$tmp/arena6"
run 0 "$lit" arena --team-a master:0 --team-b basic --players 6 --games 1 --seed 3 \
  --records "$tmp/arena6" --quiet
review "$tmp/arena6/000000-a.lit" 3
grep -q '"grade":"best"' "$tmp/review.json" || fail "master's own game: no decision the same"
run 0 "$lit" selfplay --players 8 --games 1 --seed 5 --record "$tmp/self8.lit"
review "$tmp/self8.lit" 2
review "$tmp/self8.lit" 7
twice "$tmp/self8.lit" 7
# The seat's actions its player did not choose (marked after their lines:
# a server's stand-in, the arena's fallback) are not graded, only counted.
awk '/^[0-9]+\. 4 /{k++; if (k%3==1) $0 = $0 (k%2 ? " ; timeout: the basic bot moved" : " ; fallback: timeout: no answer in time")} {print}' \
  tests/data/classic_game.lit >"$tmp/marked.lit"
marked=$(grep -c '^[0-9]*\. 4 .* ; \(timeout\|fallback\): ' "$tmp/marked.lit" || true)
[ "$marked" -gt 1 ] || fail "marked.lit: $marked actions of seat 4 marked"
review "$tmp/marked.lit" 4
grep -qx "  not graded: $marked actions the seat's player did not choose (marked in the record: a stand-in's or a fallback)" \
  "$tmp/review.txt" || fail "marked.lit: $(grep -A2 '^summary' "$tmp/review.txt")"

# Costs next to a threshold (an arena game, casual against basic): 0.0998
# is printed 0.099 (good), 0.1 itself 0.100 (inaccuracy)
review tests/data/review_cost_edge.lit 3
grep -q '^15\. .*| cost 0\.099 good$' "$tmp/review.txt" || fail "cost 0.0998: $(grep '^15\. ' "$tmp/review.txt")"
grep -q '^84\. .*| cost 0\.100 inaccuracy$' "$tmp/review.txt" || fail "cost 0.1: $(grep '^84\. ' "$tmp/review.txt")"

# Under claim-time=penalty a claim out of turn is wrong whatever it names:
# no sure claim was open to seat 3 before its turn, so none "would have kept"
# the set its own out-of-turn claim lost (it said: sure at 2, lost at 2)
cat >"$tmp/penalty.lit" <<'EOF'
[Rules "classic players=4 claim-time=penalty"]
[Dealer "1"]
[Hand1 "2c 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc 2d"]
[Hand2 "Ac 3d 4d 5d 6d 7d 9d Td Jd Qd Kd Ad"]
[Hand3 "2h 3h 4h 5h 6h 7h 9h Th Jh Qh Kh Ah"]
[Hand4 "2s 3s 4s 5s 6s 7s 9s Ts Js Qs Ks As"]

1. 1 asks 2 for Ac: hit
2. 3 claims low-hearts 3:2h,3h,4h,5h,6h,7h cancelled
EOF
review "$tmp/penalty.lit" 3
grep -qx "  sets an earlier claim would have kept: none" "$tmp/review.txt" ||
  fail "penalty: $(grep 'earlier claim' "$tmp/review.txt")"

# 12 players: the early positions are beyond the budget, their figures
# estimated (marked in JSON and with ~ in the text).
review bench/corpus/12/0000.lit 7 --samples 200
twice bench/corpus/12/0000.lit 7 --samples 200
grep -q '"estimated":true' "$tmp/review.json" || fail "12 players: nothing estimated"
# ... but what certain knowledge settles is exact: master's ask of seat 4
# for the 6s, which seat 7 knows seat 4 holds, is a sure hit (it said ~1.000)
grep -q '^39\. 7 asks 8 for 4h: miss  ~0\.000  | master: 7 asks 4 for 6s  1\.000  |' "$tmp/review.txt" ||
  fail "12 players: a certain figure estimated: $(grep '^39\. ' "$tmp/review.txt")"
grep -q ' ~\(0\.[0-9]\{3\}\|<0\.001\|>0\.999\) ' "$tmp/review.txt" ||
  fail "12 players: no ~ in the text"

# Seat 1 asks seat 2 for the 5h after seat 2 has missed it: chance 0.
cat >"$tmp/known.lit" <<'EOF'
[Rules "classic"]
[Dealer "1"]
[Hand1 "2h 3h 4h 6h 7h 9s Ts 2c"]
[Hand2 "9c Tc Jc Qc Kc Ac 3c 5c"]
[Hand3 "5h 9h Th Jh Qh Kh Ah 4c"]
[Hand4 "2d 3d 4d 5d 6d 7d 6c 7c"]
[Hand5 "9d Td Jd Qd Kd Ad Js Qs"]
[Hand6 "2s 3s 4s 5s 6s 7s Ks As"]

1. 1 asks 2 for 5h: miss
2. 2 asks 1 for 4c: miss
3. 1 asks 2 for 5h: miss
EOF
review "$tmp/known.lit" 1
"$python3" -c '
import json, sys
d = json.load(open(sys.argv[1]))["decisions"]
assert [x["n"] for x in d] == [1, 3], d
assert 0 < d[0]["chance"] < 1 and d[1]["chance"] == 0, d
' "$tmp/review.json" || fail "known.lit: the second ask for the 5h has a chance"
grep -q '^3\. 1 asks 2 for 5h: miss  0\.000  | master: ' "$tmp/review.txt" ||
  fail "known.lit text: $(grep '^3\.' "$tmp/review.txt")"

# Refusals, as `lit infer` makes them.
run 1 "$lit" review "$tmp/missing.lit" --seat 1
same_text "missing file" "lit: $tmp/missing.lit: No such file or directory" "$tmp/err"
run 1 "$lit" review tests/data/bad_card.lit --seat 1
same_text "malformed record" \
  "tests/data/bad_card.lit:8: bad_card: there is no such card in this deck" "$tmp/err"
run 1 "$lit" review tests/data/illegal_turn.lit --seat 1
same_text "illegal action" "tests/data/illegal_turn.lit:9: not_your_turn: it is not your turn" \
  "$tmp/err"
run 2 "$lit" review tests/data/no_deal.lit --seat 1
same_text "no deal" \
  "lit: tests/data/no_deal.lit: the record has no deal: a seat's review needs its hand" "$tmp/err"
run 2 "$lit" review tests/data/example.lit
same_text "no --seat" "lit: review: give one FILE and --seat N" <(head -n 1 "$tmp/err")
run 2 "$lit" review --seat 1
same_text "no FILE" "lit: review: give one FILE and --seat N" <(head -n 1 "$tmp/err")
run 2 "$lit" review tests/data/example.lit tests/data/example.lit --seat 1
same_text "two FILEs" "lit: review: give one FILE and --seat N" <(head -n 1 "$tmp/err")
run 2 "$lit" review tests/data/example.lit --seat 7
same_text "seat 7 of 6" "lit: --seat 7: the game has 6 seats" "$tmp/err"
run 2 "$lit" review tests/data/example.lit --seat 0
same_text "seat 0" "lit: --seat: not a seat: '0'" "$tmp/err"
run 2 "$lit" review tests/data/example.lit --seat 13
same_text "seat 13" "lit: --seat: not a seat: '13'" "$tmp/err"
run 2 "$lit" review tests/data/example.lit --seat x
same_text "seat x" "lit: --seat: not a seat: 'x'" "$tmp/err"
run 2 "$lit" review tests/data/example.lit --seat 1 --bogus
same_text "unknown option" "review: unrecognized option '--bogus'" <(head -n 1 "$tmp/err")
grep -q '^usage: lit review FILE --seat N' "$tmp/err" || fail "unknown option: no usage"
run 2 "$lit" review tests/data/example.lit --seat 1 --budget 100001
same_text "--budget 100001" "lit: --budget: not a number from 0 to 100000: '100001'" "$tmp/err"
run 2 "$lit" review tests/data/example.lit --seat 1 --samples 79
same_text "--samples 79" "lit: --samples: not a number from 80 to 200000: '79'" "$tmp/err"
run 2 "$lit" review tests/data/example.lit --seat 1 --seed 9223372036854775808
same_text "--seed 2^63" \
  "lit: --seed: not a number from 0 to 9223372036854775807: '9223372036854775808'" "$tmp/err"
run 0 "$lit" review --help
[ "$(head -n 1 "$tmp/out")" = "usage: lit review FILE --seat N [--json] [--budget N] [--seed S]" ] ||
  fail "--help: $(head -n 1 "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "--help wrote to stderr"
run 0 "$lit" --help
grep -q '^  review FILE ' "$tmp/out" || fail "lit --help does not list review"

finish cli_review
