// review.js - a finished game, step by step (#game=ID, docs/PROTOCOL.md's
// replay, sheet and review frames): every hand at each step, the claimed
// sets, the event that led there, the scoresheet of any seat at that step,
// and that seat's marks against the master bot on its decisions. The state of
// a review is a plain object (newReview); renderReview draws it and sends
// nothing: the event handling asks for sheets and marks (wants()).
import { cardFace, cardInfo, setLabel, teamOf } from "./cards.js";
import { rove } from "./keys.js";
import { pct, renderSheet } from "./aid.js";
import { drawPiles, eventLine } from "./table.js";

const $ = (id) => document.getElementById(id);

export function newReview(id) {
  return {
    id,
    replay: null,     // the replay frame
    step: 0,          // 0: the deal; k: after the k-th action
    seat: 1,          // whose view: the scoresheet and the marks
    sheet: null,      // the sheet frame for (seat, step), when it has come
    sheetAsked: null, // "seat/step" of the sheet asked for and not answered
    marks: {},        // seat -> the review frame's review object
    marksAsked: null, // the seat whose marks are asked for and not answered
    sheetFailed: null, // "seat/step" of a sheet the server refused: not asked again
  };
}

// Seat N's name in the record: a bot "bot N", as the table names it; a
// name that several seats share with its seat number; "seat N" where the
// record has none.
export function reviewName(R, n) {
  const names = (R.replay && R.replay.names) || [];
  const name = names[n - 1];
  if (!name) return `seat ${n}`;
  if (R.replay.bots && R.replay.bots[n - 1]) return `bot ${n}`;
  return names.filter((x) => x === name).length > 1 ? `${name} ${n}` : name;
}

// Takes a replay, sheet or review frame F of this game into R.
export function takeFrame(R, f) {
  if (f.type === "replay") {
    R.replay = f;
    R.step = Math.min(R.step, steps(R));
  } else if (f.type === "sheet") {
    R.sheetAsked = null;
    R.sheet = f;
  } else if (f.type === "review") {
    R.marksAsked = null;
    R.marks[f.seat] = f.review;
  }
}

// What to ask the server for now: [{type, ...}] (one sheet and one review
// at a time: the event handling sends them and notes them asked).
export function wants(R) {
  const out = [];
  if (!R.replay) return out;
  const key = `${R.seat}/${R.step}`;
  const have = R.sheet && `${R.sheet.seat}/${R.sheet.after}` === key;
  if (!have && !R.sheetAsked && R.sheetFailed !== key)
    out.push({ type: "sheet", game: R.id, seat: R.seat, after: R.step });
  if (!R.marks[R.seat] && R.marksAsked === null)
    out.push({ type: "review", game: R.id, seat: R.seat });
  return out;
}

export function steps(R) {
  return R.replay ? R.replay.steps.length - 1 : 0;
}

// ---- drawing ---------------------------------------------------------------

const pctOf = (p) => (typeof p === "number" ? pct(p) : "-");
const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function bestText(R, b) {
  if (!b || b.action === "wait") return "wait";
  const who = (n) => reviewName(R, n);
  if (b.action === "ask") return `ask ${who(b.target)} for the ${cardInfo(b.card).words}`;
  if (b.action === "claim") // the placement too: a claim of the same set may differ only there
    return `claim ${setLabel(b.set)} as ` +
      Object.entries(b.holders).map(([c, s]) => `${cardInfo(c).label} ${who(s)}`).join(", ");
  if (b.action === "pass") return `pass to ${who(b.target)}`;
  if (b.action === "choose") return `let ${who(b.target)} ask`;
  return b.action;
}

// A cost cut (not rounded) to DIGITS decimals: 0.0998 is "0.09", where the
// grade is below the 0.10 of an inaccuracy, never "0.10 good".
const costText = (c, digits) => (Math.floor(c * 10 ** digits) / 10 ** digits).toFixed(digits);

// The mark of decision D in words: the chance taken, the master bot's choice.
function markText(R, d) {
  // "~": an estimate (10 and 12 players, early), as the text's review marks it
  const took = d.chance === null || d.chance === undefined ? ""
    : `chance ${d.estimated ? "~" : ""}${pctOf(d.chance)}`;
  if (d.same) return `${took}${took ? "; " : ""}master does the same (${d.grade})`;
  const surer = typeof d.surest_ask === "number" && d.surest_ask > d.best.value
    ? `; an ask of ${pctOf(d.surest_ask)} was on offer` : "";
  return `${took}${took ? "; " : ""}master would ${bestText(R, d.best)}` +
    (typeof d.best.chance === "number"
      ? ` (${d.best.estimated ? "~" : ""}${pctOf(d.best.chance)})` : "") +
    `${surer}; cost ${costText(d.cost, 2)} (${d.grade})`;
}

