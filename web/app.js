// app.js - the browser table: joins the modules. Frames from the server
// (conn.js) go into the state (state.js); the event handling here says
// what happened (the live region, the turn's tone, motion) and then draws
// the page from the state (home.js, room.js, table.js, aid.js), which has no
// side effects. Everything shown comes in the server's frames (legal
// actions, reasons, claim truths, the scoresheet, the rules' words); the
// page re-implements no rule. Names and chat are set as text, never as HTML.
import { likeliest, renderAid } from "./aid.js";
import { openClaim } from "./claim.js";
import { cardInfo, reason, setLabel } from "./cards.js";
import { connection } from "./conn.js";
import { explainChoice, fillCreateForm, readCreate, renderLobby, showHome } from "./home.js";
import { icon } from "./icons.js";
import { keepFocus, visible } from "./keys.js";
import { newReview, renderReview, steps, takeFrame, wants } from "./review.js";
import { hostLine, matchText, renderRoom } from "./room.js";
import { sounds } from "./sound.js";
import { apply, forget, hostName, isMyTurn, mySeat, newState, seatName } from "./state.js";
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
let hintPending = false; // likewise a hint
let claiming = null;    // the open claim dialog (claim.js), told of a new aid and position
let claimSent = null;   // the last claim sent: {id, set, holders, hand}, to make again if stale
const name = (n) => seatName(S, n);

// (the stall's times, "QUIET,ANSWER" in ms, may be set in localStorage's
// lit.liveness: the browser tests shorten them)
const [quiet, answer] = (store.get("liveness") || "20000,10000").split(",").map(Number);
const conn = connection({ onFrame: receive, onStatus: connecting, room: () => pageRoom(),
                          quiet, answer });
const sound = sounds({
  muted: () => store.get("muted") === "1",
  onLocked: (locked) => { $("sound-hint").hidden = !locked; },
});

function hashRoom() {
  const m = /room=([A-Za-z0-9]{6})/.exec(location.hash);
  return m ? m[1].toUpperCase() : null;
}

// The room the page is in, or is to go back into.
function pageRoom() {
  return S.code || hashRoom() || store.get("current");
}

function hashGame() {
  const m = /game=([A-Za-z0-9]{16})/.exec(location.hash);
  return m ? m[1].toUpperCase() : null;
}

function send(msg) {
  conn.send(msg);
}

// An action of the seat on the position of SEQ (by default the last frame
// seen); returns its id. The player has acted: a bot's move for them is
// no longer news.
function act(fields, seq = S.seq) {
  ids += 1;
  const id = "w" + Date.now().toString(36) + "-" + ids;
  S.stoodIn = null;
  send({ type: "act", seq, id, ...fields });
  return id;
}

function status(text) {
  $("status").textContent = text;
}

// Whether the server has welcomed this page on its socket. Until it has,
// creating or joining a room waits (its buttons off): a message sent
// before the socket is open would go nowhere, and the click with it.
function connected(on) {
  for (const id of ["create-room", "join-room", "invite-join"]) {
    $(id).disabled = !on;
    $(id).title = on ? "" : "Connecting to the server…";
  }
}

// The connection's own news (connecting, lost): said, and not connected.
function connecting(text) {
  status(text);
  connected(false);
}

// An error in a banner for six seconds, as a sentence (the server's texts
// begin in lower case and end without a stop), below the header so that
// its buttons stay in reach (at the top of the screen once the header is
// scrolled away).
function showError(text) {
  if (text) text = text[0].toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
  placeError();
  $("error").textContent = text;
  if (text) setTimeout(() => { if ($("error").textContent === text) $("error").textContent = ""; },
                       6000);
}

