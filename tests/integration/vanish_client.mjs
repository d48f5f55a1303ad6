// vanish_client.mjs - clients that vanish mid-frame and reconnect storms,
// against `lit serve` on PORT (cli_vanish.sh):
//
//     node tests/integration/vanish_client.mjs PORT
//
// 1. Raw TCP connections that stop in the middle: half an upgrade request,
//    half a WebSocket frame (its header says more than comes), then a FIN or
//    a reset (RST); and a seated member of a room whose connection does the
//    same. The server stays up, frees them (/healthz counts no client left)
//    and the member resumes its seat with its token.
// 2. Storms: six players at one table play a game; every few events all six
//    drop at once (three reset mid-frame, three close) and resume at once
//    (with the last seq seen, or afresh). Every resume must agree with what
//    the client saw before (each event the same under its number), and the
//    game goes on to its end.
// Prints "ok: ..." or "FAIL: what" (exit 1).
import net from "node:net";
import crypto from "node:crypto";
import {
  Conn, Failure, check, choose, claimFrom, httpGet, show, sleep,
} from "./serve_client.mjs";

const PORT = Number(process.argv[2]);
const url = `ws://127.0.0.1:${PORT}/`;

async function healthz() {
  const r = await httpGet(PORT, "/healthz");
  check(r.status === 200, `/healthz: ${r.status}`);
  return JSON.parse(r.body);
}

// Waits until the server counts no more than n clients.
async function clientsDown(n, what) {
  for (let i = 0; i < 100; i++) {
    if ((await healthz()).clients <= n) return;
    await sleep(50);
  }
  throw new Failure(`${what}: /healthz still counts ${(await healthz()).clients} clients`);
}

// A raw connection: resolves once connected.
function raw() {
  return new Promise((resolve, reject) => {
    const s = net.connect(PORT, "127.0.0.1", () => resolve(s));
    s.on("error", reject);
  });
}

