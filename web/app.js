// app.js - the browser table: speaks docs/PROTOCOL.md over one WebSocket.
// Everything it shows comes in the server's frames (legal actions, reasons,
// claim truths, the scoresheet); it re-implements no rule. Names and chat
// are set as text, never as HTML.
import { cardFace, cardInfo, reason, setLabel, setSymbol, teamOf } from "./cards.js";
import { openClaim } from "./claim.js";
import { keepFocus, rove, visible } from "./keys.js";

const $ = (id) => document.getElementById(id);

const S = {
  ws: null,
  open: false,
  seq: 0,            // the last seq seen
  code: null,        // the room we are in
  token: null,
  room: null,        // the last room frame
  game: null,        // {id, game, rules, dealer, sets, state, history, clock, you, result, record}
  clockAt: 0,        // when the clock frame came (performance.now())
  pick: { card: null, target: null },
  ids: 0,
  retry: 0,
  stopped: false,    // replaced, or told to go: no more reconnecting
  wasMyTurn: false,
  overTold: null,    // the game whose end was announced
  sizesAt: -1,       // counts=request: the hand sizes asked for at this action count
  keyboard: false,   // the last input was a key (not a pointer)
  chatSent: null,    // the chat line sent and not yet back
};

// ---- storage: the seat token survives a reload --------------------------

const store = {
  get(k) { try { return localStorage.getItem("lit." + k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem("lit." + k, v); } catch { /* private mode */ } },
  del(k) { try { localStorage.removeItem("lit." + k); } catch { /* private mode */ } },
};

function hashRoom() {
  const m = /room=([A-Za-z0-9]{6})/.exec(location.hash);
  return m ? m[1].toUpperCase() : null;
}

// ---- the connection -------------------------------------------------------

function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/";
  status("connecting…");
  const ws = new WebSocket(url);
  S.ws = ws;
  ws.onopen = () => { S.open = true; S.retry = 0; };
  ws.onmessage = (e) => {
    let f;
    try { f = JSON.parse(e.data); } catch { return; }
    receive(f);
  };
  ws.onclose = () => {
    S.open = false;
    if (S.stopped) return;
    const delay = Math.min(8000, 500 * 2 ** S.retry++);
    status("connection lost: trying again…");
    setTimeout(connect, delay);
  };
}

function send(msg) {
  if (S.ws && S.open) S.ws.send(JSON.stringify(msg));
}

function act(fields) {
  S.ids += 1;
  send({ type: "act", seq: S.seq, id: "w" + Date.now().toString(36) + "-" + S.ids, ...fields });
}

function status(text) {
  $("status").textContent = text;
}

function showError(text) {
  $("error").textContent = text;
  if (text) setTimeout(() => { if ($("error").textContent === text) $("error").textContent = ""; },
                       6000);
}

// The aria-live log: each event a line of its own (a line replacing the
// last could be lost when bots move at once); the last eight are kept.
function announce(text) {
  const log = $("announce");
  const p = document.createElement("p");
  p.textContent = text;
  log.append(p);
  while (log.children.length > 8) log.firstChild.remove();
}

// ---- frames ---------------------------------------------------------------

