// restart_client.mjs - kill -9 `lit serve --db` at random moments of a game
// and check that nothing any client was sent is lost (docs/PROTOCOL.md,
// "Restarts and records"). Driven by cli_restart.sh:
//
//     node tests/integration/restart_client.mjs LIT DB KILLS SEED
//
// Runs the server itself (so it can kill and start it again; its standard
// error goes to DB.log), plays seat 1 of six-player classic games against
// bots (another game as long as kills are left), and after each kill and
// restart: resumes the seat with its token, checks the game it is sent holds
// every event it received before the kill, each the same, and sends again an
// action it got no answer to (a repeat must be answered as one). After the
// last kill it plays to the end, and checks the record served at
// /games/ID.lit of every game is the game it saw. Prints one line per kill
// and "ok: N games, N actions, N by seat 1"; at the first difference prints
// "FAIL: what differed" and exits 1. SEED repeats the random choices (how
// many events before each kill, how long after), not the server's timing.
import { spawn } from "node:child_process";
import fs from "node:fs";
import {
  Conn, Failure, TIMEOUT, check, choose, claimFrom, httpGet, same, show, sleep, within,
} from "./serve_client.mjs";

const [LIT, DB] = process.argv.slice(2, 4);
const KILLS = Number(process.argv[4]);
const SEED = Number(process.argv[5]);
if (process.argv.length !== 6 || !Number.isSafeInteger(KILLS) || KILLS < 0 ||
    !Number.isSafeInteger(SEED) || SEED < 0) {
  console.log("usage: restart_client.mjs LIT DB KILLS SEED");
  process.exit(2);
}

// A seeded generator of numbers in [0, 1) (mulberry32; the seed's bits
// above 32 folded in).
function random(seed) {
  let a = (seed % 2 ** 32 ^ Math.imul(Math.floor(seed / 2 ** 32), 0x9e3779b1)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// Starts the server on any free port: {proc, port, exited}.
async function start() {
  const log = fs.openSync(`${DB}.log`, "a");
  const proc = spawn(LIT, ["serve", "--port", "0", "--db", DB], {
    stdio: ["ignore", "pipe", log],
  });
  fs.closeSync(log);
  const exited = new Promise((resolve) =>
    proc.once("exit", (code, signal) => resolve(code ?? signal)));
  let out = "";
  proc.stdout.setEncoding("utf8");
  const said = new Promise((resolve, reject) => {
    proc.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n") + 1));
    });
    proc.once("error", reject);
    exited.then((how) => reject(new Failure(`the server ended (${how}), saying ${show(out)}`)));
  });
  try {
    const line = await within(said, TIMEOUT, "the server saying where it listens");
    check(line.startsWith("serving on http://127.0.0.1:"), `server said: ${show(line)}`);
    return { proc, port: Number(line.trim().replace(/\/$/, "").split(":").pop()), exited };
  } catch (e) {
    proc.kill("SIGKILL"); // no server left running on DB
    throw e;
  }
}

// Sends SIGNAL to the server and waits for it to end: how it ended (an exit
// status or the signal's name).
async function stop(server, signal) {
  server.proc.kill(signal);
  return within(server.exited, TIMEOUT, `the server ending on ${signal}`);
}

// Seat 1's client, across connections.
class Seat {
  constructor() {
    this.events = new Map(); // n -> event, every event of this game received
    this.seq = 0;
    this.frame = null; // the last game or event frame
    this.pending = null; // an act sent and not answered
    this.wait = 0; // the seq of the event of the last act answered
    this.ids = 0;
    this.gameNo = 0;
    this.gameId = null;
    this.done = []; // {id, events, result, record} of each game that ended
  }

  take(f) {
    const t = f.type;
    if (t === "game" && f.game !== this.gameNo) {
      check(!this.gameNo || "result" in this.frame, "a game left unfinished");
      this.gameNo = f.game;
      this.gameId = f.id;
      this.events = new Map();
    }
    if (t === "event") {
      const e = f.event;
      if (this.events.has(e.n))
        check(same(this.events.get(e.n), e), `event ${e.n} changed: ${show(e)}`);
      this.events.set(e.n, e);
    }
    if (t === "game") for (const e of f.history) this.events.set(e.n, e);
    if (t === "event" || t === "game") {
      this.frame = f;
      if ("result" in f && (this.done.length === 0 || this.done.at(-1).id !== this.gameId))
        this.done.push({ id: this.gameId, events: new Map(this.events), result: f.result,
                         record: f.record });
    }
    if (t === "room" || t === "event" || t === "game") this.seq = f.seq;
    if (t === "ack" || (t === "error" && f.id)) {
      check(t === "ack", `an action refused: ${show(f)}`);
      this.pending = null;
      this.wait = f.seq;
    }
  }
}

const recv = async (conn) => JSON.parse(await conn.recv());

// Acts when seat 1 is on turn and has nothing unanswered.
async function act(conn, seat) {
  const f = seat.frame;
  const you = f && f.you;
  if (seat.pending || seat.seq < seat.wait || !you || "result" in f || f.state.turn !== 1)
    return;
  let a = choose(you);
  if (a === null) {
    await conn.send({ type: "aid" });
    let aid;
    do {
      aid = await recv(conn);
      seat.take(aid);
    } while (aid.type !== "aid");
    a = claimFrom(you, aid);
  }
  seat.ids += 1;
  seat.pending = { type: "act", id: `a${seat.ids}`, ...a };
  await conn.send({ ...seat.pending, seq: seat.seq });
}