function renderSeats(R, at, event) {
  const box = $("rv-seats"), players = R.replay.players;
  box.replaceChildren();
  const sets = R.replay.sets;
  for (let n = 1; n <= players; n++) {
    const row = document.createElement("div");
    row.className = `rvseat team${teamOf(n)}` + (event && event.seat === n ? " acted" : "") +
      (event && event.target === n ? " asked" : "") + (at.state.turn === n ? " turn" : "");
    row.dataset.seat = String(n);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = `${reviewName(R, n)} · team ${teamOf(n)} · ${at.hands[n - 1].length} cards` +
      (at.state.turn === n && !(R.step === steps(R)) ? " · to play" : "");
    const hand = document.createElement("span");
    hand.className = "rvhand";
    const held = new Set(at.hands[n - 1]);
    for (const cards of Object.values(sets))
      for (const c of cards) if (held.has(c)) {
        const f = cardFace(c);
        f.classList.add("mini");
        hand.append(f);
      }
    row.append(who, hand);
    box.append(row);
  }
}

function renderMarks(R, go) {
  const list = $("rv-marks"), m = R.marks[R.seat];
  list.replaceChildren();
  $("rv-marks-note").textContent = m ? "" : R.marksError || "working them out…";
  $("rv-summary").textContent = "";
  if (!m) return;
  const s = m.summary;
  const kept = (s.kept_by_earlier_claim || []).length;
  $("rv-summary").textContent = `${count(s.decisions, "decision")}: ${count(s.asks, "ask")}, ` +
    `${count(s.hits, "hit")} (${pctOf(s.hit_rate)}; the best ask available had ` +
    `${pctOf(s.best_hit_rate)} on average), ${count(s.claims, "claim")}, ${s.misclaims} wrong; ` +
    `${count(kept, "set")} an earlier claim would have kept.` +
    (s.stand_ins ? ` Not graded: ${count(s.stand_ins, "move")} a bot played for ${reviewName(R, R.seat)}.` : "");
  for (const d of m.decisions) {
    const li = document.createElement("li");
    li.className = "mark-" + d.grade;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "target";
    b.dataset.step = String(d.n);
    b.textContent = `${d.n}. ${eventLine((n) => reviewName(R, n), d, true)}: ${d.grade}`;
    b.setAttribute("aria-pressed", String(d.n === R.step));
    // the step's detail is above the list on a phone: brought into view
    b.addEventListener("click", () => {
      go(d.n);
      $("rv-where").scrollIntoView({ block: "nearest" });
    });
    li.append(b);
    list.append(li);
  }
}

// Draws the review R; GO(step) moves to a step, VIEW(seat) changes whose view.
export function renderReview(R, { go, view }) {
  const ready = !!R.replay;
  $("rv-title").textContent = R.error ? `Review of game ${R.id}: ${R.error}` : ready
    ? `Review of game ${R.id}: ${R.replay.rules}, ` +
      ({ A: "team A won", B: "team B won", draw: "a draw", aborted: "ended early" }[R.replay.result] ||
       R.replay.result)
    : `Review of game ${R.id}: loading…`;
  for (const id of ["rv-first", "rv-back", "rv-forward", "rv-last", "rv-step"])
    $(id).disabled = !ready;
  if (!ready) return;
  const last = steps(R), k = Math.max(0, Math.min(R.step, last));
  const at = R.replay.steps[k], e = at.event;
  $("rv-score").textContent = `A ${at.state.score[0]} : ${at.state.score[1]} B`;
  $("rv-step").max = String(last);
  $("rv-step").value = String(k);
  $("rv-step").setAttribute("aria-valuetext", `step ${k} of ${last}`);
  $("rv-where").textContent = `Step ${k} of ${last}` + (k === 0 ? ": the deal" : "");
  $("rv-first").disabled = $("rv-back").disabled = k === 0;
  $("rv-forward").disabled = $("rv-last").disabled = k === last;
  const who = (n) => reviewName(R, n);
  $("rv-event").textContent = e
    ? eventLine(who, e) + (e.stand_in ? " (a bot played for them)" : "")
    : "The cards as dealt.";
  const marks = R.marks[R.seat];
  const d = marks && e ? marks.decisions.find((x) => x.n === k) : null;
  $("rv-mark").hidden = !d;
  $("rv-mark").className = "mark" + (d ? " mark-" + d.grade : "");
  $("rv-mark").textContent = d ? `${who(R.seat)}'s decision: ${markText(R, d)}` : "";
  renderSeats(R, at, e);
  drawPiles($("rv-piles"), R.replay.steps.slice(1, k + 1).map((x) => x.event), who);
  // whose view
  const viewBox = $("rv-view");
  viewBox.replaceChildren();
  for (let n = 1; n <= R.replay.players; n++) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "target";
    b.dataset.seat = String(n);
    b.textContent = who(n);
    b.setAttribute("aria-pressed", String(n === R.seat));
    b.addEventListener("click", () => view(n));
    viewBox.append(b);
  }
  rove(viewBox);
  $("rv-sheet-who").textContent = `${who(R.seat)}, step ${k}`;
  const fresh = R.sheet && R.sheet.seat === R.seat && R.sheet.after === k ? R.sheet : null;
  renderSheet($("rv-sheet"), $("rv-sheet-note"), fresh,
              { sets: R.replay.sets, players: R.replay.players, done: k === last && !at.state.live.length,
                team: `team ${teamOf(R.seat)}`, seatName: who });
  renderMarks(R, go);
}
