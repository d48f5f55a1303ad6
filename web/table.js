// table.js - the card table: the seats around the felt as the players sit
// (your seat at the bottom, the next to play on your left, teams
// alternating), the claimed sets in each team's pile in the middle, the
// last question and the last claim's truth under it, your hand grouped by
// set with the cards you may ask for outlined beside it, and the move bar.
// A whole turn happens here without scrolling: a card in the hand and an
// opponent on the felt (either first), then Ask. Rendering reads the state
// and the callbacks (ui) and changes nothing else; motion is started by the
// event handling (animate).
import { cardFace, cardInfo, reason, setLabel, setSymbol, teamOf } from "./cards.js";
import { icon } from "./icons.js";
import { rove } from "./keys.js";
import { countsShown, isMyTurn, mySeat, option, seatName, seatOf } from "./state.js";

const $ = (id) => document.getElementById(id);

// The seats in table order from the bottom (you, or seat 1 for a
// spectator), each with its place on an ellipse inside the felt: the
// plate's centre as CSS (left, top), the ellipse's radii the felt's half
// less half a plate (--plate-w, --plate-h), so no plate leaves the felt
// whatever the screen.
function places(S) {
  const n = S.game.state.hand_sizes.length, base = mySeat(S) || 1, out = [];
  for (let k = 0; k < n; k++) {
    const seat = ((base - 1 + k) % n) + 1;
    // from the bottom (90 degrees, y down) round to the left: the next to play
    const a = Math.PI / 2 + (2 * Math.PI * k) / n;
    const cos = Math.cos(a).toFixed(4), sin = Math.sin(a).toFixed(4);
    out.push({ seat, x: `calc(50% + ${cos} * (50% - var(--plate-w) / 2 - 2px))`,
               y: `calc(50% + ${sin} * (50% - var(--plate-h) / 2 - 2px))` });
  }
  return out;
}

// ---- the seats ------------------------------------------------------------

// What a seat's plate says: name, team, hand size when public, its state.
function plateText(S, n, counts) {
  const st = S.game.state, s = seatOf(S, n);
  let meta = `team ${teamOf(n)}`;
  if (counts) meta += ` · ${st.hand_sizes[n - 1]} cards`;
  if (s && s.kind === "human" && s.away) meta += " · a bot plays for now";
  else if (s && s.kind === "human" && !s.connected) meta += " · gone";
  return meta;
}

function plate(S, n, counts, target) {
  const g = S.game, st = g.state, me = mySeat(S);
  const el = document.createElement(target ? "button" : "div");
  const turn = st.turn === n && !g.result;
  el.className = `plate team${teamOf(n)}` + (turn ? " turn" : "") + (n === me ? " mine" : "");
  el.dataset.seat = String(n);
  if (target) el.type = "button";
  const name = document.createElement("span");
  name.className = "who";
  name.textContent = seatName(S, n) + (n === me ? " (you)" : "");
  const meta = document.createElement("span");
  meta.className = "meta";
  meta.textContent = plateText(S, n, counts);
  el.append(name, meta);
  if (turn) {
    const mark = document.createElement("span");
    mark.className = "marker";
    // (the words go out of sight, not out of the page, where a seat is
    // too narrow for them: style.css)
    const words = document.createElement("span");
    words.className = "markwords";
    words.textContent = " to play";
    mark.append(icon("turn"), words);
    const clock = document.createElement("span");
    clock.className = "seatclock";
    mark.append(clock);
    el.prepend(mark);
  }
  if (target) {
    el.setAttribute("aria-pressed", String(target.pressed));
    el.disabled = !target.ok;
    const why = target.why ? reason(target.why) : "";
    if (why) {
      // on the meta line: a refused seat is no taller than another
      el.title = why;
      const w = document.createElement("span");
      w.className = "platewhy";
      w.textContent = ` · ${why}`;
      meta.append(w);
    }
    el.setAttribute("aria-label", `${seatName(S, n)}, team ${teamOf(n)}` +
                    (counts ? `, ${st.hand_sizes[n - 1]} cards` : "") + (why ? `: ${why}` : ""));
    if (target.ok) el.addEventListener("click", target.onPick);
  }
  return el;
}