function placeError() {
  const header = document.querySelector("header").getBoundingClientRect().bottom;
  $("error").style.top = `${Math.max(header, 0) + 8}px`;
}
addEventListener("scroll", () => { if ($("error").textContent) placeError(); }, { passive: true });

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
  if (["hint", "error", "welcome"].includes(f.type)) hintPending = false; // before it is drawn
  for (const h of apply(S, f)) happened(h);
  if (["event", "catchup", "game"].includes(f.type)) followClaim();
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
    connected(true);
    fillCreateForm(S.catalogue);
    resume();
    if (hashGame()) openReview(hashGame());
    else if (S.review) send({ type: "replay", game: S.review.id });
    break;
  case "joined":
    store.set("token." + h.frame.room, h.frame.token);
    store.set("current", h.frame.room);
    store.set("name", h.frame.name);
    if (hashRoom() !== h.frame.room) history.replaceState(null, "", "#room=" + h.frame.room);
    break;
  case "catchup":
    standIn(h.events);
    render();
    break;
  case "room":
  case "game":
    render();
    break;
  case "event":
    standIn([h.event]);
    announce(lineOf(S, h.event) + (h.event.stand_in ? " (a bot played for them)" : ""));
    render();
    requestAnimationFrame(() => animate(S, h.event)); // after the layout of this render
    break;
  case "clock":
    if (h.began) announce(`${h.wait.name} asked to wait: play is held.`);
    if (h.ended) announce("Play goes on.");
    render();
    break;
  case "aid":
    if (S.aidOpen) renderAid(S, name);
    if (claiming) claiming.dialog.refresh();
    break;
  case "hint":
    if (S.hint) {
      const a = S.hint.action;
      if (a.action === "ask") S.pick = { card: a.card, target: a.target }; // one press of Ask
      announce("Hint: " + hintText(S.hint) + ".");
    }
    render();
    break;
  case "replay":
  case "sheet":
  case "review":
    if (S.review && h.frame.game === S.review.id) {
      takeFrame(S.review, h.frame);
      askReview();
      render();
    }
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

// A hint in words, with why: "ask Bo for the queen of hearts (hits 62%)".
function hintText(h) {
  const a = h.action;
  const move = a.action === "ask" ? `ask ${name(a.target)} for the ${cardInfo(a.card).words}`
    : a.action === "claim" ? `claim the ${setLabel(a.set)}: ` +
      Object.entries(a.holders).map(([c, s]) => `${cardInfo(c).label} ${name(s)}`).join(", ")
    : a.action === "pass" ? `pass the turn to ${name(a.target)}`
    : `let ${name(a.target)} ask next`;
  if (typeof h.chance !== "number") return move;
  const pct = Math.round(100 * h.chance);
  return `${move} (${a.action === "ask" ? "hits" : "right"}${h.at_most ? " at most" : ""} ${pct}%)`;
}

// A bot's move for this page's seat (its time ran out, or it was away) is
// told until the player acts again (S.stoodIn, drawn by table.js).
function standIn(events) {
  for (const e of events)
    if (e.stand_in && e.seat === mySeat(S)) S.stoodIn = e.stand_in;
}

// The claim dialog, open or opened again (START: a claim refused as stale,
// MOVED: say the game moved on); it claims on the position it shows.
function openClaimDialog(start = null, moved = false) {
  const g = S.game;
  if (!g || !g.you || g.result || !g.you.claimable.length) return false;
  if (S.room.aid && !S.aid && !aidPending) { // for the likeliest placement
    aidPending = true;
    send({ type: "aid" });
  }
  const dialog = openClaim({
    sets: g.sets, claimable: g.you.claimable, hand: g.you.hand, seq: S.seq, me: g.you.seat,
    players: g.state.hand_sizes.length, seatName: name, start, moved,
    onClaim: (set, holders, seq) => {
      const hand = [...S.game.you.hand];
      claimSent = { id: act({ action: "claim", set, holders }, seq), set, holders, hand };
    },
    likely: (set) => likeliest(S, set),
  });
  claiming = { dialog, game: g.id, at: g.state.actions };
  return true;
}

