// netfault_client.mjs - `lit serve` out of memory over real sockets: one
// allocation failed per run, everywhere on the network path (cli_netfault.sh):
//
//     node tests/integration/netfault_client.mjs FAULT_SERVE LIT DIR RUNS
//
// FAULT_SERVE is `lit-fault-serve` (tests/support/fault_serve.c): `lit serve`
// that counts the allocations of its layers and libraries (the hub, jansson,
// SQLite, libwebsockets; src/mem/mem.h) from the moment it listens, and
// fails the Nth. A first run without a fault counts them (ALLOCATIONS); then
// one run for each N that RUNS names, each on a new server and a new store in
// DIR. RUNS is a comma-separated list of ranges FROM-TO/STRIDE (TO left out:
// up to ALLOCATIONS; /STRIDE left out: every N) or single N: "1-" is every
// allocation, "1-150/2,151-/283" every other one of the first 150 (where
// the connections are made: most of libwebsockets' allocations) and every
// 283rd after.
//
// The script of a run, every step over loopback: GET / and /healthz; Ann
// creates a four-player room, Bob joins as a spectator and sits at seat 3, Cy
// joins as a spectator and stays one; the host fills the other seats with
// bots and starts; Ann and Bob play to the end (the first legal action, or a
// claim from the aid); Ann closes her connection once mid-game and resumes
// with her last seq; at the end GET /games/ID.lit, and the server stops
// (SIGTERM). Every seed of the server is the same (fault_serve.c), so the
// game is the same in every run.
//
// With a fault, each client must get its normal answers, or an error frame
// server_error (it sends the message again), or its connection closed, with
// 1013 server_error or without a close frame (it connects again and resumes
// with its token, or a spectator joins again), or a refused connection (it
// connects again); an HTTP answer must be whole (a 200 is the clean run's
// body, byte for byte), else a 5xx or a closed connection (asked again).
// And every run: each frame is a JSON object with a type, and no frame is
// malformed; the game ends with every event the clean run's, seen the same by
// every client; the record served is the clean run's, byte for byte; the
// server exits with 0 on SIGTERM and its log holds no sanitizer report; the
// store (`lit games --db --record`) gives the same record, which `lit
// replay` reads.
//
// Prints "ok: ..." with the figures, or "FAIL N: what" (exit 1);
// LIT_NETFAULT_VERBOSE=1 prints a line a run.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import WebSocket from "ws";
import { Failure, TIMEOUT, check, choose, claimFrom, show, sleep, within } from "./serve_client.mjs";

const [SERVE, LIT, DIR] = process.argv.slice(2, 5);
const RUNS = process.argv[5];
if (process.argv.length !== 6 || !/^(\d+(-\d*(\/\d+)?)?)(,\d+(-\d*(\/\d+)?)?)*$/.test(RUNS)) {
  console.log("usage: netfault_client.mjs FAULT_SERVE LIT DIR RUNS (e.g. 1-150/2,151-/283)");
  process.exit(2);
}

// The Ns RUNS names, in order, up to total.
function runsOf(spec, total) {
  const ns = [];
  for (const part of spec.split(",")) {
    const [range, by] = part.split("/");
    const [from, to] = range.split("-");
    const last = to === undefined ? Number(from) : to === "" ? total : Number(to);
    for (let n = Number(from); n <= Math.min(last, total); n += Number(by ?? 1))
      if (n >= 1) ns.push(n);
  }
  return ns;
}

// A new connection that gets no answer at all in this time is stalled:
// libwebsockets 4.1 keeps a connection whose header table it could not
// allocate waiting for another connection to free one (docs/RELIABILITY.md,
// "Fault injection"). The client gives up on it and connects again, which
// frees the stalled one too.
const STALL_MS = 1500;

const SANITIZER = /ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error/;

// ---- one server ------------------------------------------------------------

// Starts FAULT_SERVE failing the nth allocation (0: none) on any free port,
// with the store db and its standard error into log.
async function startServer(nth, db, log) {
  const err = fs.openSync(log, "w");
  const proc = spawn(SERVE, [String(nth), "--port", "0", "--db", db], {
    stdio: ["ignore", "pipe", err],
  });
  fs.closeSync(err);
  const server = { proc, log, ended: null };
  server.exited = new Promise((resolve) =>
    proc.once("exit", (code, signal) => resolve((server.ended = { code, signal }))));
  let out = "";
  proc.stdout.setEncoding("utf8");
  const said = new Promise((resolve, reject) => {
    proc.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    server.exited.then((how) => reject(new Failure(`the server ended (${show(how)}) at start: ` +
                                                  fs.readFileSync(log, "utf8"))));
  });
  const line = await within(said, TIMEOUT, "the server saying where it listens");
  const m = /^serving on http:\/\/127\.0\.0\.1:(\d+)\/$/.exec(line);
  check(m, `the server said ${show(line)}`);
  server.port = Number(m[1]);
  return server;
}

