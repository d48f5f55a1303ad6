#!/usr/bin/env bash
# cli_arena.sh LIT SOURCE_DIR - `lit arena`: its JSON and text reports, the
# same results for any number of threads, records that replay, a round robin,
# and every bad argument refused with its exact message.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# What a report says, without the figures of time (seconds, games per second,
# threads).
results() {
  sed -E 's/"seconds":[0-9.]+,"games_per_second":[0-9.]+//g; s/"threads":[0-9]+//' "$1"
}

# 1. JSON: the keys the issue names, and figures that hang together.
run 0 "$lit" arena --team-a basic --team-b random --games 40 --json --quiet
cp "$tmp/out" "$tmp/one.json"
for key in games wins draws losses score score_ci95 elo elo_ci95 livelocks games_per_second \
  set_margin margin actions_per_game pairs bad_actions; do
  grep -q "\"$key\":" "$tmp/one.json" || fail "arena --json: no key $key: $(cat "$tmp/one.json")"
done
grep -q '"pairs":40,"games":80,' "$tmp/one.json" || fail "arena --json: not 40 pairs, 80 games"
# basic wins every one of these games against random
grep -q '"wins":80,"draws":0,"losses":0,"score":1.000000,"score_ci95":\[1.000000,1.000000\],"elo":null' \
  "$tmp/one.json" || fail "arena: basic does not beat random in every game: $(cat "$tmp/one.json")"
grep -q '"livelocks":0,"bad_actions":\[0,0\]' "$tmp/one.json" ||
  fail "arena: livelocks or refused actions: $(cat "$tmp/one.json")"

# The set margin counts sets, the point margin points: under double-high
# (india) high sets are worth two, so basic's point margin over random is
# larger than its set margin; under classic they are equal.
run 0 "$lit" arena --team-a basic --team-b random --games 20 --rules india --json --quiet
"$python3" - "$tmp/out" <<'EOF2' || fail "india margins: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert 0 < d["set_margin"] < d["margin"], d
EOF2
grep -Eq '"set_margin":([0-9.]+),"margin":\1,' "$tmp/one.json" || fail "classic: set and point margins differ: $(cat "$tmp/one.json")"

# 2. Threads change nothing but the time.
for pairing in "basic casual" "casual random" "basic,casual,random basic"; do
  set -- $pairing
  run 0 "$lit" arena --team-a "$1" --team-b "$2" --games 30 --players 8 --seed 7 --json --quiet
  results "$tmp/out" >"$tmp/t1"
  run 0 "$lit" arena --team-a "$1" --team-b "$2" --games 30 --players 8 --seed 7 --json --quiet \
    --threads 3
  results "$tmp/out" >"$tmp/t3"
  same "arena $1 v $2: 1 thread and 3 threads" "$tmp/t1" "$tmp/t3"
done
# expert (a small search) too: the same results on 1 and 2 threads
run 0 "$lit" arena --team-a expert:4 --team-b basic --games 3 --players 4 --json --quiet
results "$tmp/out" >"$tmp/t1"
run 0 "$lit" arena --team-a expert:4 --team-b basic --games 3 --players 4 --json --quiet --threads 2
results "$tmp/out" >"$tmp/t2"
same "arena expert:4 v basic: 1 thread and 2 threads" "$tmp/t1" "$tmp/t2"
grep -q '"livelocks":0,"bad_actions":\[0,0\]' "$tmp/t1" || fail "arena expert: $(cat "$tmp/t1")"
# The score is the mean over deal pairs: basic against itself is even-ish,
# and the swapped seats make the margin of a mirror match small.
run 0 "$lit" arena --team-a basic --team-b basic --games 200 --json --quiet
"$python3" - "$tmp/out" <<'EOF' || fail "arena basic v basic: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
lo, hi = d["score_ci95"]
assert lo <= d["score"] <= hi and lo < 0.5 < hi, d
assert d["wins"] + d["draws"] + d["losses"] + d["livelocks"] == d["games"] == 400, d
assert d["elo_ci95"][0] <= d["elo"] <= d["elo_ci95"][1], d
EOF

# 3. The text report.
run 0 "$lit" arena --team-a casual:0.9 --team-b random --games 20 --rules club --players 4 --quiet
grep -q '^arena: rules club players=4  seed 1$' "$tmp/out" || fail "arena text: no rules line"
grep -q '^A = casual:0.9  B = random  20 deals, 40 games$' "$tmp/out" || fail "arena text: no match line"
grep -Eq '^score [0-9.]+  95% \[[0-9.]+, [0-9.]+\] over 20 deal pairs$' "$tmp/out" ||
  fail "arena text: no score line"
grep -Eq '^A wins [0-9]+  draws [0-9]+  losses [0-9]+  livelocks 0$' "$tmp/out" ||
  fail "arena text: no results line"