// The open claim dialog follows the game: a new position is taken into it
// (the player is told); a game over or another game closes it.
function followClaim() {
  const g = S.game, c = claiming;
  if (!c || !$("claim-dialog").open) return;
  if (!g || g.id !== c.game || !g.you || g.result) {
    $("claim-dialog").close();
    return;
  }
  if (g.state.actions === c.at) return;
  c.at = g.state.actions;
  c.dialog.update({ claimable: g.you.claimable, hand: g.you.hand, seq: S.seq });
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
  keepGame();
  announce(`Game over: ${resultText(S)}.` +
           (S.room.match ? " " + matchText(S.room.match) + "." : ""));
}

// The errors a review's questions may get (docs/PROTOCOL.md): the game
// cannot be reviewed (said where its figures would be; nothing more is
// asked), the marks cannot be made here, or ask again in a moment.
const REVIEW_FATAL = ["bad_game", "no_game", "unfinished", "no_records", "too_long", "bad_step"];
const REVIEW_LATER = ["busy", "too_many_messages"];
const REVIEW_FAILED = ["server_error", "store_error", "bad_seat", "bad_message"];

function onError(f) {
  const R = S.review;
  if (R && REVIEW_FATAL.includes(f.error)) {
    R.error = f.text || f.error;
    render();
    showError(R.error);
    return;
  }
  if (R && f.error === "review_not_offered") {
    R.marksError = f.text || f.error;
    render();
    return;
  }
  if (R && REVIEW_LATER.includes(f.error) && (R.sheetAsked || R.marksAsked !== null)) {
    R.sheetAsked = null;
    R.marksAsked = null;
    setTimeout(askReview, 1000);
    return;
  }
  // any other refusal of what the review asked for (server_error,
  // store_error...): said, and not asked again for that seat and step,
  // where the page had waited for ever ("working them out...")
  if (R && REVIEW_FAILED.includes(f.error) && (R.sheetAsked || R.marksAsked !== null)) {
    const why = f.text || reason(f.error);
    if (R.marksAsked !== null) R.marksError = `The marks could not be made: ${why}.`;
    if (R.sheetAsked) R.sheetFailed = R.sheetAsked;
    R.sheetAsked = null;
    R.marksAsked = null;
    render();
    showError(`The review's server could not answer: ${why}.`);
    return;
  }
  if (["bad_text", "too_fast", "chat_off"].includes(f.error)) chatSent = null;
  if (f.error === "replaced") {
    conn.stop();
    status("this seat is open in another window");
  }
  if ((f.error === "bad_token" || f.error === "no_room") && !S.room) {
    if (S.code) store.del("token." + S.code);
    leaveRoom();
  }
  if (f.error === "stale_state") {
    // the frames that moved the game came before this answer: a claim is
    // offered again on the new position, with what the player gave
    if (claimSent && f.id === claimSent.id && openClaimDialog(claimSent, true)) return;
    showError(f.id === (claimSent && claimSent.id)
      ? "The game moved on before your claim reached it: the claim was not made."
      : "The game moved on before your move reached it: look again, and play again.");
    return;
  }
  showError(f.id ? `Your move was not made: ${f.text || reason(f.error)}.` : f.text || f.error);
}

// After connecting: back into the room we were in, else home (the join
// screen of a room whose link was opened).
function resume() {
  const code = pageRoom();
  const token = code && store.get("token." + code);
  if (code && token) {
    const msg = { type: "resume", room: code, token };
    if (S.game && S.code === code && S.seq > 0) msg.seq = S.seq;
    send(msg);
  } else if (!hashGame()) {
    home();
  }
}

// ---- the review of a finished game ----------------------------------------------

function openReview(id) {
  S.review = newReview(id);
  if (S.game && S.game.you && S.game.id === id) S.review.seat = S.game.you.seat;
  if (hashGame() !== id) history.replaceState(null, "", "#game=" + id);
  send({ type: "replay", game: id });
  render();
}

function closeReview() {
  S.review = null;
  history.replaceState(null, "", S.code ? "#room=" + S.code : location.pathname);
  $("review").hidden = true;
  if (S.room) render();
  else home();
}

