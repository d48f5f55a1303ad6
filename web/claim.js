// claim.js - the claim dialog: choose a set the server says you may claim,
// give each of its cards to a teammate (tap a card, then a teammate; your
// own cards are yours already), see the whole claim, then confirm or cancel.
// By keyboard: the sets, the cards and the teammates are one Tab stop each
// (arrow keys inside, keys.js); Enter on a teammate gives it the chosen card
// and moves on to the next card without a holder, so Enter again gives that
// one too; when every card has a holder the focus goes to the summary of
// the claim (not to Claim: an Enter too many, or a held key, sends
// nothing), and Claim is the next Tab stop. Escape cancels. With the scoresheet's answer for this position, the likeliest
// placement of the chosen set is offered as a starting point.
// The dialog belongs to the position it shows (its seq, sent with the
// claim): when the game moves on while it is open (the turn's time ran out
// and a bot played, a claim out of turn) it takes the new position, keeps
// what the player gave where it still holds and says so; a claim sent
// just before the move reached the page is refused (stale_state) and the
// dialog opens again with it (START: its set, holders and the hand then).
// What the player gave is a draft kept apart from the position: while the
// set may not be claimed (the turn went to the other team) the dialog says
// so, and when the set may be claimed again the draft is back.
import { cardFace, cardInfo, setLabel, teamOf } from "./cards.js";
import { keepFocus, rove } from "./keys.js";

const $ = (id) => document.getElementById(id);

export function openClaim({ sets, claimable, hand, seq, me, players, seatName, onClaim,
                            likely = () => null, start = null, moved = false }) {
  const dialog = $("claim-dialog");
  const opener = document.activeElement;
  let mine = new Set(hand);
  const mates = [];
  for (let n = 1; n <= players; n++) if (teamOf(n) === teamOf(me)) mates.push(n);
  let set = null;
  let holders = {};
  let card = null;
  // the player's draft: the set chosen and the holders given by hand (not
  // the cards that are yours because you hold them), whatever the position
  let draft = null;

  // the draft's GIVEN: HOLDERS less the cards that were yours as held (HAND)
  function given(from, hand) {
    const out = {};
    for (const [c, n] of Object.entries(from)) if (!(n === me && hand.has(c))) out[c] = n;
    return out;
  }

  function choose(s) {
    draft = { set: s, given: {} };
    place();
    redraw();
  }

  // Lays the draft on this position: its set if it may be claimed (else the
  // only set there is to claim, or none), your cards yours, the others as
  // the player gave them (a card given to you because you held it, and hold
  // no more, has no holder again). The draft itself is kept.
  function place() {
    set = draft && claimable.includes(draft.set) ? draft.set
      : claimable.length === 1 ? claimable[0] : null;
    holders = {};
    if (set) {
      const by = draft && draft.set === set ? draft.given : {};
      for (const c of sets[set]) {
        if (mine.has(c)) holders[c] = me;
        else if (c in by) holders[c] = by[c];
      }
    }
    card = set ? sets[set].find((c) => !(c in holders)) || null : null;
  }

  // the player gives card C to N (into the draft, which is this set's now)
  function give(c, n) {
    if (!draft || draft.set !== set) draft = { set, given: {} };
    draft.given[c] = n;
    holders[c] = n;
  }

  // What the player is told when the game moved on under the dialog.
  function movedText() {
    if (!claimable.length) return "The game moved on: you may not claim now.";
    return "The game moved on: check your claim again.";
  }

  // draw again, the focus kept on its button; when that button went (the
  // teammates once every card has a holder) the focus goes to the summary:
  // a claim is sent by a deliberate Tab to Claim and a press, never by one
  // Enter more than the cards needed
  function redraw() {
    keepFocus(draw);
    if (dialog.open && !dialog.contains(document.activeElement)) {
      const next = !$("cd-confirm").disabled ? $("cd-summary")
        : rove($("cd-mates")) || rove($("cd-cards")) || rove($("cd-sets"));
      if (next) next.focus();
    }
  }

  function draw() {
    const setsBox = $("cd-sets");
    setsBox.replaceChildren();
    for (const s of claimable) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "target";
      b.dataset.set = s;
      b.textContent = setLabel(s);
      b.setAttribute("aria-pressed", String(s === set));
      b.addEventListener("click", () => choose(s));
      setsBox.append(b);
    }
    rove(setsBox);
    const cardsBox = $("cd-cards"), matesBox = $("cd-mates");
    cardsBox.replaceChildren();
    matesBox.replaceChildren();
    const guess = set ? likely(set) : null, start = $("cd-likely");
    start.hidden = !guess;
    if (guess) {
      start.textContent = `Start from the likeliest placement (${guess.chance})`;
      start.onclick = () => {
        draft = { set, given: given(guess.holders, mine) };
        place();
        redraw();
      };
    }
    $("cd-moved").hidden = !moved;
    $("cd-moved").textContent = moved ? movedText() : "";
    if (!set) {
      $("cd-help").textContent = claimable.length ? "Which set?" : "";
      $("cd-summary").textContent = "";
      $("cd-confirm").disabled = true;
      return;
    }
    $("cd-help").textContent = card
      ? `Who holds the ${cardInfo(card).words}? Tap a teammate.`
      : "Every card has a holder. Check the claim, then confirm.";
    for (const c of sets[set]) {
      const b = cardFace(c, "button");
      const who = holders[c];
      const tag = document.createElement("span");
      tag.className = "holder";
      tag.textContent = who ? seatName(who) : "?";
      b.append(tag);
      b.setAttribute("aria-pressed", String(c === card));
      b.setAttribute("aria-label",
                     cardInfo(c).words + ": " + (who ? seatName(who) : "not given yet"));
      b.addEventListener("click", () => { card = c; redraw(); });
      cardsBox.append(b);
    }
    rove(cardsBox);
    for (const n of mates) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "target";
      b.dataset.seat = String(n);
      b.textContent = seatName(n) + (n === me ? " (you)" : "");
      b.disabled = !card;
      b.addEventListener("click", () => {
        give(card, n);
        card = sets[set].find((c) => !(c in holders)) || null;
        redraw();
      });
      matesBox.append(b);
    }
    rove(matesBox);
    const done = sets[set].every((c) => c in holders);
    $("cd-summary").textContent = done
      ? `${setLabel(set)}: ` + sets[set].map((c) => `${cardInfo(c).label} ${seatName(holders[c])}`)
        .join(", ")
      : "";
    $("cd-confirm").disabled = !done;
  }

  // the focus goes back to what opened the dialog, when it is still there
  dialog.onclose = () => {
    if (opener && opener.isConnected && !opener.disabled && document.activeElement !== opener)
      opener.focus();
  };
  $("cd-confirm").onclick = () => {
    dialog.close();
    onClaim(set, { ...holders }, seq);
  };
  $("cd-cancel").onclick = () => dialog.close();
  if (start) draft = { set: start.set, given: given(start.holders, new Set(start.hand)) };
  place();
  draw();
  dialog.showModal();
  const first = rove($("cd-sets"));
  if (first) first.focus();
  return {
    // the scoresheet's answer may come after the dialog opened: draw again
    refresh() { if (dialog.open) redraw(); },
    // the game moved on (a new position: its seq, sets to claim and hand)
    update(now) {
      if (!dialog.open) return;
      ({ claimable, seq } = now);
      mine = new Set(now.hand);
      moved = true;
      place();
      redraw();
    },
  };
}
