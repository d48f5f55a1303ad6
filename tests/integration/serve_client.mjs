// serve_client.mjs - protocol clients for `lit serve` over loopback
// (docs/PROTOCOL.md), driven by cli_serve.sh:
//
//     node tests/integration/serve_client.mjs PORT            every scenario but limits
//     node tests/integration/serve_client.mjs PORT limits     against a server with tight
//                                                             limits (see limits())
//     node tests/integration/serve_client.mjs PORT closing    the SIGTERM client (closing())
//     node tests/integration/serve_client.mjs PORT smoke      cli_valgrind.sh's client (smoke())
//     LIT=lit node tests/integration/serve_client.mjs PORT review
//                                                             against a server with --db: a
//                                                             finished game in review (review())
//
// Each scenario opens real WebSocket connections (the `ws` package pinned in
// package.json), plays as a person's client would, and checks every answer
// exactly. Prints "ok NAME (MS ms)" per scenario; at the first failure
// prints "FAIL NAME (after MS ms): what differed" and exits 1. Every wait has
// a time limit, so a server that hangs fails the scenario instead of
// blocking it.
//
// restart_client.mjs imports the connection (Conn) and the helpers above
// main() from here; main() runs only when this file is the program.
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import WebSocket from "ws";

export const TIMEOUT = 10000; // ms, for any one frame, send, close or HTTP answer

export class Failure extends Error {}

// The connection closed (code and reason of the server's close frame; 1006
// when it ended without one) while a frame was awaited or being sent.
export class Closed extends Failure {
  constructor(code, reason) {
    super(`the connection closed with ${code} ${JSON.stringify(reason)}`);
    this.code = code;
    this.reason = reason;
  }
}

export function check(cond, what) {
  if (!cond) throw new Failure(what);
}

export const same = isDeepStrictEqual;
export const show = JSON.stringify;

