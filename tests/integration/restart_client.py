"""restart_client.py - kill -9 `lit serve --db` at random moments of a game
and check that nothing any client was sent is lost (docs/PROTOCOL.md,
"Restarts"). Driven by cli_restart.sh:

    python3 restart_client.py LIT DB KILLS SEED

Runs the server itself (so it can kill and start it again), plays seat 1 of
six-player classic games against bots (another game as long as kills are
left), and after each kill and restart: resumes the seat with its token,
checks the game it is sent holds every event it received before the kill,
each the same, and sends again an action it got no answer to (a repeat must
be answered as one). After the last kill it plays to the end, and checks the
record served at /games/ID.lit of every game is the game it saw. Prints one
line per kill and "ok"; exits 1 at the first difference.
"""
import asyncio
import json
import random
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import websockets

LIT, DB, KILLS, SEED = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
TIMEOUT = 10


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def start():
    """Starts the server on any free port: (process, port)."""
    p = subprocess.Popen([LIT, "serve", "--port", "0", "--db", DB], stdout=subprocess.PIPE,
                         stderr=open(DB + ".log", "a"), text=True)
    line = p.stdout.readline()
    check(line.startswith("serving on http://127.0.0.1:"), f"server said: {line!r}")
    return p, int(line.strip().rstrip("/").rsplit(":", 1)[1])


def http(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


class Seat:
    """Seat 1's client, across connections."""

    def __init__(self):
        self.events = {}      # n -> event, every event ever received
        self.seq = 0
        self.frame = None     # the last game or event frame
        self.pending = None   # an act sent and not answered
        self.wait = 0         # the seq of the event of the last act answered
        self.ids = 0
        self.game_no = 0
        self.game_id = None
        self.done = []        # (id, events, result) of each game that ended

    def take(self, f):
        t = f["type"]
        if t == "game" and f["game"] != self.game_no:
            check(not self.game_no or "result" in self.frame, "a game left unfinished")
            self.game_no, self.game_id, self.events = f["game"], f["id"], {}
        if t == "event":
            e = f["event"]
            if e["n"] in self.events:
                check(self.events[e["n"]] == e, f"event {e['n']} changed: {e}")
            self.events[e["n"]] = e
        if t == "game":
            self.events.update({e["n"]: e for e in f["history"]})
        if t in ("event", "game"):
            self.frame = f
            if "result" in f and (not self.done or self.done[-1][0] != self.game_id):
                self.done.append((self.game_id, dict(self.events), f["result"], f["record"]))
        if t in ("room", "event", "game"):
            self.seq = f["seq"]
        if t == "ack" or t == "error" and f.get("id"):
            check(t == "ack", f"an action refused: {f}")
            self.pending = None
            self.wait = f["seq"]


def choose(you):
    if you["asks"]:
        a = you["asks"][0]
        return {"action": "ask", "card": a["card"], "target": a["target"]}
    if you["passes"]:
        return {"action": "pass", "target": you["passes"][0]}
    if you["choices"]:
        return {"action": "choose", "target": you["choices"][0]}
    return None


async def recv(ws):
    return json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))


async def act(ws, seat):
    """Acts when seat 1 is on turn and has nothing unanswered."""
    f = seat.frame
    you = f and f.get("you")
    if (seat.pending or seat.seq < seat.wait or not you or "result" in f
            or f["state"]["turn"] != 1):
        return
    a = choose(you)
    if a is None:
        await ws.send(json.dumps({"type": "aid"}))
        while True:
            aid = await recv(ws)
            seat.take(aid)
            if aid["type"] == "aid":
                break
        s = you["claimable"][0]
        a = {"action": "claim", "set": s, "holders": aid["half_suits"][s]["best_assignment"]}
    seat.ids += 1
    seat.pending = {"type": "act", "id": f"a{seat.ids}", **a}
    await ws.send(json.dumps({**seat.pending, "seq": seat.seq}))