function receive(f) {
  if (typeof f.seq === "number" && f.seq > S.seq) S.seq = f.seq;
  switch (f.type) {
  case "welcome": {
    status("connected");
    const code = S.code || hashRoom() || store.get("current");
    const token = code && store.get("token." + code);
    if (code && token) {
      const msg = { type: "resume", room: code, token };
      if (S.game && S.code === code && S.seq > 0) msg.seq = S.seq;
      send(msg);
    } else {
      showHome();
    }
    break;
  }
  case "joined":
    S.code = f.room;
    S.token = f.token;
    store.set("token." + f.room, f.token);
    store.set("current", f.room);
    store.set("name", f.name);
    if (hashRoom() !== f.room) history.replaceState(null, "", "#room=" + f.room);
    break;
  case "room":
    S.room = f;
    render();
    break;
  case "game":
    S.game = { id: f.id, game: f.game, rules: f.rules, dealer: f.dealer, sets: f.sets,
               state: f.state, history: f.history, clock: f.clock, you: f.you,
               result: f.result || null, record: f.record || null };
    S.clockAt = performance.now();
    S.pick = { card: null, target: null };
    S.aid = null;
    S.sizesAt = -1;
    // the room frame that says so follows the game frame
    if (S.room) S.room.state = S.game.result ? "over" : "playing";
    render();
    break;
  case "event":
    if (!S.game) break;
    S.game.history.push(f.event);
    Object.assign(S.game, { state: f.state, clock: f.clock, you: f.you,
                            result: f.result || null, record: f.record || null });
    S.clockAt = performance.now();
    S.pick = { card: null, target: null };
    S.aid = null;
    showEvent(f.event);
    render();
    break;
  case "catchup":
    if (!S.game || S.game.id !== f.id) break;
    S.game.history.push(...f.events);
    Object.assign(S.game, { state: f.state, clock: f.clock, you: f.you,
                            result: f.result || null, record: f.record || null });
    S.clockAt = performance.now();
    render();
    break;
  case "clock":
    if (S.game) {
      const was = S.game.clock && S.game.clock.wait;
      S.game.clock = f.clock;
      S.clockAt = performance.now();
      if (f.clock.wait && !was) announce(`${f.clock.wait.name} asked to wait: play is held.`);
      if (!f.clock.wait && was) announce("Play goes on.");
      render();
    }
    break;
  case "aid":
    S.aid = f;
    renderAid();
    break;
  case "lobby":
    renderLobby(f);
    break;
  case "chat":
    addChat(f);
    break;
  case "left":
  case "kicked":
    forget();
    if (f.type === "kicked") showError("The host asked you to leave the room.");
    showHome();
    break;
  case "closing":
    status("the server is restarting: reconnecting…");
    break;
  case "saved":
    status(f.text);
    break;
  case "error":
    onError(f);
    break;
  default:
    break;
  }
}

function onError(f) {
  if (["bad_text", "too_fast", "chat_off"].includes(f.error)) S.chatSent = null;
  if (f.error === "replaced") {
    S.stopped = true;
    status("this seat is open in another window");
  }
  if ((f.error === "bad_token" || f.error === "no_room") && !S.room) {
    forget();
    showHome();
  }
  if (f.error === "stale_state") return; // the frame that moved the game is on its way
  showError(f.text || f.error);
}

function forget() {
  $("chat").replaceChildren();
  if (S.code) store.del("token." + S.code);
  store.del("current");
  S.code = S.token = S.room = S.game = null;
  S.seq = 0;
  history.replaceState(null, "", location.pathname);
}

// ---- home: create, join, lobby -------------------------------------------

const PRESETS = {
  classic: "Six sets of six a team wins by claiming most of. A wrong claim is cancelled.",
  club: "Club rules: a wrong claim gives the set to the opponents, the game may end " +
        "early, every question and hand size is shown.",
  encyclopedia: "Without the twos; a wrong claim costs a point; the player left of the " +
                "dealer starts; hand sizes are hidden.",
  jokers: "With the eights and two jokers as a ninth set.",
  quartets: "Thirteen sets of four: the four cards of each rank.",
  india: "The high sets count twice.",
};

function showHome() {
  for (const id of ["room", "table", "chat-box"]) $(id).hidden = true;
  $("home").hidden = false;
  if (!$("name").value) $("name").value = store.get("name") || "";
  const code = hashRoom();
  if (code) $("j-code").value = code;
  explainRules();
  send({ type: "lobby" });
}

function explainRules() {
  $("c-explain").textContent = PRESETS[$("c-preset").value] || "";
}

function myName() {
  const name = $("name").value.trim();
  if (!name) { showError("Pick a name first."); $("name").focus(); }
  return name;
}

function createRoom(e) {
  e.preventDefault();
  const name = myName();
  if (!name) return;
  let rules = $("c-preset").value;
  for (const [key, id] of [["misclaim", "c-misclaim"], ["history", "c-history"]])
    if ($(id).value) rules += " " + key + "=" + $(id).value;
  send({ type: "create", name, rules, players: Number($("c-players").value),
         bots: $("c-bots").value, pace_ms: Number($("c-pace").value),
         turn_ms: Number($("c-turn").value), match_to: Number($("c-match").value),
         public: $("c-public").checked, chat: $("c-chat").checked, aid: $("c-aid").checked });
}

function joinRoom(code) {
  const name = myName();
  if (!name || !code) return;
  const token = store.get("token." + code);
  if (token) send({ type: "resume", room: code, token });
  else send({ type: "join", room: code, name });
}

