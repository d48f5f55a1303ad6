// abuse_client.mjs - limits and abuse of `lit serve` over real sockets
// (docs/RELIABILITY.md, "Limits and abuse"), driven by cli_abuse.sh:
//
//     node tests/integration/abuse_client.mjs PORT PID [SCENARIO...]
//
// against a server with the default limits and --db (PID: the server's, to
// read its memory from /proc). Each scenario is one case of the issue, each
// refusal checked by its exact error name; the clients come from several
// loopback addresses (127.0.0.1 to 127.0.0.9: Linux routes all of 127/8 to
// the loopback), so one scenario's address does not spend another's limits.
// Prints "ok NAME: figures" per scenario; at the first failure prints
// "FAIL NAME: what differed" and exits 1.
import { readFileSync } from "node:fs";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import {
  Client as ServeClient, Closed, Conn, Failure, check, choose, claimFrom, expectClose, httpGet,
  show, sleep, within,
} from "./serve_client.mjs";

const PER_ADDRESS = 32; // --max-per-address's default (docs/PROTOCOL.md, "Limits")
const BURST = 40; // messages at once before --max-rate's 20 a second
const GUESSES = 20; // lookups finding nothing an address may make at once

let port = 0;
let pid = 0;
const url = () => `ws://127.0.0.1:${port}/`;

// The server's resident memory in KiB (VmRSS).
function rss() {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  check(m, "no VmRSS for the server");
  return Number(m[1]);
}

// One protocol client from a loopback address: serve_client's, except that
// it keeps the welcome, reads with a time limit of its own, takes the
// highest seq seen without checking their order, and fails on an error
// frame while it waits for another type.
class Client extends ServeClient {
  static async open(from = "127.0.0.1") {
    const c = new Client(await Conn.open(url(), { localAddress: from }));
    c.hello = await c.next();
    return c;
  }

  async next(ms) {
    const f = JSON.parse(await this.conn.recv(ms));
    if (typeof f.seq === "number" && f.seq > this.seq) this.seq = f.seq;
    return f;
  }

  async until(...types) {
    for (;;) {
      const f = await this.next();
      if (types.includes(f.type)) return f;
      check(f.type !== "error", `${show(f)} while waiting for ${types.join(" or ")}`);
    }
  }
}

// A welcomed client from an address, or a Failure naming what it got.
async function welcomed(from) {
  const c = await Client.open(from);
  check(c.hello.type === "welcome", `from ${from}: ${show(c.hello)}`);
  return c;
}

// The room of a new host from an address: [client, joined].
async function host(from, fields = {}) {
  const c = await welcomed(from);
  await c.send({ type: "create", name: "Ann", ...fields });
  const joined = await c.until("joined");
  await c.until("room");
  return [c, joined];
}