// Resumes (or creates) and plays until eventsBeforeKill more events, starting
// another game when one ends (null: to the end of the game); closes the
// connection. Returns [room, token].
async function play(port, seat, room, token, eventsBeforeKill, rng) {
  const conn = await Conn.open(`ws://127.0.0.1:${port}/`);
  try {
    const r = await playOn(conn, seat, room, token, eventsBeforeKill, rng);
    await conn.close();
    return r;
  } catch (e) {
    conn.ws.terminate();
    throw e;
  }
}

async function playOn(conn, seat, room, token, eventsBeforeKill, rng) {
  check((await recv(conn)).type === "welcome", "welcome");
  if (room === null) {
    await conn.send({ type: "create", name: "Ann", pace_ms: 20 });
    const joined = await recv(conn);
    check(joined.type === "joined", `joined: ${show(joined)}`);
    [room, token] = [joined.room, joined.token];
    seat.take(await recv(conn));
    await conn.send({ type: "fill" });
    seat.take(await recv(conn));
    await conn.send({ type: "start" });
  } else {
    let known = new Map(seat.events);
    await conn.send({ type: "resume", room, token });
    check((await recv(conn)).type === "joined", "joined");
    const roomFrame = await recv(conn);
    check(roomFrame.type === "room" && roomFrame.saved === true,
          `room after restart: ${show(roomFrame)}`);
    seat.take(roomFrame);
    const game = await recv(conn);
    check(game.type === "game", `a game frame: ${game.type}`);
    const history = new Map(game.history.map((e) => [e.n, e]));
    if (game.game !== seat.gameNo) { // the next game began before the kill
      check(game.game === seat.gameNo + 1 && "result" in seat.frame,
            `game ${game.game} after game ${seat.gameNo}`);
      known = new Map();
    }
    for (const [n, e] of known) {
      const now = history.get(n);
      check(same(now, e),
            `event ${n} lost or changed by the restart: ${show(e)} became ${show(now)}`);
    }
    seat.take(game);
    if (seat.pending) // sent, never answered: again, under the same id
      await conn.send({ ...seat.pending, seq: seat.seq });
  }
  let left = eventsBeforeKill;
  for (;;) {
    await act(conn, seat);
    if (seat.frame && "result" in seat.frame && seat.seq >= seat.wait) {
      if (left === null) return [room, token];
      await conn.send({ type: "start" });
      seat.wait = seat.seq + 1;
    }
    if (left !== null && left <= 0) {
      await sleep(rng() * 30); // kill mid-whatever
      return [room, token];
    }
    const f = await recv(conn);
    seat.take(f);
    if (f.type === "event" && left !== null) left -= 1;
  }
}

async function main() {
  const rng = random(SEED);
  const seat = new Seat();
  let room = null;
  let token = null;
  let server = await start();
  let failure = null;
  try {
    for (let k = 0; k < KILLS; k++) {
      const events = 1 + Math.floor(rng() * 12); // 1 to 12
      [room, token] = await play(server.port, seat, room, token, events, rng);
      if (k === 0) { // an unfinished game's record is refused
        const r = await httpGet(server.port, `/games/${seat.gameId}.lit`);
        check(r.status === 409 && r.body.startsWith("unfinished"), `${r.status} ${r.body}`);
      }
      await stop(server, "SIGKILL");
      const last = Math.max(0, ...seat.events.keys());
      console.log(`kill ${k + 1} in game ${seat.gameNo} after event ${last}`);
      server = await start();
    }
    [room, token] = await play(server.port, seat, room, token, null, rng);
    check("result" in seat.frame, "the game ended");
    let actions = 0;
    for (const g of seat.done) {
      check(g.record === `/games/${g.id}.lit`, `the record's link: ${g.record}`);
      const r = await httpGet(server.port, g.record);
      check(r.status === 200, `${g.record}: ${r.status} ${r.body}`);
      const lines = r.body.split(/\r\n|\n|\r/).filter((l) => /^[0-9]/.test(l));
      const ns = [...g.events.keys()].sort((x, y) => x - y);
      const seen = ns.map((n) => g.events.get(n).line);
      check(same(ns, ns.map((_, i) => i + 1)), `events 1..n: ${show(ns)}`);
      if (!same(lines, seen)) { // one line: cli_restart.sh shows the last lines printed
        let i = 0;
        while (lines[i] === seen[i]) i++;
        throw new Failure(`the record of ${g.id} is not the game seen: at line ${i + 1} of its ` +
                          `moves the record has ${show(lines[i])}, the client saw ` +
                          `${show(seen[i])} (${lines.length} lines, ${seen.length} seen)`);
      }
      check(r.body.includes(`[Result "${g.result}"]`), "the record's result");
      actions += seen.length;
    }
    console.log(`ok: ${seat.done.length} games, ${actions} actions, ${seat.ids} by seat 1`);
  } catch (e) {
    failure = e;
  }
  // the server is stopped either way; the first failure is the one reported
  const how = await stop(server, "SIGTERM").catch((e) => e);
  if (failure) throw failure;
  if (how instanceof Error) throw how;
  check(how === 0, `the server's exit status after SIGTERM: ${how}`);
}

try {
  await main();
  process.exit(0);
} catch (e) {
  // a Failure says what differed; anything else is shown with where it happened
  console.log(`FAIL: ${e instanceof Failure ? e.message : e.stack}`);
  process.exit(1);
}