// What the review needs next: a sheet, marks (one of each at a time). A
// sheet counts as ten messages against the server's rate (two a second):
// while the player steps on, only the step shown is asked for, at most
// every 600 ms.
let sheetAt = -1e9, sheetTimer = null;
function askReview() {
  const R = S.review;
  if (!R || R.error) return;
  for (const msg of wants(R)) {
    if (msg.type === "sheet") {
      const wait = sheetAt + 600 - performance.now();
      if (wait > 0) {
        sheetTimer = sheetTimer || setTimeout(() => { sheetTimer = null; askReview(); }, wait);
        continue;
      }
      sheetAt = performance.now();
      R.sheetAsked = `${msg.seat}/${msg.after}`;
    }
    if (msg.type === "review") {
      if (R.marksError) continue;
      R.marksAsked = msg.seat;
    }
    send(msg);
  }
}

function goStep(k) {
  const R = S.review;
  if (!R || !R.replay) return;
  R.step = Math.max(0, Math.min(steps(R), k));
  askReview();
  render();
}

function viewSeat(n) {
  S.review.seat = n;
  askReview();
  render();
}

// The games this browser played, newest first (kept in localStorage), for
// the home page's list of reviews.
function keepGame() {
  const g = S.game;
  if (!g || !g.result || !g.record) return;
  const games = myGames().filter((x) => x.id !== g.id);
  games.unshift({ id: g.id, at: Date.now(), result: resultText(S), rules: g.rules });
  store.set("games", JSON.stringify(games.slice(0, 30)));
}

// The kept list, whatever the storage holds: only entries with a game id.
function myGames() {
  let games = [];
  try { games = JSON.parse(store.get("games") || "[]"); } catch { games = []; }
  return (Array.isArray(games) ? games : [])
    .filter((x) => x && typeof x.id === "string" && /^[A-Z0-9]{16}$/.test(x.id));
}

function renderMyGames() {
  const ol = $("my-games");
  ol.replaceChildren();
  for (const x of myGames()) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "#game=" + x.id;
    a.textContent = `${new Date(x.at).toLocaleString()}: ${x.result} (${x.rules})`;
    a.setAttribute("aria-label", `Review the game of ${new Date(x.at).toLocaleString()}`);
    li.append(a);
    ol.append(li);
  }
  $("my-games-box").hidden = !ol.children.length;
}