// A random room code (the alphabet of docs/PROTOCOL.md) other than code.
function randomCode(len, code) {
  const alphabet = "BCDFGHJKLMNPQRSTVWXZ23456789";
  for (;;) {
    let s = "";
    for (let i = 0; i < len; i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
    if (s !== code) return s;
  }
}

// Plays seat 1 of c's game against bots to its end: the last frame.
async function playToEnd(c, frame) {
  let n = 0;
  while (!("result" in frame)) {
    const you = frame.you;
    if (you && frame.state.turn === you.seat) {
      let act = choose(you);
      if (act === null) {
        await c.send({ type: "aid" });
        act = claimFrom(you, await c.until("aid"));
      }
      await c.send({ type: "act", seq: c.seq, id: `a${++n}`, ...act });
    }
    frame = await c.until("event", "game");
  }
  return frame;
}

// Opens n WebSockets from an address, batch at a time (at most 8: the
// server closes a ninth handshake from one address still under way,
// docs/PROTOCOL.md "Limits"): the welcomed ones
// (kept open), and how many were refused (each with the error
// too_many_connections, then closed with 1008 too_many_connections).
async function openMany(n, from, batch = 8) {
  const kept = [];
  let refused = 0;
  for (let i = 0; i < n; i += batch) {
    const round = Array.from({ length: Math.min(batch, n - i) }, async () => {
      const conn = await Conn.open(url(), { localAddress: from });
      const f = JSON.parse(await conn.recv());
      if (f.type === "welcome") return conn;
      check(f.error === "too_many_connections", `connection ${i}: ${show(f)}`);
      const e = await expectClose(conn.recv(), "a refused connection stayed open");
      check(e.code === 1008 && e.reason === "too_many_connections",
            `refused: closed with ${e.code} ${e.reason}`);
      return null;
    });
    for (const conn of await Promise.all(round)) {
      if (conn) kept.push(conn);
      else refused++;
    }
  }
  return { kept, refused };
}

// The clients /healthz counts, once it counts want (within the time limit).
async function clientsBecome(want) {
  let clients = -1;
  for (let i = 0; i < 100 && clients !== want; i++) {
    if (i) await sleep(50);
    clients = JSON.parse((await httpGet(port, "/healthz")).body).clients;
  }
  check(clients === want, `/healthz counts ${clients} clients, want ${want}`);
}

// ---- scenarios ---------------------------------------------------------------

// Thousands of connections from one address: beyond --max-per-address each
// is refused by name and closed; a client from another address plays a
// whole game meanwhile; a second wave of refusals leaves the server's
// memory where the first left it; closing the kept ones makes room again.
async function connections() {
  const before = rss();
  const wave1 = await openMany(2000, "127.0.0.1");
  check(wave1.kept.length === PER_ADDRESS && wave1.refused === 2000 - PER_ADDRESS,
        `wave 1: ${wave1.kept.length} kept, ${wave1.refused} refused`);
  const afterOne = rss();
  // another address plays a whole game while the address is full
  const [c] = await host("127.0.0.2", { players: 4, pace_ms: 0 });
  await c.send({ type: "fill" });
  await c.until("room");
  await c.send({ type: "start" });
  const game = await c.until("game");
  const last = await playToEnd(c, game);
  check(["A", "B", "draw"].includes(last.result), `the end: ${show(last.result)}`);
  const rec = await httpGet(port, `/games/${game.id}.lit`);
  check(rec.status === 200 && rec.body.includes('[Event "Online game 1"]'),
        `the finished game's record: ${rec.status} ${rec.body.slice(0, 80)}`);
  await c.close();
  const t2 = performance.now();
  const wave2 = await openMany(2000, "127.0.0.1");
  const refusing = (performance.now() - t2) / 1000;
  check(wave2.kept.length === 0 && wave2.refused === 2000,
        `wave 2: ${wave2.kept.length} kept, ${wave2.refused} refused`);
  const afterTwo = rss();
  // the second wave's refusals cost nothing that stays (a leak of 1 KiB a
  // connection would be 2,000 KiB). Not under ASan: its allocator keeps
  // what is freed in quarantine (up to 256 MiB), so there RSS grows with
  // every free; LeakSanitizer checks the server's exit instead.
  const asan = readFileSync(`/proc/${pid}/maps`, "utf8").includes("libasan");
  check(asan || afterTwo - afterOne < 1024,
        `memory grew by ${afterTwo - afterOne} KiB over 2,000 refused connections`);
  // closing the kept ones frees the address's places
  await Promise.all(wave1.kept.map((conn) => conn.close()));
  await clientsBecome(0);
  const again = await openMany(PER_ADDRESS + 1, "127.0.0.1");
  check(again.kept.length === PER_ADDRESS && again.refused === 1,
        `after closing: ${again.kept.length} kept, ${again.refused} refused`);
  await Promise.all(again.kept.map((conn) => conn.close()));
  return `RSS ${before} KiB, ${afterOne} after 2,000 connections, ${afterTwo} after 4,000` +
         `${asan ? " (ASan: not checked)" : ""}; 2,000 refused in ${refusing.toFixed(2)} s`;
}

// A round trip of a lobby request: its time in ms (the answer must be the
// lobby, never a refusal).
async function lobbyTrip(c) {
  const t = performance.now();
  await c.send({ type: "lobby" });
  const f = await c.next();
  check(f.type === "lobby", `a lobby request answered ${show(f)}`);
  return performance.now() - t;
}

// Flooders: one sends twice the burst at once and is answered exactly (the
// burst, then too_many_messages, then a close with 1008 too_many_messages);
// then for two seconds eight at a time send 5,000 messages each as fast as
// they can, are closed and come back; meanwhile a client of the same
// address and one of another are answered within a second, none refused.
async function flood() {
  const neighbour = await welcomed("127.0.0.3");
  const other = await welcomed("127.0.0.4");
  const calm = [];
  for (let i = 0; i < 10; i++) calm.push(await lobbyTrip(neighbour), await lobbyTrip(other));
  // the exact answer
  const f = await welcomed("127.0.0.3");
  for (let i = 0; i < 2 * BURST; i++) f.send({ type: "lobby" }).catch(() => {});
  const answers = [];
  const e = await expectClose((async () => {
    for (;;) {
      const a = await f.next();
      answers.push(a.type === "error" ? a.error : a.type);
      // a step of the rate may have passed meanwhile: then one at a time
      check(answers.length < 4 * BURST, `not closed after ${answers.length} answers`);
      if (answers.length >= 2 * BURST) await f.send({ type: "lobby" });
    }
  })(), "a flood was not closed");
  const lobbies = answers.filter((x) => x === "lobby").length;
  check(answers.slice(0, BURST).every((x) => x === "lobby"), `the burst: ${show(answers)}`);
  check(answers.slice(BURST).every((x) => x === "too_many_messages" || x === "lobby") &&
        answers.at(-1) === "too_many_messages" && lobbies <= BURST + 3,
        `beyond the burst: ${show(answers)}`);
  check(e.code === 1008 && e.reason === "too_many_messages", `closed with ${e.code} ${e.reason}`);
  // heavy floods for two seconds, from a thread of their own (the floods'
  // sending must not hold up the clients timed here): eight connections of
  // the address at a time, each sending 5,000 messages at once; each is
  // closed (with 1008, or reset: it is still sending) and opens again
  const flooders = new Worker(new URL(import.meta.url), {
    workerData: { port, from: "127.0.0.3", n: 8, ms: 2000 },
  });
  const flooded = new Promise((resolve, reject) => {
    flooders.once("message", resolve);
    flooders.once("error", reject);
  });
  await new Promise((resolve) => flooders.once("online", resolve));
  await sleep(100); // the first floods are under way
  const busy = [];
  const t = performance.now();
  while (performance.now() - t < 1800) { // ten a second each: the rate allows it
    busy.push(await lobbyTrip(neighbour), await lobbyTrip(other));
    await sleep(100);
  }
  const { floods, error } = await within(flooded, 30000, "the heavy floods' ends");
  check(!error, `a heavy flood: ${error}`);
  const max = (xs) => Math.max(...xs).toFixed(1);
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1].toFixed(1);
  check(Math.max(...busy) < 1000, `round trips during the floods: ${busy.map(Math.round)}`);
  await neighbour.close();
  await other.close();
  return `${lobbies} lobby answers, ${answers.length - lobbies} too_many_messages; ` +
         `round trip median ${median(calm)} ms (max ${max(calm)}) calm, ` +
         `${median(busy)} ms (max ${max(busy)}, ` +
         `${busy.length} trips) during ${floods} floods of 5,000 messages`;
}

