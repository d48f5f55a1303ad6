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
weighted by how likely the asks seen were) instead of the uniform posterior;
positions beyond the exact count, which master's beliefs do not reach, are
left out (and counted).

Prints two tables (Markdown). Python's standard library only.
"""
import argparse
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


def next_seat(actions, k):
    """The seat that acts after the first k actions (the next action's)."""
    return actions[k][1] if k < len(actions) else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lit")
    ap.add_argument("dir")
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--model", choices=("uniform", "master"), default="uniform")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    files = sorted(f for f in os.listdir(a.dir) if f.endswith(".lit"))
    if a.games:
        files = files[:a.games]
    if not files:
        sys.exit(f"calibration: no records in {a.dir}")
    bins = [[0, 0] for _ in range(10)]      # [figures, there]
    claims = {}                             # bin -> [claims, right]
    beyond = 0                              # positions master's beliefs do not reach
    for name in files:
        path = os.path.join(a.dir, name)
        hands, names, actions = parse(path)
        if not hands:
            sys.exit(f"calibration: {path}: no deal")
        n = len(actions)
        for k in sorted(rng.sample(range(n), min(a.positions, n))):
            seat = next_seat(actions, k)
            d = infer(a.lit, path, seat, k, a.model)
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
            setname, named, result = claim_named(rest)
            d = infer(a.lit, path, seat, k, a.model)
            if d is None:
                beyond += 1
                continue
            # from a seat's view, its own team's figures
            hs = d["half_suits"].get(setname) or {}
            best = hs.get("best_assignment")
            if best and all(best.get(c) == s for c, s in named.items()):
                p = hs["assignment_correct"]
                key = "1" if p >= 0.9999 else f"{min(int(p * 20), 19) * 5:02d}"
            else:
                key = "not the likeliest"
            c = claims.setdefault((names.get(seat, "?"), key), [0, 0])
            c[0] += 1
            c[1] += result == "won"
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


if __name__ == "__main__":
    main()