function renderLobby(f) {
  if ($("home").hidden) return;
  const ul = $("lobby");
  // the same rooms: nothing to redraw (a redraw would take the focus away)
  const key = JSON.stringify(f.rooms);
  if (ul.dataset.shown === key) return;
  ul.dataset.shown = key;
  ul.replaceChildren();
  if (!f.rooms.length) {
    const li = document.createElement("li");
    li.textContent = "No open rooms: create one.";
    ul.append(li);
  }
  for (const r of f.rooms) {
    const li = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = `${r.host}'s room: ${r.rules}, ${r.seated} of ${r.players} seated` +
      (r.turn_ms ? `, ${r.turn_ms / 1000} s turns` : "") +
      (r.match_to ? `, match to ${r.match_to}` : "");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.textContent = "Join";
    b.dataset.room = r.code;
    b.setAttribute("aria-label", `Join ${r.host}'s room`);
    b.addEventListener("click", () => joinRoom(r.code));
    li.append(text, " ", b);
    ul.append(li);
  }
}

// ---- the room -------------------------------------------------------------

function seatOf(n) {
  return S.room.seats[n - 1];
}

function seatName(n) {
  const s = seatOf(n);
  if (!s) return "seat " + n;
  if (s.kind === "human") return s.name;
  if (s.kind === "bot") return "bot " + n;
  return "seat " + n;
}

function renderRoom() {
  const r = S.room, you = r.you;
  $("r-code").textContent = r.code;
  const link = location.origin + "/#room=" + r.code;
  $("r-link").href = link;
  $("r-link").textContent = link;
  $("r-rules").textContent = `Rules: ${r.rules}. Bots: ${r.bots}.` +
    (r.turn_ms ? ` ${r.turn_ms / 1000} s a turn.` : " No turn timer.") +
    (r.chat ? "" : " A silent room.") + (r.public ? " Listed in the lobby." : " Private.");
  $("r-match").textContent = matchText(r.match);
  // between games the room sits below the table: it is where the next game is set up
  const over = r.state === "over";
  $("r-title").firstChild.textContent = over ? "The next game in room " : "Room ";
  $("r-next").hidden = !over;
  $("r-next").textContent = over
    ? "Seats, bots and teams for the next game; the result is above." : "";
  const ol = $("seats");
  ol.replaceChildren();
  for (const s of r.seats) {
    const li = document.createElement("li");
    li.className = "seat team" + s.team;
    const label = document.createElement("span");
    let who = "empty";
    if (s.kind === "human")
      who = s.name + (s.host ? " (host)" : "") + (s.connected ? "" : " (away)");
    else if (s.kind === "bot") who = "a " + s.bot + " bot";
    label.textContent = `Seat ${s.seat}, team ${s.team}: ${who}`;
    li.append(label);
    const button = (text, fn) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "small";
      b.textContent = text;
      b.addEventListener("click", fn);
      li.append(" ", b);
    };
    const between = r.state !== "playing";
    if (s.kind === "empty" && you.seat !== s.seat && between)
      button("Sit here", () => send({ type: "sit", seat: s.seat }));
    if (you.host && s.kind === "empty" && between)
      button("Bot", () => send({ type: "bot", seat: s.seat }));
    if (you.host && s.kind !== "empty" && s.seat !== you.seat && (between || s.kind === "human"))
      button("Remove", () => send({ type: "kick", seat: s.seat }));
    ol.append(li);
  }
  $("r-spectators").textContent = r.spectators.length
    ? "Watching: " + r.spectators.join(", ") : "";
  $("r-host").hidden = !you.host;
  $("start").disabled = r.seats.some((s) => s.kind === "empty");
  $("start").hidden = over; // "Play again", with the result

  $("stand").hidden = you.seat === null || r.state === "playing";
  $("leave").hidden = over; // the result has its own
}

function matchText(m) {
  if (!m) return "";
  return `Match to ${m.to} games: team A ${m.wins[0]}, team B ${m.wins[1]}` +
    (m.winner ? ` (team ${m.winner} has won the match)` : "");
}

// ---- the table --------------------------------------------------------------

function mySeat() {
  return S.game && S.game.you ? S.game.you.seat : null;
}

// counts (docs/RULES.md): "shown" always; "request" when asked for, until
// the next action (000: "Any player may ask at any time how many cards
// another player ... has"); "hidden" never.
function countsShown() {
  const g = S.game, counts = (S.room.options && S.room.options.counts) || "request";
  return counts === "shown" || (counts === "request" && S.sizesAt === g.state.actions);
}