function home() {
  showHome({ invite: S.room ? null : hashRoom(), name: store.get("name") });
  renderMyGames();
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

// Leaving: at once, but for a player during a game, who gives up the seat
// for good (docs/PROTOCOL.md, "leave"): asked first.
function leave() {
  const g = S.game;
  if (!S.room || S.room.state !== "playing" || !g || !g.you || g.result) {
    send({ type: "leave" });
    return;
  }
  $("ld-text").textContent = "A bot will take your seat for the rest of this game. You can come " +
    "back only as a spectator, unless the host gives you the seat again." +
    (S.room.you.host ? " You host the room: the role passes to another player." : "");
  $("leave-dialog").showModal();
  $("ld-stay").focus();
}

// ---- home: create, join -------------------------------------------------------

function myName() {
  const text = $("name").value.trim();
  // the field counts letters, the server bytes (docs/PROTOCOL.md: 1 to 32)
  const bytes = new TextEncoder().encode(text).length;
  if (text && bytes <= 32) return text;
  $("name").focus(); // first: the banner goes under the header where it is now
  showError(!text ? "Pick a name first." : `A name is at most 32 bytes; this one is ${bytes} ` +
            "(accented letters take 2, many symbols 3 or 4).");
  return "";
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
  if (S.review) {
    for (const id of ["home", "room", "table", "chat-box"]) $(id).hidden = true;
    const was = $("review").hidden;
    $("review").hidden = false;
    keepFocus(() => renderReview(S.review, { go: goStep, view: viewSeat }));
    renderNextGame();
    if (was) scrollTo(0, 0);
    return;
  }
  $("review").hidden = true;
  if (!S.room) return;
  const tableWasHidden = $("table").hidden, fromHome = !$("home").hidden;
  keepFocus(() => {
    $("home").hidden = true;
    const playing = S.room.state !== "lobby" && S.game;
    $("room").hidden = S.room.state === "playing" && !!S.game;
    if (!$("room").hidden) renderRoom(S, send);
    $("table").hidden = !playing;
    if (playing) {
      renderTable(S, ui, { hostName: hostName(S), matchText });
      $("aid-box").hidden = !S.room.aid || !S.game.you || !S.aidOpen || !!S.game.result;
      $("hint").disabled = hintPending;
      $("hint-line").hidden = !S.hint || !isMyTurn(S);
      $("hint-line").textContent = S.hint ? "Hint: " + hintText(S.hint) : "";
      if (!$("aid-box").hidden) renderAid(S, name); // a closed scoresheet is not drawn
    }
    $("chat-box").hidden = !S.room.chat;
  }, $("actions"), () => firstChoice(S, visible));
  // a table coming into view starts at the top: the whole turn is in the screen
  if (tableWasHidden && !$("table").hidden) scrollTo(0, 0);
  // the room made or joined from the home page (whose button went with it):
  // the focus goes to the host's first step, or else to the room's heading
  const now = document.activeElement;
  if (fromHome && !$("room").hidden && (!now || now === document.body || !visible(now)))
    (visible($("fill")) ? $("fill") : $("r-title")).focus();
  document.title = S.room.state === "playing" && isMyTurn(S) ? "Your turn · Literature"
    : "Literature";
  $("t-host").textContent = hostLine(S);
}

// Over the review: the room's next game has started (its turns are not to
// time out unseen), in the tab's title too, with the way back to the table.
function renderNextGame() {
  const g = S.game;
  const next = !!(S.room && S.room.state === "playing" && g && !g.result && g.id !== S.review.id);
  const mine = next && isMyTurn(S);
  $("rv-next").hidden = !next;
  $("rv-next-text").textContent = mine ? "The next game has started \u2014 your turn."
    : "The next game has started.";
  document.title = mine ? "Your turn · Literature" : next ? "Next game · Literature" : "Literature";
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
  for (const id of ["leave", "o-leave", "t-leave"]) $(id).addEventListener("click", leave);
  $("ld-leave").addEventListener("click", () => {
    $("leave-dialog").close();
    send({ type: "leave" });
  });
  $("ld-stay").addEventListener("click", () => $("leave-dialog").close());
  $("ask-go").addEventListener("click", () => {
    if (S.pick.card && S.pick.target)
      act({ action: "ask", card: S.pick.card, target: S.pick.target });
  });
  $("claim").addEventListener("click", () => openClaimDialog());
  $("hint").addEventListener("click", () => {
    if (hintPending) return;
    hintPending = true;
    send({ type: "hint" });
    render();
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
  window.addEventListener("hashchange", () => {
    const id = hashGame();
    if (id && (!S.review || S.review.id !== id)) openReview(id);
    else if (!id && S.review) closeReview();
    else if (!S.room && !S.review) home();
  });
  // the review: its buttons, its slider, and the arrow keys outside a field
  $("rv-first").addEventListener("click", () => goStep(0));
  $("rv-back").addEventListener("click", () => goStep(S.review.step - 1));
  $("rv-forward").addEventListener("click", () => goStep(S.review.step + 1));
  $("rv-last").addEventListener("click", () => goStep(steps(S.review)));
  $("rv-step").addEventListener("input", () => goStep(Number($("rv-step").value)));
  $("rv-close").addEventListener("click", closeReview);
  $("rv-to-table").addEventListener("click", closeReview);
  document.addEventListener("keydown", (e) => {
    if (!S.review || !S.review.replay || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t && (t.matches("input, select, textarea") || t.closest("[data-roving]"))) return;
    const to = { ArrowLeft: S.review.step - 1, ArrowRight: S.review.step + 1, Home: 0,
                 End: steps(S.review) }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goStep(to);
  });
  setInterval(() => { if (S.game && !$("table").hidden) renderClock(S); }, 250);
  // the open rooms, kept fresh while the home page shows
  setInterval(() => { if (!$("home").hidden && conn.open) send({ type: "lobby" }); }, 5000);
  theme();
  renderMute();
}

wire();
conn.start();