# 4. Records: one per game, each replays, the seats named by their bots.
mkdir "$tmp/rec"
run 0 "$lit" arena --team-a basic --team-b casual --games 5 --records "$tmp/rec" --quiet --threads 2
[ "$(find "$tmp/rec" -name '*.lit' | wc -l)" = 10 ] || fail "arena --records: not 10 records"
for f in "$tmp/rec"/000000-a.lit "$tmp/rec"/000004-b.lit; do
  run 0 "$lit" replay "$f"
  grep -q '^\[Event "lit arena"\]' "$f" || fail "$f: no Event tag"
done
grep -q '^\[Name1 "basic"\]' "$tmp/rec/000000-a.lit" || fail "000000-a: seat 1 is not basic"
grep -q '^\[Name1 "casual"\]' "$tmp/rec/000000-b.lit" || fail "000000-b: seat 1 is not casual"
# the two playings of a deal have the same deal
[ "$(grep '^\[Seed' "$tmp/rec/000003-a.lit")" = "$(grep '^\[Seed' "$tmp/rec/000003-b.lit")" ] ||
  fail "the two playings of deal 3 differ in seed"
# lit infer's chances against where the cards were in these records
# (scripts/calibration.py, docs/BOTS.md): both tables, a share for every
# bin, and every claim whose placement lit infer called sure was right
run 0 "$python3" scripts/calibration.py "$lit" "$tmp/rec" --positions 4
grep -q "^| lit infer's chance | figures | there |$" "$tmp/out" ||
  fail "calibration: no table of cards: $(head -n 3 "$tmp/out")"
awk -F' [|] ' '/^[|] 0[.][0-9] to / { n++; if ($3 !~ /^[0-9]+[.][0-9]% [|]$/) bad = 1 }
  END { exit bad || n < 3 }' "$tmp/out" || fail "calibration: the cards' bins: $(cat "$tmp/out")"
grep -Eq '^[|] [a-z]+ [|] 1 [|] [0-9]+ [|] ' "$tmp/out" || fail "calibration: no sure claim"
! grep -E '^[|] [a-z]+ [|] 1 [|] [0-9]+ [|] ' "$tmp/out" | grep -qv ' 100[.]0% |$' ||
  fail "calibration: a claim called sure was wrong: $(grep -E '[|] 1 [|]' "$tmp/out")"
mkdir "$tmp/empty"
run 1 "$python3" scripts/calibration.py "$lit" "$tmp/empty"
same_text "calibration, no records" "calibration: no records in $tmp/empty" "$tmp/err"
# master's claims kept for the fit (--save-claims): fitted again from the
# kept rows alone (--claims), the same lines; lines fitted on rows of a
# known truth (right when a number drawn with a fixed seed falls below the
# square root of the model's chance, its square for a stuck seat, where the
# placement is the exact count's likeliest; half the chance where it is
# tied with it; the chance itself where it is below it)
# give back that truth across files within three standard errors in every
# bin (--cross); bad rows and files refused with their line and field
run 0 "$lit" arena --team-a master --team-b expert --games 3 --records "$tmp/cm" --quiet --threads 2
run 0 "$python3" scripts/calibration.py "$lit" "$tmp/cm" --model master --positions 0 --fit \
  --save-claims "$tmp/claims.jsonl"
cp "$tmp/out" "$tmp/fit.txt"
grep -q '^6 players: [1-9][0-9]* uncertain claims of master' "$tmp/fit.txt" ||
  fail "calibration --fit: no claims of master: $(cat "$tmp/fit.txt")"
[ "$(wc -l <"$tmp/claims.jsonl")" -gt 0 ] || fail "calibration --save-claims: no rows"
run 0 "$python3" scripts/calibration.py --claims "$tmp/claims.jsonl" --fit
same "calibration: the fit from the kept claims" "$tmp/fit.txt" "$tmp/out"
"$python3" - "$tmp" <<'PY'
import json, random, sys
for f in range(2):
    rng = random.Random(f)
    with open(f"{sys.argv[1]}/truth{f}.jsonl", "w") as out:
        for i in range(4000):
            p, u = rng.random(), rng.random()
            stuck, s = rng.random() < 0.3, rng.random()
            standing = "likeliest" if s < 0.6 else "tied" if s < 0.75 else "below"
            truth = {"likeliest": p * p if stuck else p ** 0.5, "tied": p / 2, "below": p}
            out.write(json.dumps({"players": 8, "stuck": stuck, "standing": standing, "model": p,
                                  "said": p, "right": int(u < truth[standing])}) + "\n")
PY
run 0 "$python3" scripts/calibration.py --claims "$tmp/truth0.jsonl" "$tmp/truth1.jsonl" --cross
grep -q '^8000 claims of master from 2 files, each said by lines fitted on the other files$' \
  "$tmp/out" || fail "calibration --cross: $(head -n 1 "$tmp/out")"