// The server is still running: else a Failure with how it ended and its log.
function alive(server) {
  if (server.ended)
    throw new Failure(`the server ended during the script (${show(server.ended)}): ` +
                      fs.readFileSync(server.log, "utf8").split("\n").slice(-30).join("\n"));
}

// ---- HTTP --------------------------------------------------------------------

// A GET: {status, headers, body, whole} (whole: the body is all the
// content-length said), or {error} when the connection failed or closed
// before the answer's end.
function get(port, path) {
  let answered = false;
  const answer = new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      const chunks = [];
      res.on("data", (d) => chunks.push(d));
      // an answer cut short: an error, but a 200 so cut is a failure of its own
      const end = () => {
        const body = Buffer.concat(chunks);
        const said = Number(res.headers["content-length"]);
        const whole = res.complete && said === body.length;
        if (!whole && res.statusCode !== 200)
          resolve({ error: `closed mid-answer (status ${res.statusCode})` });
        resolve({ status: res.statusCode, headers: res.headers, body: body.toString("utf8"),
                  whole });
      };
      res.on("error", end);
      res.on("close", end);
    });
    req.on("error", (e) => resolve({ error: e.message }));
    req.setTimeout(STALL_MS, () => {
      if (!answered) resolve({ error: "stalled" });
      req.destroy();
    });
    req.on("response", () => (answered = true));
  });
  return within(answer, TIMEOUT, `GET ${path}`);
}

// GETs path until it is answered 200 (at most a few times, and with
// waitFor statuses such as 409 for a record being saved, until a deadline).
// A 200 must be whole and, when want is given, that text exactly; other
// answers are 5xx or a failed connection (counted as incidents).
async function fetchOk(run, path, want, waitFor = []) {
  const until = Date.now() + 8000;
  for (let tries = 0; ; tries++) {
    alive(run.server);
    const r = await get(run.server.port, path);
    if (r.status === 200) {
      check(r.whole, `GET ${path}: a 200 cut short (${r.body.length} bytes of ` +
                     `${r.headers["content-length"]})`);
      if (want !== undefined)
        check(r.body === want, `GET ${path}: a 200 not the clean run's body: ${show(r.body)}`);
      return r;
    }
    if (r.status !== undefined && waitFor.includes(r.status) && Date.now() < until) {
      await sleep(100);
      continue;
    }
    check(r.error || r.status >= 500, `GET ${path}: answered ${r.status} ${show(r.body)}`);
    run.incident(`GET ${path}: ${r.error ?? r.status}`);
    check(tries < 4, `GET ${path}: still failing (${r.error ?? r.status})`);
  }
}

// ---- the clients -------------------------------------------------------------

// One person across connections: what it was told, and what it is waiting for.
class Person {
  constructor(run, name) {
    this.run = run;
    this.name = name;
    this.ws = null;
    this.queue = [];
    this.closed = null; // {code, reason} once the current connection closed
    this.token = null;
    this.code = null;
    this.seq = 0;
    this.room = null; // the last room frame since (re)joining
    this.last = null; // the last game, event or catchup frame since (re)joining
    this.pending = null; // {what, want(frame)}: a message sent and not answered
    this.waitSeq = 0; // an action's ack said its event's seq: not before it
    this.aid = null; // {actions, frame}
    this.over = false;
    this.drops = 0; // connections lost, by a fault or on purpose
    this.dropped = false; // the scripted drop has been made
    this.seated = false; // the last room frame seen said it was seated
  }

