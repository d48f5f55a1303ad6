#!/usr/bin/env python3
"""A bot for tests/integration/cli_arena_protocol.sh. Usage: protocol_bot.py MODE.

Modes "check" and "resync_once" play legally (the first legal action) and
check what the arena sends: "check" every message's fields, "resync_once"
asks for the whole view once per request and checks it. Any other mode
answers every request wrongly in one way: the arena must refuse each answer
with its exact reason, play the fallback and go on. A failed check exits
with a message, which the arena reports as "exited"."""
import json
import sys
import time

mode = sys.argv[1]


def first_legal(msg):
    n = msg["n"]
    if msg["asks"]:
        a = msg["asks"][0]
        return {"n": n, "action": "ask", "card": a["card"], "target": a["target"]}
    if msg["passes"]:
        return {"n": n, "action": "pass", "target": msg["passes"][0]}
    if msg["choices"]:
        return {"n": n, "action": "choose", "target": msg["choices"][0]}
    name = msg["claimable"][0]
    return {"n": n, "action": "claim", "set": name,
            "holders": {c: msg["seat"] for c in sets[name]}}


def check(cond, what):
    if not cond:
        sys.exit("protocol_bot: " + what)


sets, seen, hand, resynced = {}, 0, None, set()
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        check(msg["protocol"] == 1, "hello protocol")
        check(msg["options"]["players"] == str(msg["players"]), "hello options")
        sets = msg["sets"]
        check(sum(len(c) for c in sets.values()) in (48, 52, 54), "hello sets")
        check(sorted(msg["teams"]["A"] + msg["teams"]["B"]) == list(range(1, msg["players"] + 1)),
              "hello teams")
        continue
    if kind == "game":
        check(msg["seat"] in range(1, 13) and msg["team"] in ("A", "B"), "game seat")
        check(len(msg["hand"]) == msg["state"]["hand_sizes"][msg["seat"] - 1], "game hand")
        seen, hand = 0, msg["hand"]
        continue
    if kind == "event":
        check(msg["n"] == seen + 1, "event numbers in order")
        seen = msg["n"]
        check(msg["line"].startswith("%d. %d " % (seen, msg["seat"])), "event line")
        if msg["action"] == "claim":
            check(set(msg["truth"]) == set(sets[msg["set"]]), "claim truth")
        hand = msg["hand"]
        continue
    if kind == "view":
        check(len(msg["history"]) == msg["n"] - 1 == seen, "view history")
        check(msg["hand"] == hand, "view hand")
        continue
    if kind in ("result", "refused", "bye"):
        check(mode not in ("check", "resync_once") or kind != "refused", "refused: " + line)
        continue
    check(kind == "act", "unknown message " + kind)
    n = msg["n"]
    check(n == seen + 1 and msg["hand"] == hand, "act after the events")
    ask = msg["asks"][0] if msg["asks"] else {"card": "2h", "target": 1}
    if mode == "check":
        out = json.dumps(first_legal(msg))
    elif mode == "resync_once":
        if n in resynced:
            out = json.dumps(first_legal(msg))
        else:
            resynced.add(n)
            out = json.dumps({"n": n, "action": "resync"})
    elif mode == "garbage":
        out = "hello world"
    elif mode == "long":
        out = "[" + " " * 70000 + "]"
    elif mode == "array":
        out = "[1, 2]"
    elif mode == "duplicate":
        out = '{"n": %d, "n": %d, "action": "resync"}' % (n, n)
    elif mode == "missing":
        out = json.dumps({"n": n, "action": "ask", "card": ask["card"]})
    elif mode == "extra":
        out = json.dumps({"n": n, "action": "ask", "card": ask["card"], "target": ask["target"],
                          "why": "because"})
    elif mode == "verb":
        out = json.dumps({"n": n, "action": "fold"})
    elif mode == "card":
        out = json.dumps({"n": n, "action": "ask", "card": "Zz", "target": ask["target"]})
    elif mode == "seat":
        out = json.dumps({"n": n, "action": "ask", "card": ask["card"], "target": 99})
    elif mode == "set":
        out = json.dumps({"n": n, "action": "claim", "set": "purple", "holders": {}})
    elif mode == "teammate":
        out = json.dumps({"n": n, "action": "ask", "card": ask["card"], "target": msg["seat"]})
    elif mode == "resync":
        out = json.dumps({"n": n, "action": "resync"})
    elif mode == "slow":
        time.sleep(0.1)
        out = json.dumps({"n": n, "action": "ask", "card": ask["card"], "target": ask["target"]})
    elif mode == "exit":
        sys.exit(3)
    elif mode == "mute":
        time.sleep(3600)
    else:
        raise SystemExit("unknown mode " + mode)
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
