"""serve_client.py - protocol clients for `lit serve` over loopback
(docs/PROTOCOL.md), driven by cli_serve.sh: python3 serve_client.py PORT.

Each scenario opens real WebSocket connections (Debian's python3-websockets),
plays as a person's client would, and checks every answer exactly. Prints
"ok NAME" per scenario; exits 1 at the first failure with what differed.
"""
import asyncio
import json
import sys
import urllib.request

import websockets

PORT = int(sys.argv[1])
URL = f"ws://127.0.0.1:{PORT}/"
TIMEOUT = 10


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


class Client:
    """One connection: frames kept in order, read by type."""

    def __init__(self, ws):
        self.ws = ws
        self.frames = []
        self.seq = 0

    @classmethod
    async def open(cls, **kw):
        c = cls(await websockets.connect(URL, max_size=1 << 22, **kw))
        hello = await c.next()
        check(hello["type"] == "welcome" and hello["protocol"] == 1, f"welcome: {hello}")
        return c

    async def send(self, obj):
        await self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    async def next(self):
        f = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        if f["type"] in ("room", "event") or f["type"] == "game" and f["seq"] > self.seq:
            # every room and event frame is a new number; a game frame sent
            # to one member (a snapshot) carries the number of what it shows
            check(f["seq"] > self.seq, f"seq went from {self.seq} to {f['seq']}")
            self.seq = f["seq"]
        elif f["type"] == "game":
            check(f["seq"] == self.seq, f"a snapshot at {f['seq']} after {self.seq}")
        self.frames.append(f)
        return f

    async def until(self, *types):
        while True:
            f = await self.next()
            if f["type"] in types:
                return f

    async def error(self, msg, name):
        await self.send(msg)
        f = await self.until("error")
        check(f["error"] == name, f"{msg!r}: answered {f}, want {name}")
        return f

    async def close(self):
        await self.ws.close()


async def create(name="Ann", **opts):
    c = await Client.open()
    await c.send({"type": "create", "name": name, **opts})
    joined = await c.until("joined")
    room = await c.until("room")
    return c, joined, room


def choose(you):
    """The first legal action of a frame's "you" (a claim when nothing else
    is legal), as the fields of an act message."""
    if you["asks"]:
        a = you["asks"][0]
        return {"action": "ask", "card": a["card"], "target": a["target"]}
    if you["passes"]:
        return {"action": "pass", "target": you["passes"][0]}
    if you["choices"]:
        return {"action": "choose", "target": you["choices"][0]}
    return None


async def claim(c, you, frame):
    """Claims the first claimable set as the aid's likeliest placement says."""
    await c.send({"type": "aid"})
    aid = await c.until("aid")
    s = you["claimable"][0]
    best = aid["half_suits"][s]["best_assignment"]
    check(best is not None, f"no placement for {s}: {aid['half_suits'][s]}")
    return {"action": "claim", "set": s, "holders": best}


async def play_to_end(c, frame, ids):
    """Plays c's seat to the end of the game: returns the last frame."""
    while "result" not in frame:
        you = frame.get("you")
        if you and frame["state"]["turn"] == you["seat"]:
            act = choose(you) or await claim(c, you, frame)
            ids[0] += 1
            await c.send({"type": "act", "seq": c.seq, "id": f"a{ids[0]}", **act})
        frame = await c.until("event", "game")
        if frame["type"] == "event":
            check("event" in frame and "state" in frame, f"event frame: {frame}")
    return frame


# ---- scenarios -------------------------------------------------------------


async def healthz():
    with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/healthz", timeout=5) as r:
        body = json.loads(r.read())
        check(r.status == 200 and body["ok"] is True, f"/healthz: {body}")
        check(r.headers["x-content-type-options"] == "nosniff", "nosniff header")
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{PORT}/nothing", timeout=5)
        raise Failure("/nothing answered")
    except urllib.error.HTTPError as e:
        check(e.code == 404, f"/nothing: {e.code}")


