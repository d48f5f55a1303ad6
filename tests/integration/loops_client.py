#!/usr/bin/env python3
"""loops_client.py PORT CASE [STATE]: protocol clients of a `lit serve --loops 2`
(tests/integration/cli_loops.sh). Each connection lands on the loop the
kernel gives it (SO_REUSEPORT); a room lives on the loop its code names (the
FNV-1a hash of the code, modulo the loops: docs/SCALING.md), and a client
joining or resuming a room of another loop is moved there. Cases:

  rooms STATE   rooms made from `/` on both loops; a member joins each room
                from `/` (on either loop) and chats with its host both
                ways; one client hops through every room in turn, and
                again with messages right behind each join, answered in
                order; the lobby of any connection lists every public room;
                a bots-only game watched from both loops, every event seen
                alike; the rooms' codes and tokens written to STATE
  resume STATE  every member of STATE resumes, at `/room/CODE` and at `/`
                alternately, after a reconnection (or a restart): its seat
                and its room's state come back, and chat still goes both
                ways
  limits        (a server with --max-per-address 4 --max-rooms-per-address 2)
                the address's connections and rooms are counted across the
                loops

Exits 0, or 1 after printing each failure.
"""
import base64
import json
import os
import socket
import struct
import sys
import time

DEADLINE = 60
PORT = int(sys.argv[1])
LOOPS = 2
failures = []


def fail(what):
    failures.append(what)
    print("FAIL: " + what, file=sys.stderr)


def home(code):
    x = 2166136261
    for b in code.encode():
        x = ((x ^ b) * 16777619) & 0xFFFFFFFF
    return x % LOOPS


class Client:
    """A WebSocket of the protocol: send(obj), and frames read as needed."""

    def __init__(self, path="/", welcome=True):
        self.s = socket.create_connection(("127.0.0.1", PORT), timeout=DEADLINE)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n" % (path, PORT, key)).encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.fill()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise OSError("no upgrade at %s: %r" % (path, head[:60]))
        self.seen = []
        if welcome:
            first = self.next()
            if first.get("type") != "welcome":
                fail("the first frame: %r" % first)

    def fill(self):
        data = self.s.recv(65536)
        if not data:
            raise EOFError("the server closed the connection")
        self.buf += data

    def take(self, n):
        while len(self.buf) < n:
            self.fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def next(self):
        """The next frame, a JSON object ({"close": code} for a close)."""
        b0, b1 = self.take(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self.take(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self.take(8))[0]
        payload = self.take(n)
        if b0 & 0x0F == 8:
            return {"close": struct.unpack(">H", payload[:2])[0] if n >= 2 else None}
        frame = json.loads(payload)
        self.seen.append(frame)
        return frame

    @staticmethod
    def frame(obj):
        payload = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126
                                else bytes([0x80 | 126]) + struct.pack(">H", n))
        return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def send(self, *objs):
        """Sends each of objs, in one write (read together by the server)."""
        self.s.sendall(b"".join(self.frame(o) for o in objs))

    def until(self, want, label):
        """Frames until one for which want(frame) holds: that one."""
        while True:
            f = self.next()
            if "close" in f:
                raise EOFError("%s: closed with %s" % (label, f["close"]))
            if f.get("type") == "error" and not want(f):
                fail("%s: %s (%s)" % (label, f.get("error"), f.get("text")))
            if want(f):
                return f

    def answer(self, obj, label):
        """Sends obj: the next frame that answers it (joined, room, lobby or
        an error)."""
        self.send(obj)
        return self.until(lambda f: f.get("type") in ("joined", "lobby", "error"), label)

    def close(self):
        self.s.close()


def is_type(t):
    return lambda f: f.get("type") == t


def chat_both_ways(a, b, label):
    """a's line reaches b, and b's reaches a."""
    for x, y, who in ((a, b, "host to member"), (b, a, "member to host")):
        text = "%s %s" % (label, who)
        x.send({"type": "chat", "text": text})
        y.until(lambda f: f.get("type") == "chat" and f.get("text") == text,
                "%s: %s" % (label, who))


