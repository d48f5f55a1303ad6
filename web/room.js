// room.js - the room before a game and between games: who hosts it, its
// rules in words, the seats (sit, take a bot's seat, bots, remove), who
// waits for a seat and the host's answer. Takes the state and a send
// callback; reads no global.
import { explain, fillList } from "./rulestext.js";
import { hostName } from "./state.js";

const $ = (id) => document.getElementById(id);

export function matchText(m) {
  if (!m) return "";
  return `Match to ${m.to} games: team A ${m.wins[0]}, team B ${m.wins[1]}` +
    (m.winner ? ` (team ${m.winner} has won the match)` : "");
}

// "Host: Ann", with a word when the host is away (the role waits for it).
export function hostLine(S) {
  const r = S.room, name = hostName(S);
  if (!name) return "No host: the first to join becomes it.";
  const me = r.you.host ? " (you)" : "";
  const away = r.host && typeof r.host === "object" && r.host.connected === false
    ? ": away for now, the role waits for them" : "";
  return `Host: ${name}${me}${away}`;
}

function seatButton(li, text, label, fn) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "small";
  b.textContent = text;
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", fn);
  li.append(" ", b);
}

export function renderRoom(S, send) {
  const r = S.room, you = r.you;
  $("r-code").textContent = r.code;
  const link = location.origin + "/#room=" + r.code;
  $("r-link").href = link;
  $("r-link").textContent = link;
  $("r-host-line").textContent = hostLine(S);
  fillList($("r-rules"), [`Rules: ${r.rules}.`, ...explain(S.catalogue, r.options)]);
  $("r-setup").textContent = `Bots: ${r.bots}.` +
    (r.turn_ms ? ` ${r.turn_ms / 1000} s a turn.` : " No turn timer.") +
    (r.chat ? "" : " A silent room.") + (r.public ? " Listed in the lobby." : " Private.");
  $("r-match").textContent = matchText(r.match);
  // between games the room sits below the table: it is where the next game is set up
  const over = r.state === "over", between = r.state !== "playing";
  $("r-title").firstChild.textContent = over ? "The next game in room " : "Room ";
  $("r-next").hidden = !over;
  $("r-next").textContent = over
    ? `Seats, bots and teams for the next game; the result is above. ${hostName(S) || "The host"}` +
      " starts it." : "";
  const ol = $("seats");
  ol.replaceChildren();
  for (const s of r.seats) {
    const li = document.createElement("li");
    li.className = "seat team" + s.team;
    li.dataset.seat = String(s.seat);
    const label = document.createElement("span");
    let who = "empty";
    if (s.kind === "human")
      who = s.name + (s.host ? " (host)" : "") + (s.connected ? "" : " (away)");
    else if (s.kind === "bot") who = "a " + s.bot + " bot";
    label.textContent = `Seat ${s.seat}, team ${s.team}: ${who}`;
    li.append(label);
    if (s.kind === "empty" && you.seat !== s.seat && between)
      seatButton(li, "Sit here", null, () => send({ type: "sit", seat: s.seat }));
    if (s.kind === "bot" && between)
      seatButton(li, "Take this seat", `Take seat ${s.seat} from the bot`,
                 () => send({ type: "sit", seat: s.seat }));
    if (you.host && s.kind === "empty" && between)
      seatButton(li, "Bot", `A bot at seat ${s.seat}`, () => send({ type: "bot", seat: s.seat }));
    if (you.host && s.kind !== "empty" && s.seat !== you.seat && (between || s.kind === "human"))
      seatButton(li, "Remove", `Remove seat ${s.seat}`,
                 () => send({ type: "kick", seat: s.seat }));
    ol.append(li);
  }
  $("r-spectators").textContent = r.spectators.length
    ? "Watching: " + r.spectators.join(", ") : "";
  renderWaiting(S, send);
  $("r-host").hidden = !you.host;
  $("start").disabled = r.seats.some((s) => s.kind === "empty");
  $("start").hidden = over; // "Play again", with the result

  const waiting = (r.waiting || []).includes(you.name);
  const req = $("request");
  req.hidden = you.seat !== null || you.host || (!waiting && !between);
  req.textContent = waiting ? "Stop waiting for a seat" : "Ask the host for a seat";
  req.dataset.cancel = waiting ? "1" : "";
  $("stand").hidden = you.seat === null || r.state === "playing";
  $("leave").hidden = over; // the result has its own
}

// Who waits for a seat: everyone sees the list; the host, between games,
// gives a waiting member an empty or a bot's seat.
function renderWaiting(S, send) {
  const r = S.room, box = $("r-waiting"), list = r.waiting || [];
  box.hidden = !list.length;
  box.replaceChildren();
  if (!list.length) return;
  const free = r.seats.filter((s) => s.kind !== "human");
  for (const name of list) {
    const p = document.createElement("p");
    p.className = "waiter";
    const text = document.createElement("span");
    text.textContent = `${name} is waiting for a seat.`;
    p.append(text);
    if (r.you.host && r.state !== "playing") {
      if (!free.length) p.append(" Remove a player first to give one.");
      for (const s of free)
        seatButton(p, `Seat ${s.seat}`, `Give ${name} seat ${s.seat}`,
                   () => send({ type: "give", seat: s.seat, name }));
    }
    box.append(p);
  }
}