async def full_game(rules, players):
    """One human and bots, to the end of the game."""
    c, joined, room = await create(rules=rules, players=players, pace_ms=0)
    check(len(joined["token"]) == 32 and len(joined["room"]) == 6, f"joined: {joined}")
    you = {"name": "Ann", "seat": 1, "host": True, "waits_left": 2}
    check(room["state"] == "lobby" and room["you"] == you, f"room: {room}")
    await c.send({"type": "fill"})
    room = await c.until("room")
    check(all(s["kind"] == "bot" for s in room["seats"][1:]), f"fill: {room['seats']}")
    await c.send({"type": "start"})
    game = await c.until("game")
    check(game["you"]["seat"] == 1 and len(game["you"]["hand"]) > 0, f"game: {game}")
    last = await play_to_end(c, game, [0])
    check(last["state"]["phase"] == "over" and last["result"] in ("A", "B", "draw"),
          f"the end: {last['state']}")
    events = [f for f in c.frames if f["type"] == "event"]
    check([f["event"]["n"] for f in events] == list(range(1, len(events) + 1)),
          "events numbered 1..n")
    check(events[-1]["state"]["actions"] == len(events), "actions counted")
    # play again: the dealer moves one seat left
    await c.send({"type": "start"})
    again = await c.until("game")
    check(again["game"] == 2 and again["dealer"] == 2, f"again: game {again['game']} "
          f"dealer {again['dealer']}")
    await c.close()


