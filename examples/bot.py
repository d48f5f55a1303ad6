#!/usr/bin/env python3
"""A small Literature bot speaking the bot protocol (docs/BOT_PROTOCOL.md).

Standard library only. Run it in the arena:

    lit arena --team-a 'cmd:python3 examples/bot.py' --team-b random --games 20

It remembers where it saw each card go and which seats lack which cards,
asks for a card it knows an opponent holds, else a legal question that its
memory does not rule out; claims a set when it knows where every card is on
its team, or, when memory rules out every question left, the set its team
knows best (asking again would get nowhere); otherwise takes the first
pass or choice offered. Seats are 1-based
as in the protocol. Pass --seed N for a repeatable choice among equal asks.
"""
import json
import random
import sys


class Bot:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.sets = {}          # set name -> its cards
        self.set_of = {}        # card -> set name
        self.teams = {}
        self.seen = 0           # events read in this game

    def hello(self, msg):
        if msg["protocol"] != 1:
            raise SystemExit("unknown protocol %r" % msg["protocol"])
        self.sets = msg["sets"]
        self.set_of = {c: s for s, cards in self.sets.items() for c in cards}
        self.teams = msg["teams"]

    def game(self, msg):
        self.seat = msg["seat"]
        self.team = self.teams[msg["team"]]
        self.holder = {c: self.seat for c in msg["hand"]}
        self.lacks = {}         # seat -> cards it surely lacks
        self.seen = 0

    def event(self, msg):
        self.seen = msg["n"]
        if msg["action"] == "ask":
            card, asker, target = msg["card"], msg["seat"], msg["target"]
            if msg["answer"] == "hit":
                self.holder[card] = asker
            else:
                self.lacks.setdefault(target, set()).add(card)
                if self.holder.get(card) == target:
                    del self.holder[card]
        elif msg["action"] == "claim":
            for card in msg["truth"]:
                self.holder.pop(card, None)
        for card in msg["hand"]:
            self.holder[card] = self.seat

    def view(self, msg):
        self.game(msg)
        for e in msg["history"]:
            e = dict(e, hand=[])
            self.event(e)
        for card in msg["hand"]:
            self.holder[card] = self.seat

    def act(self, msg):
        n, live = msg["n"], msg["state"]["live"]
        if self.seen != n - 1:
            return {"n": n, "action": "resync"}
        for c in msg["hand"]:
            self.holder[c] = self.seat
        # A claim when every card of a live set is known to be on the team.
        for name in msg["claimable"]:
            cards = self.sets[name]
            if all(self.holder.get(c) in self.team for c in cards):
                return {"n": n, "action": "claim", "set": name,
                        "holders": {c: self.holder[c] for c in cards}}
        asks = msg["asks"]
        sure = [a for a in asks if self.holder.get(a["card"]) == a["target"]]
        if sure:
            a = sure[0]
            return {"n": n, "action": "ask", "card": a["card"], "target": a["target"]}
        maybe = [a for a in asks
                 if self.holder.get(a["card"]) is None
                 and a["card"] not in self.lacks.get(a["target"], ())]
        if maybe:
            a = self.rng.choice(maybe)
            return {"n": n, "action": "ask", "card": a["card"], "target": a["target"]}
        # Every ask left is one memory says misses: asking again gets
        # nowhere (two such players would ask for ever), so claim the set
        # the team knows best instead, if one may be claimed.
        if msg["claimable"]:
            return self.best_guess(n, msg["claimable"])
        if asks:
            a = self.rng.choice(asks)
            return {"n": n, "action": "ask", "card": a["card"], "target": a["target"]}
        if msg["passes"]:
            return {"n": n, "action": "pass", "target": msg["passes"][0]}
        if msg["choices"]:
            return {"n": n, "action": "choose", "target": msg["choices"][0]}
        # The endgame (or nothing else left): claim a live set.
        return self.best_guess(n, msg["claimable"] or live)

    def best_guess(self, n, names):
        """A claim of the set of names with the most cards known on the team,
        each card at its known holder or else at this seat."""
        def known(name):
            return sum(self.holder.get(c) in self.team for c in self.sets[name])
        name = max(names, key=known)
        return {"n": n, "action": "claim", "set": name,
                "holders": {c: self.holder.get(c, self.seat)
                            if self.holder.get(c, self.seat) in self.team else self.seat
                            for c in self.sets[name]}}


def main():
    seed = 1
    if len(sys.argv) == 3 and sys.argv[1] == "--seed":
        seed = int(sys.argv[2])
    bot = Bot(seed)
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            bot.hello(msg)
        elif kind == "game":
            bot.game(msg)
        elif kind == "event":
            bot.event(msg)
        elif kind == "view":
            bot.view(msg)
        elif kind == "act":
            sys.stdout.write(json.dumps(bot.act(msg)) + "\n")
            sys.stdout.flush()
        elif kind == "bye":
            break
        # "refused" and "result" need no answer.


if __name__ == "__main__":
    main()