function renderSizes() {
  const g = S.game, counts = (S.room.options && S.room.options.counts) || "request";
  $("sizes").hidden = counts !== "request" || !!g.result;
  $("sizes-note").textContent = counts === "hidden" ? "Hand sizes are not shown under these rules."
    : counts === "request" && countsShown() ? "Hand sizes as asked, until the next move."
    : "";
}

function askSizes() {
  S.sizesAt = S.game.state.actions;
  const sizes = S.game.state.hand_sizes.map((n, i) => `${seatName(i + 1)} ${n}`).join(", ");
  announce(`Cards held: ${sizes}.`);
  render();
}

function renderTable() {
  const g = S.game, r = S.room, st = g.state, me = mySeat();
  const players = st.hand_sizes.length;
  const counts = countsShown();
  $("t-score").textContent = `Team A ${st.score[0]} : ${st.score[1]} Team B`;
  $("t-match").textContent = r.match
    ? `Match to ${r.match.to}: A ${r.match.wins[0]}, B ${r.match.wins[1]}` : "";
  const turnName = st.turn ? seatName(st.turn) : null;
  $("t-turn").textContent = g.result ? "Game over"
    : st.turn === me ? "Your turn" : turnName ? `${turnName} to play` : "";

  // the seats, from the one to my left round to my right; mine is below
  const ring = $("ring");
  ring.replaceChildren();
  const base = me || 1;
  for (let k = 1; k < players + (me ? 0 : 1); k++) {
    const n = ((base - 1 + k - (me ? 0 : 1)) % players) + 1;
    ring.append(seatBox(n, counts));
  }
  const mine = $("my-seat");
  mine.replaceChildren();
  if (me) mine.append(seatBox(me, counts));
  renderSizes();
  renderClock();

  renderClaimed();
  renderHand();
  renderActions();
  renderHistory();
  renderOver();
  $("aid-box").hidden = !r.aid || !me;
  $("t-leave").hidden = !!g.result; // the result has its own
}

function seatBox(n, counts) {
  const g = S.game, s = seatOf(n), st = g.state;
  const box = document.createElement("div");
  const team = teamOf(n);
  box.className = "seatbox team" + team + (st.turn === n && !g.result ? " turn" : "");
  box.dataset.seat = String(n);
  const name = document.createElement("span");
  name.className = "who";
  name.textContent = seatName(n) + (n === mySeat() ? " (you)" : "");
  const meta = document.createElement("span");
  meta.className = "meta";
  let text = `seat ${n} · team ${team}`;
  if (counts) text += ` · ${st.hand_sizes[n - 1]} cards`;
  if (s && s.kind === "human" && s.away) text += " · a bot plays for now";
  else if (s && s.kind === "human" && !s.connected) text += " · gone";
  meta.textContent = text;
  box.append(name, meta);
  if (st.turn === n && !g.result) {
    const mark = document.createElement("span");
    mark.className = "marker";
    mark.textContent = "\u25B6 to play";
    const clock = document.createElement("span");
    clock.className = "seatclock";
    mark.append(clock);
    box.prepend(mark);
  }
  return box;
}

// The turn's clock, counted down here from the frame's left_ms (the server
// and the page share no clock): in the score bar and on the seat to play.
function renderClock() {
  const c = S.game && S.game.clock;
  let text = "", seat = "", low = false;
  if (c && c.wait) {
    const left = Math.max(0, c.wait.left_ms - (performance.now() - S.clockAt));
    text = `${c.wait.name} asked to wait (${Math.ceil(left / 1000)} s)`;
    seat = " \u00B7 held";
  } else if (c && c.turn_ms && c.left_ms !== null && !S.game.result) {
    const left = Math.ceil(Math.max(0, c.left_ms - (performance.now() - S.clockAt)) / 1000);
    low = left <= 5;
    text = `\u23F1 ${left} s left` + (low ? " \u2757" : "");
    seat = ` \u00B7 \u23F1 ${left} s`;
  }
  $("t-clock").textContent = text;
  $("t-clock").classList.toggle("low", low);
  for (const el of document.querySelectorAll("#table .seatclock")) el.textContent = seat;
}

