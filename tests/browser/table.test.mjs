// table.test.mjs - the browser table in Debian's chromium, driven by
// playwright-core as a person would: clicks and keys only, never a protocol
// message from the test. Run by tests/integration/cli_browser.sh as
//   node --test tests/browser/table.test.mjs
// with LIT (the lit binary) and ARTIFACTS (where screenshots go) set.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const LIT = process.env.LIT;
const ARTIFACTS = process.env.ARTIFACTS || "build/browser-artifacts";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 800 };
const STEP = 15000; // the longest wait for one thing to show

let server, base, browser, dir;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), "lit-browser-"));
  // every page comes from 127.0.0.1, and a room left by closing its page
  // stays ten minutes: more than the default 8 rooms from one address
  // LIT_WEB=web serves the page from the folder (while changing it) instead
  // of the copy built into the binary
  server = spawn(LIT, ["serve", "--port", "0", "--db", join(dir, "lit.db"),
                       "--max-rooms-per-address", "64",
                       ...(process.env.LIT_WEB ? ["--web", process.env.LIT_WEB] : [])],
                 { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  server.stderr.on("data", (d) => { log += d; });
  base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = /serving on (http:\/\/[0-9.]+:[0-9]+\/)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`lit serve exited ${code}: ${log}`)));
  });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium",
                                    args: ["--no-sandbox"] });
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => server.on("exit", r));
  }
});

// A page of its own (its own storage: another person), failing the test on
// any script error or a refused content-security-policy. The test listens
// without acting: it counts the turn's sounds (window.tones) and keeps every
// line the aria-live log was given (window.heard; the log keeps the last few).
async function person(viewport = DESKTOP, { colorScheme = "light",
                                          reducedMotion = "no-preference" } = {}) {
  const phone = viewport.width < 500;
  const context = await browser.newContext({ viewport, hasTouch: phone, isMobile: phone, colorScheme,
                                         reducedMotion });
  context.setDefaultTimeout(STEP);
  await context.addInitScript(() => {
    window.tones = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () { window.tones++; return make.call(this); };
    window.heard = [];
    addEventListener("DOMContentLoaded", () => {
      new MutationObserver((changes) => {
        for (const c of changes) for (const n of c.addedNodes) window.heard.push(n.textContent);
      }).observe(document.getElementById("announce"), { childList: true });
    });
  });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") page.errors.push(m.text()); });
  await page.goto(base);
  return page;
}

async function createRoom(page, name, { players = "6", pace = "0", preset = "classic",
                                        bots = "basic", turn = "0", match = "0",
                                        pub = false, chat = true } = {}) {
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Players", { exact: true }).selectOption(players);
  await page.getByLabel("Rules", { exact: true }).selectOption(preset);
  await page.getByLabel("Bots", { exact: true }).selectOption(bots);
  await page.getByLabel("Bot pace").selectOption(pace);
  await page.getByLabel("Turn timer").selectOption(turn);
  await page.getByLabel("Match", { exact: true }).selectOption(match);
  await page.getByLabel("listed in the lobby").setChecked(pub);
  await page.getByLabel("chat (off: a silent room)").setChecked(chat);
  await page.getByRole("button", { name: "Create the room" }).click();
  await page.locator("#room").waitFor({ state: "visible", timeout: STEP });
  return (await page.locator("#r-code").textContent()).trim();
}

// Every line the aria-live log was given, oldest first.
async function told(page) {
  return page.evaluate(() => window.heard);
}

async function toldMatching(page, re, timeout = STEP) {
  await page.waitForFunction((src) => window.heard.some((t) => new RegExp(src).test(t)),
                             re.source, { timeout });
  return (await told(page)).filter((t) => re.test(t)).pop();
}

async function myTurn(page, timeout = 60000) {
  await page.waitForFunction(() => /Your turn/.test(
    document.getElementById("t-turn").textContent), null, { timeout });
}

async function start(page) {
  const button = page.getByRole("button", { name: "Start the game" });
  await page.waitForFunction(() => !document.getElementById("start").disabled, null,
                             { timeout: STEP });
  await button.click();
  await page.locator("#table").waitFor({ state: "visible", timeout: STEP });
}

// One move by clicks if it is this page's turn: the first card the hand
// offers to ask for, the first opponent on the felt that may be asked; a
// pass or a choice when that is all; a claim (every card to the first
// teammate offered) when only claims are left, or on every claimEvery-th
// turn (so that games of people who ask badly end). Returns whether it moved.
async function move(page, claimEvery = 0) {
  return page.evaluate((claimEvery) => {
    const visible = (el) => el && !el.closest("[hidden]");
    if (!visible(document.getElementById("actions"))) return false;
    if (!/Your turn/.test(document.getElementById("t-turn").textContent)) return false;
    const pass = document.querySelector("#passes button");
    if (pass) { pass.click(); return true; }
    window.turns = (window.turns || 0) + 1;
    const claim = document.getElementById("claim");
    if (claimEvery && window.turns % claimEvery === 0 && !claim.disabled) {
      claim.click();
      return "claim";
    }
    const card = document.querySelector("#hand button.card.askable");
    if (card) {
      card.click();
      const target = document.querySelector("#ring button.plate:not([disabled])");
      if (!target) return false;
      target.click();
      document.getElementById("ask-go").click();
      return true;
    }
    if (!claim.disabled) { claim.click(); return "claim"; }
    return false;
  }, claimEvery).then(async (what) => {
    if (what !== "claim") return what;
    await finishClaim(page);
    return true;
  });
}

// In the open claim dialog: the first set, each card to the first teammate.
async function finishClaim(page) {
  const dialog = page.locator("#claim-dialog");
  await dialog.waitFor({ state: "visible", timeout: STEP });
  if (!(await page.locator("#cd-sets button[aria-pressed=true]").count()))
    await page.locator("#cd-sets button").first().click();
  for (let i = 0; i < 13 && await page.locator("#cd-confirm").isDisabled(); i++)
    await page.locator("#cd-mates button").first().click();
  await page.locator("#cd-confirm").click();
}

async function playToEnd(pages, limit = 120000, claimEvery = 0) {
  const until = Date.now() + limit;
  while (Date.now() < until) {
    if (await pages[0].locator("#over").isVisible()) return;
    let moved = false;
    for (const p of pages) moved = (await move(p, claimEvery)) || moved;
    await pages[0].waitForTimeout(moved ? 60 : 40);
  }
  assert.fail("the game did not end in time");
}

