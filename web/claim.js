// claim.js - the claim dialog: choose a set the server says you may claim,
// give each of its cards to a teammate (tap a card, then a teammate; your
// own cards are yours already), see the whole claim, then confirm or cancel.
import { cardFace, cardInfo, setLabel, teamOf } from "./cards.js";

const $ = (id) => document.getElementById(id);

export function openClaim({ sets, claimable, hand, me, players, seatName, onClaim }) {
  const dialog = $("claim-dialog");
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
    draw();
  }

  function draw() {
    const setsBox = $("cd-sets");
    setsBox.replaceChildren();
    for (const s of claimable) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "target";
      b.textContent = setLabel(s);
      b.setAttribute("aria-pressed", String(s === set));
      b.addEventListener("click", () => choose(s));
      setsBox.append(b);
    }
    const cardsBox = $("cd-cards"), matesBox = $("cd-mates");
    cardsBox.replaceChildren();
    matesBox.replaceChildren();
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
      b.addEventListener("click", () => { card = c; draw(); });
      cardsBox.append(b);
    }
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
        draw();
      });
      matesBox.append(b);
    }
    const done = sets[set].every((c) => c in holders);
    $("cd-summary").textContent = done
      ? `${setLabel(set)}: ` + sets[set].map((c) => `${cardInfo(c).label} ${seatName(holders[c])}`)
        .join(", ")
      : "";
    $("cd-confirm").disabled = !done;
  }

  $("cd-confirm").onclick = () => {
    dialog.close();
    onClaim(set, { ...holders });
  };
  $("cd-cancel").onclick = () => dialog.close();
  if (set) choose(set);
  else draw();
  dialog.showModal();
}