// The claimed sets as markers in three rows: team A's, team B's and the
// sets nobody scored (a cancelled or point-off claim). Each says its set
// (words and suit symbol) and whose claim decided it: never colour alone.
function renderClaimed() {
  const box = $("claimed");
  box.replaceChildren();
  const rows = { A: [], B: [], none: [] };
  for (const e of S.game.history) {
    if (e.action !== "claim") continue;
    const team = teamOf(e.seat), other = team === "A" ? "B" : "A";
    const to = e.outcome === "won" ? team : e.outcome === "lost" ? other : "none";
    const chip = document.createElement("span");
    chip.className = "setchip" + (to === "none" ? " nobody" : " team" + to);
    chip.dataset.set = e.set;
    chip.dataset.to = to;
    const sym = setSymbol(e.set);
    const name = document.createElement("span");
    name.className = "chipname" + (sym.red ? " red" : "");
    name.textContent = (sym.symbol ? sym.symbol + " " : "") + setLabel(e.set);
    const by = document.createElement("span");
    by.className = "chipby";
    by.textContent = e.outcome === "won" ? `claimed by ${seatName(e.seat)}`
      : e.outcome === "lost" ? `${seatName(e.seat)} claimed wrong`
      : e.outcome === "cancelled" ? `${seatName(e.seat)}'s claim cancelled`
      : `point off: ${seatName(e.seat)}`;
    chip.append(name, by);
    rows[to].push(chip);
  }
  for (const [to, chips] of Object.entries(rows)) {
    if (to === "none" && !chips.length) continue;
    const row = document.createElement("div");
    row.className = "claimrow" + (to === "none" ? "" : " team" + to);
    row.dataset.to = to;
    const head = document.createElement("span");
    head.className = "claimhead";
    head.textContent = to === "none" ? `Nobody's (${chips.length})`
      : `Team ${to}'s sets (${chips.length})`;
    row.append(head, ...chips);
    if (!chips.length) {
      const none = document.createElement("span");
      none.className = "note";
      none.textContent = "none yet";
      row.append(none);
    }
    box.append(row);
  }
}

// A row of a set's cards, headed by its name.
function setRow(set) {
  const row = document.createElement("div");
  row.className = "group";
  const label = document.createElement("span");
  label.className = "setname";
  label.textContent = setLabel(set);
  row.append(label);
  return row;
}

function renderHand() {
  const g = S.game, hand = $("hand");
  hand.replaceChildren();
  if (!g.you) {
    hand.textContent = "You are watching: no hand is shown.";
    return;
  }
  // each set a block: its name over its cards, the blocks side by side
  const mine = new Set(g.you.hand);
  for (const [set, cards] of Object.entries(g.sets)) {
    const held = cards.filter((c) => mine.has(c));
    if (!held.length) continue;
    const block = document.createElement("div");
    block.className = "handset";
    const label = document.createElement("span");
    label.className = "setname";
    label.textContent = setLabel(set);
    const row = document.createElement("div");
    row.className = "cards";
    for (const c of held) row.append(cardFace(c));
    block.append(label, row);
    hand.append(block);
  }
  if (!g.you.hand.length) hand.textContent = "You have no cards.";
}

function renderActions() {
  const g = S.game, you = g.you;
  const box = $("actions");
  box.hidden = !you || !!g.result;
  if (!you || g.result) return;
  const why = you.refused && you.refused.why;
  $("why").textContent = why ? reason(why) : "";
  const canAsk = you.asks.length > 0;
  $("ask").hidden = !canAsk;
  if (canAsk) renderAsk();
  renderPasses();
  $("claim").disabled = !you.claimable.length;
  const c = g.clock || {};
  const waiting = c.wait && c.wait.seat === you.seat;
  $("wait").hidden = !!waiting;
  $("wait").disabled = !!c.wait || (S.room.you.waits_left || 0) <= 0;
  $("wait").textContent = `Wait (${S.room.you.waits_left || 0} left)`;
  $("ready").hidden = !waiting;
  $("aid").hidden = !S.room.aid;
  const myTurn = g.state.turn === you.seat;
  const a = document.activeElement;
  if (myTurn && !S.wasMyTurn) {
    cue();
    announce("Your turn" + (why ? ": " + reason(why) : "."));
    // a keyboard player whose focus went nowhere starts at the first choice
    if (S.keyboard && (!a || a === document.body || a === box || !visible(a))) {
      const b = firstChoice();
      if (b) b.focus();
    }
  }
  S.wasMyTurn = myTurn;
}

// The first thing the seat may do now: a card to ask for, a seat to pass
// to or choose, the claim button (null when it is not the seat's turn).
function firstChoice() {
  const g = S.game;
  if (!g || !g.you || g.result || g.state.turn !== g.you.seat) return null;
  for (const id of ["ask-cards", "passes", "claim"]) {
    const el = $(id);
    if (!visible(el)) continue;
    const b = el.matches("button") ? (el.disabled ? null : el) : rove(el);
    if (b) return b;
  }
  return null;
}