def case_rooms(state_path):
    rooms = []
    for i in range(16):
        host = Client("/")
        joined = host.answer({"type": "create", "name": "Ann", "players": 4,
                              "public": i % 2 == 0, "pace_ms": 0}, "create %d" % i)
        if joined.get("type") != "joined":
            fail("create %d: %r" % (i, joined))
            continue
        rooms.append({"code": joined["room"], "host": host, "tokens": [joined["token"]],
                      "public": i % 2 == 0})
    homes = {home(r["code"]) for r in rooms}
    if homes != {0, 1}:
        fail("rooms on the loops %s, not both (16 made)" % sorted(homes))
    # a member joins each room from `/`, at seat 2, and chats with the host
    for r in rooms:
        bo = Client("/")
        joined = bo.answer({"type": "join", "room": r["code"], "name": "Bo", "seat": 2},
                           "join " + r["code"])
        if joined.get("type") != "joined" or joined.get("room") != r["code"]:
            fail("join %s: %r" % (r["code"], joined))
            continue
        r["tokens"].append(joined["token"])
        r["member"] = bo
        r["host"].until(lambda f: f.get("type") == "room" and
                        any(x.get("name") == "Bo" for x in f.get("seats", [])),
                        "the host sees Bo in " + r["code"])
        chat_both_ways(r["host"], bo, "room " + r["code"])
    # one client hops from room to room, whichever loop each is on: a
    # failed join and a join sent at once (read together by the hub it is
    # on), answered in order, then a leave
    hop = Client("/")
    for r in rooms:
        hop.send({"type": "join", "room": "BBBBBB", "name": "Hop"})
        hop.send({"type": "join", "room": r["code"], "name": "Hop"})
        first = hop.until(lambda f: f.get("type") in ("joined", "error"), "hop")
        if first.get("error") not in ("no_room", "too_many_guesses"):
            fail("hop: the failed join answered %r" % first)
        j = hop.until(lambda f: f.get("type") in ("joined", "error"), "hop to " + r["code"])
        if j.get("room") != r["code"]:
            fail("hop to %s: %r" % (r["code"], j))
        hop.send({"type": "leave"})
        hop.until(is_type("left"), "hop leaves " + r["code"])
    hop.close()
    # messages right behind a join that moves the client to the other loop
    # or back to its own: answered in their order (a review found that a
    # move back could let the connection's next message overtake the ones
    # still relayed: one posted after the move, not with it)
    for rnd in range(3):
        hop = Client("/")
        for r in rooms:
            hop.send({"type": "join", "room": r["code"], "name": "Hop"},
                     {"type": "aid"}, {"type": "aid"})
            time.sleep(0.002)  # the next while the first are on their way
            hop.send({"type": "aid"}, {"type": "leave"})
            got = [hop.until(lambda f: f.get("type") in ("joined", "error", "left"),
                             "order in " + r["code"]) for _ in range(5)]
            kinds = [f.get("error") or f.get("type") for f in got]
            if kinds != ["joined", "not_seated", "not_seated", "not_seated", "left"]:
                fail("round %d, %s (loop %d): answered %s" % (rnd, r["code"], home(r["code"]),
                                                             kinds))
        hop.close()
    # the lobby, from any connection: every public room of both loops
    public = {r["code"] for r in rooms if r["public"]}
    for r in rooms[:4]:
        lobby = r["member"].answer({"type": "lobby"}, "lobby")
        listed = {x["code"] for x in lobby.get("rooms", [])}
        if lobby.get("total") != len(public) or listed != public:
            fail("lobby: %d rooms %s, want %d" % (lobby.get("total", -1), sorted(listed),
                                                  len(public)))
    # a bots-only game watched by a spectator from `/` on each loop: the same
    # events, to the end
    watch = rooms[0]
    host = watch["host"]
    for msg in ({"type": "stand"}, {"type": "kick", "seat": 2}):
        host.send(msg)
    watch["member"].until(is_type("kicked"), "Bo kicked")
    watch["member"].close()
    watchers = [Client("/") for _ in range(4)]
    for k, w in enumerate(watchers):
        j = w.answer({"type": "join", "room": watch["code"], "name": "W%d" % k}, "watch")
        if j.get("type") != "joined":
            fail("watcher %d: %r" % (k, j))
    host.send({"type": "fill"})
    host.send({"type": "start"})
    lines = []
    for w in [host] + watchers:
        events = []
        while True:
            f = w.next()
            if "close" in f:
                fail("watching: closed")
                break
            if f.get("type") == "event":
                events.append(f.get("event", {}).get("line"))
                if "result" in f:
                    break
        lines.append(events)
    if not lines[0] or any(x != lines[0] for x in lines):
        fail("the game's events differ between watchers: %s" % [len(x) for x in lines])
    for w in watchers:
        w.close()
    # what the next case resumes: every other room's host and member
    with open(state_path, "w") as out:
        json.dump([{"code": r["code"], "tokens": r["tokens"]} for r in rooms[1:]
                   if "member" in r], out)
    print("rooms: %d on loop 0, %d on loop 1; %d events watched alike from %d clients"
          % (sum(home(r["code"]) == 0 for r in rooms), sum(home(r["code"]) == 1 for r in rooms),
             len(lines[0]), len(lines)))


