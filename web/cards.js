// cards.js - how cards, sets and seats look. Display only: which cards a set
// holds, what may be asked and why not all come from the server's frames.

const SUITS = {
  c: { symbol: "\u2663", word: "clubs", red: false },
  d: { symbol: "\u2666", word: "diamonds", red: true },
  h: { symbol: "\u2665", word: "hearts", red: true },
  s: { symbol: "\u2660", word: "spades", red: false },
};
const RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_WORDS = { T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };

// "Qh" -> {rank:"Q", suit:"h", label:"Q♥", words:"queen of hearts", red:true};
// "JK1" -> a joker.
export function cardInfo(name) {
  if (name.startsWith("JK"))
    return { rank: "JK", suit: "", label: "Joker " + name.slice(2), words: "joker " +
             name.slice(2), red: name === "JK1" };
  const rank = name.slice(0, -1), suit = SUITS[name.slice(-1)];
  const shown = RANKS[rank] || rank;
  return { rank: shown, suit: suit.symbol, label: shown + suit.symbol,
           words: (RANK_WORDS[rank] || rank) + " of " + suit.word, red: suit.red };
}

// A card face as an element: rank and suit symbol (colour is never the only
// sign of the suit). tag "button" makes it choosable.
export function cardFace(name, tag = "span") {
  const info = cardInfo(name);
  const el = document.createElement(tag);
  el.className = "card" + (info.red ? " red" : "");
  el.dataset.card = name;
  if (tag === "button") el.type = "button";
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = info.rank;
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = info.suit;
  el.append(rank, suit);
  el.setAttribute("aria-label", info.words);
  return el;
}

// "low-hearts" -> "low hearts"; "eights-jokers" -> "eights and jokers".
export function setLabel(name) {
  if (name === "eights-jokers") return "eights and jokers";
  return name.replace("-", " ");
}

export function teamOf(seat) {
  return seat % 2 === 1 ? "A" : "B";
}

// Reasons the server gives (status names) in words for people.
const REASONS = {
  own_card: "you hold it",
  no_base_card: "you hold no other card of its set",
  set_claimed: "its set is claimed",
  ask_teammate: "a teammate",
  target_empty: "no cards left",
  not_your_turn: "It is not your turn.",
  must_pass: "You have no cards: pass the turn to a teammate.",
  must_choose: "Choose who of your team asks next.",
  must_claim: "Your team holds every card left: claim.",
  claims_only: "Only claims are left.",
  game_over: "The game is over.",
};

export function reason(name) {
  return REASONS[name] || name.replaceAll("_", " ");
}

// A set's suit symbol when its name ends in a suit ("low-hearts" -> ♥,
// red), else none (a quartet, the eights and jokers).
export function setSymbol(name) {
  const suit = Object.values(SUITS).find((s) => name.endsWith("-" + s.word));
  return suit ? { symbol: suit.symbol, red: suit.red } : { symbol: "", red: false };
}