function renderAsk() {
  const g = S.game, you = g.you;
  const legal = new Map();
  for (const a of you.asks) {
    if (!legal.has(a.card)) legal.set(a.card, []);
    legal.get(a.card).push(a.target);
  }
  const refusedCards = (you.refused && you.refused.cards) || {};
  const cardsBox = $("ask-cards");
  cardsBox.replaceChildren();
  for (const [set, cards] of Object.entries(g.sets)) {
    if (!g.state.live.includes(set)) continue;
    const askable = cards.filter((c) => legal.has(c));
    const row = setRow(set);
    if (!askable.length) {
      const note = document.createElement("span");
      note.className = "note";
      // no card of it may be asked: the referee's reason, for the whole set
      const why = refusedCards[cards[0]] || "no_base_card";
      note.textContent = why === "own_card" ? "you hold all of it" : reason(why);
      row.append(note);
      cardsBox.append(row);
      continue;
    }
    for (const c of cards) {
      const b = cardFace(c, "button");
      if (!legal.has(c)) {
        b.disabled = true;
        const why = reason(refusedCards[c] || "own_card");
        b.title = why;
        b.setAttribute("aria-label", cardInfo(c).words + ": " + why);
      } else {
        b.setAttribute("aria-pressed", String(S.pick.card === c));
        b.addEventListener("click", () => {
          S.pick.card = c;
          if (!legal.get(c).includes(S.pick.target)) S.pick.target = null;
          keepFocus(renderAsk);
        });
      }
      row.append(b);
    }
    cardsBox.append(row);
  }
  const targets = $("ask-targets");
  targets.replaceChildren();
  const refusedSeats = (you.refused && you.refused.targets) || {};
  const players = g.state.hand_sizes.length;
  for (let n = 1; n <= players; n++) {
    if (n === you.seat) continue;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "target";
    b.dataset.seat = String(n);
    const ok = S.pick.card ? legal.get(S.pick.card).includes(n)
      : you.asks.some((a) => a.target === n);
    const why = refusedSeats[String(n)];
    b.textContent = seatName(n) + (why ? ` (${reason(why)})` : "");
    b.disabled = !ok;
    b.setAttribute("aria-pressed", String(S.pick.target === n));
    b.addEventListener("click", () => { S.pick.target = n; keepFocus(renderAsk); });
    targets.append(b);
  }
  rove(cardsBox);
  rove(targets);
  const go = $("ask-go");
  go.disabled = !(S.pick.card && S.pick.target);
  go.textContent = S.pick.card && S.pick.target
    ? `Ask ${seatName(S.pick.target)} for the ${cardInfo(S.pick.card).words}` : "Ask";
}

function renderPasses() {
  const you = S.game.you, box = $("passes");
  box.replaceChildren();
  const list = you.passes.length ? you.passes : you.choices;
  if (!list.length) return;
  const verb = you.passes.length ? "Pass the turn to" : "Let ask next:";
  const p = document.createElement("p");
  p.className = "step";
  p.textContent = verb;
  box.append(p);
  box.setAttribute("aria-label", verb);
  for (const n of list) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "target";
    b.dataset.seat = String(n);
    b.textContent = seatName(n);
    b.addEventListener("click", () =>
      act({ action: you.passes.length ? "pass" : "choose", target: n }));
    box.append(b);
  }
  rove(box);
}

function lineOf(e) {
  const who = (n) => seatName(n);
  switch (e.action) {
  case "ask":
    return `${who(e.seat)} asked ${who(e.target)} for the ${cardInfo(e.card).words}: ` +
           (e.answer === "hit" ? "got it" : "no");
  case "claim": {
    const truth = e.truth ? Object.entries(e.truth)
      .map(([c, s]) => `${cardInfo(c).label} ${who(s)}`).join(", ") : "";
    const team = teamOf(e.seat), other = team === "A" ? "B" : "A";
    const meaning = { won: `team ${team} scores it`, lost: `team ${other} scores it`,
                      cancelled: "nobody scores it", "point-off": `team ${team} loses a point` };
    return `${who(e.seat)} claimed ${setLabel(e.set)}: ${e.outcome}` +
           (meaning[e.outcome] ? `, ${meaning[e.outcome]}` : "") +
           (truth ? ` (held: ${truth})` : "");
  }
  case "pass":
    return `${who(e.seat)} passed the turn to ${who(e.target)}`;
  case "choose":
    return `${who(e.seat)} chose ${who(e.target)} to ask next`;
  default:
    return e.line || e.action;
  }
}