def case_resume(state_path):
    with open(state_path) as f:
        rooms = json.load(f)
    n = 0
    for i, r in enumerate(rooms):
        members = []
        for k, token in enumerate(r["tokens"]):
            path = "/room/" + r["code"] if (i + k) % 2 == 0 else "/"
            c = Client(path)
            j = c.answer({"type": "resume", "room": r["code"], "token": token},
                         "resume %s at %s" % (r["code"], path))
            if j.get("type") != "joined" or j.get("room") != r["code"]:
                fail("resume %s at %s: %r" % (r["code"], path, j))
                continue
            room = c.until(is_type("room"), "its room frame")
            seats = [s for s in room.get("seats", []) if s.get("name") in ("Ann", "Bo")]
            if len(seats) != 2:
                fail("resume %s: seats %r" % (r["code"], room.get("seats")))
            members.append(c)
            n += 1
        if len(members) == 2:
            chat_both_ways(members[0], members[1], "resumed " + r["code"])
        for c in members:
            c.close()
    print("resume: %d members back in %d rooms" % (n, len(rooms)))


def case_limits():
    clients = [Client("/") for _ in range(4)]
    extra = Client("/", welcome=False)
    f = extra.next()
    if f.get("error") != "too_many_connections":
        fail("a fifth connection: %r" % f)
    if extra.next().get("close") != 1008:
        fail("a fifth connection: not closed with 1008")
    extra.close()
    made, refused = [], None
    for c in clients[:3]:
        a = c.answer({"type": "create", "name": "Ann"}, "create")
        if a.get("type") == "joined":
            made.append(a["room"])
        else:
            refused = a.get("error")
    if len(made) != 2 or refused != "too_many_own_rooms":
        fail("rooms from one address: %s made, then %r" % (made, refused))
    print("limits: 4 connections, a fifth refused; rooms %s (loops %s), a third refused"
          % (made, [home(c) for c in made]))
    for c in clients:
        c.close()


CASES = {"rooms": case_rooms, "resume": case_resume, "limits": case_limits}
if len(sys.argv) < 3 or sys.argv[2] not in CASES:
    sys.exit(__doc__)
try:
    CASES[sys.argv[2]](*sys.argv[3:])
except (OSError, EOFError, ValueError) as e:  # a timeout is an OSError
    fail("%s: stopped: %s: %s" % (sys.argv[2], type(e).__name__, e))
sys.exit(1 if failures else 0)
