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
  let set = claimable.length === 1 ? claimable[0] : null;
  let holders = {};
  let card = null;

  function choose(s) {
    set = s;
    holders = {};
    for (const c of sets[s]) if (mine.has(c)) holders[c] = me;
    card = sets[s].find((c) => !(c in holders)) || null;
    redraw();
  }

  // Takes the claim HAD (set and holders, made on an earlier position) into
  // this one: the set if it may still be claimed, your cards yours, and the
  // player's other choices where they still hold (a card given to you
  // because you held it, and hold no more, has no holder again).
  function keep(had, before) {
    set = had.set && claimable.includes(had.set) ? had.set
      : claimable.length === 1 ? claimable[0] : null;
    holders = {};
    if (set) {
      for (const c of sets[set]) {
        if (mine.has(c)) holders[c] = me;
        else if (c in had.holders && !(had.holders[c] === me && before.has(c)))
          holders[c] = had.holders[c];
      }
    }
    card = set ? sets[set].find((c) => !(c in holders)) || null : null;
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
        holders = { ...guess.holders };
        card = sets[set].find((c) => !(c in holders)) || null;
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
        holders[card] = n;
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
  if (start) {
    keep(start, new Set(start.hand));
    draw();
  } else if (set) choose(set);
  else draw();
  dialog.showModal();
  const first = rove($("cd-sets"));
  if (first) first.focus();
  return {
    // the scoresheet's answer may come after the dialog opened: draw again
    refresh() { if (dialog.open) redraw(); },
    // the game moved on (a new position: its seq, sets to claim and hand)
    update(now) {
      if (!dialog.open) return;
      const before = mine;
      ({ claimable, seq } = now);
      mine = new Set(now.hand);
      moved = true;
      keep({ set, holders }, before);
      redraw();
    },
  };
}
