// claim.js - the claim dialog: choose a set the server says you may claim,
// give each of its cards to a teammate (tap a card, then a teammate; your
// own cards are yours already), see the whole claim, then confirm or cancel.
// By keyboard: the sets, the cards and the teammates are one Tab stop each
// (arrow keys inside, keys.js); Enter on a teammate gives it the chosen card
// and moves on to the next card without a holder, so Enter again gives that
// one too; when every card has a holder the focus goes to Claim. Escape
// cancels. With the scoresheet's answer for this position, the likeliest
// placement of the chosen set is offered as a starting point.
import { cardFace, cardInfo, setLabel, teamOf } from "./cards.js";
import { keepFocus, rove } from "./keys.js";

const $ = (id) => document.getElementById(id);

export function openClaim({ sets, claimable, hand, me, players, seatName, onClaim,
                            likely = () => null }) {
  const dialog = $("claim-dialog");
  const opener = document.activeElement;
  const mine = new Set(hand);
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

  // draw again, the focus kept on its button; when that button went (the
  // teammates once every card has a holder) the focus goes to Claim
  function redraw() {
    keepFocus(draw);
    if (dialog.open && !dialog.contains(document.activeElement)) {
      const next = !$("cd-confirm").disabled ? $("cd-confirm")
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
    if (!set) {
      $("cd-help").textContent = "Which set?";
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
    onClaim(set, { ...holders });
  };
  $("cd-cancel").onclick = () => dialog.close();
  if (set) choose(set);
  else draw();
  dialog.showModal();
  const first = rove($("cd-sets"));
  if (first) first.focus();
  // the scoresheet's answer may come after the dialog opened: draw again
  return { refresh() { if (dialog.open) redraw(); } };
}