// within(PROMISE, MS, WHAT): what PROMISE gives, or a Failure naming WHAT
// when it takes longer than MS.
export function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Failure(`nothing in ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The server takes RATE messages a second from a connection, after a burst
// of BURST (docs/PROTOCOL.md, "Limits": --max-rate's default); one beyond is
// refused with too_many_messages and nothing else happens.
export const RATE = 20;
export const BURST = 40;

// httpGet(PORT, PATH): {status, headers, body} of a GET on loopback (a new
// connection each time: nothing kept alive across a server's restart).
export function httpGet(port, path) {
  const answer = new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
  return within(answer, TIMEOUT, `GET ${path}`);
}

// One WebSocket connection: the text frames received are queued and read one
// at a time with recv, which throws Closed once the queue is empty and the
// connection has closed (frames sent before the close are read first).
export class Conn {
  // open(URL, OPTIONS): an open connection (OPTIONS as ws's: origin, headers).
  static async open(url, options = {}) {
    const conn = new Conn(new WebSocket(url, { maxPayload: 1 << 22, ...options }));
    try {
      await within(conn.opened, TIMEOUT, `opening ${url}`);
    } catch (e) {
      throw e instanceof Failure ? e : new Failure(`opening ${url}: ${e.message}`);
    }
    return conn;
  }

  constructor(ws) {
    this.ws = ws;
    this.queue = [];
    this.waiter = null;
    this.closeFrame = null; // {code, reason} once closed
    this.opened = new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject); // before opening: refused, reset, a non-101 answer
    });
    this.closed = new Promise((resolve) => {
      ws.once("close", (code, reason) => {
        this.closeFrame = { code, reason: reason.toString() };
        this.wake();
        resolve();
      });
    });
    ws.on("error", () => {}); // after opening, an error is followed by a close (1006)
    ws.on("message", (data) => {
      this.queue.push(data.toString());
      this.wake();
    });
  }

  wake() {
    const w = this.waiter;
    this.waiter = null;
    if (w) w();
  }

  // recv(MS): the next text frame, as sent.
  async recv(ms = TIMEOUT) {
    if (this.queue.length === 0 && !this.closeFrame)
      await within(new Promise((resolve) => (this.waiter = resolve)), ms, "a frame");
    if (this.queue.length > 0) return this.queue.shift();
    throw new Closed(this.closeFrame.code, this.closeFrame.reason);
  }

  // send(MSG, OPTIONS): an object as JSON, a string as it is; resolves once
  // written. On a connection closing or closed: Closed, with the server's code.
  async send(msg, options = {}) {
    const text = typeof msg === "string" ? msg : JSON.stringify(msg);
    if (this.ws.readyState === WebSocket.OPEN) {
      try {
        const sent = new Promise((resolve, reject) =>
          this.ws.send(text, options, (e) => (e ? reject(e) : resolve())));
        return await within(sent, TIMEOUT, "sending a frame");
      } catch (e) {
        if (this.ws.readyState === WebSocket.OPEN) throw e;
      }
    }
    await within(this.closed, TIMEOUT, "the close of a closing connection");
    throw new Closed(this.closeFrame.code, this.closeFrame.reason);
  }

  // close(): the closing handshake (1000), done within the time limit.
  async close() {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close(1000);
    await within(this.closed, TIMEOUT, "the closing handshake");
  }
}

// upgradeRefused(URL, OPTIONS): {status, body} of an upgrade the server
// answers with anything but 101; a Failure when it opens.
export function upgradeRefused(url, options) {
  const answer = new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.on("error", reject);
    ws.on("open", () => {
      ws.terminate();
      reject(new Failure("the upgrade was accepted"));
    });
    ws.on("unexpected-response", (req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        resolve({ status: res.statusCode, body });
        ws.terminate();
      });
    });
  });
  return within(answer, TIMEOUT, "the answer to a refused upgrade");
}

// The first legal action of a frame's "you" (null when only a claim is), as
// the fields of an act message.
export function choose(you) {
  if (you.asks.length > 0) {
    const a = you.asks[0];
    return { action: "ask", card: a.card, target: a.target };
  }
  if (you.passes.length > 0) return { action: "pass", target: you.passes[0] };
  if (you.choices.length > 0) return { action: "choose", target: you.choices[0] };
  return null;
}

// ---- the protocol client ---------------------------------------------------

// What the server's log must never hold (docs/PROTOCOL.md: room codes,
// tokens, game ids, names, cards of a hand, chat), as the clients saw it:
// written one a line to the file $LIT_SECRETS, if set, for cli_serve.sh to
// look for in the log.
export const secrets = new Set();

function keepSecrets(f) {
  const add = (...xs) => xs.forEach((x) => typeof x === "string" && x && secrets.add(x));
  if (f.type === "joined") add(f.room, f.token, f.name);
  if (f.type === "game") add(f.id, ...(f.you?.hand ?? []));
  if (f.type === "chat") add(f.from, f.text);
}

let port = 0;
const url = () => `ws://127.0.0.1:${port}/`;

// One client: frames parsed and kept in order, read by type, every sequence
// number checked (abuse_client.mjs extends it).
export class Client {
  static async open(options = {}) {
    const c = new Client(await Conn.open(url(), options));
    const hello = await c.next();
    check(hello.type === "welcome" && hello.protocol === 1, `welcome: ${show(hello)}`);
    return c;
  }

  constructor(conn) {
    this.conn = conn;
    this.frames = [];
    this.seq = 0;
    this.due = 0; // when the last paced message was due (ms, performance.now)
  }

  send(msg) {
    return this.conn.send(msg);
  }

  // paced(MSG): send(MSG), kept to the server's rate (RATE and BURST): a
  // seat played at pace_ms 0 against fast bots has its turn far more often
  // than a person's (59 in a quarter of a second against experts of 8
  // rollouts, release build), and an act refused for the rate would leave
  // the game waiting for it. Each message is due 1/RATE s after the one
  // before; one due more than half the burst ahead waits (the other half is
  // slack for messages the server reads later than they were sent).
  async paced(msg) {
    const step = 1000 / RATE, now = performance.now();
    this.due = Math.max(this.due, now) + step;
    const early = this.due - now - (BURST / 2) * step;
    if (early > 0) await sleep(early);
    return this.send(msg);
  }

  async next() {
    const f = JSON.parse(await this.conn.recv());
    keepSecrets(f);
    if (f.type === "room" || f.type === "event" || (f.type === "game" && f.seq > this.seq)) {
      // every room and event frame is a new number; a game frame sent to
      // one member (a snapshot) carries the number of what it shows
      check(f.seq > this.seq, `seq went from ${this.seq} to ${f.seq}`);
      this.seq = f.seq;
    } else if (f.type === "game") {
      check(f.seq === this.seq, `a snapshot at ${f.seq} after ${this.seq}`);
    }
    this.frames.push(f);
    return f;
  }

  // until(TYPE...): the next frame of one of the types; a timeout names them
  // and the last frame passed over.
  async until(...types) {
    let passed = null;
    for (;;) {
      let f;
      try {
        f = await this.next();
      } catch (e) {
        if (e instanceof Failure)
          e.message += ` (waiting for ${types.join(" or ")}; passed over: ${show(passed)})`;
        throw e;
      }
      if (types.includes(f.type)) return f;
      passed = f;
    }
  }

  // error(MSG, NAME): MSG is refused with the error NAME.
  async error(msg, name) {
    await this.send(msg);
    const f = await this.until("error");
    check(f.error === name, `${show(msg)}: answered ${show(f)}, want ${name}`);
    return f;
  }

  close() {
    return this.conn.close();
  }
}

async function create(fields = {}) {
  const c = await Client.open();
  await c.send({ type: "create", name: "Ann", ...fields });
  const joined = await c.until("joined");
  const room = await c.until("room");
  return [c, joined, room];
}

// The act fields of a claim, as the aid's likeliest placement says, of the
// first claimable set the team may hold whole. Not always the first set: a
// seat with nothing to ask (it holds whole sets only) may claim every live
// set, and the aid has no placement for those its team cannot hold. There is
// always one: the seat's own sets, or every set when the opponents hold
// nothing.
export function claimFrom(you, aid) {
  check(you.claimable.length > 0, `nothing to ask and nothing to claim: ${show(you)}`);
  for (const s of you.claimable) check(s in aid.half_suits, `no aid for ${s}: ${show(aid)}`);
  const s = you.claimable.find((x) => aid.half_suits[x].best_assignment != null);
  check(s !== undefined, `no placement for any claimable set: ${show(aid.half_suits)}`);
  return { action: "claim", set: s, holders: aid.half_suits[s].best_assignment };
}

async function claim(c, you) {
  await c.paced({ type: "aid" });
  return claimFrom(you, await c.until("aid"));
}

// Plays c's seat to the end of the game, or until STOP(frame) says so, its
// messages paced (Client.paced): returns the last frame. The seat never
// asks again for a card a seat is known not to hold (an ask for it missed,
// and that seat has not taken it since): it asks the first other, and
// claims when every ask would be such a miss (the team holds those sets
// whole). Asking the first legal action
// every time loops against experts: 1 asks 2 for 9h, a miss, 2 asks 1 for
// 9c, a miss, ... to the action bound (aborted at 2,000 actions, two games
// of 30). An act refused as stale (an expert's claim out of turn came
// first) is played again on the new state; any other error fails at once.
async function playToEnd(c, frame, ids, stop = () => false) {
  const missed = new Set(); // "CARD SEAT": an ask of SEAT for CARD would miss
  const learn = (e) => {
    if (e.action !== "ask") return;
    if (e.answer === "miss") missed.add(`${e.card} ${e.target}`);
    else missed.delete(`${e.card} ${e.seat}`); // the asker holds it now
  };
  for (const e of frame.history ?? []) learn(e);
  while (!("result" in frame) && !stop(frame)) {
    const you = frame.you;
    if (you && frame.state.turn === you.seat) {
      const fresh = you.asks.find((a) => !missed.has(`${a.card} ${a.target}`));
      const act = fresh ? { action: "ask", card: fresh.card, target: fresh.target }
        : you.asks.length > 0 && you.claimable.length > 0 ? await claim(c, you)
        : choose(you) ?? (await claim(c, you));
      ids.n += 1;
      await c.paced({ type: "act", seq: c.seq, id: `a${ids.n}`, ...act });
    }
    do frame = await c.until("event", "game", "error");
    while (frame.type === "error" && frame.error === "stale_state");
    check(frame.type !== "error", `act a${ids.n} refused: ${show(frame)}`);
    if (frame.type === "event") {
      check("event" in frame && "state" in frame, `event frame: ${show(frame)}`);
      learn(frame.event);
    } else {
      for (const e of frame.history ?? []) learn(e);
    }
  }
  return frame;
}

// expectClose(PROMISE, WHAT): PROMISE must end in Closed; returns it (WHAT
// says what it was when PROMISE gives a value instead).
export async function expectClose(promise, what) {
  try {
    await promise;
  } catch (e) {
    if (e instanceof Closed) return e;
    throw e;
  }
  throw new Failure(what);
}

// ---- scenarios -------------------------------------------------------------

// /healthz answers JSON with nosniff; any other path is 404.
async function healthz() {
  const r = await httpGet(port, "/healthz");
  const body = JSON.parse(r.body);
  check(r.status === 200 && body.ok === true, `/healthz: ${r.status} ${r.body}`);
  check(r.headers["x-content-type-options"] === "nosniff", "nosniff header");
  const none = await httpGet(port, "/nothing");
  check(none.status === 404, `/nothing: ${none.status}`);
}

// The event frames a client received, checked to be numbered 1..n.
function numberedEvents(c) {
  const events = c.frames.filter((f) => f.type === "event");
  check(same(events.map((f) => f.event.n), events.map((_, i) => i + 1)),
        `events numbered 1..n: ${show(events.map((f) => f.event.n))}`);
  return events;
}

// One human and bots, to the end of the game: events numbered 1..n, every
// action counted; the next game is dealt by the next seat to the left.
async function fullGame(rules, players) {
  const [c, joined, room0] = await create({ rules, players, pace_ms: 0 });
  check(joined.token.length === 32 && joined.room.length === 6, `joined: ${show(joined)}`);
  const you = { name: "Ann", seat: 1, host: true, waits_left: 2 };
  check(room0.state === "lobby" && same(room0.you, you), `room: ${show(room0)}`);
  await c.send({ type: "fill" });
  const room = await c.until("room");
  check(room.seats.slice(1).every((s) => s.kind === "bot"), `fill: ${show(room.seats)}`);
  await c.send({ type: "start" });
  const game = await c.until("game");
  check(game.you.seat === 1 && game.you.hand.length > 0, `game: ${show(game)}`);
  const last = await playToEnd(c, game, { n: 0 });
  check(last.state.phase === "over" && ["A", "B", "draw"].includes(last.result),
        `the end: ${show(last.state)} ${show(last.result)}`);
  const events = numberedEvents(c);
  check(events.at(-1).state.actions === events.length, "actions counted");
  // play again: the dealer moves one seat left
  await c.send({ type: "start" });
  const again = await c.until("game");
  check(again.game === 2 && again.dealer === 2,
        `again: game ${again.game} dealer ${again.dealer}`);
  await c.close();
}

// The expert bot in a room: its decisions are made on the server's worker
// thread and played at the room's pace. One person and five experts play a
// whole 6-player game to the end: every event numbered, the experts' moves
// marked as bots' (never as stand-ins), the person's as not. Experts of 8
// rollouts (`expert:8`): the path is the same, and a game of full experts
// takes minutes in the sanitizer build.
async function expert() {
  const [c, , room0] = await create({ players: 6, bots: "expert:8", pace_ms: 0 });
  check(room0.bots === "expert:8", `room: ${show(room0)}`);
  await c.send({ type: "fill" });
  const room = await c.until("room");
  check(room.seats.slice(1).every((s) => s.kind === "bot" && s.bot === "expert:8"),
        `fill: ${show(room.seats)}`);
  await c.send({ type: "start" });
  const game = await c.until("game");
  const last = await playToEnd(c, game, { n: 0 });
  check(last.state.phase === "over" && ["A", "B", "draw"].includes(last.result),
        `the end: ${show(last.state)} ${show(last.result)}`);
  const events = numberedEvents(c);
  for (const f of events)
    check(f.bot === (f.event.seat !== 1) && !("stand_in" in f.event),
          `who moved: ${show(f)}`);
  check(events.some((f) => f.bot) && events.some((f) => !f.bot),
        `both the person and the experts moved: ${events.length} events`);
  const over = await c.until("room");
  check(over.state === "over", `the room after the game: ${show(over)}`);
  await c.send({ type: "leave" }); // the room closes (rooms per address are limited)
  await c.until("left");
  await c.close();
}

// Every bad message of docs/PROTOCOL.md answered with its exact error, the
// referee's refusals by name, a repeated action acknowledged as a repeat,
// a stale one refused, and spectators who see no hand and may not act.
async function errors() {
  const c = await Client.open();
  await c.error("hello", "not_json");
  await c.error('{"type":"lobby","type":"lobby"}', "not_json");
  await c.error("[1,2]", "bad_message");
  await c.error({ type: "dance" }, "unknown_type");
  const f = await c.error({ type: "lobby", x: 1 }, "unknown_key");
  check(f.text === 'lobby takes no key "x"', `unknown key text: ${f.text}`);
  await c.error({ type: "create", name: " Ann" }, "bad_name");
  await c.error({ type: "create", name: "Ann", rules: "nosuch" }, "unknown_preset");
  await c.error({ type: "create", name: "Ann", players: 7 }, "bad_rule_value");
  await c.error({ type: "create", name: "Ann", bots: "expert:65" }, "bad_value");
  await c.error({ type: "create", name: "Ann", pace_ms: 99999 }, "bad_value");
  await c.error({ type: "join", room: "ZZZZZZ", name: "Bo" }, "no_room");
  await c.error({ type: "start" }, "not_in_room");
  await c.error({ type: "act", seq: 0, id: "x", action: "ask" }, "not_in_room");
  await c.error({ type: "act", seq: 0, id: "", action: "ask" }, "bad_id");
  await c.close();

  const [h, joined] = await create({ players: 4, pace_ms: 0 });
  const code = joined.room;
  const g = await Client.open();
  await g.send({ type: "join", room: code, name: "Bo", seat: 2 });
  await g.until("joined");
  await h.until("room");
  await g.until("room");
  await g.error({ type: "start" }, "not_host");
  await g.error({ type: "join", room: code, name: "Cy" }, "in_room");
  const s = await Client.open();
  await s.error({ type: "join", room: code, name: "Bo" }, "name_taken");
  await s.error({ type: "join", room: code, name: "Cy", seat: 2 }, "seat_taken");
  await s.error({ type: "join", room: code, name: "Cy", seat: 9 }, "bad_seat");
  await h.error({ type: "start" }, "seats_empty");
  await h.error({ type: "aid" }, "no_game");
  await h.error({ type: "wait" }, "not_playing");
  await h.error({ type: "ready" }, "not_waiting");
  await s.error({ type: "create", name: "Cy", turn_ms: 5000 }, "bad_value");
  await s.error({ type: "create", name: "Cy", match_to: 10 }, "bad_value");
  await h.send({ type: "fill" });
  await h.until("room");
  await h.send({ type: "start" });
  const game = await h.until("game");
  await g.until("game");
  await h.error({ type: "fill" }, "game_started");
  // illegal actions: the referee's status, nothing changes
  const you = game.you;
  const seq = h.seq;
  const card = you.asks[0].card;
  await h.error({ type: "act", seq, id: "t1", action: "ask", card, target: 3 }, "ask_teammate");
  const own = you.hand.filter((x) => you.refused.cards[x] === "own_card");
  check(own.length > 0, `no card refused as own_card: ${show(you.refused)}`);
  await h.error({ type: "act", seq, id: "t2", action: "ask", card: own[0], target: 2 },
                "own_card");
  await h.error({ type: "act", seq, id: "t3", action: "ask", card: "Zz", target: 2 },
                "bad_card");
  await h.error({ type: "act", seq, id: "t4", action: "ask", card: "2c", target: 2, why: 1 },
                "bad_message");
  check(you.refused.why === null &&
        you.hand.every((x) => ["own_card", "no_base_card"].includes(you.refused.cards[x])),
        `refused: ${show(you.refused)}`);
  check(you.refused.targets["3"] === "ask_teammate", `refused: ${show(you.refused)}`);
  await g.error({ type: "act", seq, id: "g1", action: "ask", card, target: 1 }, "not_your_turn");
  // a good action, repeated: one event, the repeat acknowledged as such
  const act = { type: "act", seq, id: "t5", ...choose(you) };
  await h.send(act);
  const ack = await h.until("ack");
  check(ack.repeat === false, `ack: ${show(ack)}`);
  const ev = await h.until("event");
  check(ev.seq === ack.seq, `ack seq ${ack.seq}, event seq ${ev.seq}`);
  await h.send(act);
  const again = await h.until("ack");
  check(again.repeat === true && again.seq === ack.seq, `repeat: ${show(again)}`);
  // a new action on the old state
  const nxt = ev.state.turn === 1 ? choose(ev.you) : { action: "ask", card: "2c", target: 2 };
  check(nxt !== null, `no action to try on the old state: ${show(ev.you)}`);
  await h.error({ type: "act", seq, id: "t6", ...nxt }, "stale_state");
  // spectators see no hand and may not act
  await s.send({ type: "join", room: code, name: "Cy" });
  await s.until("joined");
  const room = await s.until("room");
  check(room.you.seat === null && same(room.spectators, ["Cy"]), `spectator: ${show(room)}`);
  const sg = await s.until("game");
  check(sg.you === null && !show(sg).includes('"hand"'), "a spectator's game frame");
  await s.error({ type: "act", seq: s.seq, id: "s1", action: "ask", card: "2c", target: 2 },
                "not_seated");
  await s.error({ type: "aid" }, "not_seated");
  for (const x of [h, g, s]) await x.close();
}

// A message over 8,192 bytes, whole or in fragments, closes the connection
// with 1009 too_big; fragments under the cap make one message.
async function oversized() {
  let c = await Client.open();
  await c.send(show({ type: "lobby", pad: "x".repeat(9000) }));
  let e = await expectClose(c.conn.recv(), "an oversized message was answered");
  check(e.code === 1009 && e.reason === "too_big", `closed with ${e.code} ${e.reason}`);
  // in fragments too (the cap is passed by the last one)
  c = await Client.open();
  for (let i = 0; i < 3; i++) await c.conn.send("x".repeat(4000), { fin: i === 2 });
  e = await expectClose(c.conn.recv(), "an oversized fragmented message was answered");
  check(e.code === 1009 && e.reason === "too_big", `fragments: closed with ${e.code} ${e.reason}`);
  // a message of fragments under the cap is one message
  c = await Client.open();
  await c.conn.send('{"type":', { fin: false });
  await c.conn.send('"lobby"}', { fin: true });
  const f = await c.next();
  check(f.type === "lobby", `fragments: ${show(f)}`);
  await c.close();
}

// A cross-site upgrade is refused (403 cross_origin, no WebSocket); the
// server's own origin is accepted.
async function origin() {
  const r = await upgradeRefused(url(), { origin: "http://evil.example" });
  check(r.status === 403 && r.body.replace(/\n$/, "") === "cross_origin",
        `cross-site: ${r.status} ${show(r.body)}`);
  const c = await Client.open({ origin: `http://127.0.0.1:${port}` });
  await c.close();
}

// A room nobody is connected to waits and the token resumes the seat;
// another connection with the token takes over (the first told "replaced")
// and catches up from a seq; a player leaving mid-game leaves a bot in the
// seat, which only the host takes (another spectator: host_gives); the last
// member leaving closes the room.
async function resumeAndLeave() {
  const [h, joined] = await create({ players: 4, pace_ms: 50 });
  await h.send({ type: "fill" });
  await h.until("room");
  await h.send({ type: "start" });
  const game = await h.until("game");
  const hand = game.you.hand;
  await h.close();
  await sleep(200);
  // a room nobody is connected to waits; the token resumes the seat
  const c = await Client.open();
  await c.error({ type: "resume", room: joined.room, token: "0".repeat(32) }, "bad_token");
  await c.send({ type: "resume", room: joined.room, token: joined.token });
  await c.until("joined");
  let room = await c.until("room");
  const you = { name: "Ann", seat: 1, host: true, waits_left: 2 };
  check(same(room.you, you), `resumed: ${show(room.you)}`);
  let g = await c.until("game");
  if (g.state.actions === 0) check(same(g.you.hand, hand), "the same hand after resuming");
  // another connection with the same token takes over; the first is told
  // (then closed with 1000 replaced); the new one, naming the last seq the
  // first saw, gets what it missed
  const d = await Client.open();
  const seen = c.seq;
  await d.send({ type: "resume", room: joined.room, token: joined.token, seq: seen });
  await d.until("joined");
  let f = await c.until("error");
  check(f.error === "replaced", `replaced: ${show(f)}`);
  const gone = await expectClose(c.until("no such frame"), "the replaced connection stayed open");
  check(gone.code === 1000 && gone.reason === "replaced",
        `replaced: closed with ${gone.code} ${gone.reason}`);
  f = await d.until("catchup", "game");
  check(f.type === "catchup" && f.from === seen, `catchup: ${show(f)}`);
  check(f.events.every((e) => e.n > g.state.actions), `missed: ${show(f.events)}`);
  // leaving mid-game: a bot keeps the seat, and someone else may take it
  const e = await Client.open();
  await e.send({ type: "join", room: joined.room, name: "Eve" });
  await e.until("joined");
  await e.until("game");
  await e.error({ type: "sit", seat: 1 }, "seat_taken");
  await d.send({ type: "leave" });
  await d.until("left");
  room = await e.until("room");
  check(room.seats[0].kind === "bot" && room.you.host === true, `left: ${show(room)}`);
  // a seat its player left is the host's to give: another spectator is refused
  const x = await Client.open();
  await x.send({ type: "join", room: joined.room, name: "Cy" });
  await x.until("joined");
  await x.error({ type: "sit", seat: 1 }, "host_gives");
  await x.send({ type: "leave" });
  await x.until("left");
  await x.close();
  await e.send({ type: "sit", seat: 1 });
  do room = await e.until("room"); while (room.you.seat === null); // past Cy's come and go
  check(room.you.seat === 1 && room.seats[0].name === "Eve", `sat: ${show(room)}`);
  g = await e.until("game");
  check(g.you.seat === 1, "the game frame of the new player");
  // the last member leaving closes the room
  await e.send({ type: "leave" });
  await e.until("left");
  await e.error({ type: "join", room: joined.room, name: "Eve" }, "no_room");
  await e.close();
  await d.close();
}

// Over real sockets: a player gone (grace 0) is stood in for by the basic
// bot and takes the seat back on resuming; a timed turn (10 s, the least)
// runs out to the basic bot, marked.
async function standIn() {
  const [h, joined] = await create({ players: 4, pace_ms: 0, turn_ms: 10000, grace_ms: 0 });
  const code = joined.room;
  let b = await Client.open();
  await b.send({ type: "join", room: code, name: "Bo", seat: 2 });
  const bo = await b.until("joined");
  await h.send({ type: "fill" });
  await h.until("room");
  await h.send({ type: "start" });
  const game = await h.until("game");
  check(game.clock.turn_ms === 10000 && game.state.turn === 1, `game: ${show(game)}`);
  await b.close();
  let room = await h.until("room");
  while (room.seats[1].away !== true) room = await h.until("room");
  check(room.seats[1].connected === false, `away: ${show(room.seats[1])}`);
  // Ann does not act: after 10 s the basic bot moves for her
  let f;
  for (;;) { // read directly: up to 10 s pass without a frame
    f = JSON.parse(await h.conn.recv(15000));
    if (f.type === "event" && f.event.seat === 1) break;
  }
  check(f.bot === true && f.event.stand_in === "timeout", `timeout: ${show(f)}`);
  b = await Client.open();
  await b.send({ type: "resume", room: code, token: bo.token });
  room = await b.until("room");
  check(room.seats[1].connected === true && room.seats[1].away === false,
        `back: ${show(room)}`);
  await b.close();
  await h.close();
}

// The lobby lists public rooms, not private ones, and only those someone
// is connected to: a room whose members have all gone is not offered.
async function lobby() {
  const [h, joined] = await create({ name: "Pub", public: true });
  const [p, joined2] = await create({ name: "Priv" });
  const c = await Client.open();
  const codes = async () => {
    await c.send({ type: "lobby" });
    return (await c.until("lobby")).rooms.map((r) => r.code);
  };
  let listed = await codes();
  check(listed.includes(joined.room) && !listed.includes(joined2.room), `lobby: ${show(listed)}`);
  await h.close();
  await sleep(100); // the server sees the close
  listed = await codes();
  check(!listed.includes(joined.room), `a room nobody is connected to: ${show(listed)}`);
  for (const x of [p, c]) await x.close();
}

// The table, made for players: the welcome carries the rules' words (every
// preset with its values, every option with its title and a sentence per
// value); a bot steps aside for a member before a game; a spectator asks
// the host for a seat and is given one; the host keeps the role through a
// reload. Everyone leaves at the end (the room closes: rooms per address
// are limited).
async function table() {
  // the room frame c reads first for which WANT holds (earlier ones are
  // of changes before the one awaited)
  const roomWhere = async (c, want) => {
    let room = await c.until("room");
    while (!want(room)) room = await c.until("room");
    return room;
  };
  const [h, joined, room0] = await create({ players: 4, pace_ms: 0, grace_ms: 5000 });
  const rules = h.frames[0].rules;
  const classic = rules.presets.find((p) => p.name === "classic");
  check(classic && classic.text.length > 0 && classic.options.players === "6" &&
        classic.options.deck === "no8" && classic.options.misclaim === "cancel",
        `the classic preset: ${show(classic)}`);
  check(same(rules.presets.map((p) => p.name),
             ["classic", "club", "encyclopedia", "jokers", "quartets", "india"]),
        `presets: ${show(rules.presets.map((p) => p.name))}`);
  check(same(rules.options.map((o) => o.key), Object.keys(room0.options)),
        `options: ${show(rules.options.map((o) => o.key))}`);
  for (const o of rules.options)
    check(o.title.length > 0 && o.values.length >= 2 &&
          o.values.every((v) => v.name.length > 0 && v.text.endsWith(".")),
          `option words: ${show(o)}`);
  const misclaim = rules.options.find((o) => o.key === "misclaim");
  check(misclaim.title === "A wrong claim" &&
        misclaim.values[0].text.includes("when an opponent held one, the opponents score it"),
        `misclaim: ${show(misclaim)}`);
  check(same(room0.host, { name: "Ann", seat: 1, connected: true }) && same(room0.waiting, []),
        `host and waiting: ${show(room0)}`);
  await h.send({ type: "fill" });
  await h.until("room");
  // a spectator asks for a seat; the host gives it: the bot steps aside
  const s = await Client.open();
  await s.send({ type: "join", room: joined.room, name: "Cy" });
  await s.until("room");
  await s.error({ type: "give", seat: 2, name: "Cy" }, "not_host");
  await h.error({ type: "give", seat: 2, name: "Cy" }, "no_request");
  await s.send({ type: "request" });
  let room = await roomWhere(h, (r) => r.waiting.length > 0);
  check(same(room.waiting, ["Cy"]), `waiting: ${show(room.waiting)}`);
  await h.error({ type: "give", seat: 1, name: "Cy" }, "seat_taken");
  await h.send({ type: "give", seat: 2, name: "Cy" });
  room = await roomWhere(s, (r) => r.you.seat !== null);
  check(room.you.seat === 2 && room.seats[1].name === "Cy" && same(room.waiting, []),
        `given: ${show(room)}`);
  await s.error({ type: "request" }, "already_seated");
  // a seated member moves to a bot's seat: its own is empty
  await s.send({ type: "sit", seat: 3 });
  room = await roomWhere(s, (r) => r.you.seat === 3);
  check(room.seats[2].name === "Cy" && room.seats[1].kind === "empty", `moved: ${show(room)}`);
  // the host reloads: still host
  await h.close();
  room = await roomWhere(s, (r) => !r.host.connected);
  check(same(room.host, { name: "Ann", seat: 1, connected: false }) && !room.you.host,
        `the host gone: ${show(room)}`);
  const back = await Client.open();
  await back.send({ type: "resume", room: joined.room, token: joined.token });
  room = await back.until("room");
  check(room.you.host && same(room.host, { name: "Ann", seat: 1, connected: true }),
        `the host back: ${show(room)}`);
  for (const x of [s, back]) {
    await x.send({ type: "leave" });
    await x.until("left");
    await x.close();
  }
}

// A connection the server refuses at once: the error NAME, then 1008 NAME.
async function refused(headers, name) {
  const conn = await Conn.open(url(), { headers });
  const f = JSON.parse(await conn.recv());
  check(f.type === "error" && f.error === name, `refused: ${show(f)}, want ${name}`);
  const e = await expectClose(conn.recv(), "the refused connection stayed open");
  check(e.code === 1008 && e.reason === name, `closed with ${e.code} ${e.reason}`);
}

// Against a server run with --proxy 127.0.0.1 --max-per-address 2
// --max-rooms-per-address 1 --max-rate 5 (cli_serve.sh): connections and
// rooms counted by the last X-Forwarded-For entry (an entry the client put
// before it does not count), a room nobody is connected to not counted, and
// a flood refused, then closed.
async function limits() {
  const xff = { "X-Forwarded-For": "10.9.8.7" };
  const a = await Client.open({ headers: xff });
  const b = await Client.open({ headers: xff });
  // the proxy's last entry counts, not what the client put before it
  await refused({ "X-Forwarded-For": "10.9.8.6, 10.9.8.7" }, "too_many_connections");
  // ... however long the client's part (a review found one over 256 bytes
  // counted as the proxy's own address, the bucket of everyone behind it)
  await refused({ "X-Forwarded-For": "1.1.1.1, ".repeat(40) + "10.9.8.7" }, "too_many_connections");
  const c = await Client.open({ headers: { "X-Forwarded-For": "1.2.3.4, 10.9.8.6" } });
  // one room open from an address
  await a.send({ type: "create", name: "Ann" });
  await a.until("room");
  await b.error({ type: "create", name: "Bo" }, "too_many_own_rooms");
  // Ann closes her tab: her room waits for her, and counts no more (issue
  // 27), so Bo makes one at once (once the server has seen the close)
  await a.close();
  let made = null;
  for (let i = 0; i < 100 && !made; i++) {
    await b.send({ type: "create", name: "Bo" });
    const f = await b.until("room", "error");
    if (f.type === "room") made = f;
    else {
      check(f.error === "too_many_own_rooms", `Bo's room: ${show(f)}`);
      await sleep(50);
    }
  }
  check(made, "Ann's room, nobody in it, still counts");
  const a2 = await Client.open({ headers: xff });
  await a2.error({ type: "create", name: "Ann" }, "too_many_own_rooms"); // Bo is in his
  await a2.close();
  // a flood: 40 at once, 5 a second after: the rest refused
  for (let i = 0; i < 45; i++) await c.send({ type: "lobby" });
  const answers = [];
  for (let i = 0; i < 45; i++) {
    const f = await c.next();
    answers.push("error" in f ? f.error : "lobby");
  }
  const lobbies = answers.filter((x) => x === "lobby").length;
  check(lobbies >= 40 && lobbies <= 42 && answers.at(-1) === "too_many_messages",
        `a flood: ${show(answers)}`);
  // refused ones in a row close the connection (one at a time, so that
  // the close does not meet messages still coming, which would reset it)
  const flood = async () => {
    for (let i = 0; i < 60; i++) {
      await c.send({ type: "lobby" });
      await c.next();
    }
  };
  const e = await expectClose(flood(), "a flood was not closed");
  check(e.code === 1008 && e.reason === "too_many_messages",
        `a flood closed with ${e.code} ${e.reason}`);
  await b.close();
}

// The SIGTERM client of cli_serve.sh: watches eight expert bots play (so
// the server's worker is busy when the signal comes), says "in a room" on
// standard error once the first has moved, then reads until the server
// closes the connection and prints the last frame's type and the close code
// ("closing 1001"; a close reason other than "closing" is printed after
// them).
async function closing() {
  const conn = await Conn.open(url());
  await conn.recv();
  const msgs = [{ type: "create", name: "Ann", players: 8, bots: "expert", pace_ms: 0 },
                { type: "stand" }, { type: "fill" }, { type: "start" }];
  for (const m of msgs) await conn.send(m);
  const frames = [];
  for (;;) {
    frames.push(JSON.parse(await conn.recv()));
    check(frames.at(-1).type !== "error", `${show(frames.at(-1))}`);
    if (frames.at(-1).type === "event") break;
  }
  process.stderr.write("in a room\n");
  await untilClosed(conn, frames, 15000);
}

// Reads frames (kept in FRAMES) until the server closes the connection;
// prints the last frame's type and the close code, and the reason when it
// is not "closing". A wait for a frame longer than MS fails.
async function untilClosed(conn, frames, ms) {
  let e;
  try {
    for (;;) frames.push(JSON.parse(await conn.recv(ms)));
  } catch (x) {
    if (!(x instanceof Closed)) throw x;
    e = x;
  }
  const why = e.reason === "closing" ? "" : ` (reason ${show(e.reason)})`;
  console.log(`${frames.at(-1).type} ${e.code}${why}`);
}

// The smoke run of cli_valgrind.sh, against a server under valgrind with a
// store (--db): a 4-player game of a person and expert bots of one rollout
// (their decisions made on the server's worker thread), watched by a
// spectator who joined before the deal. After ten actions, an aid and two
// refused messages, the person's connection is cut with no close frame and
// its seat resumed on a new one from the last seq it saw: a catchup from
// that seq whose events follow on from the last it had. Played to the end:
// the spectator saw every event, numbered 1..n, the same as the person; the
// record is served over HTTP, and the page too. Then, with both still in
// the room, says "in a room" on standard error and reads until the server
// closes (SIGTERM), printing as closing() does.
async function smoke() {
  check((await httpGet(port, "/")).status === 200, "GET /");
  const [h, joined] = await create({ players: 4, bots: "expert:1", pace_ms: 0 });
  const s = await Client.open();
  await s.send({ type: "join", room: joined.room, name: "Sy" });
  await s.until("joined");
  await h.send({ type: "fill" });
  await h.until("room");
  await h.send({ type: "start" });
  const ids = { n: 0 };
  let frame = await playToEnd(h, await h.until("game"), ids, (f) => f.state.actions >= 10);
  check(!("result" in frame), `the game ended within ten actions: ${show(frame.state)}`);
  await h.send({ type: "aid" });
  await h.until("aid");
  await h.error("{", "not_json");
  await h.error({ type: "nope" }, "unknown_type");
  // the aid and the errors' answers may have passed over events
  const seen = h.seq, had = numberedEvents(h).at(-1).event.n;
  h.conn.ws.terminate();
  const r = await Client.open();
  await r.send({ type: "resume", room: joined.room, token: joined.token, seq: seen });
  await r.until("joined");
  frame = await r.until("catchup", "game");
  check(frame.type === "catchup" && frame.from === seen, `catchup: ${show(frame)}`);
  check(same(frame.events.map((e) => e.n), frame.events.map((_, i) => had + 1 + i)),
        `caught up from event ${had}: ${show(frame.events.map((e) => e.n))}`);
  const caught = frame.events;
  const last = await playToEnd(r, frame, ids);
  let f = await s.until("event");
  while (!("result" in f)) f = await s.until("event");
  const lines = numberedEvents(s).map((e) => e.event.line);
  const person = [...numberedEvents(h), ...caught.map((e) => ({ event: e })),
                  ...r.frames.filter((e) => e.type === "event")].map((e) => e.event.line);
  check(lines.length === last.state.actions && same(lines, person),
        `the spectator saw ${show(lines)}, the person ${show(person)}`);
  const record = await httpGet(port, last.record);
  check(record.status === 200 && record.body.includes(`[Event "Online game 1"]`),
        `the record: ${record.status} ${record.body.slice(0, 200)}`);
  process.stderr.write("in a room\n");
  await untilClosed(s.conn, s.frames, 60000);
}

// A finished game in review (issue 25, docs/PROTOCOL.md "Finished games"),
// against a server with a store (--db; LIT names the lit binary). A game
// being played is private: its id is unfinished to replay, sheet and
// review. Four basic bots play a game to its end, watched by their host;
// then clients in no room (one a heavy message or two: each counts ten
// against the rate) get its replay (every step's event the room's, the
// last state the room's, every hand its size), the scoresheet of seat 2
// halfway (the object `lit infer --seat 2 --after K --samples 4000 --json`
// gives on the record from /games/ID.lit) and seat 2's review (the object
// `lit review --seat 2 --json` gives: the server's budget and seed are the
// command's defaults), a second time at once, and every refusal by name.
async function review() {
  const lit = process.env.LIT;
  check(lit, "LIT must name the lit binary");
  const ask = async (msg, type) => {
    const c = await Client.open();
    await c.send(msg);
    const f = await c.until(type, "error");
    await c.close();
    check(f.type === type, `${show(msg)}: ${show(f)}`);
    return f;
  };
  const refused = async (msg, name) => {
    const c = await Client.open();
    await c.error(msg, name);
    await c.close();
  };
  // a game being played (its seat 1 never acts): private
  const [p] = await create({ players: 4 });
  await p.send({ type: "fill" });
  await p.until("room");
  await p.send({ type: "start" });
  const live = (await p.until("game")).id;
  await refused({ type: "replay", game: live }, "unfinished");
  await refused({ type: "sheet", game: live, seat: 1, after: 0 }, "unfinished");
  await refused({ type: "review", game: live, seat: 1 }, "unfinished");
  // a game of bots to its end
  const [h] = await create({ players: 4, pace_ms: 0 });
  await h.send({ type: "stand" });
  await h.until("room");
  await h.send({ type: "fill" });
  await h.until("room");
  await h.send({ type: "start" });
  const id = (await h.until("game")).id;
  let last = await h.until("event");
  while (!("result" in last)) last = await h.until("event");
  const events = numberedEvents(h), n = events.length;
  const replay = await ask({ type: "replay", game: id }, "replay");
  check(replay.game === id && replay.players === 4 && replay.result === last.result &&
        replay.steps.length === n + 1 && replay.steps[0].event === null,
        `replay: ${show({ ...replay, steps: replay.steps.length })}`);
  replay.steps.forEach((step, k) => {
    if (k > 0) check(same(step.event, events[k - 1].event),
                     `step ${k}: ${show(step.event)}, the room saw ${show(events[k - 1].event)}`);
    check(same(step.hands.map((x) => x.length), step.state.hand_sizes),
          `step ${k}: hands ${show(step.hands)} for sizes ${show(step.state.hand_sizes)}`);
  });
  check(same(replay.steps[n].state, last.state), `the last step: ${show(replay.steps[n].state)}`);
  // the record, and the command line's figures on it
  const record = await httpGet(port, `/games/${id}.lit`);
  check(record.status === 200, `the record: ${record.status}`);
  const dir = mkdtempSync(join(tmpdir(), "serve-review-"));
  try {
    const file = join(dir, `${id}.lit`);
    writeFileSync(file, record.body);
    const run = (...args) => JSON.parse(execFileSync(lit, args, { encoding: "utf8",
                                                                  maxBuffer: 1 << 26 }));
    const after = Math.floor(n / 2);
    const sheet = await ask({ type: "sheet", game: id, seat: 2, after }, "sheet");
    check(sheet.game === id && sheet.seat === 2 && sheet.after === after, `sheet: ${show(sheet)}`);
    delete sheet.type;
    delete sheet.game;
    const infer = run("infer", file, "--seat", "2", "--after", String(after), "--samples", "4000",
                      "--json");
    check(same(sheet, infer), `sheet ${show(sheet)}, lit infer ${show(infer)}`);
    const c = await Client.open();
    await c.send({ type: "review", game: id, seat: 2 });
    const first = await c.until("review", "error");
    check(first.type === "review" && first.game === id && first.seat === 2,
          `review: ${show(first)}`);
    const cli = run("review", file, "--seat", "2", "--json");
    check(same(first.review, cli), `review ${show(first.review)}, lit review ${show(cli)}`);
    await c.close();
    const again = await ask({ type: "review", game: id, seat: 2 }, "review");
    check(same(again, first), `the review again: ${show(again)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await refused({ type: "replay", game: "K7MQ2X" }, "bad_game");
  await refused({ type: "replay", game: "BBBBBBBBBBBBBBBB" }, "no_game");
  await refused({ type: "replay", game: id, seat: 1 }, "unknown_key");
  await refused({ type: "sheet", game: id, seat: 2, after: n + 1 }, "bad_step");
  await refused({ type: "sheet", game: id, seat: 9, after: 0 }, "bad_seat");
  await refused({ type: "review", game: id, seat: 0 }, "bad_seat");
  await h.close();
  await p.close();
}

// A server without a store keeps no records: a replay, a sheet or a review
// of any id is no_records.
async function records() {
  const c = await Client.open();
  await c.error({ type: "replay", game: "BBBBBBBBBBBBBBBB" }, "no_records");
  await c.error({ type: "sheet", game: "BBBBBBBBBBBBBBBB", seat: 1, after: 0 }, "no_records");
  await c.error({ type: "review", game: "BBBBBBBBBBBBBBBB", seat: 1 }, "no_records");
  await c.close();
}

async function main(args) {
  port = Number(args[0]);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    console.log("usage: serve_client.mjs PORT [SCENARIO...]");
    return 2;
  }
  if (args[1] === "closing" || args[1] === "smoke") {
    try {
      await (args[1] === "closing" ? closing() : smoke());
      return 0;
    } catch (e) {
      console.log(`FAIL ${args[1]}: ${e instanceof Failure ? e.message : e.stack}`);
      return 1;
    }
  }
  const scenarios = {
    healthz,
    classic: () => fullGame("classic", 6),
    "club-8": () => fullGame("club", 8),
    "jokers-4": () => fullGame("jokers", 4),
    errors,
    oversized,
    origin,
    resume: resumeAndLeave,
    lobby,
    table,
    "stand-in": standIn,
    expert,
    records,
    limits, // only against a server with those limits
    review, // only against a server with a store
  };
  const names = args.length > 1 ? args.slice(1)
                                : Object.keys(scenarios).filter((n) => n !== "limits" &&
                                                                      n !== "review");
  for (const name of names) {
    if (!(name in scenarios)) {
      console.log(`FAIL ${name}: no such scenario`);
      return 1;
    }
    const t0 = Date.now();
    try {
      await scenarios[name]();
    } catch (e) {
      // a Failure says what differed; anything else (a frame without a key
      // the scenario reads) is shown with where it happened
      console.log(`FAIL ${name} (after ${Date.now() - t0} ms): ` +
                  `${e instanceof Failure ? e.message : e.stack}`);
      return 1;
    }
    console.log(`ok ${name} (${Date.now() - t0} ms)`);
  }
  if (process.env.LIT_SECRETS)
    writeFileSync(process.env.LIT_SECRETS, [...secrets].join("\n") + "\n");
  return 0;
}

if (import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  process.exit(await main(process.argv.slice(2)));
