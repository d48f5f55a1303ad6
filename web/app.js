// app.js - the browser table: joins the modules. Frames from the server
// (conn.js) go into the state (state.js); the event handling here says
// what happened (the live region, the turn's tone, motion) and then draws
// the page from the state (home.js, room.js, table.js, aid.js), which has no
// side effects. Everything shown comes in the server's frames (legal
// actions, reasons, claim truths, the scoresheet, the rules' words); the
// page re-implements no rule. Names and chat are set as text, never as HTML.
import { likeliest, renderAid } from "./aid.js";
import { openClaim } from "./claim.js";
import { reason } from "./cards.js";
import { connection } from "./conn.js";
import { explainChoice, fillCreateForm, readCreate, renderLobby, showHome } from "./home.js";
import { icon } from "./icons.js";
import { keepFocus, visible } from "./keys.js";
import { hostLine, matchText, renderRoom } from "./room.js";
import { sounds } from "./sound.js";
import { apply, forget, hostName, isMyTurn, newState, seatName } from "./state.js";
import { animate, firstChoice, lineOf, renderClock, renderTable, resultText } from "./table.js";

const $ = (id) => document.getElementById(id);

// ---- storage: the seat token, the name, the theme and the sound ----------

const store = {
  get(k) { try { return localStorage.getItem("lit." + k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem("lit." + k, v); } catch { /* private mode */ } },
  del(k) { try { localStorage.removeItem("lit." + k); } catch { /* private mode */ } },
};

const S = newState();
let ids = 0, keyboard = false, chatSent = null, overTold = null;
let aidPending = false; // an aid asked for and not answered: one at a time
let claiming = null;    // the open claim dialog (claim.js), told of a new aid
const name = (n) => seatName(S, n);

const conn = connection({ onFrame: receive, onStatus: status });
const sound = sounds({
  muted: () => store.get("muted") === "1",
  onLocked: (locked) => { $("sound-hint").hidden = !locked; },
});

function hashRoom() {
  const m = /room=([A-Za-z0-9]{6})/.exec(location.hash);
  return m ? m[1].toUpperCase() : null;
}

function send(msg) {
  conn.send(msg);
}

function act(fields) {
  ids += 1;
  send({ type: "act", seq: S.seq, id: "w" + Date.now().toString(36) + "-" + ids, ...fields });
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

// ---- the event handling -------------------------------------------------------

function receive(f) {
  const wasMine = isMyTurn(S);
  for (const h of apply(S, f)) happened(h);
  if (["aid", "error", "welcome"].includes(f.type)) aidPending = false;
  if (["event", "catchup", "game", "aid"].includes(f.type)) askAid();
  const nowMine = isMyTurn(S);
  if (nowMine && !wasMine && ["game", "event", "catchup", "room"].includes(f.type)) {
    const why = S.game.you.refused && S.game.you.refused.why;
    sound.cue();
    announce("Your turn" + (why ? ": " + reason(why) : "."));
    // a keyboard player whose focus went nowhere starts at the first choice
    const a = document.activeElement;
    if (keyboard && (!a || a === document.body || a === $("actions") || !visible(a))) {
      const b = firstChoice(S, visible);
      if (b) b.focus();
    }
  }
  tellOver();
}

function happened(h) {
  switch (h.what) {
  case "welcome":
    status("connected");
    fillCreateForm(S.catalogue);
    resume();
    break;
  case "joined":
    store.set("token." + h.frame.room, h.frame.token);
    store.set("current", h.frame.room);
    store.set("name", h.frame.name);
    if (hashRoom() !== h.frame.room) history.replaceState(null, "", "#room=" + h.frame.room);
    break;
  case "room":
  case "game":
  case "catchup":
    render();
    break;
  case "event":
    announce(lineOf(S, h.event) + (h.event.stand_in ? " (a bot played for them)" : ""));
    render();
    animate(S, h.event);
    break;
  case "clock":
    if (h.began) announce(`${h.wait.name} asked to wait: play is held.`);
    if (h.ended) announce("Play goes on.");
    render();
    break;
  case "aid":
    renderAid(S, name);
    if (claiming) claiming.refresh();
    break;
  case "lobby":
    if (!$("home").hidden) renderLobby(h.frame, joinRoom);
    break;
  case "chat":
    addChat(h.frame);
    break;
  case "left":
  case "kicked":
    leaveRoom();
    if (h.what === "kicked") showError("The host asked you to leave the room.");
    break;
  case "closing":
    status("the server is restarting: reconnecting…");
    break;
  case "saved":
    status(h.frame.text);
    break;
  case "error":
    onError(h.frame);
    break;
  default:
    break;
  }
}

// The scoresheet, while open, follows the game: after every event it is
// asked for again (one question at a time; an answer for a position the
// game has left is dropped and asked again).
function askAid() {
  const g = S.game;
  if (!S.aidOpen || !S.room || !S.room.aid || !g || !g.you || g.result || S.aid || aidPending)
    return;
  aidPending = true;
  send({ type: "aid" });
}

// The game's end, told once the room frame after the last event has counted it.
function tellOver() {
  const g = S.game;
  if (!g || !g.result || !S.room || S.room.state !== "over" || overTold === g.id) return;
  overTold = g.id;
  announce(`Game over: ${resultText(S)}.` +
           (S.room.match ? " " + matchText(S.room.match) + "." : ""));
}

function onError(f) {
  if (["bad_text", "too_fast", "chat_off"].includes(f.error)) chatSent = null;
  if (f.error === "replaced") {
    conn.stop();
    status("this seat is open in another window");
  }
  if ((f.error === "bad_token" || f.error === "no_room") && !S.room) {
    if (S.code) store.del("token." + S.code);
    leaveRoom();
  }
  if (f.error === "stale_state") return; // the frame that moved the game is on its way
  showError(f.text || f.error);
}

// After connecting: back into the room we were in, else home (the join
// screen of a room whose link was opened).
function resume() {
  const code = S.code || hashRoom() || store.get("current");
  const token = code && store.get("token." + code);
  if (code && token) {
    const msg = { type: "resume", room: code, token };
    if (S.game && S.code === code && S.seq > 0) msg.seq = S.seq;
    send(msg);
  } else {
    home();
  }
}

function home() {
  showHome({ invite: S.room ? null : hashRoom(), name: store.get("name") });
  explainChoice(S.catalogue);
  send({ type: "lobby" });
}

function leaveRoom() {
  $("chat").replaceChildren();
  if (S.code) store.del("token." + S.code);
  store.del("current");
  forget(S);
  history.replaceState(null, "", location.pathname);
  home();
}

// ---- home: create, join -------------------------------------------------------

function myName() {
  const text = $("name").value.trim();
  if (!text) { showError("Pick a name first."); $("name").focus(); }
  return text;
}

function createRoom(e) {
  e.preventDefault();
  const n = myName();
  if (n) send({ type: "create", name: n, ...readCreate() });
}

function joinRoom(code) {
  const n = myName();
  if (!n || !code) return;
  const token = store.get("token." + code);
  if (token) send({ type: "resume", room: code, token });
  else send({ type: "join", room: code, name: n });
}

// ---- chat ----------------------------------------------------------------------

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
  if (S.room && f.from === S.room.you.name && f.text === chatSent) {
    if ($("chat-text").value.trim() === f.text) $("chat-text").value = "";
    chatSent = null;
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
  chatSent = text;
  send({ type: "chat", text });
}

// ---- the whole page ---------------------------------------------------------------

const ui = {
  pickCard(c) {
    S.pick.card = c;
    const targets = S.game.you.asks.filter((a) => a.card === c).map((a) => a.target);
    if (!targets.includes(S.pick.target)) S.pick.target = null;
    render();
  },
  pickTarget(n) {
    S.pick.target = n;
    if (S.pick.card && !S.game.you.asks.some((a) => a.card === S.pick.card && a.target === n))
      S.pick.card = null;
    render();
  },
  act,
};

// The page from the state. In the lobby, the room; during a game, the
// table; after one, the table with the result on top and the room (the
// next game's seats) below it.
function render() {
  if (!S.room) return;
  const tableWasHidden = $("table").hidden;
  keepFocus(() => {
    $("home").hidden = true;
    const playing = S.room.state !== "lobby" && S.game;
    $("room").hidden = S.room.state === "playing" && !!S.game;
    if (!$("room").hidden) renderRoom(S, send);
    $("table").hidden = !playing;
    if (playing) {
      renderTable(S, ui, { hostName: hostName(S), matchText });
      $("aid-box").hidden = !S.room.aid || !S.game.you || !S.aidOpen || !!S.game.result;
      renderAid(S, name);
    }
    $("chat-box").hidden = !S.room.chat;
  }, $("actions"), () => firstChoice(S, visible));
  // a table coming into view starts at the top: the whole turn is in the screen
  if (tableWasHidden && !$("table").hidden) scrollTo(0, 0);
  document.title = S.room.state === "playing" && isMyTurn(S) ? "Your turn · Literature"
    : "Literature";
  $("t-host").textContent = hostLine(S);
}

// ---- the theme and the sound toggles ------------------------------------------------

// The theme follows the system unless the toggle chose one (kept here).
function theme() {
  const chosen = store.get("theme");
  const dark = chosen ? chosen === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  const b = $("theme");
  b.setAttribute("aria-pressed", String(dark));
  b.replaceChildren(icon(dark ? "moon" : "sun"));
  b.title = dark ? "Dark theme (on)" : "Dark theme (off)";
}

function renderMute() {
  const muted = store.get("muted") === "1";
  $("mute").setAttribute("aria-pressed", String(muted));
  $("mute").replaceChildren(icon(muted ? "muted" : "sound"));
  $("mute").title = muted ? "Turn sound off" : "Turn sound on";
}

function wire() {
  $("create").addEventListener("submit", createRoom);
  for (const id of ["c-preset", "c-players", "c-misclaim", "c-history"])
    $(id).addEventListener("change", () => explainChoice(S.catalogue));
  $("join").addEventListener("submit", (e) => {
    e.preventDefault();
    joinRoom($("j-code").value.trim().toUpperCase());
  });
  $("invite").addEventListener("submit", (e) => {
    e.preventDefault();
    joinRoom(hashRoom());
  });
  $("invite-home").addEventListener("click", () => {
    history.replaceState(null, "", location.pathname);
    home();
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
  $("request").addEventListener("click", () =>
    send($("request").dataset.cancel ? { type: "request", cancel: true } : { type: "request" }));
  for (const id of ["leave", "o-leave", "t-leave"])
    $(id).addEventListener("click", () => send({ type: "leave" }));
  $("ask-go").addEventListener("click", () => {
    if (S.pick.card && S.pick.target)
      act({ action: "ask", card: S.pick.card, target: S.pick.target });
  });
  $("claim").addEventListener("click", () => {
    const g = S.game;
    if (!g || !g.you || !g.you.claimable.length) return;
    if (S.room.aid && !S.aid && !aidPending) { // for the likeliest placement
      aidPending = true;
      send({ type: "aid" });
    }
    claiming = openClaim({
      sets: g.sets, claimable: g.you.claimable, hand: g.you.hand, me: g.you.seat,
      players: g.state.hand_sizes.length, seatName: name,
      onClaim: (set, holders) => act({ action: "claim", set, holders }),
      likely: (set) => likeliest(S, set),
    });
  });
  $("wait").addEventListener("click", () => send({ type: "wait" }));
  $("ready").addEventListener("click", () => send({ type: "ready" }));
  $("aid").addEventListener("click", () => {
    S.aidOpen = !S.aidOpen;
    askAid();
    render();
    if (S.aidOpen) $("aid-box").scrollIntoView({ block: "nearest" });
  });
  $("sizes").addEventListener("click", () => {
    S.sizesAt = S.game.state.actions;
    const sizes = S.game.state.hand_sizes.map((n, i) => `${name(i + 1)} ${n}`).join(", ");
    announce(`Cards held: ${sizes}.`);
    render();
  });
  $("mute").addEventListener("click", () => {
    store.set("muted", store.get("muted") === "1" ? "0" : "1");
    renderMute();
  });
  $("theme").addEventListener("click", () => {
    store.set("theme", document.documentElement.dataset.theme === "dark" ? "light" : "dark");
    theme();
  });
  $("sound-hint").addEventListener("click", () => sound.unlock());
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", theme);
  $("chat-form").addEventListener("submit", sendChat);
  // keyboard or pointer: a keyboard player's focus is looked after (keys.js)
  document.addEventListener("keydown", () => { keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { keyboard = false; }, true);
  window.addEventListener("hashchange", () => { if (!S.room) home(); });
  setInterval(() => { if (S.game && !$("table").hidden) renderClock(S); }, 250);
  // the open rooms, kept fresh while the home page shows
  setInterval(() => { if (!$("home").hidden && conn.open) send({ type: "lobby" }); }, 5000);
  theme();
  renderMute();
}

wire();
conn.start();
