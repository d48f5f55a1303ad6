// aid.js - the scoresheet from the seat's view (the server's aid frame,
// docs/PROTOCOL.md): per live set, the chance the team holds it all and
// the likeliest placement with its chance, then each of its cards' chance
// at each seat. Kept live by the event handling, which asks again after
// every event while it is open; an answer for an older position is never
// shown (state.js drops it).
import { cardInfo, setLabel } from "./cards.js";

const $ = (id) => document.getElementById(id);

// A chance as a percentage: "100%" and "0%" only for 1 and 0 themselves.
export const pct = (p) => (p >= 1 ? "100%" : p >= 0.9995 ? ">99.9%"
  : p > 0 && p < 0.0005 ? "<0.1%" : (Math.round(p * 1000) / 10) + "%");

// The likeliest placement of SET for the claim dialog: {holders, chance (as text)}
// or null (no answer for this position, or no placement possible).
export function likeliest(S, set) {
  const f = S.aid, h = f && f.half_suits && f.half_suits[set];
  if (!h || !h.best_assignment) return null;
  return { holders: { ...h.best_assignment }, chance: pct(h.assignment_correct) };
}

export function renderAid(S, seatName) {
  const g = S.game, done = !g || !!g.result;
  renderSheet($("aid-grid"), $("aid-note"), done ? null : S.aid,
              { sets: g ? g.sets : {}, players: g ? g.state.hand_sizes.length : 0, done,
                team: "your team", seatName });
}

// The scoresheet F (an aid or sheet frame) into BOX, NOTE saying whether it
// is estimated or still to come; GAME: {sets, players, done (nothing to
// show), team (whose chances: "your team", "team A"), seatName}.
export function renderSheet(box, note, f, game) {
  const { sets, players, seatName } = game;
  box.replaceChildren();
  delete box.dataset.after;
  if (game.done) {
    note.textContent = "";
    return;
  }
  if (!f || !f.cards) {
    note.textContent = "working it out…";
    return;
  }
  note.textContent = f.exact === false ? "(estimated)" : "";
  box.dataset.after = String(f.after);
  const table = document.createElement("table");
  table.className = "aid";
  const head = table.createTHead().insertRow();
  const corner = document.createElement("th");
  corner.textContent = "card";
  head.append(corner);
  for (let n = 1; n <= players; n++) {
    const th = document.createElement("th");
    th.textContent = seatName(n);
    th.scope = "col";
    head.append(th);
  }
  const body = table.createTBody();
  for (const [set, cards] of Object.entries(sets)) {
    const live = cards.filter((c) => f.cards[c]);
    if (!live.length) continue;
    const h = f.half_suits && f.half_suits[set];
    const tr = body.insertRow();
    tr.className = "aidset";
    tr.dataset.set = set;
    const th = document.createElement("th");
    th.colSpan = players + 1;
    th.scope = "rowgroup";
    let text = setLabel(set);
    if (h && typeof h.team_holds_all === "number") {
      text += `: ${game.team} holds it all ${pct(h.team_holds_all)}`;
      if (h.best_assignment)
        text += `; likeliest: ${Object.entries(h.best_assignment)
          .map(([c, s]) => `${cardInfo(c).label} ${seatName(s)}`).join(", ")}` +
          ` (${pct(h.assignment_correct)})`;
    }
    th.textContent = text;
    tr.append(th);
    for (const c of live) {
      const row = body.insertRow();
      row.dataset.card = c;
      const cell = document.createElement("th");
      cell.scope = "row";
      cell.textContent = cardInfo(c).label;
      row.append(cell);
      for (let n = 1; n <= players; n++) {
        const p = f.cards[c][String(n)];
        const td = row.insertCell();
        td.textContent = p === undefined || p === null ? "" : p === 1 ? "\u2713" : p === 0
          ? "\u00B7" : pct(p);
        if (p === 1) td.className = "sure";
      }
    }
  }
  box.append(table);
}