async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, name + ".png"), fullPage: true });
}

// (against basic bots: a game of 64-rollout experts takes over two minutes
// in the sanitizer build; the spectator's room below has experts)
test("one person plays a whole game against bots, to the end, in a match", async () => {
  const page = await person();
  assert.equal(await page.getByLabel("Bots", { exact: true }).inputValue(), "basic");
  await createRoom(page, "Ann", { match: "5" });
  assert.match(await page.locator("#r-setup").textContent(), /Bots: basic\./);
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  const cards = await page.locator("#hand .card.held").count();
  assert.equal(cards, 8, "six players: eight cards each");
  // the dealer (seat 1) asks first: every live set is either a group of the
  // hand (its cards held face up, those that may be asked for outlined) or
  // named on the line of sets not to ask for
  await myTurn(page);
  const groups = page.locator("#hand .group");
  const held = await groups.evaluateAll((els) => els.map((e) => e.dataset.set));
  const none = await page.locator("#hand .nonesets").textContent().catch(() => "");
  for (const set of ["low-clubs", "high-clubs", "low-diamonds", "high-diamonds", "low-hearts",
                     "high-hearts", "low-spades", "high-spades"])
    assert.ok(held.includes(set) || none.includes(set.replace("-", " ")), `${set}: ${none}`);
  for (let i = 0; i < held.length; i++) {
    const g = groups.nth(i);
    assert.equal(await g.locator(".card").count(), 6, "a group shows its set's six cards");
    assert.ok(await g.locator(".card.held").count() > 0);
  }
  assert.ok(await page.locator("#hand button.card.askable").count() > 0);
  await shot(page, "table-desktop");
  assert.equal(await page.locator("#t-match").textContent(), "Match to 5: A 0, B 0");
  // every last question the page shows, watched (the test only reads the page)
  await page.evaluate(() => {
    window.lastShown = [];
    new MutationObserver(() => {
      const card = document.querySelector("#last .card");
      const text = document.getElementById("last").textContent;
      if (card) window.lastShown.push(`${card.className}|${text}`);
    }).observe(document.getElementById("last"), { childList: true, subtree: true });
  });
  await playToEnd([page]);
  // a hit shows the card got, from whom to whom; a miss says who asked
  // whom and that the turn passes
  const shown = await page.evaluate(() => window.lastShown);
  assert.ok(shown.some((x) => /\bgot\b.*\|\S+ \S+( \d)? got it from \S+( \d)? \u2192 /.test(x)),
            shown.join("\n"));
  assert.ok(shown.some((x) => /\bmissed\b.*\|\S+ \S+( \d)? asked (\S+( \d)?): \2 has none, the turn passes$/
    .test(x)), shown.join("\n"));
  assert.ok(shown.every((x) => /\bgot\b.*\u2192 |\bmissed\b.*the turn passes$/.test(x)),
            shown.join("\n"));
  const result = await page.locator("#o-result").textContent();
  const [, winner, a, b] = /^(Team A wins|Team B wins|A draw), (\d+) to (\d+)$/.exec(result);
  // the end told to a screen reader, with the match
  const wins = winner === "Team A wins" ? [1, 0] : winner === "Team B wins" ? [0, 1] : [0, 0];
  const match = `Match to 5 games: team A ${wins[0]}, team B ${wins[1]}`;
  assert.equal((await told(page)).pop(), `Game over: ${result}. ${match}.`);
  await page.waitForFunction((t) => document.getElementById("t-match").textContent === t,
                             `Match to 5: A ${wins[0]}, B ${wins[1]}`);
  assert.equal(await page.locator("#o-match").textContent(), match);
  // every set claimed, each a marker in its team's row: as many as its score
  assert.equal(await page.locator("#claimed .setchip").count(), 8);
  assert.equal(await page.locator("#claimed [data-to=A] .setchip").count(), Number(a));
  assert.equal(await page.locator("#claimed [data-to=B] .setchip").count(), Number(b));
  for (const text of await page.locator("#claimed .setchip").allTextContents())
    assert.match(text, /^(. )?(low|high) (clubs|diamonds|hearts|spades)(claimed by|.+ claimed wrong|.+'s claim cancelled)/);
  // the result on top, the final table under it, the next game's room below
  const top = async (sel) => (await page.locator(sel).boundingBox()).y;
  assert.ok(await top("#over") < await top("#ring"), "the result above the table");
  assert.ok(await top("#ring") < await top("#room"), "the room below the table");
  assert.equal(await page.locator("#start").isVisible(), false, "Play again, not Start");
  // statistics for every player, and the record to download
  assert.equal(await page.locator("#o-stats tr").count(), 7);
  const href = await page.locator("#o-record").getAttribute("href");
  assert.match(href, /^\/games\/[A-Z0-9]{16}\.lit$/);
  const record = await (await page.request.get(base + href.slice(1))).text();
  writeFileSync(join(dir, "game.lit"), record);
  execFileSync(LIT, ["replay", join(dir, "game.lit")], { stdio: "ignore" });
  assert.match(record, /\[Name1 "Ann"\]/);
  await shot(page, "over-desktop");
  // play again: a new game in the same room
  await page.getByRole("button", { name: "Play again" }).click();
  await page.locator("#over").waitFor({ state: "hidden", timeout: STEP });
  assert.equal(await page.locator("#t-match").textContent(), `Match to 5: A ${wins[0]}, B ${wins[1]}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a spectator sees no hand and cannot act", async () => {
  const host = await person();
  const code = await createRoom(host, "Host", { pace: "1000", bots: "expert" });
  assert.match(await host.locator("#r-setup").textContent(), /Bots: expert\./);
  await host.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(host);
  const watcher = await person(PHONE);
  await watcher.getByLabel("Your name").fill("Watcher");
  await watcher.getByLabel("Room code").fill(code);
  await watcher.getByRole("button", { name: "Join", exact: true }).click();
  await watcher.locator("#table").waitFor({ state: "visible", timeout: STEP });
  assert.match(await watcher.locator("#hand").textContent(), /no hand is shown/);
  assert.equal(await watcher.locator("#hand .card.held").count(), 0);
  assert.equal(await watcher.locator("#actions").isVisible(), false);
  assert.equal(await watcher.locator("#ring .plate.mine").count(), 0);
  assert.equal(await watcher.locator("#ring .plate").count(), 6);
  assert.equal(await watcher.locator("#ring button").count(), 0, "no seat to ask");
  await shot(watcher, "spectator-phone");
  assert.deepEqual(watcher.errors, []);
  await watcher.context().close();
  await host.context().close();
});

test("a reload mid-game resumes the same seat and hand", async () => {
  const page = await person();
  await createRoom(page, "Rae", { pace: "1000" });
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await move(page);
  const hand = await page.locator("#hand .card.held").evaluateAll(
    (els) => els.map((e) => e.dataset.card));
  const history = await page.evaluate(() => location.hash);
  assert.match(history, /^#room=[A-Z0-9]{6}$/);
  // back in a room, the page opens its WebSocket at /room/CODE, the path a
  // proxy routes by (docs/SCALING.md)
  const sockets = [];
  page.on("websocket", (ws) => sockets.push(new URL(ws.url()).pathname));
  await page.reload();
  await page.locator("#table").waitFor({ state: "visible", timeout: STEP });
  await page.waitForFunction(() => document.querySelectorAll("#hand .card.held").length > 0, null,
                             { timeout: STEP });
  const again = await page.locator("#hand .card.held").evaluateAll(
    (els) => els.map((e) => e.dataset.card));
  // the bots may have taken a card since; nothing else changes hands
  assert.ok(again.every((c) => hand.includes(c)) || again.length >= hand.length - 1,
            `after the reload: ${again} (before: ${hand})`);
  assert.match(await page.locator("#ring .plate.mine .who").textContent(), /^Rae \(you\)$/);
  assert.deepEqual(sockets, ["/room/" + history.slice("#room=".length)]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the claim dialog on a phone: assign, see, cancel, claim", async () => {
  const page = await person(PHONE);
  await createRoom(page, "Pia", { pace: "1000" });
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await shot(page, "table-phone");
  await myTurn(page);
  await page.getByRole("button", { name: "Claim a set…" }).click();
  const dialog = page.locator("#claim-dialog");
  await dialog.waitFor({ state: "visible", timeout: STEP });
  await page.locator("#cd-sets button").first().click();
  // tap a card, tap a teammate, until every card has a holder
  const cards = page.locator("#cd-cards button");
  const n = await cards.count();
  for (let i = 0; i < n; i++) {
    const label = await cards.nth(i).getAttribute("aria-label");
    if (!/not given yet/.test(label)) continue;
    await cards.nth(i).tap();
    await page.locator("#cd-mates button").last().tap();
  }
  assert.equal(await page.locator("#cd-confirm").isEnabled(), true);
  // the whole claim before it is made: the set's six cards, each with a holder
  assert.match(await page.locator("#cd-summary").textContent(),
               /^[a-z]+ [a-z]+: (\S+ (Pia|bot 3|bot 5), ){5}\S+ (Pia|bot 3|bot 5)$/);
  const box = await dialog.boundingBox();
  assert.ok(box.width <= PHONE.width, `the dialog fits the phone: ${box.width}`);
  await shot(page, "claim-phone");
  await page.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "hidden", timeout: STEP });
  await page.getByRole("button", { name: "Claim a set…" }).click();
  await finishClaim(page);
  const line = await toldMatching(page, /^Pia claimed /);
  const [, set, outcome] = /^Pia claimed ([a-z]+ [a-z]+): (won|cancelled|lost|point-off), /
    .exec(line);
  // the set's marker, in the row of the team that scored it (or nobody's)
  const chip = page.locator("#claimed .setchip", { hasText: set });
  const to = { won: "A", lost: "B", cancelled: "none", "point-off": "none" }[outcome];
  assert.equal(await chip.getAttribute("data-to"), to);
  assert.match(await chip.textContent(), outcome === "won" ? /claimed by Pia$/ : /Pia/);
  await shot(page, "claimed-phone");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("six people play a game together in six browsers", async () => {
  const host = await person();
  const code = await createRoom(host, "P1", { players: "6" });
  const link = await host.locator("#r-link").getAttribute("href");
  const pages = [host];
  for (let i = 2; i <= 6; i++) {
    const p = await person(i % 2 ? DESKTOP : PHONE);
    await p.goto(link);
    await p.getByLabel("Your name").fill("P" + i);
    assert.equal(await p.getByLabel("Room code").inputValue(), code);
    await p.getByRole("button", { name: "Join", exact: true }).click();
    await p.locator("#room").waitFor({ state: "visible", timeout: STEP });
    await p.locator("#seats li", { hasText: `Seat ${i},` })
      .getByRole("button", { name: "Sit here" }).click();
    await p.locator("#seats li", { hasText: `Seat ${i}, team ${i % 2 ? "A" : "B"}: P${i}` })
      .waitFor({ timeout: STEP });
    pages.push(p);
  }
  await start(host);
  for (const p of pages) await p.locator("#table").waitFor({ state: "visible", timeout: STEP });
  await playToEnd(pages, 120000, 3);
  for (const p of pages) {
    await p.locator("#over").waitFor({ state: "visible", timeout: STEP });
    assert.deepEqual(p.errors, []);
  }
  await shot(pages[1], "over-phone");
  for (const p of pages) await p.context().close();
});

// ---- the keyboard alone -------------------------------------------------

// What has the focus: its id, its group's id, its key, its text, and
// whether a focus ring shows (an outline of at least 2 px).
async function focused(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return { id: "", group: "", key: "", text: "", ring: false };
    const css = getComputedStyle(a);
    return {
      id: a.id, group: a.closest("[role=group], dialog, form, section")?.id || "",
      key: a.dataset.card || a.dataset.seat || a.dataset.set || "",
      text: a.textContent.trim(), pressed: a.getAttribute("aria-pressed"),
      ring: css.outlineStyle !== "none" && parseFloat(css.outlineWidth) >= 2,
    };
  });
}

// Tab (or Shift+Tab) until the focus is on what WANT says, each stop with
// a visible ring; fails after 40 presses.
async function tabTo(page, want, back = false) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const f = await focused(page);
    if (f.id || f.group) assert.ok(f.ring, `no focus ring on ${JSON.stringify(f)}`);
    if (want(f)) return f;
  }
  assert.fail(`tabbing never reached it: ${want}`);
}

async function press(page, key) {
  await page.keyboard.press(key);
  const f = await focused(page);
  assert.ok(f.ring, `after ${key}, no focus ring on ${JSON.stringify(f)}`);
  return f;
}

test("keyboard alone: a room, bots, an ask, the claim dialog, cancel and claim", async () => {
  const page = await person();
  // the turn's sound off first; it stays off across a reload
  let f = await tabTo(page, (x) => x.id === "mute");
  assert.equal(f.pressed, "false");
  assert.equal((await press(page, "Space")).pressed, "true");
  await tabTo(page, (x) => x.id === "name");
  await page.keyboard.type("Kay");
  await tabTo(page, (x) => x.id === "c-pace");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  assert.equal(await page.locator("#c-pace").inputValue(), "0", "bots at once");
  await tabTo(page, (x) => x.id === "create-room");
  await page.keyboard.press("Enter");
  await page.locator("#room").waitFor({ state: "visible" });
  await tabTo(page, (x) => x.id === "fill");
  await press(page, "Enter");
  await page.waitForFunction(() => !document.getElementById("start").disabled);
  await tabTo(page, (x) => x.id === "start", true);
  await page.keyboard.press("Enter");
  await page.locator("#table").waitFor({ state: "visible" });
  // the first turn is the dealer's (seat 1): the focus is on the cards to ask for
  await myTurn(page);
  await page.waitForFunction(() => document.activeElement.closest("#hand"));
  f = await focused(page);
  assert.ok(f.ring && f.key, JSON.stringify(f));
  await shot(page, "keyboard-desktop");
  const first = f.key;
  f = await press(page, "ArrowRight");
  assert.notEqual(f.key, first, "the arrow moves to the next card");
  f = await press(page, "Space");
  assert.equal(f.pressed, "true", "the card is chosen, and keeps the focus");
  f = await tabTo(page, (x) => x.group === "ring");
  f = await press(page, "Enter");
  assert.equal(f.pressed, "true");
  const target = f.key;
  f = await tabTo(page, (x) => x.id === "ask-go");
  assert.equal(f.text, "Ask");
  const words = /^Ask bot \d for the (.+)\?$/.exec(await page.locator("#why").textContent())[1];
  await page.keyboard.press("Enter");
  // the ask, told in the live region: hit or miss
  const asked = await toldMatching(page, new RegExp(`^Kay asked bot ${target} for the `));
  assert.match(asked, new RegExp(`^Kay asked bot ${target} for the ${words}: (got it|bot ${target} has none)$`));
  // the Ask button went away under the focus: on Kay's turn the focus is
  // on the next choice (at once after a hit, when the turn is back after a miss)
  await myTurn(page);
  // the turn's coming is told (in the same redraw as the turn line): at
  // the start, and after a miss again, once the turn is back
  const heard = await told(page);
  assert.ok(heard.indexOf("Your turn.") >= 0 &&
            heard.indexOf("Your turn.") < heard.indexOf(asked), heard.join("\n"));
  if (/ has none$/.test(asked))
    assert.ok(heard.lastIndexOf("Your turn.") > heard.indexOf(asked), heard.join("\n"));
  await page.waitForFunction(() => document.activeElement.closest("#hand, #passes") ||
                                   document.activeElement.id === "claim");
  assert.ok((await focused(page)).ring);
  // on a turn of Kay's with a set to claim: to the claim button, and open it
  for (;;) {
    await myTurn(page);
    if (await page.locator("#claim").isEnabled()) break;
    await page.waitForTimeout(100);
  }
  await tabTo(page, (x) => x.id === "claim");
  await page.keyboard.press("Enter");
  await page.locator("#claim-dialog").waitFor({ state: "visible" });
  f = await focused(page);
  assert.equal(f.group, "cd-sets", "the focus starts on the sets");
  assert.ok(f.ring);
  f = await press(page, "ArrowRight");
  f = await press(page, "Enter");
  assert.equal(f.pressed, "true", "the set chosen");
  const set = f.key;
  await tabTo(page, (x) => x.group === "cd-mates");
  // Enter gives the chosen card to the teammate, again and again, until
  // every card has a holder: then the focus is on Claim
  for (let i = 0; i < 7 && (await focused(page)).id !== "cd-confirm"; i++)
    await press(page, "Enter");
  assert.equal((await focused(page)).id, "cd-confirm");
  assert.match(await page.locator("#cd-summary").textContent(), /^[a-z]+ [a-z]+: /);
  await shot(page, "keyboard-claim-desktop");
  // Escape cancels: the focus is back on the claim button, nothing claimed
  await page.keyboard.press("Escape");
  await page.locator("#claim-dialog").waitFor({ state: "hidden" });
  assert.equal((await focused(page)).id, "claim");
  assert.ok(!(await told(page)).some((t) => /^Kay claimed/.test(t)), "nothing claimed");
  assert.equal(await page.locator(`#claimed .setchip[data-set=${set}]`).count(), 0);
  // again, the first set this time, and confirm with Enter
  await page.keyboard.press("Enter");
  await page.locator("#claim-dialog").waitFor({ state: "visible" });
  f = await press(page, "Enter");
  assert.equal(f.pressed, "true");
  assert.notEqual(f.key, set);
  const chosen = f.key;
  await tabTo(page, (x) => x.group === "cd-mates");
  for (let i = 0; i < 7 && (await focused(page)).id !== "cd-confirm"; i++)
    await press(page, "Enter");
  await page.keyboard.press("Enter");
  const claimed = await toldMatching(page, /^Kay claimed /);
  assert.match(claimed, new RegExp(`^Kay claimed ${chosen.replace("-", " ")}: ` +
                                   "(won|cancelled|lost|point-off), "));
  await page.locator(`#claimed .setchip[data-set=${chosen}]`).waitFor();
  // the turn came to Kay twice or more and no sound played: muted
  assert.equal(await page.evaluate(() => window.tones), 0);
  await page.reload();
  await page.locator("#table").waitFor({ state: "visible" });
  assert.equal(await page.locator("#mute").getAttribute("aria-pressed"), "true");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- the lobby and the chat ----------------------------------------------

test("the lobby lists public rooms only; chat is text, limited, and off in silent rooms", async () => {
  // names and lines that would be markup if set as HTML
  const host = "<b>Al</b>", guest = "<img src=x onerror=alert(1)>";
  const line = "<b>hi</b> <img src=y onerror=alert(2)> & bye";
  const quiet = await person();
  const al = await person();
  const bo = await person(PHONE);
  // a private, silent room first, then a public one
  await createRoom(quiet, "Cy", { chat: false });
  assert.equal(await quiet.locator("#chat-box").isVisible(), false);
  assert.equal(await quiet.locator("#chat-text").count(), 1);
  assert.equal(await quiet.locator("#chat-text").isVisible(), false, "a silent room: no chat input");
  const code = await createRoom(al, host, { pub: true });
  // Bo's lobby: Al's room, by its host's name as text; not Cy's
  await bo.getByRole("button", { name: "Refresh" }).click();
  const entry = bo.locator("#lobby li", { hasText: `${host}'s room` });
  await entry.waitFor();
  assert.match(await entry.textContent(), /^<b>Al<\/b>'s room: classic, 1 of 6 seated/);
  assert.equal(await bo.locator("#lobby li", { hasText: "Cy's room" }).count(), 0);
  assert.equal(await bo.locator("#lobby b, #lobby img").count(), 0);
  await shot(bo, "lobby-phone");
  // joined from the lobby: watching, then seated
  await bo.getByLabel("Your name").fill(guest);
  await entry.getByRole("button", { name: `Join ${host}'s room` }).click();
  await bo.locator("#room").waitFor({ state: "visible" });
  assert.equal((await bo.locator("#r-code").textContent()).trim(), code);
  await al.locator("#r-spectators", { hasText: `Watching: ${guest}` }).waitFor();
  await bo.locator("#seats li", { hasText: "Seat 2," }).getByRole("button", { name: "Sit here" })
    .click();
  await al.locator("#seats li", { hasText: `Seat 2, team B: ${guest}` }).waitFor();
  // the host's buttons are the host's
  assert.equal(await bo.getByRole("button", { name: "Start the game" }).isVisible(), false);
  assert.equal(await al.getByRole("button", { name: "Start the game" }).isVisible(), true);
  // a chat line each way, shown as typed
  await bo.getByLabel("a chat line").fill(line);
  await bo.getByLabel("a chat line").press("Enter");
  const said = `${guest} (seat 2): ${line}`;
  await al.locator("#chat li", { hasText: line }).waitFor();
  assert.deepEqual(await al.locator("#chat li").allTextContents(), [said]);
  await bo.waitForFunction(() => document.getElementById("chat-text").value === "");
  await al.getByLabel("a chat line").fill("welcome");
  await al.getByRole("button", { name: "Send" }).click();
  await bo.locator("#chat li", { hasText: "welcome" }).waitFor();
  assert.deepEqual(await bo.locator("#chat li").allTextContents(),
                   [said, `${host} (seat 1): welcome`]);
  for (const p of [al, bo]) {
    assert.equal(await p.locator("#chat b, #chat img, #seats b, #seats img").count(), 0);
    assert.equal(await p.evaluate(() => document.querySelectorAll("img").length), 0);
  }
  // a line over 200 bytes (150 two-byte letters) is refused with a reason, and kept
  const long = "\u00e9".repeat(150);
  await bo.getByLabel("a chat line").fill(long);
  await bo.getByLabel("a chat line").press("Enter");
  await bo.locator("#error", { hasText: "at most 200 bytes" }).waitFor();
  assert.match(await bo.locator("#error").textContent(), /this one is 300/);
  assert.equal(await bo.getByLabel("a chat line").inputValue(), long);
  assert.equal(await al.locator("#chat li").count(), 2);
  await shot(bo, "chat-phone");
  for (const p of [quiet, al, bo]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

// ---- the turn's clock, waits, hand sizes on request, the sound ----------

test("a timed turn counts down on the seat to play; waits are two; sizes on request", async () => {
  const page = await person();
  await createRoom(page, "Tim", { turn: "20000", pace: "1000" });
  assert.match(await page.locator("#r-setup").textContent(), /20 s a turn/);
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await myTurn(page, STEP);
  // the turn started with a sound (not muted here)
  await page.waitForFunction(() => window.tones >= 1);
  const seconds = async (sel) => Number(/(\d+) s/.exec(await page.locator(sel).textContent())[1]);
  assert.match(await page.locator("#t-clock").textContent(), /^ \d+ s left$/);
  assert.equal(await page.locator("#t-clock svg.icon-clock").count(), 1, "an SVG clock, no glyph");
  assert.match(await page.locator("#ring .plate.mine.turn .seatclock").textContent(),
               /^ \u00B7 \d+ s$/);
  const before = await seconds("#t-clock");
  assert.ok(before <= 20 && before >= 15, `${before}`);
  await page.waitForTimeout(1300);
  assert.ok(await seconds("#t-clock") < before, "the clock counts down");
  // hand sizes (classic: counts=request) are not shown until asked for
  const meta = page.locator("#ring .plate .meta");
  assert.ok((await meta.allTextContents()).every((t) => !/cards/.test(t)));
  await page.getByRole("button", { name: "How many cards does each hold?" }).click();
  assert.ok((await meta.allTextContents()).every((t) => / · 8 cards( · a teammate)?$/.test(t)));
  assert.match((await told(page)).pop(), /^Cards held: Tim 8, bot 2 8, bot 3 8, bot 4 8, bot 5 8, bot 6 8\.$/);
  // wait: the clock is held, Ready ends it; twice a game
  const wait = page.locator("#wait");
  assert.equal(await wait.textContent(), "Wait (2 left)");
  for (const left of [1, 0]) {
    await wait.click();
    await page.locator("#t-clock", { hasText: "Tim asked to wait (" }).waitFor();
    assert.match(await page.locator("#ring .plate.mine .seatclock").textContent(), /held/);
    await toldMatching(page, /^Tim asked to wait: play is held\.$/);
    assert.equal(await wait.isVisible(), false);
    if (left === 1) await shot(page, "wait-desktop");
    await page.getByRole("button", { name: "Ready" }).click();
    await page.locator("#t-clock", { hasText: "s left" }).waitFor();
    await wait.waitFor({ state: "visible" });
    assert.equal(await wait.textContent(), `Wait (${left} left)`);
  }
  assert.equal(await wait.isDisabled(), true, "no third wait");
  // an ask: the sizes asked for are shown until the next move only
  await page.locator("#hand button.card.askable").first().click();
  await page.locator("#ring button.plate:not([disabled])").first().click();
  await page.locator("#ask-go").click();
  await page.waitForFunction(() => [...document.querySelectorAll("#ring .plate .meta")]
    .every((m) => !/cards/.test(m.textContent)));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// ---- a turn in one screen, the scoresheet, themes, motion ----------------

// Whether every element SEL finds is wholly inside the viewport, the page
// not scrolled: true, or what is not.
async function inView(page, sel) {
  return page.evaluate((sel) => {
    const all = [...document.querySelectorAll(sel)];
    if (!all.length) return `${sel}: none`;
    for (const el of all) {
      const b = el.getBoundingClientRect();
      const ok = scrollX === 0 && scrollY === 0 && b.top >= 0 && b.left >= 0 &&
        b.bottom <= innerHeight && b.right <= innerWidth && b.width > 0;
      if (!ok) return `${sel}: ${JSON.stringify(b)} in ${innerWidth}x${innerHeight}, scrolled ${scrollY}`;
    }
    return true;
  }, sel);
}

// One turn by taps (a phone) or clicks, each control checked inside the
// viewport before it is touched, the page never scrolled.
async function turnInView(page, phone) {
  const touch = (loc) => (phone ? loc.tap() : loc.click());
  const check = async (sel) => assert.equal(await inView(page, sel), true);
  if (await page.locator("#passes button").count()) {
    await check("#passes button");
    await touch(page.locator("#passes button").first());
    return;
  }
  await check("#claim");
  const card = "#hand button.card.askable";
  if (!(await page.locator(card).count())) {
    assert.equal(await page.locator("#claim").isEnabled(), true, "nothing to ask: a claim");
    await touch(page.locator("#claim"));
    await finishClaim(page);
    return;
  }
  // every card that may be asked for and every seat is in view
  await check(card);
  await check("#ring .plate");
  await touch(page.locator(card).first());
  const target = "#ring button.plate:not([disabled])";
  await check(target);
  await touch(page.locator(target).first());
  await check("#ask-go");
  await touch(page.locator("#ask-go"));
}

for (const [label, size] of [["phone", PHONE], ["laptop", DESKTOP]]) {
  test(`a whole game on a ${label}, every turn without scrolling`, async () => {
    const phone = size === PHONE;
    const page = await person(size);
    await createRoom(page, "Vic", { pace: "0" });
    await page.getByRole("button", { name: "Bots in empty seats" }).click();
    await start(page);
    const until = Date.now() + 180000;
    let turns = 0;
    while (!(await page.locator("#over").isVisible())) {
      assert.ok(Date.now() < until, "the game did not end in time");
      const mine = await page.evaluate(() =>
        /Your turn/.test(document.getElementById("t-turn").textContent) &&
        !document.getElementById("actions").closest("[hidden]") &&
        !document.getElementById("actions").hidden);
      if (!mine) { await page.waitForTimeout(40); continue; }
      const before = await page.evaluate(() => document.querySelectorAll("#history li").length +
        "/" + document.getElementById("t-score").textContent + "/" + window.heard.length);
      await turnInView(page, phone);
      turns++;
      // the turn's action is shown before the next one is taken
      await page.waitForFunction((b) => document.querySelectorAll("#history li").length +
        "/" + document.getElementById("t-score").textContent + "/" + window.heard.length !== b,
                                 before);
      if (turns === 3) await shot(page, `turn-${label}`);
    }
    assert.ok(turns > 3, `${turns} turns`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("the scoresheet is live, offers the likeliest placement, and names the rules' truth", async () => {
  const page = await person();
  // the rules in words from the engine's table: classic's wrong claim has
  // two outcomes, and a 6-player classic game has eight half-suits
  await page.getByLabel("Rules", { exact: true }).selectOption("classic");
  const words = await page.locator("#c-explain li").allTextContents();
  assert.ok(words.some((t) => /opponent/i.test(t) && /cancel/i.test(t)), words.join("\n"));
  assert.ok(words.some((t) => /eight half-suits/i.test(t)), words.join("\n"));
  await page.getByLabel("Rules", { exact: true }).selectOption("club");
  assert.ok((await page.locator("#c-explain li").allTextContents()).join("\n") !==
            words.join("\n"), "another preset, other words");
  await page.getByLabel("Rules", { exact: true }).selectOption("classic");
  await createRoom(page, "Sol", { pace: "400" });
  assert.ok((await page.locator("#r-rules li").allTextContents())
    .some((t) => /eight half-suits/i.test(t)));
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await myTurn(page);
  await page.getByRole("button", { name: "Scoresheet" }).click();
  await page.locator("#aid-grid table").waitFor();
  const after = async () => Number(await page.locator("#aid-grid").getAttribute("data-after"));
  const first = await after();
  assert.equal(first, 0);
  await move(page);
  // the ask and the bots' moves: the grid follows each event without a press
  await page.waitForFunction((n) => Number(document.getElementById("aid-grid").dataset.after) > n,
                             first, { timeout: 60000 });
  for (const h of await page.locator("#aid-grid .aidset th").allTextContents())
    assert.match(h, /: your team holds it all [0-9.<]+%/);
  // a turn of Sol's with a set the team may hold whole: the claim dialog
  // offers the scoresheet's likeliest placement of it
  let set = null;
  for (let i = 0; i < 60 && !set; i++) {
    await myTurn(page, 120000);
    await page.waitForFunction(() => Number(document.getElementById("aid-grid").dataset.after) ===
      Number(document.getElementById("history").querySelector("li")?.value || 0) ||
      !document.querySelector("#history li"), null, { timeout: 60000 }).catch(() => {});
    set = await page.evaluate(() => [...document.querySelectorAll("#aid-grid .aidset")]
      .filter((tr) => /likeliest: /.test(tr.textContent)).map((tr) => tr.dataset.set)[0] || null);
    if (!set) await move(page);
  }
  assert.ok(set, "a set to claim");
  await page.getByRole("button", { name: "Claim a set…" }).click();
  await page.locator(`#cd-sets button[data-set=${set}]`).click();
  const likely = page.locator("#cd-likely");
  await likely.waitFor({ state: "visible" });
  assert.match(await likely.textContent(), /^Start from the likeliest placement \(([0-9.]+|<0\.1)%\)$/);
  await likely.click();
  assert.equal(await page.locator("#cd-confirm").isEnabled(), true, "every card placed");
  await shot(page, "claim-likely-desktop");
  await page.locator("#cd-confirm").click();
  // claimed: its truth, card by card, under the felt
  await page.locator(`#claimed .setchip[data-set=${set}]`).waitFor();
  const setWords = set.replace("-", " ");
  await page.locator("#truth .truthitem").first().waitFor();
  const truth = await page.locator("#truth").textContent();
  assert.match(truth, new RegExp(`^Sol claimed ${setWords}, .+ Held by:`));
  assert.equal(await page.locator("#truth .truthitem").count(), 6);
  // a question later the truth is still there (unless another claim came),
  // and the history keeps the claim under history=last
  const heard = (await told(page)).length;
  await move(page);
  await page.waitForFunction((n) => window.heard.slice(n).some((t) => / asked /.test(t)), heard,
                             { timeout: 60000 });
  if (!(await told(page)).slice(heard).some((t) => / claimed /.test(t)))
    assert.equal(await page.locator("#truth").textContent(), truth);
  assert.equal(await page.locator("#history-box summary").textContent(),
               "The last question and the claims");
  assert.ok((await page.locator("#history li").allTextContents())
    .some((t) => t.startsWith(`Sol claimed ${setWords}: `)));
  // the set leaves the scoresheet at its next answer
  await page.waitForFunction((s) => document.getElementById("aid-grid").dataset.after &&
    !document.querySelector(`#aid-grid .aidset[data-set=${s}]`), set, { timeout: 60000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a hint names the expert's move and why, and Ask plays it in one press", async () => {
  const page = await person();
  await createRoom(page, "Hal", { pace: "400" });
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await myTurn(page);
  assert.equal(await page.locator("#hint-line").isHidden(), true, "no hint before one is asked");
  await page.getByRole("button", { name: "Hint" }).click();
  const line = page.locator("#hint-line");
  await line.waitFor({ state: "visible", timeout: 60000 });
  const text = await line.textContent();
  assert.match(text, /^Hint: (ask .+ for the .+ \(hits \d+%\)|claim the .+: .+ \(right( at most)? \d+%\)|pass the turn to .+|let .+ ask next)$/, text);
  assert.ok(await page.evaluate(() => window.heard.some((t) => /^Hint: /.test(t))),
            "the hint is announced");
  assert.equal(await page.getByRole("button", { name: "Hint" }).isEnabled(), true,
               "answered: Hint may be pressed again");
  await shot(page, "hint-desktop");
  if (/^Hint: ask /.test(text)) {
    // the hinted card and opponent are picked: Ask plays them
    const go = page.getByRole("button", { name: "Ask", exact: true });
    assert.equal(await go.isEnabled(), true, "the hint's ask is picked");
    const [, whom, card] = text.match(/^Hint: ask (.+) for the (.+) \(hits/);
    await go.click();
    await page.waitForFunction((asked) => window.heard.some((t) => t.includes(asked)),
                               ` asked ${whom} for the ${card}: `);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a friend opens the link, takes a bot's seat, plays; another asks the host for a seat", async () => {
  const host = await person();
  await createRoom(host, "Hal", { players: "4", pace: "0" });
  await host.getByRole("button", { name: "Bots in empty seats" }).click();
  const link = await host.locator("#r-link").getAttribute("href");
  const friend = await person(PHONE);
  await friend.goto(link);
  // the link opens a join screen for that room, nothing else in the way
  await friend.locator("#invite").waitFor();
  assert.equal(await friend.locator("#create").isVisible(), false);
  assert.equal(await inView(friend, "#invite-join"), true);
  await friend.getByLabel("Your name").fill("Fay");
  await friend.getByRole("button", { name: "Join", exact: true }).click();
  await friend.locator("#room").waitFor();
  // every screen names the host
  assert.equal(await friend.locator("#r-host-line").textContent(), "Host: Hal");
  await friend.getByRole("button", { name: "Take seat 2 from the bot" }).click();
  await host.locator("#seats li", { hasText: "Seat 2, team B: Fay" }).waitFor();
  // a third person asks the host; the host sees it and gives a bot's seat
  const cy = await person();
  await cy.goto(link);
  await cy.getByLabel("Your name").fill("Cy");
  await cy.getByRole("button", { name: "Join", exact: true }).click();
  await cy.locator("#room").waitFor();
  await cy.getByRole("button", { name: "Ask the host for a seat" }).click();
  await host.locator("#r-waiting", { hasText: "Cy is waiting for a seat." }).waitFor();
  await shot(host, "waiting-desktop");
  await host.getByRole("button", { name: "Give Cy seat 3" }).click();
  await cy.locator("#seats li", { hasText: "Seat 3, team A: Cy" }).waitFor();
  assert.equal(await host.locator("#r-waiting").isVisible(), false);
  await start(host);
  const pages = [host, friend, cy];
  for (const p of pages) await p.locator("#table").waitFor({ state: "visible" });
  assert.match(await friend.locator("#t-host").textContent(), /^Host: Hal/);
  await playToEnd(pages, 120000, 3);
  // the end names who starts the next game
  await friend.locator("#o-next", { hasText: "Hal (the host) starts the next game." }).waitFor();
  for (const p of pages) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("the host reloads and stays host; the tone's lock is told", async () => {
  const host = await person(DESKTOP);
  await createRoom(host, "Ida", { pace: "1000" });
  const link = await host.locator("#r-link").getAttribute("href");
  const guest = await person(PHONE);
  await guest.goto(link);
  await guest.getByLabel("Your name").fill("Gus");
  await guest.getByRole("button", { name: "Join", exact: true }).click();
  await guest.locator("#room").waitFor();
  await guest.locator("#seats li", { hasText: "Seat 2," }).getByRole("button", { name: "Sit here" })
    .click();
  await host.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(host);
  // a browser keeps audio locked after a reload until the page is touched;
  // headless chromium does not, so its AudioContext is made to, as a real one
  await host.context().addInitScript(() => {
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      constructor() { super(); this.locked = true; }
      get state() { return this.locked ? "suspended" : super.state; }
      resume() { this.locked = false; return super.resume(); }
    };
  });
  await host.reload();
  await host.locator("#table").waitFor({ state: "visible" });
  // the guest never became host: the role waited for the host's return
  assert.match(await guest.locator("#t-host").textContent(), /^Host: Ida/);
  assert.match(await host.locator("#t-host").textContent(), /^Host: Ida \(you\)$/);
  // after the reload the tone is locked until a touch: the page says so
  await myTurn(host);
  await host.locator("#sound-hint").waitFor({ state: "visible" });
  assert.equal(await host.getByRole("button", { name: "Tap to turn the sound on" }).count(), 1);
  // any touch of the page unlocks it (the hint's own button, or anywhere)
  await host.locator("#t-score").click();
  await host.locator("#sound-hint").waitFor({ state: "hidden" });
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
  await guest.context().close();
  await host.context().close();
});

test("dark theme follows the system, the toggle is kept; reduced motion moves nothing", async () => {
  for (const [size, label] of [[PHONE, "phone"], [DESKTOP, "desktop"]]) {
    const page = await person(size, { colorScheme: "dark" });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    assert.equal(await page.getByRole("button", { name: "Dark theme" }).getAttribute("aria-pressed"),
                 "true");
    await createRoom(page, "Dee", { pace: "1000" });
    await page.getByRole("button", { name: "Bots in empty seats" }).click();
    await start(page);
    await myTurn(page);
    await page.locator("#hand button.card.askable").first().click();
    await page.locator("#ring button.plate:not([disabled])").first().click();
    await shot(page, `table-${label}-dark`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, "rgb(16, 20, 18)");
    // the toggle: light, kept across a reload against the system's dark
    await page.getByRole("button", { name: "Dark theme" }).click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
    await page.reload();
    await page.locator("#table").waitFor({ state: "visible" });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
    await shot(page, `table-${label}-light`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // motion: a hit's card flies to the asker, unless motion is reduced
  for (const reducedMotion of ["no-preference", "reduce"]) {
    const page = await person(DESKTOP, { reducedMotion });
    await createRoom(page, "Mo", { pace: "0" });
    await page.evaluate(() => {
      window.flights = 0;
      new MutationObserver((changes) => {
        for (const c of changes) for (const n of c.addedNodes)
          if (n.classList && n.classList.contains("flying")) window.flights++;
      }).observe(document.body, { childList: true });
    });
    await page.getByRole("button", { name: "Bots in empty seats" }).click();
    await start(page);
    await playToEnd([page], 120000, 2);
    const hits = await page.evaluate(() => [...document.querySelectorAll("#history li")]
      .filter((li) => /: got it/.test(li.textContent)).length);
    const flights = await page.evaluate(() => window.flights);
    if (reducedMotion === "reduce") assert.equal(flights, 0, "no motion when reduced");
    else assert.ok(hits === 0 || flights > 0, `${hits} hits, ${flights} flights`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

// ---- the review of a finished game -----------------------------------------

test("a finished game's review: every step, any seat's scoresheet, marks; by link and list", async () => {
  const page = await person();
  await createRoom(page, "Rev", { pace: "0" });
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await playToEnd([page], 120000, 3);
  const actions = await page.locator("#history li").count();
  const link = page.getByRole("link", { name: "Review the game" });
  const href = await link.getAttribute("href");
  assert.match(href, /^#game=[A-Z0-9]{16}$/);
  await link.click();
  await page.locator("#review").waitFor();
  await page.waitForFunction(() => !document.getElementById("rv-forward").disabled);
  assert.equal(await page.locator("#rv-where").textContent(), `Step 0 of ${actions}: the deal`);
  // the deal: every hand, eight cards each
  const seats = page.locator("#rv-seats .rvseat");
  assert.equal(await seats.count(), 6);
  for (let i = 0; i < 6; i++)
    assert.equal(await seats.nth(i).locator(".card").count(), 8);
  // the reviewed seat is the player's own: its marks come from the expert
  await page.locator("#rv-marks li").first().waitFor({ timeout: 60000 });
  const mine = await page.locator("#rv-marks li").count();
  assert.ok(mine > 0);
  assert.match(await page.locator("#rv-summary").textContent(), /^\d+ decisions: \d+ asks, /);
  // every step by the Forward button: the event, the hands, the slider
  let cards = 48;
  for (let k = 1; k <= actions; k++) {
    await page.getByRole("button", { name: "Forward" }).click();
    await page.waitForFunction((k) => document.getElementById("rv-step").value === String(k), k);
    assert.match(await page.locator("#rv-where").textContent(), new RegExp(`^Step ${k} of ${actions}$`));
    const event = await page.locator("#rv-event").textContent();
    assert.match(event, /^\S+( \d+)? (asked|claimed|passed|chose) /);
    const now = await page.locator("#rv-seats .card").count();
    assert.ok(now === cards || (/ claimed /.test(event) && now < cards), `${event}: ${cards} -> ${now}`);
    cards = now;
  }
  assert.equal(cards, 0, "every set claimed at the end");
  assert.equal(await page.getByRole("button", { name: "Forward" }).isDisabled(), true);
  // a mark on one of the player's decisions: go there from the list
  const first = page.locator("#rv-marks button").first();
  const step = Number(await first.getAttribute("data-step"));
  await first.click();
  await page.locator("#rv-mark").waitFor();
  assert.match(await page.locator("#rv-mark").textContent(),
               /^Rev's decision: (chance [0-9.<]+%; )?the expert (does the same|would .+; cost \d\.\d\d) \((best|good|inaccuracy|mistake)\)$/);
  // the keys step back and forth
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((k) => document.getElementById("rv-step").value === String(k), step - 1);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((k) => document.getElementById("rv-step").value === String(k), step);
  // another seat's view: its scoresheet at this step
  await page.locator("#rv-view button[data-seat='2']").click();
  await page.waitForFunction((k) => document.getElementById("rv-sheet").dataset.after === String(k),
                             step, { timeout: 30000 });
  assert.match(await page.locator("#rv-sheet-who").textContent(), new RegExp(`, step ${step}$`));
  assert.ok(await page.locator("#rv-sheet .aidset").count() > 0);
  // the slider to the deal
  await page.locator("#rv-step").fill("0");
  await page.waitForFunction(() => document.getElementById("rv-where").textContent.startsWith("Step 0 "));
  await shot(page, "review-desktop");
  // anyone with the link: a phone in no room
  const friend = await person(PHONE);
  await friend.goto(base + href);
  await friend.locator("#review").waitFor();
  await friend.waitForFunction(() => !document.getElementById("rv-forward").disabled);
  assert.equal(await friend.locator("#rv-seats .rvseat").count(), 6);
  await friend.getByRole("button", { name: "End" }).click();
  await friend.waitForFunction((n) => document.getElementById("rv-step").value === String(n), actions);
  await shot(friend, "review-phone");
  assert.deepEqual(friend.errors, []);
  await friend.context().close();
  // the player's list of games: home, then the review again from it
  await page.getByRole("button", { name: "Close the review" }).click();
  await page.locator("#table").waitFor();
  await page.locator("#o-leave").click();
  await page.locator("#home").waitFor();
  const listed = page.locator("#my-games a").first();
  assert.equal(await listed.getAttribute("href"), href);
  await listed.click();
  await page.locator("#review").waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