function renderHistory() {
  const all = S.game.history;
  const full = S.room.options && S.room.options.history === "full";
  const shown = full || S.game.result ? all : all.filter((e) => e.action === "ask").slice(-1);
  const ol = $("history");
  ol.replaceChildren();
  for (const e of shown.slice().reverse()) {
    const li = document.createElement("li");
    if (typeof e.n === "number") li.value = e.n;
    li.textContent = lineOf(e) + (e.stand_in ? " (a bot played for them)" : "");
    ol.append(li);
  }
  $("history-box").querySelector("summary").textContent =
    full || S.game.result ? "History" : "The last question";
}

function showEvent(e) {
  const text = lineOf(e);
  announce(text);
  const last = $("last");
  last.replaceChildren();
  if (e.action === "ask") {
    const card = cardFace(e.card);
    card.classList.add(e.answer === "hit" ? "moving" : "missed");
    const t = document.createElement("span");
    t.textContent = e.answer === "hit"
      ? ` ${seatName(e.target)} \u2192 ${seatName(e.seat)}`
      : ` ${seatName(e.target)} has none: the turn passes`;
    last.append(card, t);
  } else {
    last.textContent = text;
  }
}

function statsOf() {
  const players = S.game.state.hand_sizes.length;
  const rows = [];
  for (let n = 1; n <= players; n++)
    rows.push({ asks: 0, hits: 0, right: 0, wrong: 0 });
  for (const e of S.game.history) {
    const r = rows[e.seat - 1];
    if (e.action === "ask") { r.asks++; if (e.answer === "hit") r.hits++; }
    if (e.action === "claim") { if (e.outcome === "won") r.right++; else r.wrong++; }
  }
  return rows;
}

function renderOver() {
  const g = S.game, box = $("over");
  box.hidden = !g.result;
  if (!g.result) return;
  const st = g.state;
  const words = { A: "Team A wins", B: "Team B wins", draw: "A draw",
                  aborted: "The game was ended" };
  const result = `${words[g.result] || g.result}, ${st.score[0]} to ${st.score[1]}`;
  $("o-result").textContent = result;
  $("o-match").textContent = matchText(S.room.match);
  // told once the room frame after the last event has counted the game
  if (S.overTold !== g.id && S.room.state === "over") {
    S.overTold = g.id;
    announce(`Game over: ${result}.` + (S.room.match ? " " + matchText(S.room.match) + "." : ""));
  }
  const table = $("o-stats");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["Player", "Team", "Asks", "Hits", "Claims right", "Claims wrong"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  statsOf().forEach((r, i) => {
    const tr = table.insertRow();
    for (const v of [seatName(i + 1), teamOf(i + 1), r.asks, r.hits, r.right, r.wrong])
      tr.insertCell().textContent = String(v);
  });
  const a = $("o-record");
  a.hidden = !g.record;
  if (g.record) a.href = g.record;
  $("again").hidden = !S.room.you.host;
  $("again").disabled = S.room.seats.some((s) => s.kind === "empty");
  $("o-next").textContent = S.room.you.host
    ? (S.room.seats.some((s) => s.kind === "empty")
      ? "Fill the empty seats below to play again." : "")
    : "The host starts the next game.";
}

function renderAid() {
  const f = S.aid, box = $("aid-grid");
  box.replaceChildren();
  if (!f || !f.cards) return;
  const players = S.game.state.hand_sizes.length;
  const table = document.createElement("table");
  table.className = "aid";
  const head = table.insertRow();
  head.insertCell().textContent = "card";
  for (let n = 1; n <= players; n++) {
    const th = document.createElement("th");
    th.textContent = seatName(n);
    head.append(th);
  }
  for (const [card, seats] of Object.entries(f.cards)) {
    const tr = table.insertRow();
    tr.insertCell().textContent = cardInfo(card).label;
    for (let n = 1; n <= players; n++) {
      const p = seats[String(n)];
      const td = tr.insertCell();
      td.textContent = p === undefined ? "" : p === 1 ? "\u2713" : p === 0 ? "\u00B7"
        : Math.round(p * 100) + "%";
    }
  }
  box.append(table);
  $("aid-box").open = true;
}

// ---- chat -----------------------------------------------------------------

// A chat line: the name and the text as text nodes, never HTML.
function addChat(f) {
  const li = document.createElement("li");
  const who = document.createElement("span");
  who.className = "from";
  who.textContent = f.from + (f.seat ? ` (seat ${f.seat})` : " (watching)") + ": ";
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = f.text;
  li.append(who, text);
  $("chat").append(li);
  while ($("chat").children.length > 100) $("chat").firstChild.remove();
  $("chat").scrollTop = $("chat").scrollHeight;
  // our own line is back: the field may be cleared (a refused one stays to be mended)
  if (S.room && f.from === S.room.you.name && f.text === S.chatSent) {
    if ($("chat-text").value.trim() === f.text) $("chat-text").value = "";
    S.chatSent = null;
  }
}

function sendChat(e) {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text) return;
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > 200) {
    showError(`A chat line is at most 200 bytes; this one is ${bytes} ` +
              "(accented letters take 2, many symbols 3 or 4).");
    return;
  }
  S.chatSent = text;
  send({ type: "chat", text });
}