// Guessing room codes and tokens: an address's lookups that find nothing
// are answered no_room or bad_token GUESSES times, then too_many_guesses,
// a right code too, on a new connection too; another address joins. Game
// ids are not guessed: a random one is 404, a game being played 409.
async function guesses() {
  const [h, joined] = await host("127.0.0.5", { players: 4, pace_ms: 10000 });
  const code = joined.room;
  let g = await welcomed("127.0.0.6");
  for (let i = 0; i < GUESSES; i++) {
    const k = i % 4;
    const msg = k === 0 ? { type: "join", room: randomCode(6, code), name: "Eve" }
      : k === 1 ? { type: "join", room: randomCode(6, code), name: "Eve", seat: 2 }
      : k === 2 ? { type: "resume", room: randomCode(6, code), token: joined.token }
      : { type: "resume", room: code, token: "0".repeat(32) };
    await g.error(msg, k === 3 ? "bad_token" : "no_room");
  }
  await g.error({ type: "join", room: code, name: "Eve" }, "too_many_guesses");
  await g.error({ type: "resume", room: code, token: joined.token }, "too_many_guesses");
  await g.close();
  g = await welcomed("127.0.0.6");
  await g.error({ type: "join", room: code, name: "Eve" }, "too_many_guesses");
  await g.close();
  const bo = await welcomed("127.0.0.7");
  await bo.send({ type: "join", room: code, name: "Bo" });
  check((await bo.until("joined")).room === code, "another address joins");
  // the host was not replaced by the guesser's resume with its token
  await h.send({ type: "fill" });
  await h.until("room");
  await h.send({ type: "start" });
  const game = await h.until("game");
  const id = randomCode(16, game.id);
  for (const [path, status] of [[`/games/${id}.lit`, 404], [`/games/${game.id}.lit`, 409]]) {
    const r = await httpGet(port, path);
    check(r.status === status, `GET ${path}: ${r.status}, want ${status}`);
  }
  await bo.close();
  await h.close();
  return `${GUESSES} guesses, then too_many_guesses`;
}