async def play(port, seat, room, token, events_before_kill, rng):
    """Resumes (or creates) and plays until events_before_kill more events,
    starting another game when one ends (None: to the end of the game).
    Returns room, token."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/", max_size=1 << 22) as ws:
        check((await recv(ws))["type"] == "welcome", "welcome")
        if room is None:
            await ws.send(json.dumps({"type": "create", "name": "Ann", "pace_ms": 20}))
            joined = await recv(ws)
            room, token = joined["room"], joined["token"]
            seat.take(await recv(ws))
            await ws.send(json.dumps({"type": "fill"}))
            seat.take(await recv(ws))
            await ws.send(json.dumps({"type": "start"}))
        else:
            known = dict(seat.events)
            await ws.send(json.dumps({"type": "resume", "room": room, "token": token}))
            check((await recv(ws))["type"] == "joined", "joined")
            room_frame = await recv(ws)
            check(room_frame["type"] == "room" and room_frame["saved"] is True,
                  f"room after restart: {room_frame}")
            seat.take(room_frame)
            game = await recv(ws)
            check(game["type"] == "game", f"a game frame: {game['type']}")
            history = {e["n"]: e for e in game["history"]}
            if game["game"] != seat.game_no:  # the next game began before the kill
                check(game["game"] == seat.game_no + 1 and "result" in seat.frame,
                      f"game {game['game']} after game {seat.game_no}")
                known = {}
            for n, e in known.items():
                check(history.get(n) == e, f"event {n} lost or changed by the restart: "
                      f"{e} became {history.get(n)}")
            seat.take(game)
            if seat.pending:  # sent, never answered: again, under the same id
                await ws.send(json.dumps({**seat.pending, "seq": seat.seq}))
        left = events_before_kill
        while True:
            await act(ws, seat)
            if seat.frame and "result" in seat.frame and seat.seq >= seat.wait:
                if left is None:
                    return room, token
                await ws.send(json.dumps({"type": "start"}))
                seat.wait = seat.seq + 1
            if left is not None and left <= 0:
                await asyncio.sleep(rng.random() * 0.03)  # kill mid-whatever
                return room, token
            f = await recv(ws)
            seat.take(f)
            if f["type"] == "event" and left is not None:
                left -= 1


async def main():
    rng = random.Random(SEED)
    seat = Seat()
    room = token = None
    proc, port = start()
    try:
        for k in range(KILLS):
            room, token = await play(port, seat, room, token, rng.randint(1, 12), rng)
            if k == 0:  # an unfinished game's record is refused
                status, body = http(port, f"/games/{seat.game_id}.lit")
                check(status == 409 and body.startswith("unfinished"), f"{status} {body}")
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            print(f"kill {k + 1} in game {seat.game_no} after event {max(seat.events or [0])}",
                  flush=True)
            proc, port = start()
        room, token = await play(port, seat, room, token, None, rng)
        check("result" in seat.frame, "the game ended")
        actions = 0
        for game_id, events, result, link in seat.done:
            check(link == f"/games/{game_id}.lit", f"the record's link: {link}")
            status, body = http(port, link)
            check(status == 200, f"{link}: {status} {body}")
            lines = [l for l in body.splitlines() if l[:1].isdigit()]
            seen = [events[n]["line"] for n in sorted(events)]
            check(sorted(events) == list(range(1, len(events) + 1)), "events 1..n")
            check(lines == seen, f"the record is not the game seen:\n{lines}\n{seen}")
            check(f'[Result "{result}"]' in body, "the record's result")
            actions += len(seen)
        print(f"ok: {len(seat.done)} games, {actions} actions, {seat.ids} by seat 1")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait()


try:
    asyncio.run(main())
except (Failure, asyncio.TimeoutError, websockets.exceptions.WebSocketException) as e:
    print(f"FAIL: {type(e).__name__}: {e}")
    sys.exit(1)