// ---- the whole page ---------------------------------------------------------

// The page from the last frames. In the lobby, the room; during a game,
// the table; after one, the table with the result on top and the room (the
// next game's seats) below it.
function render() {
  if (!S.room) return;
  keepFocus(() => {
    $("home").hidden = true;
    const playing = S.room.state !== "lobby" && S.game;
    $("room").hidden = S.room.state === "playing" && !!S.game;
    if (!$("room").hidden) renderRoom();
    $("table").hidden = !playing;
    if (playing) renderTable();
    $("chat-box").hidden = !S.room.chat;
  }, $("actions"), firstChoice);
}

// a short tone on the turn's start, unless muted (no file: Web Audio)
let audio = null;
function cue() {
  if (store.get("muted") === "1") return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch { /* no audio here */ }
}

// One name for the toggle ("Mute turn sound"), its state in aria-pressed
// and in its look; kept in the browser's storage.
function renderMute() {
  $("mute").setAttribute("aria-pressed", String(store.get("muted") === "1"));
}

function wire() {
  $("create").addEventListener("submit", createRoom);
  $("c-preset").addEventListener("change", explainRules);
  $("join").addEventListener("submit", (e) => {
    e.preventDefault();
    joinRoom($("j-code").value.trim().toUpperCase());
  });
  $("refresh").addEventListener("click", () => send({ type: "lobby" }));
  $("copy-link").addEventListener("click", () => {
    navigator.clipboard?.writeText($("r-link").href).then(() => status("link copied"),
                                                           () => {});
  });
  $("fill").addEventListener("click", () => send({ type: "fill" }));
  $("shuffle").addEventListener("click", () => send({ type: "shuffle" }));
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("again").addEventListener("click", () => send({ type: "start" }));
  $("stand").addEventListener("click", () => send({ type: "stand" }));
  for (const id of ["leave", "o-leave", "t-leave"])
    $(id).addEventListener("click", () => send({ type: "leave" }));
  $("ask-go").addEventListener("click", () => {
    if (S.pick.card && S.pick.target)
      act({ action: "ask", card: S.pick.card, target: S.pick.target });
  });
  $("claim").addEventListener("click", () => {
    const g = S.game;
    if (!g || !g.you || !g.you.claimable.length) return;
    openClaim({
      sets: g.sets, claimable: g.you.claimable, hand: g.you.hand, me: g.you.seat,
      players: g.state.hand_sizes.length, seatName,
      onClaim: (set, holders) => act({ action: "claim", set, holders }),
    });
  });
  $("wait").addEventListener("click", () => send({ type: "wait" }));
  $("ready").addEventListener("click", () => send({ type: "ready" }));
  $("aid").addEventListener("click", () => send({ type: "aid" }));
  $("mute").addEventListener("click", () => {
    store.set("muted", store.get("muted") === "1" ? "0" : "1");
    renderMute();
  });
  $("chat-form").addEventListener("submit", sendChat);
  $("sizes").addEventListener("click", askSizes);
  // keyboard or pointer: a keyboard player's focus is looked after (keys.js)
  document.addEventListener("keydown", () => { S.keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { S.keyboard = false; }, true);
  window.addEventListener("hashchange", () => {
    const code = hashRoom();
    if (code && !S.room) $("j-code").value = code;
  });
  setInterval(() => { if (S.game && !$("table").hidden) renderClock(); }, 250);
  // the open rooms, kept fresh while the home page shows
  setInterval(() => { if (!$("home").hidden && S.open) send({ type: "lobby" }); }, 5000);
  renderMute();
}

wire();
connect();
