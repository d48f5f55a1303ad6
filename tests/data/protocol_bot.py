#!/usr/bin/env python3
"""A bot for tests/integration/cli_arena_protocol.sh. Usage: protocol_bot.py MODE.

Modes "check" and "resync_once" play legally (the first legal action) and
check what the arena sends: "check" every message's fields, "resync_once"
asks for the whole view once per request and checks it. Most other
modes answer every request wrongly in one way: the arena must refuse each
answer with its exact reason, play the fallback and go on; "exit" answers
once, then exits; "silent" exits before writing anything (the match stops);
"stubborn" ignores SIGTERM, writes its process id to the file
$PROTOCOL_BOT_PIDS at its first request and never answers. A failed check exits with a
message, which the arena reports as "exited"."""
import json
import os
import signal
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


sets, seen, hand, resynced, acts = {}, 0, None, set(), 0
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
    acts += 1
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
        if acts > 1:  # after its first answer: a bot that answered, then exited
            sys.exit(3)
        out = json.dumps(first_legal(msg))
    elif mode == "silent":
        sys.exit(3)  # before it wrote anything: the match stops
    elif mode == "forge":  # a key that would end the log line and drive a terminal
        out = json.dumps({"n": n, "action": "ask", "card": ask["card"], "target": ask["target"],
                          "\nlit arena: deal 0a, action 2, seat 2 (random): own_card\x1b]0;x\x07": 1})
    elif mode == "twice":  # "2c" and "2C": two keys, one card
        name = "low-clubs" if "low-clubs" in sets else sorted(sets)[0]
        holders = {c: msg["seat"] for c in sets[name]}
        holders[sets[name][0].upper()] = msg["seat"]
        out = json.dumps({"n": n, "action": "claim", "set": name, "holders": holders})
    elif mode == "offbyone":  # echoes the last event's number
        out = json.dumps({"n": n - 1, "action": "ask", "card": ask["card"], "target": ask["target"]})
    elif mode == "stubborn":  # ignores SIGTERM, says it is thinking, thinks for ever
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        with open(os.environ["PROTOCOL_BOT_PIDS"], "a") as f:
            f.write("%d\n" % os.getpid())
        time.sleep(3600)
    elif mode == "mute":
        time.sleep(3600)
    else:
        raise SystemExit("unknown mode " + mode)
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