// The legal asks as card -> [targets].
function legalAsks(you) {
  const legal = new Map();
  for (const a of you.asks) {
    if (!legal.has(a.card)) legal.set(a.card, []);
    legal.get(a.card).push(a.target);
  }
  return legal;
}

function renderRing(S, ui) {
  const g = S.game, you = g.you, counts = countsShown(S), ring = $("ring");
  const asking = isMyTurn(S) && you.asks.length > 0;
  const legal = asking ? legalAsks(you) : null;
  const refused = (you && you.refused && you.refused.targets) || {};
  ring.replaceChildren();
  $("felt").dataset.players = String(g.state.hand_sizes.length);
  // the plates in the order the turn goes round from the bottom
  for (const p of places(S)) {
    let target = null;
    if (asking && p.seat !== you.seat) {
      const ok = S.pick.card ? legal.get(S.pick.card).includes(p.seat)
        : you.asks.some((a) => a.target === p.seat);
      target = { ok, pressed: S.pick.target === p.seat, why: refused[String(p.seat)] || null,
                 onPick: () => ui.pickTarget(p.seat) };
    }
    const el = plate(S, p.seat, counts, target);
    el.style.left = p.x;
    el.style.top = p.y;
    ring.append(el);
  }
  if (asking) rove(ring);
  // the tallest plate (a seat's line may wrap), for the box the claimed
  // sets keep clear of (style.css, .center)
  const tallest = Math.max(0, ...[...ring.children].map((el) => el.offsetHeight));
  $("felt").style.setProperty("--plate-reach", tallest + "px");
}

// ---- the claimed sets -------------------------------------------------------

// Each claim's set in the pile of the team that scored it, or in nobody's
// (cancelled, point-off): its suit and name, and whose claim decided it in
// its label; team A's chips solid, team B's dashed, nobody's dotted and
// struck through (more than colour).
// Draws into BOX the sets EVENTS claimed, WHO(n) naming the seats (the
// table's history, or a review's events up to its step).
export function drawPiles(box, events, who) {
  const piles = { A: [], none: [], B: [] };
  for (const e of events) {
    if (!e || e.action !== "claim") continue;
    const team = teamOf(e.seat), other = team === "A" ? "B" : "A";
    const to = e.outcome === "won" ? team : e.outcome === "lost" ? other : "none";
    const chip = document.createElement("span");
    chip.className = "setchip" + (to === "none" ? " nobody" : " team" + to);
    chip.dataset.set = e.set;
    chip.dataset.to = to;
    const sym = setSymbol(e.set);
    const name = document.createElement("span");
    name.className = "chipname" + (sym.red ? " red" : "");
    // "♥ low hearts"; where the felt is small "♥ low" ("eights" for the
    // eights and jokers), the rest hidden
    const [first, ...rest] = setLabel(e.set).split(" ");
    name.textContent = (sym.symbol ? sym.symbol + " " : "") + first;
    if (rest.length) {
      const word = document.createElement("span");
      word.className = "suitword";
      word.textContent = " " + rest.join(" ");
      name.append(word);
    }
    const by = document.createElement("span");
    by.className = "chipby";
    by.textContent = e.outcome === "won" ? `claimed by ${who(e.seat)}`
      : e.outcome === "lost" ? `${who(e.seat)} claimed wrong`
      : e.outcome === "cancelled" ? `${who(e.seat)}'s claim cancelled`
      : `point off: ${who(e.seat)}`;
    chip.append(name, by);
    piles[to].push(chip);
  }
  box.replaceChildren();
  for (const [to, chips] of Object.entries(piles)) {
    if (to === "none" && !chips.length) continue;
    const pile = document.createElement("div");
    pile.className = "pile" + (to === "none" ? " nobody" : " team" + to);
    pile.dataset.to = to;
    const head = document.createElement("span");
    head.className = "pilehead";
    if (to === "none") head.textContent = `Nobody's: ${chips.length}`;
    else {
      // "Team A: 3"; where the felt is small "A: 3" (the word hidden)
      const word = document.createElement("span");
      word.className = "teamword";
      word.textContent = "Team ";
      head.append(word, `${to}: ${chips.length}`);
    }
    pile.append(head, ...chips);
    box.append(pile);
  }
}

