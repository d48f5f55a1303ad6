#!/usr/bin/env python3
"""calibration.py - how honest the uniform posterior is about real players
(issue 29): over the records of an arena (lit arena --records DIR, each with
its deal), `lit infer --seat S --after K --json` at sampled positions,
against where the cards really were.

  scripts/calibration.py LIT DIR [--positions N] [--seed S] [--games G]
                         [--model uniform|master]

LIT is the lit program, DIR the records. At each of N positions a game
(default 10), chosen at random with the seed (default 1), from the view of
the seat on turn after that action:

- every card's chance at every other seat strictly between 0 and 1, in
  bins of a tenth, against the share of them that were there;
- before each claim, from the claimer's view: the chance lit infer gave the
  placement the claimer named (the model's figure for that placement when
  it is the likeliest one, else "not the likeliest"), in bins of a
  twentieth, against how often such claims were right ("won"), by the
  claimer's bot (the record's [NameN]).

--model master takes master's beliefs (lit infer --model master: the deals
weighted by how likely the asks seen were, from the position's own seed,
the one master's decision there took) instead of the uniform posterior;
positions beyond the exact count, which master's beliefs do not reach, are
left out (and counted). The claims' chances are then master's calibrated
ones, and a third table bins them by tenths against how often they were
right, with the difference in points.

--fit (with --model master) fits master's claims' calibration instead: over
the uncertain claims of the bot named --bot (default master) of the likeliest
placement by the model, at each player count of the records, six rising
lines of "right" against the model's chance p of the placement (lit infer's
model_assignment_correct), one for each of: a seat that could still ask or
one whose every ask must miss (lit infer's stuck), and where the placement
stands in the exact count, its likeliest, tied with it or below it (the
half-suit's uniform_standing), in the order of BOT_CLAIM_LINE (docs/BOTS.md
"master"), and prints them for src/bot/behave.c.

--save-claims FILE (with --model master) also writes each uncertain claim of
--bot's that was the likeliest placement, one JSON object a line (players,
stuck, standing, the model's chance, the chance said, right), and --claims FILE ...
reads such files instead of records (no LIT or DIR): --fit and the last
table without running lit infer again, so lines can be refitted and checked
on the same games in seconds. With --claims, --cross checks the fit on
games it was not fitted on: each file's claims are given the chance read
off lines fitted on the other files' claims, and binned as the last table
is. --jobs N runs N lit infer at once.

Prints Markdown tables. Python's standard library only.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys

ACTION = re.compile(r"^(\d+)\. (\d+) (asks|claims|passes|chooses)\b(.*)$")
HAND = re.compile(r'^\[Hand(\d+) "([^"]*)"\]$')
NAME = re.compile(r'^\[Name(\d+) "([^"]*)"\]$')


def parse(path):
    """(hands {seat: [cards]}, names {seat: name}, actions [(kind, seat,
    rest)]) of a record."""
    hands, names, actions = {}, {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            m = HAND.match(line)
            if m:
                hands[int(m.group(1))] = m.group(2).split()
                continue
            m = NAME.match(line)
            if m:
                names[int(m.group(1))] = m.group(2)
                continue
            m = ACTION.match(line)
            if m:
                actions.append((m.group(3), int(m.group(2)), m.group(4)))
    return hands, names, actions


def holders_after(hands, actions, k):
    """Where each card in play was after the first k actions."""
    at = {c: s for s, cards in hands.items() for c in cards}
    for kind, seat, rest in actions[:k]:
        if kind == "asks":
            m = re.match(r" (\d+) for (\S+): (hit|miss)", rest)
            if m and m.group(3) == "hit":
                at[m.group(2)] = seat
        elif kind == "claims":
            for c in claim_named(rest)[1]:
                at.pop(c, None)
    return at


def claim_named(rest):
    """The set a claim names, its placement {card: seat}, and its outcome
    (won, lost or cancelled: the word after the placement)."""
    words = rest.split()
    named, i = {}, 1
    while i < len(words) and re.match(r"^\d+:", words[i]):
        s, cards = words[i].split(":")
        for c in cards.split(","):
            named[c] = int(s)
        i += 1
    return words[0], named, words[i] if i < len(words) else ""


BEYOND = "beyond the exact count"


def infer(lit, path, seat, after, model):
    """lit infer's JSON, or None where master's beliefs do not reach."""
    out = subprocess.run([lit, "infer", path, "--seat", str(seat), "--after", str(after),
                          "--json", "--samples", "4000", "--model", model],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0 and model == "master" and BEYOND in out.stderr:
        return None
    if out.returncode != 0:
        sys.exit(f"calibration: lit infer {path} --seat {seat} --after {after}: "
                 f"{out.stderr.strip()}")
    return json.loads(out.stdout)


KNOTS = 21     # BOT_CLAIM_KNOTS in src/bot/internal.h
RIDGE = 5.0    # the weight a knot's figure keeps at the model's own (p itself)


def knot_of(p):
    """The knot below p and how far p is from it toward the next (0 to 1)."""
    x = min(max(p, 0.0), 1.0) * (KNOTS - 1)
    i = min(int(x), KNOTS - 2)
    return i, x - i


def solve(a, b):
    """x with a x = b, by Gauss-Jordan with partial pivoting."""
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit_line(claims):
    """The figures at the knots of the line through which the chance of a
    claim is read (src/bot/behave.c, bot_claim_chance): the least squares
    of "right" (0 or 1) on the line's value at the model's p, each knot
    pulled toward p itself with weight RIDGE (where few claims say little),
    0 at p = 0, then made rising (pool adjacent violators). The end at p = 1
    is fitted like the others, not pinned at 1: the line is read only for a
    placement the exact count does not make sure, and those the model put
    near 1 were right less often (at 8 players, pinned, the claims said 0.9
    to 1 were 2.9 points short over 671 claims, 4 standard errors)."""
    a = [[0.0] * KNOTS for _ in range(KNOTS)]
    b = [0.0] * KNOTS
    weight = [RIDGE] * KNOTS
    for p, right in claims:
        i, t = knot_of(p)
        for k, wk in ((i, 1 - t), (i + 1, t)):
            b[k] += wk * right
            weight[k] += wk
            for j, wj in ((i, 1 - t), (i + 1, t)):
                a[k][j] += wk * wj
    for k in range(KNOTS):
        a[k][k] += RIDGE
        b[k] += RIDGE * k / (KNOTS - 1)
    a[0] = [1.0] + [0.0] * (KNOTS - 1)
    b[0] = 0.0
    v = solve(a, b)
    blocks = []  # [value, weight, knots]
    for k in range(KNOTS):
        blocks.append([v[k], weight[k], 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            y, x = blocks.pop(), blocks.pop()
            w = x[1] + y[1]
            blocks.append([(x[0] * x[1] + y[0] * y[1]) / w, w, x[2] + y[2]])
    out = [val for val, _, n in blocks for _ in range(n)]
    return [min(max(x, 0.0), 1.0) for x in out]


def line_at(v, p):
    """The chance read off the line through the knots v at the model's p
    (src/bot/behave.c, bot_claim_chance)."""
    i, t = knot_of(p)
    return v[i] * (1 - t) + v[i + 1] * t


STANDINGS = ("likeliest", "tied", "below")  # LitStanding's order
LINES = tuple((stuck, s) for stuck in (False, True) for s in STANDINGS)  # BOT_CLAIM_LINE's
MIN_CLAIMS = 20  # a line's least claims to be fitted


def by_line(rows):
    """{players: {(stuck, standing): [(p, right)]}} of rows."""
    by = {}
    for r in rows:
        lines = by.setdefault(r["players"], {key: [] for key in LINES})
        lines[(r["stuck"], r["standing"])].append((r["model"], float(r["right"])))
    return by


def fit_lines(rows):
    """{players: {(stuck, standing): knots}} fitted on rows, at each player
    count where every line has MIN_CLAIMS claims or more."""
    return {n: {k: fit_line(c) for k, c in lines.items()}
            for n, lines in by_line(rows).items()
            if min(len(c) for c in lines.values()) >= MIN_CLAIMS}


def cross(paths, bot):
    """Each file's rows, said again by lines fitted on the other files'."""
    files = [read_claims([path]) for path in paths]
    out = []
    for i, rows in enumerate(files):
        lines = fit_lines([r for j, f in enumerate(files) if j != i for r in f])
        for r in rows:
            if r["players"] not in lines:
                sys.exit(f"calibration: --cross: too few {r['players']}-player claims "
                         f"besides {paths[i]} to fit on")
            line = lines[r["players"]][(r["stuck"], r["standing"])]
            out.append(dict(r, said=line_at(line, r["model"])))
    print(f"{len(out)} claims of {bot} from {len(paths)} files, each said by lines "
          "fitted on the other files")
    print_tenths(out, bot)


def next_seat(actions, k):
    """The seat that acts after the first k actions (the next action's)."""
    return actions[k][1] if k < len(actions) else None


def study(lit, path, positions, model, bot, only_bot):
    """One record's share of the tables: (card bins [[figures, there]],
    claims {(claimer, key): [claims, right]}, the rows of bot's uncertain
    likeliest claims, positions beyond master's beliefs); only bot's claims
    when only_bot (a fit needs no others)."""
    hands, names, actions = parse(path)
    bins = [[0, 0] for _ in range(10)]
    claims, rows, beyond = {}, [], 0
    for k in positions:
        seat = next_seat(actions, k)
        d = infer(lit, path, seat, k, model)
        if d is None:
            beyond += 1
            continue
        at = holders_after(hands, actions, k)
        for card, by_seat in d["cards"].items():
            for s, p in by_seat.items():
                if int(s) == seat or not 0 < p < 1 or card not in at:
                    continue
                b = bins[min(int(p * 10), 9)]
                b[0] += 1
                b[1] += at[card] == int(s)
    for k, (kind, seat, rest) in enumerate(actions):
        if kind != "claims":
            continue
        if only_bot and names.get(seat, "").split(":")[0] != bot:
            continue
        setname, named, result = claim_named(rest)
        d = infer(lit, path, seat, k, model)
        if d is None:
            beyond += 1
            continue
        # from a seat's view, its own team's figures
        hs = d["half_suits"].get(setname) or {}
        best = hs.get("best_assignment")
        likeliest = best and all(best.get(c) == s for c, s in named.items())
        if likeliest:
            p = hs["assignment_correct"]
            key = "1" if p >= 0.9999 else f"{min(int(p * 20), 19) * 5:02d}"
        else:
            key = "not the likeliest"
        if model == "master" and names.get(seat, "").split(":")[0] == bot and likeliest \
                and 0 < hs["model_assignment_correct"] < 1:
            rows.append({"players": len(hands), "stuck": bool(d["stuck"]),
                         "standing": hs["uniform_standing"],
                         "model": hs["model_assignment_correct"], "said": p,
                         "right": 1 if result == "won" else 0})
        c = claims.setdefault((names.get(seat, "?"), key), [0, 0])
        c[0] += 1
        c[1] += result == "won"
    return bins, claims, rows, beyond


def print_fit(rows, bot):
    """The lines for src/bot/behave.c fitted on rows, per player count."""
    fit = by_line(rows)
    if not fit:
        sys.exit(f"calibration: no uncertain claims of {bot} to fit")
    for players, by in sorted(fit.items()):
        counts = ", ".join(f"{len(by[key])} {'stuck' if key[0] else 'free'}, "
                           f"{key[1]}" for key in LINES)
        print(f"{players} players: {sum(len(c) for c in by.values())} uncertain claims of "
              f"{bot} ({counts}); the lines for src/bot/behave.c:")
        print()
        if min(len(c) for c in by.values()) < MIN_CLAIMS:
            print("too few claims to fit")
            print()
            continue
        print("    {")
        for key in LINES:
            print("        {" + ", ".join(f"{x:.4f}" for x in fit_line(by[key])) + "},")
        print("    },")
        print()


def print_tenths(rows, bot):
    """bot's uncertain claims in bins of a tenth of the chance said, against
    how often they were right, with the difference and its standard error."""
    tenths = [[0, 0, 0.0, 0.0] for _ in range(10)]  # [n, right, said, variance]
    for r in rows:
        if r["said"] >= 0.9999:
            continue
        t = tenths[min(int(r["said"] * 10), 9)]
        t[0] += 1
        t[1] += r["right"]
        t[2] += r["said"]
        t[3] += r["said"] * (1 - r["said"])
    if not any(t[0] for t in tenths):
        return
    print()
    print(f"{bot}'s uncertain claims by the chance it gave them:")
    print()
    print("| chance | claims | its mean chance | right | difference | standard error |")
    print("| --- | --- | --- | --- | --- | --- |")
    for i, (n, right, said, var) in enumerate(tenths):
        if n:
            print(f"| {i / 10:.1f} to {(i + 1) / 10:.1f} | {n} | {said / n:.3f} | "
                  f"{right / n:.3f} | {100 * (right - said) / n:+.1f} | "
                  f"{100 * var ** 0.5 / n:.1f} |")


CLAIM_FIELDS = (("players", lambda x: type(x) is int and 4 <= x <= 12),
                ("stuck", lambda x: type(x) is bool),
                ("standing", lambda x: x in STANDINGS),
                ("model", lambda x: type(x) in (int, float) and 0 <= x <= 1),
                ("said", lambda x: type(x) in (int, float) and 0 <= x <= 1),
                ("right", lambda x: type(x) is int and x in (0, 1)))


def claim_row(line):
    """A --save-claims line as a row, or the name of the first field that
    is missing or wrong."""
    try:
        r = json.loads(line)
    except ValueError:
        return "not JSON"
    if not isinstance(r, dict):
        return "not an object"
    for name, good in CLAIM_FIELDS:
        if name not in r or not good(r[name]):
            return f"{name} missing or wrong"
    return {name: r[name] for name, _ in CLAIM_FIELDS}


def read_claims(paths):
    """The rows of --save-claims files."""
    rows = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                for i, line in enumerate(f, 1):
                    r = claim_row(line)
                    if isinstance(r, str):
                        sys.exit(f"calibration: {path}:{i}: not a claim row: {r}")
                    rows.append(r)
        except OSError as e:
            sys.exit(f"calibration: {path}: {e.strerror}")
        except UnicodeDecodeError:
            sys.exit(f"calibration: {path}: not UTF-8 text")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lit", nargs="?")
    ap.add_argument("dir", nargs="?")
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--model", choices=("uniform", "master"), default="uniform")
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--bot", default="master")
    ap.add_argument("--save-claims")
    ap.add_argument("--claims", nargs="+")
    ap.add_argument("--cross", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    if a.claims:
        if a.lit or a.dir or a.save_claims:
            sys.exit("calibration: --claims reads claim rows instead of records: "
                     "no LIT, DIR or --save-claims with it")
        if a.cross:
            if a.fit or len(a.claims) < 2:
                sys.exit("calibration: --cross checks lines on files they were not fitted on: "
                         "give two --claims files or more, without --fit")
            cross(a.claims, a.bot)
            return
        rows = read_claims(a.claims)
        if a.fit:
            print_fit(rows, a.bot)
        else:
            print(f"{len(rows)} claim rows from {len(a.claims)} files")
            print_tenths(rows, a.bot)
        return
    if not a.lit or not a.dir:
        sys.exit("calibration: give LIT and DIR, or --claims FILE ...")
    if a.cross:
        sys.exit("calibration: --cross reads --claims files")
    if (a.fit or a.save_claims) and a.model != "master":
        sys.exit("calibration: --fit and --save-claims are of master's claims: give --model master")
    if a.jobs < 1:
        sys.exit("calibration: --jobs must be at least 1")
    rng = random.Random(a.seed)
    files = sorted(f for f in os.listdir(a.dir) if f.endswith(".lit"))
    if a.games:
        files = files[:a.games]
    if not files:
        sys.exit(f"calibration: no records in {a.dir}")
    work = []                               # (path, positions), positions drawn in order
    for name in files:
        path = os.path.join(a.dir, name)
        hands, _, actions = parse(path)
        if not hands:
            sys.exit(f"calibration: {path}: no deal")
        n = len(actions)
        work.append((path, sorted(rng.sample(range(n), min(a.positions, n)))))
    bins = [[0, 0] for _ in range(10)]      # [figures, there]
    claims = {}                             # (claimer, key) -> [claims, right]
    rows = []                               # master's uncertain likeliest claims
    beyond = 0                              # positions master's beliefs do not reach
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        done = pool.map(lambda w: study(a.lit, w[0], w[1], a.model, a.bot, a.fit), work)
        for b, c, r, out in done:
            for mine, theirs in zip(bins, b):
                mine[0] += theirs[0]
                mine[1] += theirs[1]
            for key, (n, right) in c.items():
                mine = claims.setdefault(key, [0, 0])
                mine[0] += n
                mine[1] += right
            rows += r
            beyond += out
    if a.save_claims:
        with open(a.save_claims, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    if a.fit:
        print_fit(rows, a.bot)
        return
    print(f"Cards: {len(files)} games, {a.positions} positions each (seed {a.seed}), "
          f"from the seat on turn's view; model {a.model}" +
          (f", {beyond} positions beyond the exact count left out" if beyond else ""))
    print()
    print("| lit infer's chance | figures | there |")
    print("| --- | --- | --- |")
    for i, (n, there) in enumerate(bins):
        if n:
            print(f"| {i / 10:.1f} to {(i + 1) / 10:.1f} | {n} | {there / n:.1%} |")
    print()
    print("Claims, from the claimer's view just before it:")
    print()
    print("| claimer | chance of the named placement | claims | right |")
    print("| --- | --- | --- | --- |")
    for who, key in sorted(claims):
        n, right = claims[(who, key)]
        label = key if not key[0].isdigit() or key == "1" else \
            f"{int(key) / 100:.2f} to {(int(key) + 5) / 100:.2f}"
        print(f"| {who} | {label} | {n} | {right / n:.1%} |")
    if a.model == "master":
        print_tenths(rows, a.bot)


if __name__ == "__main__":
    main()
