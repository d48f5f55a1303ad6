// keys.js - keyboard use of the table. A group of choice buttons (cards,
// seats, sets) is one stop of the Tab key; the arrow keys move inside it,
// Home and End go to its ends, Enter or Space presses (the usual toolbar
// pattern: a row of 48 cards is not 48 Tab presses). The page redraws its
// buttons on every frame, so a redraw puts the focus back on the button
// with the same key (card, seat or set) rather than losing it.

const keyOf = (el) =>
  el.dataset.card || el.dataset.seat || el.dataset.set || el.dataset.room || el.id || "";

// Sets up BOX (once) and marks which of its enabled buttons takes the
// focus: the one it had, else the pressed one, else the first.
export function rove(box) {
  if (!box.dataset.roving) {
    box.dataset.roving = "1";
    box.addEventListener("keydown", (e) => onKey(box, e));
    box.addEventListener("focusin", (e) => {
      if (e.target.matches("button")) {
        box.dataset.current = keyOf(e.target);
        for (const b of items(box)) b.tabIndex = b === e.target ? 0 : -1;
      }
    });
  }
  const list = items(box);
  const current = list.find((b) => b === document.activeElement) ||
    list.find((b) => keyOf(b) === box.dataset.current) ||
    list.find((b) => b.getAttribute("aria-pressed") === "true") || list[0];
  for (const b of list) b.tabIndex = b === current ? 0 : -1;
  return current || null;
}

function items(box) {
  return [...box.querySelectorAll("button:not([disabled])")];
}

function onKey(box, e) {
  const list = items(box);
  const at = list.indexOf(document.activeElement);
  if (at < 0) return;
  let to = -1;
  const rows = [...box.querySelectorAll(".group")].filter((g) => items(g).length);
  if (e.key === "ArrowRight") to = (at + 1) % list.length;
  else if (e.key === "ArrowLeft") to = (at - 1 + list.length) % list.length;
  else if (e.key === "Home") to = 0;
  else if (e.key === "End") to = list.length - 1;
  else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    if (rows.length > 1) {
      // a grid of rows (the sets): up and down go to the next row's first card
      const row = rows.findIndex((g) => g.contains(document.activeElement));
      const next = rows[(row + (e.key === "ArrowDown" ? 1 : -1) + rows.length) % rows.length];
      to = list.indexOf(items(next)[0]);
    } else {
      to = (at + (e.key === "ArrowDown" ? 1 : -1) + list.length) % list.length;
    }
  } else {
    return;
  }
  e.preventDefault();
  for (const b of list) b.tabIndex = -1;
  list[to].tabIndex = 0;
  list[to].focus();
}

// Runs DRAW, which may replace the focused button, and puts the focus back:
// on the button of the same key in the same group, else on the group's
// current one, else, when the focus was inside HOME, on what NEXT() gives
// (the next choice to make), else on HOME itself (a container with
// tabindex="-1"): the focus never falls back to the top of the page.
export function keepFocus(draw, home, next = () => null) {
  const had = document.activeElement;
  const box = had && had !== document.body ? had.closest("[data-roving]") : null;
  const key = had ? keyOf(had) : "";
  const inHome = home && had && home.contains(had);
  draw();
  const now = document.activeElement;
  if (now && now !== document.body && now.isConnected && visible(now) && !now.disabled) return;
  if (!had || had === document.body) return;
  const same = box && box.isConnected && visible(box) &&
    (items(box).find((b) => keyOf(b) === key) || items(box)[0]);
  if (same) { same.focus(); return; }
  if (had.isConnected && visible(had) && !had.disabled) { had.focus(); return; }
  if (!inHome || !visible(home)) return;
  const choice = next();
  if (choice) choice.focus();
  else home.focus({ preventScroll: true });
}

export function visible(el) {
  return !!el && el.isConnected && !el.closest("[hidden]") && el.getClientRects().length > 0;
}