async def errors():
    c = await Client.open()
    await c.error("hello", "not_json")
    await c.error('{"type":"lobby","type":"lobby"}', "not_json")
    await c.error("[1,2]", "bad_message")
    await c.error({"type": "dance"}, "unknown_type")
    f = await c.error({"type": "lobby", "x": 1}, "unknown_key")
    check(f["text"] == 'lobby takes no key "x"', f"unknown key text: {f['text']}")
    await c.error({"type": "create", "name": " Ann"}, "bad_name")
    await c.error({"type": "create", "name": "Ann", "rules": "nosuch"}, "unknown_preset")
    await c.error({"type": "create", "name": "Ann", "players": 7}, "bad_rule_value")
    await c.error({"type": "create", "name": "Ann", "bots": "expert"}, "bot_not_offered")
    await c.error({"type": "create", "name": "Ann", "pace_ms": 99999}, "bad_value")
    await c.error({"type": "join", "room": "ZZZZZZ", "name": "Bo"}, "no_room")
    await c.error({"type": "start"}, "not_in_room")
    await c.error({"type": "act", "seq": 0, "id": "x", "action": "ask"}, "not_in_room")
    await c.error({"type": "act", "seq": 0, "id": "", "action": "ask"}, "bad_id")
    await c.close()

    h, joined, room = await create(players=4, pace_ms=0)
    code = joined["room"]
    g = await Client.open()
    await g.send({"type": "join", "room": code, "name": "Bo", "seat": 2})
    await g.until("joined")
    await h.until("room")
    await g.until("room")
    await g.error({"type": "start"}, "not_host")
    await g.error({"type": "join", "room": code, "name": "Cy"}, "in_room")
    s = await Client.open()
    await s.error({"type": "join", "room": code, "name": "Bo"}, "name_taken")
    await s.error({"type": "join", "room": code, "name": "Cy", "seat": 2}, "seat_taken")
    await s.error({"type": "join", "room": code, "name": "Cy", "seat": 9}, "bad_seat")
    await h.error({"type": "start"}, "seats_empty")
    await h.error({"type": "aid"}, "no_game")
    await h.error({"type": "wait"}, "not_playing")
    await h.error({"type": "ready"}, "not_waiting")
    await s.error({"type": "create", "name": "Cy", "turn_ms": 5000}, "bad_value")
    await s.error({"type": "create", "name": "Cy", "match_to": 10}, "bad_value")
    await h.send({"type": "fill"})
    await h.until("room")
    await h.send({"type": "start"})
    game = await h.until("game")
    await g.until("game")
    await h.error({"type": "fill"}, "game_started")
    # illegal actions: the referee's status, nothing changes
    you = game["you"]
    seq = h.seq
    await h.error({"type": "act", "seq": seq, "id": "t1", "action": "ask",
                   "card": you["asks"][0]["card"], "target": 3}, "ask_teammate")
    own = [c for c in you["hand"] if you["refused"]["cards"].get(c) == "own_card"][0]
    await h.error({"type": "act", "seq": seq, "id": "t2", "action": "ask",
                   "card": own, "target": 2}, "own_card")
    await h.error({"type": "act", "seq": seq, "id": "t3", "action": "ask", "card": "Zz",
                   "target": 2}, "bad_card")
    await h.error({"type": "act", "seq": seq, "id": "t4", "action": "ask", "card": "2c",
                   "target": 2, "why": 1}, "bad_message")
    check(you["refused"]["why"] is None and all(
        you["refused"]["cards"].get(c) in ("own_card", "no_base_card") for c in you["hand"]),
        f"refused: {you['refused']}")
    check(you["refused"]["targets"]["3"] == "ask_teammate", f"refused: {you['refused']}")
    await g.error({"type": "act", "seq": seq, "id": "g1", "action": "ask",
                   "card": you["asks"][0]["card"], "target": 1}, "not_your_turn")
    # a good action, repeated: one event, the repeat acknowledged as such
    act = {"type": "act", "seq": seq, "id": "t5", **choose(you)}
    await h.send(act)
    ack = await h.until("ack")
    check(ack["repeat"] is False, f"ack: {ack}")
    ev = await h.until("event")
    check(ev["seq"] == ack["seq"], f"ack seq {ack['seq']}, event seq {ev['seq']}")
    await h.send(act)
    again = await h.until("ack")
    check(again["repeat"] is True and again["seq"] == ack["seq"], f"repeat: {again}")
    # a new action on the old state
    nxt = choose(ev["you"]) if ev["state"]["turn"] == 1 else {"action": "ask", "card": "2c",
                                                              "target": 2}
    await h.error({"type": "act", "seq": seq, "id": "t6", **nxt}, "stale_state")
    # spectators see no hand and may not act
    await s.send({"type": "join", "room": code, "name": "Cy"})
    await s.until("joined")
    room = await s.until("room")
    check(room["you"]["seat"] is None and room["spectators"] == ["Cy"], f"spectator: {room}")
    sg = await s.until("game")
    check(sg["you"] is None and '"hand"' not in json.dumps(sg), "a spectator's game frame")
    await s.error({"type": "act", "seq": s.seq, "id": "s1", "action": "ask", "card": "2c",
                   "target": 2}, "not_seated")
    await s.error({"type": "aid"}, "not_seated")
    for c in (h, g, s):
        await c.close()


async def oversized():
    c = await Client.open()
    await c.send(json.dumps({"type": "lobby", "pad": "x" * 9000}))
    try:
        await asyncio.wait_for(c.ws.recv(), TIMEOUT)
        raise Failure("an oversized message was answered")
    except websockets.exceptions.ConnectionClosed as e:
        check(e.code == 1009 and e.reason == "too_big", f"closed with {e.code} {e.reason}")
    # in fragments too (the cap is passed by the last one)
    c = await Client.open()
    await c.ws.send(["x" * 4000 for _ in range(3)])
    try:
        await asyncio.wait_for(c.ws.recv(), TIMEOUT)
        raise Failure("an oversized fragmented message was answered")
    except websockets.exceptions.ConnectionClosed as e:
        check(e.code == 1009, f"fragments: closed with {e.code}")
    # a message of fragments under the cap is one message
    c = await Client.open()
    await c.ws.send(['{"type":', '"lobby"}'])
    f = await c.next()
    check(f["type"] == "lobby", f"fragments: {f}")
    await c.close()


