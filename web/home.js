// home.js - the page before a room: a name, a new room (its menus and
// their explanations built from the server's rules catalogue), a room code,
// the lobby; and, for a room's link (#room=CODE), a join screen for that
// room alone. Takes data and callbacks; sends nothing itself.
import { explain, fillList, optionOf, presetOf } from "./rulestext.js";

const $ = (id) => document.getElementById(id);

function fillSelect(select, items, keep) {
  const had = select.value;
  select.replaceChildren(...items.map(([value, text]) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  }));
  select.value = keep && items.some(([v]) => v === had) ? had : items[0][0];
}

const NAMES = { classic: "Classic", club: "Club", encyclopedia: "Encyclopedia",
                jokers: "Jokers", quartets: "Quartets", india: "India" };

// The menus of the create form, from the catalogue: presets, and each
// override offered with the words of its values (the first item: the
// preset's own value).
export function fillCreateForm(catalogue) {
  if (!catalogue) return;
  fillSelect($("c-preset"), catalogue.presets.map((p) => [p.name, NAMES[p.name] || p.name]),
             true);
  for (const [key, id] of [["misclaim", "c-misclaim"], ["history", "c-history"]]) {
    const o = optionOf(catalogue, key);
    if (!o) continue;
    fillSelect($(id), [["", "as the rules say"], ...o.values.map((v) => [v.name, v.name])], true);
    // each value's full sentence is its option's title for hover and reading
    for (const opt of $(id).options) {
      const v = o.values.find((x) => x.name === opt.value);
      if (v) opt.title = v.text;
    }
  }
  explainChoice(catalogue);
}

// The options the create form would make, as {key: value}.
function chosenOptions(catalogue) {
  const p = presetOf(catalogue, $("c-preset").value);
  if (!p) return null;
  const options = { ...p.options, players: $("c-players").value };
  for (const [key, id] of [["misclaim", "c-misclaim"], ["history", "c-history"]])
    if ($(id).value) options[key] = $(id).value;
  return options;
}

// The chosen rules in words, under the menus.
export function explainChoice(catalogue) {
  const p = presetOf(catalogue, $("c-preset").value);
  fillList($("c-explain"), [...(p ? [p.text] : []), ...explain(catalogue, chosenOptions(catalogue))]);
}

// The create message's fields from the form.
export function readCreate() {
  let rules = $("c-preset").value;
  for (const [key, id] of [["misclaim", "c-misclaim"], ["history", "c-history"]])
    if ($(id).value) rules += " " + key + "=" + $(id).value;
  return { rules, players: Number($("c-players").value),
           bots: $("c-bots").value, pace_ms: Number($("c-pace").value),
           turn_ms: Number($("c-turn").value), match_to: Number($("c-match").value),
           public: $("c-public").checked, chat: $("c-chat").checked, aid: $("c-aid").checked };
}

// The home page; with INVITE (a room code from a link), the join screen
// for that room in place of the create form, the code and the lobby.
export function showHome({ invite, name }) {
  for (const id of ["room", "table", "chat-box", "review"]) $(id).hidden = true;
  $("home").hidden = false;
  if (!$("name").value) $("name").value = name || "";
  $("invite").hidden = !invite;
  for (const el of [$("create"), $("join"), $("lobby").closest("section")])
    el.hidden = !!invite;
  if (invite) {
    $("i-code").textContent = invite;
    $("j-code").value = invite;
    ($("name").value ? $("invite-join") : $("name")).focus({ preventScroll: true });
  }
}

export function renderLobby(f, onJoin) {
  const ul = $("lobby");
  // the same rooms: nothing to redraw (a redraw would take the focus away)
  const key = JSON.stringify(f.rooms);
  if (ul.dataset.shown === key) return;
  ul.dataset.shown = key;
  ul.replaceChildren();
  if (!f.rooms.length) {
    const li = document.createElement("li");
    li.textContent = "No open rooms: create one.";
    ul.append(li);
  }
  for (const r of f.rooms) {
    const li = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = `${r.host}'s room: ${r.rules}, ${r.seated} of ${r.players} seated` +
      (r.turn_ms ? `, ${r.turn_ms / 1000} s turns` : "") +
      (r.match_to ? `, match to ${r.match_to}` : "");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.textContent = "Join";
    b.dataset.room = r.code;
    b.setAttribute("aria-label", `Join ${r.host}'s room`);
    b.addEventListener("click", () => onJoin(r.code));
    li.append(text, " ", b);
    ul.append(li);
  }
}