  // Opens a connection (again until one opens) and, with a token, resumes.
  async connect() {
    const run = this.run;
    for (let tries = 0; ; tries++) {
      alive(run.server);
      check(tries < 5, `${this.name}: no connection opens`);
      const ws = new WebSocket(`ws://127.0.0.1:${run.server.port}/`, { maxPayload: 1 << 22 });
      const how = await within(new Promise((resolve) => {
        setTimeout(() => resolve("stalled"), STALL_MS);
        ws.once("open", () => resolve("open"));
        ws.once("error", (e) => resolve(`error: ${e.message}`));
        ws.once("unexpected-response", (req, res) => {
          res.resume();
          resolve(`answered ${res.statusCode}`);
        });
      }), TIMEOUT, `${this.name} connecting`);
      if (how === "open") {
        this.attach(ws);
        break;
      }
      ws.on("error", () => {});
      ws.terminate();
      check(!/^answered/.test(how) || Number(how.split(" ")[1]) >= 500,
            `${this.name}: the upgrade was ${how}`);
      run.incident(`${this.name}: connection ${how}`);
      await sleep(20);
    }
    this.room = null;
    this.last = null;
    this.aid = null;
    this.waitSeq = 0;
    this.pending = null;
    if (this.token) {
      // half the resumes with the last seq seen (a catchup), half afresh
      const msg = { type: "resume", room: this.code, token: this.token };
      if (this.drops % 2 === 1) msg.seq = this.seq;
      this.send(msg, (f) => f.type === "joined");
    }
  }

  attach(ws) {
    this.ws = ws;
    this.closed = null;
    this.queue = [];
    ws.on("message", (data, binary) => {
      check(!binary, `${this.name}: a binary frame`);
      this.queue.push(data.toString());
      this.run.ring();
    });
    ws.on("error", (e) => {
      // ws's own checks of what it reads: a malformed frame is a failure
      if (/^WS_ERR_/.test(e.code ?? "")) this.run.broken = `${this.name}: ${e.message}`;
    });
    ws.once("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.run.ring();
    });
  }

  send(msg, want) {
    this.pending = { what: msg, want };
    this.ws.send(JSON.stringify(msg));
  }

  // Takes the frames received; then, if the connection has closed, lets it go.
  pump() {
    while (this.queue.length) this.take(this.queue.shift());
    if (this.ws && this.closed) {
      const { code, reason } = this.closed;
      check((code === 1013 && reason === "server_error") || code === 1006,
            `${this.name}: closed with ${code} ${show(reason)}`);
      this.run.incident(`${this.name}: closed ${code} ${reason}`);
      this.lose();
    }
  }

  lose() {
    this.ws = null;
    this.drops++;
    this.pending = null;
  }

  take(text) {
    let f;
    try {
      f = JSON.parse(text);
    } catch {
      throw new Failure(`${this.name}: a frame that is not JSON: ${show(text)}`);
    }
    check(f && typeof f === "object" && typeof f.type === "string",
          `${this.name}: a frame without a type: ${text}`);
    const p = this.pending;
    if (f.type === "error") {
      check(p, `${this.name}: an error out of the blue: ${text}`);
      if (f.error === "server_error") {
        this.run.incident(`${this.name}: server_error to ${p.what.type}`);
      } else if (f.error === "bad_token" && p.what.type === "resume" && !this.seated) {
        this.token = null; // a spectator's membership ended with its connection: join again
      } else {
        check(f.error === "stale_state" && p.what.type === "act",
              `${this.name}: ${show(p.what)} answered ${text}`);
      }
      this.pending = null; // its step decides again
      return;
    }
    if (f.type !== "ack" && typeof f.seq === "number") this.seq = Math.max(this.seq, f.seq);
    if (f.type === "joined") {
      this.code = f.room;
      this.token = f.token;
    } else if (f.type === "room") {
      this.room = f;
      this.seated = f.you.seat != null; // kept across connections
    } else if (f.type === "game" || f.type === "catchup" || f.type === "event") {
      const events = f.type === "game" ? f.history : f.type === "catchup" ? f.events : [f.event];
      this.run.saw(this.name, events);
      this.last = f;
      if ("result" in f) {
        this.over = true;
        this.run.record = f.record;
      }
    } else if (f.type === "ack") {
      this.waitSeq = f.seq;
    }
    if (p && p.want(f)) this.pending = null;
  }

  // The seat on turn is this person's, with nothing sent and unanswered.
  onTurn() {
    const f = this.last;
    return f && f.you && !("result" in f) && f.state.turn === f.you.seat &&
      this.seq >= this.waitSeq && !this.pending;
  }

  // What the person does next, from what it was told (nothing: false).
  async step() {
    if (this.pending || !this.ws) return false;
    const run = this.run, room = this.room, ann = run.people[0];
    if (!this.token) {
      if (this === ann) {
        this.send({ type: "create", name: this.name, players: 4, pace_ms: 0 },
                  (f) => f.type === "joined");
      } else if (ann.code && ann.token) {
        this.send({ type: "join", room: ann.code, name: this.name }, (f) => f.type === "joined");
      } else {
        return false;
      }
      return true;
    }
    if (!room) return false;
    if (this.name === "Bob" && room.state === "lobby" && room.you.seat == null) {
      this.send({ type: "sit", seat: 3 }, (f) => f.type === "room" && f.you.seat === 3);
      return true;
    }
    if (room.state === "lobby" && room.you.host) {
      // the host: Bob seated and Cy in the room, then bots and the start
      if (room.seats[2].kind !== "human" || !room.spectators.includes("Cy")) return false;
      if (room.seats.some((s) => s.kind === "empty")) {
        this.send({ type: "fill" },
                  (f) => f.type === "room" && f.seats.every((s) => s.kind !== "empty"));
      } else {
        // answered by the game frame, then the room's, playing
        this.send({ type: "start" }, (f) => f.type === "room" && f.state !== "lobby");
      }
      return true;
    }
    if (!this.onTurn()) return false;
    const f = this.last, you = f.you;
    if (this === ann && !this.dropped && f.state.actions >= 8) {
      // the scripted resume: Ann goes and comes back with her last seq
      this.dropped = true;
      this.ws.close(1000);
      await within(new Promise((resolve) => this.ws.once("close", resolve)), TIMEOUT,
                   "Ann's close");
      this.queue = [];
      this.ws = null;
      this.drops = 1;
      return true;
    }
    let act = choose(you);
    if (!act) {
      if (!this.aid || this.aid.actions !== f.state.actions) {
        const actions = f.state.actions;
        this.send({ type: "aid" }, (a) => {
          if (a.type !== "aid") return false;
          this.aid = { actions, frame: a };
          return true;
        });
        return true;
      }
      act = claimFrom(you, this.aid.frame);
    }
    const id = `a${f.state.actions}`;
    this.send({ type: "act", seq: this.seq, id, ...act }, (a) => a.type === "ack" && a.id === id);
    return true;
  }
}