async def origin():
    try:
        await websockets.connect(URL, origin="http://evil.example")
        raise Failure("a cross-site upgrade was accepted")
    except websockets.exceptions.InvalidStatusCode as e:
        check(e.status_code >= 400, f"cross-site: {e.status_code}")
    c = await Client.open(origin=f"http://127.0.0.1:{PORT}")
    await c.close()


async def resume_and_leave():
    h, joined, room = await create(players=4, pace_ms=50)
    await h.send({"type": "fill"})
    await h.until("room")
    await h.send({"type": "start"})
    game = await h.until("game")
    hand = game["you"]["hand"]
    await h.close()
    await asyncio.sleep(0.2)
    # a room nobody is connected to waits; the token resumes the seat
    c = await Client.open()
    await c.error({"type": "resume", "room": joined["room"], "token": "0" * 32}, "bad_token")
    await c.send({"type": "resume", "room": joined["room"], "token": joined["token"]})
    await c.until("joined")
    room = await c.until("room")
    you = {"name": "Ann", "seat": 1, "host": True, "waits_left": 2}
    check(room["you"] == you, f"resumed: {room['you']}")
    g = await c.until("game")
    if g["state"]["actions"] == 0:
        check(g["you"]["hand"] == hand, "the same hand after resuming")
    # another connection with the same token takes over; the first is told;
    # the new one, naming the last seq the first saw, gets what it missed
    d = await Client.open()
    seen = c.seq
    await d.send({"type": "resume", "room": joined["room"], "token": joined["token"],
                  "seq": seen})
    await d.until("joined")
    f = await c.until("error")
    check(f["error"] == "replaced", f"replaced: {f}")
    f = await d.until("catchup", "game")
    check(f["type"] == "catchup" and f["from"] == seen, f"catchup: {f}")
    check(all(e["n"] > g["state"]["actions"] for e in f["events"]), f"missed: {f['events']}")
    # leaving mid-game: a bot keeps the seat, and someone else may take it
    e = await Client.open()
    await e.send({"type": "join", "room": joined["room"], "name": "Eve"})
    await e.until("joined")
    await e.until("game")
    await e.error({"type": "sit", "seat": 1}, "seat_taken")
    await d.send({"type": "leave"})
    await d.until("left")
    room = await e.until("room")
    check(room["seats"][0]["kind"] == "bot" and room["you"]["host"], f"left: {room}")
    await e.send({"type": "sit", "seat": 1})
    room = await e.until("room")
    check(room["you"]["seat"] == 1 and room["seats"][0]["name"] == "Eve", f"sat: {room}")
    g = await e.until("game")
    check(g["you"]["seat"] == 1, "the game frame of the new player")
    # the last member leaving closes the room
    await e.send({"type": "leave"})
    await e.until("left")
    await e.error({"type": "join", "room": joined["room"], "name": "Eve"}, "no_room")
    await e.close()
    await d.close()


async def stand_in():
    """Over real sockets: a player gone (grace 0) is stood in for by the basic
    bot and takes the seat back on resuming; a timed turn (10 s, the least)
    runs out to the basic bot, marked."""
    h, joined, room = await create(players=4, pace_ms=0, turn_ms=10000, grace_ms=0)
    code = joined["room"]
    b = await Client.open()
    await b.send({"type": "join", "room": code, "name": "Bo", "seat": 2})
    bo = await b.until("joined")
    await h.send({"type": "fill"})
    await h.until("room")
    await h.send({"type": "start"})
    game = await h.until("game")
    check(game["clock"]["turn_ms"] == 10000 and game["state"]["turn"] == 1, f"game: {game}")
    await b.close()
    room = await h.until("room")
    while not room["seats"][1]["away"]:
        room = await h.until("room")
    check(not room["seats"][1]["connected"], f"away: {room['seats'][1]}")
    # Ann does not act: after 10 s the basic bot moves for her
    while True:  # read directly: up to 10 s pass without a frame
        f = json.loads(await asyncio.wait_for(h.ws.recv(), 15))
        if f["type"] == "event" and f["event"]["seat"] == 1:
            break
    check(f["bot"] and f["event"]["stand_in"] == "timeout", f"timeout: {f}")
    b = await Client.open()
    await b.send({"type": "resume", "room": code, "token": bo["token"]})
    room = await b.until("room")
    check(room["seats"][1]["connected"] and not room["seats"][1]["away"], f"back: {room}")
    await b.close()
    await h.close()