// Acting for a seat that is not one's own, and a seat taken over: a
// stranger (not_in_room), a spectator (not_seated), a player naming another
// seat (the act has no seat: bad_message) or acting out of turn
// (not_your_turn); a player who left, whose seat another member took:
// its old token is bad_token, and the new holder plays on; kicked, the new
// holder's token and connection act no more.
async function takeover() {
  const [ann, joined] = await host("127.0.0.8", { players: 4, pace_ms: 10000 });
  const code = joined.room;
  const bo = await welcomed("127.0.0.8");
  await bo.send({ type: "join", room: code, name: "Bo", seat: 2 });
  const boJoined = await bo.until("joined");
  await ann.send({ type: "fill" });
  await ann.until("room");
  await ann.send({ type: "start" });
  const game = await ann.until("game");
  await bo.until("game");
  const ask = { action: "ask", card: game.you.asks[0].card, target: 2 };
  const stranger = await welcomed("127.0.0.9");
  await stranger.error({ type: "act", seq: game.seq, id: "x1", ...ask }, "not_in_room");
  const cy = await welcomed("127.0.0.9");
  await cy.send({ type: "join", room: code, name: "Cy" });
  const cyJoined = await cy.until("joined");
  await cy.until("game");
  await cy.error({ type: "act", seq: cy.seq, id: "c1", ...ask }, "not_seated");
  const f = await bo.error({ type: "act", seq: bo.seq, id: "b1", seat: 1, ...ask },
                           "bad_message");
  check(f.text === 'unknown key "seat" in ask', `naming a seat: ${show(f)}`);
  await bo.error({ type: "act", seq: bo.seq, id: "b2", ...ask, target: 1 }, "not_your_turn");
  // Bo leaves mid-game (a bot keeps seat 2): Cy may not take it by
  // itself (issue 27: an opponent's second tab would see that hand), only
  // as the host gives it
  await bo.send({ type: "leave" });
  await bo.until("left");
  await cy.error({ type: "sit", seat: 2 }, "host_gives");
  await cy.send({ type: "request" });
  // the host gives the seat once it sees the request (two connections: no
  // order between them but what the host is told)
  for (;;) {
    const r = await ann.until("room");
    if (r.waiting.includes("Cy")) break;
  }
  await ann.send({ type: "give", seat: 2, name: "Cy" });
  check((await cy.until("game")).you.seat === 2, "Cy's seat");
  const old = { type: "resume", room: code, token: boJoined.token };
  await bo.error(old, "bad_token");
  const bo2 = await welcomed("127.0.0.8");
  await bo2.error(old, "bad_token");
  // Cy is untouched: still seated, and no frame came to it meanwhile
  await cy.send({ type: "aid" });
  const aid = await cy.next();
  check(aid.type === "aid", `Cy after Bo's old token: ${show(aid)}`);
  // kicked: Cy's token and connection act no more
  await ann.send({ type: "kick", seat: 2 });
  await cy.until("kicked");
  await cy.error({ type: "act", seq: cy.seq, id: "c2", action: "pass", target: 1 },
                 "not_in_room");
  await cy.error({ type: "resume", room: code, token: cyJoined.token }, "bad_token");
  for (const x of [ann, bo, bo2, cy, stranger]) await x.close();
  return "each refused by name";
}

