// state.js - what the page knows: the last frames of the server, kept as
// they came (docs/PROTOCOL.md), and the player's own choices on the page
// (the card and seat picked for an ask). apply() takes a frame into the
// state and says what happened, for the event handling to announce and
// sound; rendering reads the state and changes nothing in it.

export function newState() {
  return {
    seq: 0,            // the last seq seen
    code: null,        // the room we are in
    token: null,
    catalogue: null,   // the rules' words (welcome.rules): the one source of explanations
    room: null,        // the last room frame
    game: null,        // {id, game, rules, dealer, sets, state, history, clock, you, result, record}
    clockAt: 0,        // when the clock frame came (performance.now())
    pick: { card: null, target: null },
    aid: null,         // the last aid frame for this game's current position
    aidOpen: false,    // the scoresheet is shown (kept fresh after every event)
    hint: null,        // the last hint frame, while the game is at its position
    sizesAt: -1,       // counts=request: the hand sizes asked for at this action count
    lastClaim: null,   // the last claim's event: its truth stays on the table until the next
    stoodIn: null,     // "timeout" or "away": a bot moved for this seat since its player last acted
  };
}

export function mySeat(S) {
  return S.game && S.game.you ? S.game.you.seat : null;
}

export function isMyTurn(S) {
  const g = S.game;
  return !!(g && g.you && !g.result && g.state.turn === g.you.seat);
}

export function seatOf(S, n) {
  return S.room ? S.room.seats[n - 1] : null;
}

export function seatName(S, n) {
  const s = seatOf(S, n);
  if (!s) return "seat " + n;
  if (s.kind === "human") return s.name;
  if (s.kind === "bot") return "bot " + n;
  return "seat " + n;
}

// The host's name: the room frame names it (host), else a seat's mark.
export function hostName(S) {
  const r = S.room;
  if (!r) return null;
  if (r.host && typeof r.host === "object") return r.host.name;
  const s = r.seats.find((x) => x.host);
  return s ? s.name : null;
}

export function option(S, key, fallback) {
  return (S.room && S.room.options && S.room.options[key]) || fallback;
}

// counts (docs/RULES.md): "shown" always; "request" when asked for, until
// the next action (000: "Any player may ask at any time how many cards
// another player ... has"); "hidden" never.
export function countsShown(S) {
  const counts = option(S, "counts", "request");
  return counts === "shown" || (counts === "request" && S.sizesAt === S.game.state.actions);
}

function takeGame(S, f) {
  S.game = { id: f.id, game: f.game, rules: f.rules, dealer: f.dealer, sets: f.sets,
             state: f.state, history: f.history, clock: f.clock, you: f.you,
             result: f.result || null, record: f.record || null };
  S.lastClaim = [...f.history].reverse().find((e) => e.action === "claim") || null;
}

function takePosition(S, f) {
  Object.assign(S.game, { state: f.state, clock: f.clock, you: f.you,
                          result: f.result || null, record: f.record || null });
  S.clockAt = performance.now();
  S.pick = { card: null, target: null };
  if (S.aid && S.aid.after !== f.state.actions) S.aid = null;
  if (S.hint && S.hint.after !== f.state.actions) S.hint = null;
}

// Takes frame F into S. Returns what happened, for announcing: a list of
// {what, ...}: "welcome", "joined", "room", "game", "event" (with the
// event), "catchup", "clock" (with wait began or ended), "aid", "hint", "lobby",
// "chat", "left", "kicked", "closing", "saved", "error" (with the frame).
export function apply(S, f) {
  if (typeof f.seq === "number" && f.seq > S.seq) S.seq = f.seq;
  switch (f.type) {
  case "welcome":
    S.catalogue = f.rules || S.catalogue;
    return [{ what: "welcome" }];
  case "joined":
    S.code = f.room;
    S.token = f.token;
    return [{ what: "joined", frame: f }];
  case "room":
    S.room = f;
    return [{ what: "room" }];
  case "game":
    if (!S.game || S.game.id !== f.id) S.stoodIn = null;
    takeGame(S, f);
    S.clockAt = performance.now();
    S.pick = { card: null, target: null };
    S.aid = null;
    S.hint = null;
    S.sizesAt = -1;
    // the room frame that says so follows the game frame
    if (S.room) S.room.state = S.game.result ? "over" : "playing";
    return [{ what: "game" }];
  case "event":
    if (!S.game) return [];
    S.game.history.push(f.event);
    if (f.event.action === "claim") S.lastClaim = f.event;
    takePosition(S, f);
    return [{ what: "event", event: f.event }];
  case "catchup":
    if (!S.game || S.game.id !== f.id) return [];
    S.game.history.push(...f.events);
    for (const e of f.events) if (e.action === "claim") S.lastClaim = e;
    takePosition(S, f);
    return [{ what: "catchup", events: f.events }];
  case "clock": {
    if (!S.game) return [];
    const was = !!(S.game.clock && S.game.clock.wait);
    S.game.clock = f.clock;
    S.clockAt = performance.now();
    return [{ what: "clock", began: !!f.clock.wait && !was, ended: !f.clock.wait && was,
              wait: f.clock.wait }];
  }
  case "aid":
    // an answer for a position the game has left is dropped: a newer one is asked for
    if (S.game && f.after === S.game.state.actions) S.aid = f;
    return [{ what: "aid" }];
  case "hint":
    // the same: a hint for a position the game has left is no hint
    S.hint = S.game && f.after === S.game.state.actions ? f : null;
    return [{ what: "hint" }];
  default:
    return [{ what: f.type, frame: f }];
  }
}

export function forget(S) {
  Object.assign(S, newState(), { catalogue: S.catalogue });
}