async def lobby():
    h, joined, room = await create(name="Pub", public=True)
    p, joined2, _ = await create(name="Priv")
    c = await Client.open()
    await c.send({"type": "lobby"})
    rooms = (await c.until("lobby"))["rooms"]
    codes = [r["code"] for r in rooms]
    check(joined["room"] in codes and joined2["room"] not in codes, f"lobby: {rooms}")
    for x in (h, p, c):
        await x.close()


async def refused(headers, name):
    """A connection the server refuses at once: the error, then 1008."""
    ws = await websockets.connect(URL, extra_headers=headers)
    f = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
    check(f["type"] == "error" and f["error"] == name, f"refused: {f}, want {name}")
    try:
        await asyncio.wait_for(ws.recv(), TIMEOUT)
        raise Failure("the refused connection stayed open")
    except websockets.exceptions.ConnectionClosed as e:
        check(e.code == 1008 and e.reason == name, f"closed with {e.code} {e.reason}")


async def limits():
    """Against a server run with --proxy 127.0.0.1 --max-per-address 2
    --max-rooms-per-address 1 --max-rate 5 (cli_serve.sh)."""
    xff = {"X-Forwarded-For": "10.9.8.7"}
    a = await Client.open(extra_headers=xff)
    b = await Client.open(extra_headers=xff)
    # the proxy's last entry counts, not what the client put before it
    await refused({"X-Forwarded-For": "10.9.8.6, 10.9.8.7"}, "too_many_connections")
    c = await Client.open(extra_headers={"X-Forwarded-For": "1.2.3.4, 10.9.8.6"})
    # one room open from an address
    await a.send({"type": "create", "name": "Ann"})
    await a.until("room")
    await b.error({"type": "create", "name": "Bo"}, "too_many_own_rooms")
    # a flood: 40 at once, 5 a second after: the rest refused
    for _ in range(45):
        await c.send({"type": "lobby"})
    answers = [(await c.next()).get("error", "lobby") for _ in range(45)]
    lobbies = answers.count("lobby")
    check(40 <= lobbies <= 42 and answers[-1] == "too_many_messages", f"a flood: {answers}")
    # refused ones in a row close the connection (one at a time, so that
    # the close does not meet messages still coming, which would reset it)
    try:
        for _ in range(60):
            await c.send({"type": "lobby"})
            await c.next()
        raise Failure("a flood was not closed")
    except websockets.exceptions.ConnectionClosed as e:
        check(e.code == 1008 and e.reason == "too_many_messages",
              f"a flood closed with {e.code} {e.reason}")
    for x in (a, b):
        await x.close()


async def main(names):
    scenarios = {
        "healthz": healthz,
        "classic": lambda: full_game("classic", 6),
        "club-8": lambda: full_game("club", 8),
        "jokers-4": lambda: full_game("jokers", 4),
        "errors": errors,
        "oversized": oversized,
        "origin": origin,
        "resume": resume_and_leave,
        "lobby": lobby,
        "stand-in": stand_in,
        "limits": limits,  # only against a server with those limits
    }
    for name in names or [n for n in scenarios if n != "limits"]:
        try:
            await scenarios[name]()
        except (Failure, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as e:
            print(f"FAIL {name}: {type(e).__name__}: {e}")
            return 1
        print(f"ok {name}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[2:])))