function upgradeRequest() {
  const key = crypto.randomBytes(16).toString("base64");
  return `GET / HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nUpgrade: websocket\r\n` +
    `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
}

// The first part of a masked text frame of a message of size bytes.
function halfFrame(size) {
  const payload = Buffer.alloc(size, "x");
  const head = size < 126 ? Buffer.from([0x81, 0x80 | size])
    : Buffer.from([0x81, 0x80 | 126, size >> 8, size & 255]);
  const frame = Buffer.concat([head, Buffer.alloc(4), payload]); // mask 0: as is
  return frame.subarray(0, head.length + 4 + Math.floor(size / 3));
}

// Ends a socket by a FIN or a reset.
function vanish(s, reset) {
  if (reset) s.resetAndDestroy();
  else s.end();
}

// Waits for the server's 101 on a raw socket.
function upgraded(s) {
  return new Promise((resolve, reject) => {
    let got = "";
    s.on("data", (d) => {
      got += d.toString("latin1");
      if (got.includes("\r\n\r\n")) resolve(got);
    });
    s.on("error", reject);
  });
}

async function halfway() {
  const before = (await healthz()).clients;
  for (let i = 0; i < 40; i++) {
    const reset = i % 2 === 1;
    const s = await raw();
    if (i % 4 < 2) {
      s.write(upgradeRequest().slice(0, 40)); // half an upgrade
    } else {
      s.write(upgradeRequest());
      const answer = await upgraded(s);
      check(answer.startsWith("HTTP/1.1 101"), `upgrade: ${answer.split("\r\n")[0]}`);
      s.write(halfFrame(i % 8 < 4 ? 100 : 3000)); // half a frame
    }
    await sleep(2);
    vanish(s, reset);
  }
  await clientsDown(before, "after 40 half connections");

  // a seated member that vanishes mid-frame resumes its seat
  const host = await Player.open("Ann");
  await host.send({ type: "create", name: "Ann", players: 4, pace_ms: 0 });
  await host.until("room");
  const ws = host.conn.ws;
  ws._socket.write(halfFrame(200));
  ws._socket.resetAndDestroy();
  await clientsDown(before, "a member reset mid-frame");
  const back = await Player.open("Ann");
  await back.send({ type: "resume", room: host.code, token: host.token });
  const room = await back.until("room");
  check(room.you.seat === 1 && room.you.host === true, `resumed: ${show(room.you)}`);
  await back.close();
  await clientsDown(before, "the resumed member closed");
}

// One player of the storm: its frames, the events it saw by number.
class Player {
  static async open(name) {
    const p = new Player(await Conn.open(url), name);
    const hello = await p.next();
    check(hello.type === "welcome", `welcome: ${show(hello)}`);
    return p;
  }

  constructor(conn, name) {
    this.conn = conn;
    this.name = name;
    this.seq = 0;
    this.last = null; // the last game, event or catchup frame
  }

  async next() {
    const f = JSON.parse(await this.conn.recv());
    if (f.type !== "ack" && typeof f.seq === "number") this.seq = f.seq;
    if (f.type === "joined") {
      this.code = f.room;
      this.token = f.token;
    }
    if (f.type === "error") throw new Failure(`${this.name}: error ${show(f)}`);
    return f;
  }

  async until(...types) {
    for (;;) {
      const f = await this.next();
      if (types.includes(f.type)) return f;
    }
  }

  send(msg) {
    return this.conn.send(msg);
  }

  close() {
    return this.conn.close();
  }
}

// The events a table saw, by number: every client must agree.
const seen = new Map();
function saw(events) {
  for (const e of events) {
    const had = seen.get(e.n);
    check(had === undefined || had === e.line, `event ${e.n} told two ways: ${had} / ${e.line}`);
    seen.set(e.n, e.line);
  }
}

function take(p, f) {
  if (f.type === "game") saw(f.history);
  if (f.type === "catchup") saw(f.events);
  if (f.type === "event") saw([f.event]);
  if (["game", "catchup", "event"].includes(f.type)) p.last = f;
}

async function storms() {
  const before = (await healthz()).clients;
  const ps = [await Player.open("P1")];
  await ps[0].send({ type: "create", name: "P1", players: 6, pace_ms: 0 });
  await ps[0].until("joined");
  for (let i = 2; i <= 6; i++) {
    const p = await Player.open(`P${i}`);
    await p.send({ type: "join", room: ps[0].code, name: `P${i}`, seat: i });
    await p.until("joined");
    ps.push(p);
  }
  await ps[0].send({ type: "start" });
  for (const p of ps) take(p, await p.until("game"));
  let actions = 0, storms = 0;
  while (!("result" in ps[0].last)) {
    // the seat on turn acts; every member reads until it has that event
    const turn = ps[0].last.state.turn;
    const p = ps[turn - 1];
    const you = p.last.you;
    let act = choose(you);
    if (!act) {
      await p.send({ type: "aid" });
      act = claimFrom(you, await p.until("aid"));
    }
    await p.send({ type: "act", seq: p.seq, id: `a${actions}`, ...act });
    actions += 1;
    for (const q of ps) {
      do take(q, await q.until("event", "game")); while (q.last.state.actions < actions &&
        !("result" in q.last));
    }
    if (actions % 7 !== 0 || "result" in ps[0].last) continue;
    // the storm: all drop at once (three reset mid-frame), all resume at once
    storms += 1;
    await Promise.all(ps.map(async (q, i) => {
      if (i % 2) {
        q.conn.ws._socket.write(halfFrame(300));
        q.conn.ws._socket.resetAndDestroy();
      } else {
        await q.close();
      }
    }));
    const again = await Promise.all(ps.map(async (q, i) => {
      const r = await Player.open(q.name);
      r.code = q.code;
      r.token = q.token;
      r.seq = q.seq;
      r.last = q.last;
      await r.send({ type: "resume", room: q.code, token: q.token,
        ...(i % 2 ? {} : { seq: q.seq }) });
      const f = await r.until(i % 2 ? "game" : "catchup");
      take(r, f);
      check(f.state.actions === actions, `${q.name} resumed at ${f.state.actions}, not ${actions}`);
      if (i % 2 === 0)
        check(f.events.length === 0, `${q.name}: missed nothing, caught up ${f.events.length}`);
      return r;
    }));
    ps.splice(0, ps.length, ...again);
  }
  check(seen.size === actions, `${seen.size} events told, ${actions} played`);
  for (let n = 1; n <= actions; n++) check(seen.has(n), `event ${n} never told`);
  const room = await (async () => {
    await ps[0].send({ type: "lobby" });
    return ps[0].until("lobby");
  })();
  check(room.type === "lobby", "the server answers after the game");
  await Promise.all(ps.map((q) => q.close()));
  await clientsDown(before, "after the storms");
  return [actions, storms];
}

try {
  await halfway();
  const [actions, n] = await storms();
  const h = await healthz();
  console.log(`ok: 40 half connections, a member reset mid-frame, ${n} storms of 6 in a game ` +
    `of ${actions} actions; ${h.clients} clients left`);
} catch (e) {
  console.log(`FAIL: ${e.message}`);
  process.exit(1);
}