function renderPiles(S) {
  drawPiles($("claimed"), S.game.history, (n) => seatName(S, n));
}

// ---- the last question and the last claim ---------------------------------

// Event E in words, WHO(n) naming the seats; a claim with its truth unless
// WITHOUT_TRUTH (shown beside it).
export function eventLine(who, e, withoutTruth = false) {
  switch (e.action) {
  case "ask":
    return `${who(e.seat)} asked ${who(e.target)} for the ${cardInfo(e.card).words}: ` +
           (e.answer === "hit" ? "got it" : `${who(e.target)} has none`);
  case "claim": {
    const team = teamOf(e.seat), other = team === "A" ? "B" : "A";
    const meaning = { won: `team ${team} scores it`, lost: `team ${other} scores it`,
                      cancelled: "nobody scores it", "point-off": `team ${team} loses a point` };
    const truth = e.truth && !withoutTruth ? Object.entries(e.truth)
      .map(([c, s]) => `${cardInfo(c).label} ${who(s)}`).join(", ") : "";
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

export function lineOf(S, e, withoutTruth = false) {
  return eventLine((n) => seatName(S, n), e, withoutTruth);
}

// The last event: a question as its card moving (hit) or crossed (miss),
// with who asked whom; anything else in words.
function renderLast(S) {
  const h = S.game.history, e = h[h.length - 1], last = $("last");
  last.replaceChildren();
  if (!e) {
    last.textContent = S.game.result ? "" : `${seatName(S, S.game.state.turn)} asks first.`;
    return;
  }
  if (e.action === "ask") {
    const card = cardFace(e.card);
    card.classList.add(e.answer === "hit" ? "got" : "missed");
    const t = document.createElement("span");
    t.textContent = e.answer === "hit"
      ? ` ${seatName(S, e.seat)} got it from ${seatName(S, e.target)} \u2192 ${seatName(S, e.seat)}`
      : ` ${seatName(S, e.seat)} asked ${seatName(S, e.target)}: ${seatName(S, e.target)} has` +
        " none, the turn passes";
    last.append(card, t);
  } else {
    last.textContent = lineOf(S, e, true);
  }
}

// The last claim's truth, card by card, until the next claim.
function renderTruth(S) {
  const e = S.lastClaim, box = $("truth");
  box.hidden = !e;
  box.replaceChildren();
  if (!e) return;
  const head = document.createElement("span");
  head.className = "truthhead";
  const words = { won: "won", lost: "wrong: the opponents score it",
                  cancelled: "wrong: cancelled", "point-off": "wrong: a point off" };
  head.textContent = `${seatName(S, e.seat)} claimed ${setLabel(e.set)}, ` +
    `${words[e.outcome] || e.outcome}. Held by:`;
  box.append(head);
  for (const [c, s] of Object.entries(e.truth || {})) {
    const item = document.createElement("span");
    item.className = "truthitem";
    const face = cardFace(c);
    face.classList.add("mini");
    const who = document.createElement("span");
    who.textContent = seatName(S, s);
    item.append(face, who);
    box.append(item);
  }
}

// ---- the hand -----------------------------------------------------------------

// Each set you hold a card of: its name, then its cards in order: yours
// face up, the ones you may ask for now outlined (buttons), the others
// faint. The sets you hold nothing of are named on one line.
function renderHand(S, ui) {
  const g = S.game, box = $("hand");
  box.replaceChildren();
  if (!g.you) {
    box.textContent = "You are watching: no hand is shown.";
    return;
  }
  const mine = new Set(g.you.hand);
  const asking = isMyTurn(S) && g.you.asks.length > 0;
  const legal = legalAsks(g.you);
  const refused = (g.you.refused && g.you.refused.cards) || {};
  const none = [];
  for (const [set, cards] of Object.entries(g.sets)) {
    if (!g.state.live.includes(set)) continue;
    if (!cards.some((c) => mine.has(c))) { none.push(set); continue; }
    const group = document.createElement("div");
    group.className = "group";
    group.dataset.set = set;
    const label = document.createElement("span");
    label.className = "setname";
    const sym = setSymbol(set);
    label.textContent = (sym.symbol ? sym.symbol + " " : "") + setLabel(set);
    if (sym.red) label.classList.add("red");
    const row = document.createElement("div");
    row.className = "cards";
    for (const c of cards) {
      if (mine.has(c)) {
        const f = cardFace(c);
        f.classList.add("held");
        row.append(f);
      } else if (asking && legal.has(c)) {
        const b = cardFace(c, "button");
        b.classList.add("askable");
        b.setAttribute("aria-pressed", String(S.pick.card === c));
        b.setAttribute("aria-label", `ask for the ${cardInfo(c).words}`);
        b.addEventListener("click", () => ui.pickCard(c));
        row.append(b);
      } else {
        const f = cardFace(c);
        f.classList.add("ghost");
        const why = asking ? reason(refused[c] || "own_card") : "not held";
        f.title = why;
        f.setAttribute("aria-label", `${cardInfo(c).words}: ${why}`);
        row.append(f);
      }
    }
    group.append(label, row);
    if (cards.every((c) => mine.has(c))) {
      const note = document.createElement("span");
      note.className = "note";
      note.textContent = "all yours: claim it";
      group.append(note);
    }
    box.append(group);
  }
  if (!g.you.hand.length) {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = "You have no cards.";
    box.append(p);
  }
  if (none.length && g.you.hand.length) {
    const p = document.createElement("p");
    p.className = "note nonesets";
    p.textContent = "Not to ask for (you hold no card of them): " +
      none.map((s) => setLabel(s)).join(", ") + ".";
    box.append(p);
  }
  if (asking) rove(box);
}

// ---- the move bar ---------------------------------------------------------------

function renderActions(S, ui) {
  const g = S.game, you = g.you, box = $("actions");
  box.hidden = !you || !!g.result;
  if (!you || g.result) return;
  const why = you.refused && you.refused.why;
  const myTurn = isMyTurn(S);
  const { card, target } = S.pick;
  // a bot moved for this seat: said until the player acts again
  $("stood-in").hidden = !S.stoodIn;
  $("stood-in").textContent = S.stoodIn === "timeout" ? "Your time ran out: a bot played for you."
    : S.stoodIn ? "You were away: a bot played for you." : "";
  // what to do next, or the ask the button will make (its name stays "Ask")
  $("why").textContent = why && why !== "not_your_turn" ? reason(why)
    : myTurn && you.asks.length
      ? (card && target ? `Ask ${seatName(S, target)} for the ${cardInfo(card).words}?`
        : card ? `The ${cardInfo(card).words}: now an opponent on the table, then Ask.`
        : target ? `${seatName(S, target)}: now an outlined card of your hand, then Ask.`
        : "Your turn: an outlined card of your hand and an opponent on the table, then Ask.")
    : !myTurn ? `${seatName(S, g.state.turn)} to play.` : "";
  const go = $("ask-go");
  go.hidden = !you.asks.length;
  go.disabled = !(card && target);
  renderPasses(S, ui);
  $("claim").disabled = !you.claimable.length;
  const c = g.clock || {};
  const waiting = c.wait && c.wait.seat === you.seat;
  const left = S.room.you.waits_left || 0;
  $("wait").hidden = !!waiting;
  $("wait").disabled = !!c.wait || left <= 0;
  $("wait").textContent = `Wait (${left} left)`;
  $("ready").hidden = !waiting;
  $("aid").hidden = !S.room.aid;
  $("hint").hidden = !S.room.aid || !myTurn;
  $("aid").setAttribute("aria-pressed", String(S.aidOpen));
}

function renderPasses(S, ui) {
  const you = S.game.you, box = $("passes");
  box.replaceChildren();
  const list = you.passes.length ? you.passes : you.choices;
  box.hidden = !list.length;
  if (!list.length) return;
  const verb = you.passes.length ? "Pass the turn to" : "Let ask next:";
  const p = document.createElement("span");
  p.className = "step";
  p.textContent = verb;
  box.append(p);
  box.setAttribute("aria-label", verb);
  for (const n of list) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "target";
    b.dataset.seat = String(n);
    b.textContent = seatName(S, n);
    b.addEventListener("click", () => ui.act({ action: you.passes.length ? "pass" : "choose",
                                               target: n }));
    box.append(b);
  }
  rove(box);
}

// The first thing the seat may do now: a card to ask for, a seat to pass
// to or choose, the claim button (null when it is not the seat's turn).
export function firstChoice(S, visible) {
  if (!isMyTurn(S)) return null;
  for (const id of ["hand", "passes", "claim"]) {
    const el = $(id);
    if (!visible(el)) continue;
    const b = el.matches("button") ? (el.disabled ? null : el) : rove(el);
    if (b) return b;
  }
  return null;
}

// ---- the history ------------------------------------------------------------------

// Every event under history=full and once the game is over; else the last
// question and every claim (claims and their holders are public results,
// like the score: docs/RULES.md, "Display").
function renderHistory(S) {
  const all = S.game.history;
  const full = option(S, "history", "last") === "full" || !!S.game.result;
  const lastAsk = all.filter((e) => e.action === "ask").pop();
  const shown = full ? all : all.filter((e) => e.action === "claim" || e === lastAsk);
  const ol = $("history");
  ol.replaceChildren();
  for (const e of shown.slice().reverse()) {
    const li = document.createElement("li");
    if (typeof e.n === "number") li.value = e.n;
    li.textContent = lineOf(S, e) + (e.stand_in ? " (a bot played for them)" : "");
    ol.append(li);
  }
  $("history-box").querySelector("summary").textContent =
    full ? "History" : "The last question and the claims";
}

// ---- the clock ----------------------------------------------------------------------

// The turn's clock, counted down here from the frame's left_ms (the server
// and the page share no clock): in the score bar and on the seat to play.
export function renderClock(S) {
  const c = S.game && S.game.clock, box = $("t-clock");
  let text = "", seat = "", low = false;
  if (c && c.wait) {
    const left = Math.max(0, c.wait.left_ms - (performance.now() - S.clockAt));
    text = `${c.wait.name} asked to wait (${Math.ceil(left / 1000)} s)`;
    seat = " \u00B7 held";
  } else if (c && c.turn_ms && c.left_ms !== null && !S.game.result) {
    const left = Math.ceil(Math.max(0, c.left_ms - (performance.now() - S.clockAt)) / 1000);
    low = left <= 5;
    text = `${left} s left`;
    seat = ` \u00B7 ${left} s`;
  }
  if (box.dataset.text !== text + low) {
    box.dataset.text = text + low;
    box.replaceChildren();
    if (text && !c.wait) box.append(icon("clock"), " ");
    box.append(text);
    if (low) box.append(" ", icon("alert"));
    box.setAttribute("aria-label", text + (low ? ": hurry" : ""));
  }
  box.classList.toggle("low", low);
  for (const el of document.querySelectorAll("#table .seatclock")) el.textContent = seat;
}

// ---- the end ------------------------------------------------------------------------

function statsOf(S) {
  const rows = S.game.state.hand_sizes.map(() => ({ asks: 0, hits: 0, right: 0, wrong: 0 }));
  for (const e of S.game.history) {
    const r = rows[e.seat - 1];
    if (e.action === "ask") { r.asks++; if (e.answer === "hit") r.hits++; }
    if (e.action === "claim") { if (e.outcome === "won") r.right++; else r.wrong++; }
  }
  return rows;
}

export function resultText(S) {
  const g = S.game, st = g.state;
  const words = { A: "Team A wins", B: "Team B wins", draw: "A draw",
                  aborted: "The game was ended" };
  return `${words[g.result] || g.result}, ${st.score[0]} to ${st.score[1]}`;
}

function renderOver(S, hostName, matchText) {
  const g = S.game, box = $("over");
  box.hidden = !g.result;
  if (!g.result) return;
  $("o-result").textContent = resultText(S);
  $("o-match").textContent = matchText(S.room.match);
  const table = $("o-stats");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["Player", "Team", "Asks", "Hits", "Claims right", "Claims wrong"]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  statsOf(S).forEach((r, i) => {
    const tr = table.insertRow();
    for (const v of [seatName(S, i + 1), teamOf(i + 1), r.asks, r.hits, r.right, r.wrong])
      tr.insertCell().textContent = String(v);
  });
  const a = $("o-record");
  a.hidden = !g.record;
  if (g.record) a.href = g.record;
  // the review needs the record the store keeps
  $("o-review").hidden = !g.record;
  $("o-review").href = "#game=" + g.id;
  const you = S.room.you, empty = S.room.seats.some((s) => s.kind === "empty");
  $("again").hidden = !you.host;
  $("again").disabled = empty;
  const host = hostName || "the host";
  $("o-next").textContent = you.host
    ? (empty ? "Fill the empty seats below to play again." : "You host: start the next game.")
    : `${host} (the host) starts the next game.`;
}

// ---- the whole table -------------------------------------------------------------------

// UI: {pickCard(card), pickTarget(seat), act(fields)}; hostName, matchText
// for the end.
export function renderTable(S, ui, { hostName, matchText }) {
  const g = S.game, r = S.room, st = g.state;
  const score = $("t-score");
  score.textContent = `A ${st.score[0]} : ${st.score[1]} B`;
  score.setAttribute("aria-label", `Team A ${st.score[0]}, team B ${st.score[1]}`);
  $("t-match").textContent = r.match
    ? `Match to ${r.match.to}: A ${r.match.wins[0]}, B ${r.match.wins[1]}` : "";
  const me = mySeat(S);
  $("t-turn").textContent = g.result ? "Game over"
    : st.turn === me ? "Your turn" : st.turn ? `${seatName(S, st.turn)} to play` : "";
  renderRing(S, ui);
  renderPiles(S);
  renderLast(S);
  renderTruth(S);
  renderHand(S, ui);
  renderActions(S, ui);
  renderSizes(S);
  renderClock(S);
  renderHistory(S);
  renderOver(S, hostName, matchText);
  $("t-leave").hidden = !!g.result; // the result has its own
}

function renderSizes(S) {
  const g = S.game, counts = option(S, "counts", "request");
  $("sizes").hidden = counts !== "request" || !!g.result;
  $("sizes-note").textContent = counts === "hidden" ? "Hand sizes are not shown under these rules."
    : counts === "request" && countsShown(S) ? "Hand sizes as asked, until the next move."
    : "";
}

// ---- motion ----------------------------------------------------------------------------

function centre(el) {
  const b = el.getBoundingClientRect();
  return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
}

// The motion that explains event E, after the table shows it: a hit's card
// flies from the target's seat to the asker's; a miss shakes the target's
// seat (the turn marker moves with the redraw); a claim's set drops into
// its pile. Nothing under prefers-reduced-motion.
export function animate(S, e) {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches || !S.game) return;
  const plateOf = (n) => document.querySelector(`#ring .plate[data-seat="${n}"]`);
  // one card in the air at a time: when bots play fast, the last hit shows
  for (const old of document.querySelectorAll(".card.flying")) old.remove();
  if (e.action === "ask" && e.answer === "hit") {
    const from = plateOf(e.target), to = plateOf(e.seat);
    if (!from || !to) return;
    const a = centre(from), b = centre(to);
    const card = cardFace(e.card);
    card.classList.add("flying");
    card.setAttribute("aria-hidden", "true");
    document.body.append(card);
    const w = card.offsetWidth / 2, h = card.offsetHeight / 2;
    card.animate([
      { transform: `translate(${a.x - w}px, ${a.y - h}px) scale(0.8)`, opacity: 0.6 },
      { transform: `translate(${b.x - w}px, ${b.y - h}px) scale(1.15)`, opacity: 1 },
    ], { duration: 550, easing: "ease-in-out" }).finished.finally(() => card.remove());
  } else if (e.action === "ask") {
    const at = plateOf(e.target);
    if (at) at.animate([{ transform: "translate(-50%, -50%)" },
                        { transform: "translate(calc(-50% - 5px), -50%)" },
                        { transform: "translate(calc(-50% + 5px), -50%)" },
                        { transform: "translate(-50%, -50%)" }], { duration: 300 });
  } else if (e.action === "claim") {
    const chip = document.querySelector(`#claimed .setchip[data-set="${e.set}"]`);
    const from = plateOf(e.seat);
    if (!chip || !from) return;
    const a = centre(from), b = centre(chip);
    chip.animate([{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(1.4)` },
                  { transform: "none" }], { duration: 650, easing: "ease-out" });
  }
}