awk -F' [|] ' '/^[|] 0[.][0-9] to / { n++; d = $5 + 0; if (d > 3 * $6 || d < -3 * $6) bad = 1 }
  END { exit bad || n != 10 }' "$tmp/out" || fail "calibration --cross: $(cat "$tmp/out")"
run 0 "$python3" scripts/calibration.py --claims "$tmp/truth0.jsonl" --fit
awk '/^        [{]/ { n++; gsub(/[{},]/, ""); if ($1 != "0.0000") bad = 1
  for (i = 2; i <= NF; i++) if ($i + 0 < $(i - 1) + 0 || $i > 1) bad = 1
  if (NF != 21) bad = 1 } END { exit bad || n != 6 }' "$tmp/out" ||
  fail "calibration --fit: not six rising lines of 21 from 0: $(cat "$tmp/out")"
row='"players": 8, "stuck": false, "said": 0.5, "right": 1'
printf '%s\n' "{$row, \"standing\": \"tied\", \"model\": 0.5}" \
  "{$row, \"standing\": \"tied\", \"model\": 1.5}" >"$tmp/bad.jsonl"
run 1 "$python3" scripts/calibration.py --claims "$tmp/bad.jsonl" --fit
same_text "calibration, a bad claim row" \
  "calibration: $tmp/bad.jsonl:2: not a claim row: model missing or wrong" "$tmp/err"
printf '%s\n' "{$row, \"agrees\": true, \"model\": 0.5}" >"$tmp/bad.jsonl"
run 1 "$python3" scripts/calibration.py --claims "$tmp/bad.jsonl" --fit
same_text "calibration, a row with agrees, not standing" \
  "calibration: $tmp/bad.jsonl:1: not a claim row: standing missing or wrong" "$tmp/err"
run 1 "$python3" scripts/calibration.py --claims "$tmp/truth0.jsonl" --cross
same_text "calibration --cross, one file" "calibration: --cross checks lines on files they were \
not fitted on: give two --claims files or more, without --fit" "$tmp/err"
run 1 "$python3" scripts/calibration.py --claims "$tmp/none.jsonl" --fit
same_text "calibration, no claims file" "calibration: $tmp/none.jsonl: No such file or directory" \
  "$tmp/err"
# a folder that is not there is made, its parents too
run 0 "$lit" arena --games 2 --records "$tmp/new/deeper" --quiet
[ "$(find "$tmp/new/deeper" -name '*.lit' | wc -l)" = 4 ] || fail "arena --records: a new folder"
# one that cannot be: the part that is not a folder, named, before any game
run 1 "$lit" arena --games 2 --records "$tmp/rec/000000-a.lit/x" --quiet
[ "$(cat "$tmp/err")" = "lit: $tmp/rec/000000-a.lit: not a folder" ] ||
  fail "arena --records under a file: $(cat "$tmp/err")"
# one deal pair has no interval: said so, null in JSON; an even score is
# elo 0, never -0
run 0 "$lit" arena --team-a random --team-b random --games 1 --quiet
grep -qx 'score 0.500  95% \[-, -\] over 1 deal pair (no interval from one)' "$tmp/out" ||
  fail "one deal pair: $(grep '^score' "$tmp/out")"
grep -qx 'elo +0  95% \[-, -\]' "$tmp/out" || fail "one deal pair: $(grep '^elo' "$tmp/out")"
run 0 "$lit" arena --team-a random --team-b random --games 1 --quiet --json
grep -q '"score_ci95":\[null,null\],"elo":0.0,"elo_ci95":\[null,null\]' "$tmp/out" ||
  fail "one deal pair, JSON: $(cat "$tmp/out")"
# a round robin's folders, a pairing each, all made before any game: one
# that is a file stops it at once (it stopped at that pairing's turn, the
# ones before played and thrown away)
mkdir "$tmp/rr" && : >"$tmp/rr/2-3"
run 1 "$lit" arena --games 2 --entrant basic --entrant random --entrant casual --records "$tmp/rr" --quiet
[ "$(cat "$tmp/err")" = "lit: $tmp/rr/2-3: not a folder" ] || fail "round robin, a file for 2-3: $(cat "$tmp/err")"
[ "$(find "$tmp/rr" -name '*.lit' | wc -l)" = 0 ] || fail "round robin, a file for 2-3: games were played"
# a record that cannot be written: the file and why, then why the match stopped
mkdir -p "$tmp/rec3/000000-a.lit"
run 1 "$lit" arena --games 2 --records "$tmp/rec3" --quiet
printf 'lit: %s: cannot write the record: Is a directory\nlit: the match stopped: a record could not be written (above)\n' \
  "$tmp/rec3/000000-a.lit" >"$tmp/want"
