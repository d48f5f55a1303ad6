// rulestext.js - the rules in words, from the server's catalogue only
// (welcome.rules: every preset's options and every option value's sentence,
// written once in the engine's option table, src/core/rules.c). The page
// writes no rule of its own, so its words cannot drift from the rules.

// The options always worth saying, in the order a player reads them; any
// other option is said when it differs from the first preset's value.
const ALWAYS = ["players", "deck", "misclaim", "history", "counts"];

export function presetOf(catalogue, name) {
  return catalogue ? catalogue.presets.find((p) => p.name === name) || null : null;
}

// The sentence for OPTION=VALUE, or null.
export function valueText(catalogue, key, value) {
  const o = catalogue && catalogue.options.find((x) => x.key === key);
  const v = o && o.values.find((x) => x.name === value);
  return v ? v.text : null;
}

// The values of an option with their sentences: [{name, text}], and its title.
export function optionOf(catalogue, key) {
  return catalogue ? catalogue.options.find((x) => x.key === key) || null : null;
}

// Sentences saying OPTIONS ({key: value}, as in the room frame's options).
export function explain(catalogue, options) {
  if (!catalogue || !options) return [];
  const base = catalogue.presets[0] ? catalogue.presets[0].options : {};
  const keys = [...ALWAYS];
  for (const o of catalogue.options)
    if (!keys.includes(o.key) && options[o.key] !== undefined && options[o.key] !== base[o.key])
      keys.push(o.key);
  const lines = [];
  for (const k of keys) {
    const t = valueText(catalogue, k, options[k]);
    if (t) lines.push(t);
  }
  return lines;
}

// Fills the list element UL with one item per sentence.
export function fillList(ul, lines) {
  ul.replaceChildren(...lines.map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    return li;
  }));
}