// ---- one run -------------------------------------------------------------------

class Run {
  constructor(nth, clean) {
    this.nth = nth;
    this.clean = clean; // the clean run's figures (null: this is it)
    this.incidents = [];
    this.lines = new Map(); // n -> line, as every client saw it
    this.broken = null;
    this.bell = null;
    this.record = null;
  }

  incident(what) {
    this.incidents.push(what);
  }

  saw(name, events) {
    for (const e of events) {
      const had = this.lines.get(e.n);
      check(had === undefined || had === e.line,
            `${name}: event ${e.n} told two ways: ${show(had)} / ${show(e.line)}`);
      this.lines.set(e.n, e.line);
    }
  }

  ring() {
    const b = this.bell;
    this.bell = null;
    if (b) b();
  }

  // Waits for a frame or a close on any connection (a Failure after TIMEOUT).
  async quiet(what) {
    if (this.people.some((p) => p.queue.length || (p.ws && p.closed))) return;
    await within(new Promise((resolve) => (this.bell = resolve)), TIMEOUT, what);
  }

  async play(dir) {
    const db = `${dir}/run${this.nth}.db`;
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(db + suffix, { force: true });
    this.server = await startServer(this.nth, db, `${dir}/run${this.nth}.log`);
    const page = await fetchOk(this, "/", this.clean?.page);
    const health = await fetchOk(this, "/healthz");
    check(JSON.parse(health.body).ok === true, `/healthz: ${health.body}`);
    this.people = ["Ann", "Bob", "Cy"].map((name) => new Person(this, name));
    for (let steps = 0; !this.people.every((p) => p.over); steps++) {
      check(steps < 5000, "the game does not end");
      alive(this.server);
      check(!this.broken, this.broken);
      for (const p of this.people) p.pump();
      for (const p of this.people) if (!p.ws) await p.connect();
      let did = false;
      for (const p of this.people) did = (await p.step()) || did;
      if (!did && !this.people.every((p) => p.over)) await this.quiet(`waiting for the game (${show(this.people.map((p) =>
        [p.name, p.over, p.pending?.what, p.room?.state, p.last?.type, p.last?.result]))})`);
    }
    check(this.record, "no record path in the last frame");
    const record = (await fetchOk(this, this.record, this.clean?.record, [404, 409])).body;
    const lines = [...this.lines.keys()].sort((a, b) => a - b);
    check(lines.every((n, i) => n === i + 1), `events not numbered 1..n: ${show(lines)}`);
    if (this.clean) {
      check(lines.length === this.clean.lines.size &&
            lines.every((n) => this.clean.lines.get(n) === this.lines.get(n)),
            "the events differ from the clean run's");
    }
    // everybody goes; then SIGTERM
    for (const p of this.people) {
      if (!p.ws) continue;
      p.ws.close(1000);
      await within(new Promise((resolve) => (p.closed ? resolve() : p.ws.once("close", resolve))),
                   TIMEOUT, `${p.name}'s closing handshake`);
    }
    alive(this.server);
    this.server.proc.kill("SIGTERM");
    const ended = await within(this.server.exited, TIMEOUT, "the server stopping on SIGTERM");
    const log = fs.readFileSync(this.server.log, "utf8");
    check(ended.code === 0, `exit ${show(ended)} after SIGTERM: ${log.split("\n").slice(-30)
      .join("\n")}`);
    const san = log.match(SANITIZER);
    check(!san, `sanitizer: ${log.slice(san?.index ?? 0, (san?.index ?? 0) + 3000)}`);
    const m = /^fault-serve: (\d+) allocations, fault (none|\d+ hit|\d+ not reached)(?: \(libwebsockets: (.*)\))?$/m
      .exec(log);
    check(m, `no count in the server's log: ${log}`);
    this.allocations = Number(m[1]);
    this.hit = / hit$/.test(m[2]);
    this.lws = m[3] ?? null;
    // the store: the same record, and it replays
    const id = this.record.replace(/^\/games\//, "").replace(/\.lit$/, "");
    const stored = execFileSync(LIT, ["games", "--db", db, "--record", id], { encoding: "utf8" });
    check(stored === record, `the stored record differs from the served one: ${show(stored)}`);
    execFileSync(LIT, ["replay", "-"], { input: stored, stdio: ["pipe", "ignore", "pipe"] });
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(db + suffix, { force: true });
    fs.rmSync(this.server.log);
    return { page: page.body, record, lines: this.lines };
  }
}

// ---- the sweep ---------------------------------------------------------------

async function main() {
  const t0 = Date.now();
  const cleanRun = new Run(0, null);
  const clean = await cleanRun.play(DIR);
  check(cleanRun.incidents.length === 0, `the clean run: ${show(cleanRun.incidents)}`);
  const total = cleanRun.allocations;
  check(total > 100, `only ${total} allocations in the clean run`);
  const tClean = Date.now() - t0;
  const ns = runsOf(RUNS, total);
  console.log(`clean run: ${total} allocations, ${clean.lines.size} events, ${tClean} ms; ` +
              `failing ${RUNS}: ${ns.length} runs`);
  let runs = 0, hit = 0, affected = 0;
  const kinds = new Map(), lwsRuns = new Map();
  for (const n of ns) {
    const run = new Run(n, clean);
    const started = Date.now();
    try {
      await run.play(DIR);
    } catch (e) {
      console.log(`FAIL ${n}: ${e.stack ?? e}\n  incidents: ${show(run.incidents)}` +
                  (run.server ? `\n  server: ${fs.readFileSync(run.server.log, "utf8")}` : ""));
      if (run.server && !run.server.ended) run.server.proc.kill("SIGKILL");
      process.exit(1);
    }
    runs++;
    hit += run.hit;
    if (run.incidents.length) affected++;
    for (const i of run.incidents) {
      const kind = i.replace(/^(Ann|Bob|Cy): /, "").replace(/ to \w+$/, "");
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    if (run.lws) lwsRuns.set(run.lws, (lwsRuns.get(run.lws) ?? 0) + 1);
    if (process.env.LIT_NETFAULT_VERBOSE)
      console.log(`${n}: ${run.hit ? "hit" : "not reached"}${run.lws ? ` (lws: ${run.lws})` : ""} ` +
                  `${Date.now() - started} ms ${show(run.incidents)}`);
  }
  console.log(`ok: ${total} allocations counted; ${runs} runs (${hit} reached their fault, ` +
              `${affected} answered a client server_error or closed it), ` +
              `${((Date.now() - t0) / 1000).toFixed(1)} s; incidents ${show(Object.fromEntries(kinds))}; ` +
              `libwebsockets' allocations failed ${show(Object.fromEntries(lwsRuns))}`);
}

main().catch((e) => {
  console.log(`FAIL: ${e.stack ?? e}`);
  process.exit(1);
});