// One token on two connections at once: the resume read last takes the
// membership, the other connection is sent replaced and closed with 1000;
// the winner plays.
async function twice() {
  const [ann, joined] = await host("127.0.0.8", { players: 4, pace_ms: 0 });
  await ann.close();
  const a = await welcomed("127.0.0.8");
  const b = await welcomed("127.0.0.8");
  const resume = { type: "resume", room: joined.room, token: joined.token };
  await Promise.all([a.send(resume), b.send(resume)]);
  // each connection's frames until it closes or a second passes without one
  const ends = await Promise.all([a, b].map(async (c) => {
    const frames = [];
    try {
      for (;;) frames.push(await c.next(1000));
    } catch (e) {
      if (e instanceof Closed) return { c, frames, closed: e };
      if (e instanceof Failure) return { c, frames }; // nothing more: open
      throw e;
    }
  }));
  const lost = ends.filter((x) => x.closed);
  check(lost.length === 1, `one replaced: ${show(ends.map((x) => x.frames.map((f) => f.type)))}`);
  const l = lost[0];
  check(l.frames.at(-1).type === "error" && l.frames.at(-1).error === "replaced" &&
        l.closed.code === 1000 && l.closed.reason === "replaced",
        `the replaced one: ${show(l.frames)} ${l.closed.code} ${l.closed.reason}`);
  const w = ends.find((x) => !x.closed).c;
  await w.send({ type: "fill" });
  await w.until("room");
  await w.send({ type: "start" });
  await w.until("game");
  await w.send({ type: "leave" });
  await w.until("left");
  await w.close();
  return "the later resume kept the seat";
}

// Churn (issue 27): rooms of bots only, restarted as each game ends, from
// two addresses at once, as a script filling the store would. Each address
// starts HUB_BOT_GAMES (10) such games, then is refused by name; a game
// with a member seated is not held back.
async function churn() {
  const BOT_GAMES = 10;
  const one = async (from) => {
    const [c] = await host(from, { players: 4, pace_ms: 0 });
    await c.send({ type: "stand" });
    await c.until("room");
    await c.send({ type: "fill" });
    await c.until("room");
    for (let g = 0; g < BOT_GAMES; g++) {
      await c.send({ type: "start" });
      let f = await c.until("game");
      while (!("result" in f)) f = await c.until("event");
    }
    await c.error({ type: "start" }, "too_many_bot_games");
    await c.send({ type: "sit", seat: 1 });
    await c.until("room");
    await c.send({ type: "start" });
    const game = await c.until("game");
    check(game.you.seat === 1, `a seated member's game: ${show(game.you)}`);
    await c.close();
  };
  await Promise.all([one("127.0.0.10"), one("127.0.0.11")]);
  return `${BOT_GAMES} bots-only games an address, then too_many_bot_games`;
}

// The flooders' thread (workerData: port, from, n, ms): n connections at a
// time from the address, each sending 5,000 messages at once until it is
// closed, then again, for ms; posts {floods, error}.
async function flooders({ from, n, ms }) {
  const msg = JSON.stringify({ type: "lobby" });
  const end = performance.now() + ms;
  let floods = 0;
  const one = async () => {
    while (performance.now() < end) {
      const h = await welcomed(from);
      for (let i = 0; i < 5000 && h.conn.ws.readyState === 1; i++) h.conn.ws.send(msg);
      const x = await expectClose((async () => {
        for (;;) await h.next(20000);
      })(), "a heavy flood was not closed");
      check(x.code === 1008 || x.code === 1006, `closed with ${x.code} ${x.reason}`);
      floods++;
    }
  };
  try {
    await Promise.all(Array.from({ length: n }, one));
    parentPort.postMessage({ floods });
  } catch (e) {
    parentPort.postMessage({ floods, error: e instanceof Failure ? e.message : e.stack });
  }
}

async function main(args) {
  port = Number(args[0]);
  pid = Number(args[1]);
  if (!Number.isInteger(port) || port <= 0 || port > 65535 || !Number.isInteger(pid)) {
    console.log("usage: abuse_client.mjs PORT PID [SCENARIO...]");
    return 2;
  }
  const scenarios = { connections, flood, guesses, takeover, twice, churn };
  const names = args.length > 2 ? args.slice(2) : Object.keys(scenarios);
  for (const name of names) {
    if (!(name in scenarios)) {
      console.log(`FAIL ${name}: no such scenario`);
      return 1;
    }
    const t = performance.now();
    try {
      const said = await scenarios[name]();
      console.log(`ok ${name} (${((performance.now() - t) / 1000).toFixed(1)} s): ${said}`);
    } catch (e) {
      console.log(`FAIL ${name}: ${e instanceof Failure ? e.message : e.stack}`);
      return 1;
    }
  }
  return 0;
}

if (isMainThread) {
  process.exit(await main(process.argv.slice(2)));
} else {
  port = workerData.port;
  await flooders(workerData);
}
