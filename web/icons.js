// icons.js - the page's few icons as inline SVG: no font glyph that a
// system may lack (a clock or an exclamation mark showed as empty boxes
// with Debian's fonts). Each is drawn in currentColor and hidden from
// screen readers; the text or label beside it says the same in words.

const NS = "http://www.w3.org/2000/svg";

// path data on a 24 x 24 grid, strokes unless noted
const PATHS = {
  clock: ["M12 3a9 9 0 1 0 0.01 0Z", "M12 7v5l3.5 2"],
  alert: ["M12 3 2 21h20Z", "M12 10v5", "M12 18v0.5"],
  sun: ["M12 8a4 4 0 1 0 0.01 0Z", "M12 2v2M12 20v2M2 12h2M20 12h2M4.9 4.9l1.4 1.4" +
        "M17.7 17.7l1.4 1.4M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"],
  moon: ["M20 14.5A8.5 8.5 0 0 1 9.5 4 8.5 8.5 0 1 0 20 14.5Z"],
  sound: ["M4 9h4l5-4v14l-5-4H4Z", "M16.5 8.5a5 5 0 0 1 0 7"],
  muted: ["M4 9h4l5-4v14l-5-4H4Z", "M16 9l5 6M21 9l-5 6"],
  turn: ["M8 5l10 7-10 7Z"],
  check: ["M5 12.5l4.5 4.5L19 7"],
};

export function icon(name, cls = "") {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "icon" + (cls ? " " + cls : "") + " icon-" + name);
  for (const d of PATHS[name]) {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("d", d);
    svg.append(p);
  }
  return svg;
}