same "arena --records, a record not written" "$tmp/want" "$tmp/err"

# 5. A round robin.
run 0 "$lit" arena --entrant random --entrant casual --entrant basic --games 20 --json --quiet
"$python3" - "$tmp/out" <<'EOF' || fail "round robin json: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
names = [e["name"] for e in d["entrants"]]
assert names == ["random", "casual", "basic"], names
assert len(d["pairings"]) == 3, d
assert [(p["team_a"], p["team_b"]) for p in d["pairings"]] == \
    [("random", "casual"), ("random", "basic"), ("casual", "basic")]
assert max(d["entrants"], key=lambda e: e["score"])["name"] == "basic"
assert all(p["livelocks"] == 0 for p in d["pairings"])
EOF
run 0 "$lit" arena --entrant random --entrant basic --games 10 --quiet
grep -Eq '^ 2 basic +1\.000 +- +1\.000$' "$tmp/out" || fail "round robin table: $(cat "$tmp/out")"
grep -Eq '^ +1 +2 +total$' "$tmp/out" || fail "round robin table's head: $(cat "$tmp/out")"
# entrants whose names a column cuts are told apart by their numbers, and
# listed whole below
long="casual:0.75,casual:0.75,casual:0.5"
run 0 "$lit" arena --entrant "$long" --entrant "$long,basic" --games 2 --quiet
grep -Eq '^ 1 casual:0\.75,casual:0\.75, +- ' "$tmp/out" || fail "round robin, long names: $(cat "$tmp/out")"
grep -qx " 2 $long,basic" "$tmp/out" || fail "round robin, the long names listed: $(cat "$tmp/out")"

# 5b. On a terminal (a tmux pane) a progress bar goes to stderr while the
# match runs, and is cleared at the end; --quiet has none.
if command -v tmux >/dev/null; then
  sock="$tmp/tmux.sock"
  tmux -S "$sock" new-session -d -x 120 -y 10 \
    "$lit arena --team-a basic --team-b basic --games 4000 --threads 2 --json > $tmp/bar.json; sleep 30"
  # Waits on progress, not on a clock: a loaded machine (or the sanitizers)
  # may take minutes for the 4,000 deals, so the test fails only when the
  # bar has not moved for a minute, or the pane shows no bar while the
  # match has not finished.
  seen=0 last="" still=0
  while [ ! -s "$tmp/bar.json" ] && [ "$still" -lt 600 ]; do
    bar=$(tmux -S "$sock" capture-pane -p | grep -Eo '^basic v basic \[[#.]{30}\] [0-9]+/4000 deals' || true)
    [ -n "$bar" ] && seen=1
    if [ "$bar" = "$last" ]; then still=$((still + 1)); else still=0 last=$bar; fi
    sleep 0.1
  done
  [ "$seen" = 1 ] || fail "no progress bar on a terminal: $(tmux -S "$sock" capture-pane -p | head -3)"
  [ -s "$tmp/bar.json" ] || fail "the match under the progress bar stopped: $last"
  grep -q '"pairs":4000' "$tmp/bar.json" || fail "the match under the progress bar did not finish"
  tmux -S "$sock" kill-server 2>/dev/null || true
fi

# 6. Bad arguments: exit status 2 and the exact message.
bad() {
  local want=$1
  shift
  run 2 "$lit" arena "$@"
  same_text "arena $*" "$want" "$tmp/err"
  [ ! -s "$tmp/out" ] || fail "arena $*: printed to stdout"
}
bad "lit: --team-a: unknown_bot: there is no bot of that name: 'grandmaster'" --team-a grandmaster
bad "lit: --team-b: unknown_bot: there is no bot of that name: ''" --team-b basic,,casual
bad "lit: --team-b: bad_bot_option: that bot does not take that setting or value: 'casual:2'" \
  --team-b basic,casual:2
bad "lit: --entrant: bad_bot_option: that bot does not take that setting or value: 'basic:1'" \
  --entrant basic:1 --entrant random
bad "lit: --team-a: too_long: at most 6 bots of at most 511 bytes in all" \
  --team-a basic,basic,basic,basic,basic,basic,basic
bad "lit: --entrant: a round robin needs two entrants or more" --entrant basic
bad "lit: --entrant and --team-a/--team-b do not go together" --entrant basic --entrant random \
  --team-a casual
bad "lit: --games: not a number of deals from 1 to 100000000: '0'" --games 0
bad "lit: --threads: not a number from 1 to 256: 'x'" --threads x
bad "lit: arena: unexpected argument 'extra'" extra
run 0 "$lit" arena --help
grep -q '^usage: lit arena' "$tmp/out" || fail "arena --help: no usage"

finish cli_arena
