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
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };
const STEP = 15000; // the longest wait for one thing to show

let server, base, browser, dir;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), "lit-browser-"));
  server = spawn(LIT, ["serve", "--port", "0", "--db", join(dir, "lit.db")],
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
// any script error or a refused content-security-policy.
async function person(viewport = DESKTOP) {
  const phone = viewport.width < 500;
  const context = await browser.newContext({ viewport, hasTouch: phone, isMobile: phone });
  context.setDefaultTimeout(STEP);
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") page.errors.push(m.text()); });
  await page.goto(base);
  return page;
}

async function createRoom(page, name, { players = "6", pace = "0", preset = "classic" } = {}) {
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Players", { exact: true }).selectOption(players);
  await page.getByLabel("Rules", { exact: true }).selectOption(preset);
  await page.getByLabel("Bot pace").selectOption(pace);
  await page.getByRole("button", { name: "Create the room" }).click();
  await page.locator("#room").waitFor({ state: "visible", timeout: STEP });
  return (await page.locator("#r-code").textContent()).trim();
}

async function start(page) {
  const button = page.getByRole("button", { name: "Start the game" });
  await page.waitForFunction(() => !document.getElementById("start").disabled, null,
                             { timeout: STEP });
  await button.click();
  await page.locator("#table").waitFor({ state: "visible", timeout: STEP });
}

// One move by clicks if it is this page's turn: the first askable card, the
// first opponent that may be asked; a pass or a choice when that is all;
// a claim (every card to the first teammate offered) when only claims are
// left, or on every claimEvery-th turn (so that games of people who ask
// badly end). Returns whether it moved.
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
    if (visible(document.getElementById("ask"))) {
      const card = document.querySelector("#ask-cards button:not([disabled])");
      if (!card) return false;
      card.click();
      const target = document.querySelector("#ask-targets button:not([disabled])");
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

test("one person plays a whole game against bots, to the end", async () => {
  const page = await person();
  await createRoom(page, "Ann");
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  const cards = await page.locator("#hand .card").count();
  assert.equal(cards, 8, "six players: eight cards each");
  // the dealer (seat 1) asks first: every live set has a row in the picker,
  // either its cards or the referee's reason why none of it may be asked
  await page.locator("#ask").waitFor({ state: "visible" });
  const rows = page.locator("#ask-cards .group");
  assert.equal(await rows.count(), 8);
  for (let i = 0; i < 8; i++) {
    const row = rows.nth(i);
    const note = await row.locator(".note").count();
    if (note) assert.match(await row.locator(".note").textContent(),
                           /^(you hold no other card of its set|you hold all of it)$/);
    else assert.ok(await row.locator("button.card:not([disabled])").count() > 0);
  }
  await shot(page, "table-desktop");
  await playToEnd([page]);
  const result = await page.locator("#o-result").textContent();
  assert.match(result, /^(Team A wins|Team B wins|A draw), \d+ to \d+$/);
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
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a spectator sees no hand and cannot act", async () => {
  const host = await person();
  const code = await createRoom(host, "Host", { pace: "1000" });
  await host.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(host);
  const watcher = await person(PHONE);
  await watcher.getByLabel("Your name").fill("Watcher");
  await watcher.getByLabel("Room code").fill(code);
  await watcher.getByRole("button", { name: "Join", exact: true }).click();
  await watcher.locator("#table").waitFor({ state: "visible", timeout: STEP });
  assert.match(await watcher.locator("#hand").textContent(), /no hand is shown/);
  assert.equal(await watcher.locator("#hand .card").count(), 0);
  assert.equal(await watcher.locator("#actions").isVisible(), false);
  assert.equal(await watcher.locator("#my-seat .seatbox").count(), 0);
  assert.equal(await watcher.locator("#ring .seatbox").count(), 6);
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
  const hand = await page.locator("#hand .card").evaluateAll(
    (els) => els.map((e) => e.dataset.card));
  const history = await page.evaluate(() => location.hash);
  assert.match(history, /^#room=[A-Z0-9]{6}$/);
  await page.reload();
  await page.locator("#table").waitFor({ state: "visible", timeout: STEP });
  await page.waitForFunction(() => document.querySelectorAll("#hand .card").length > 0, null,
                             { timeout: STEP });
  const again = await page.locator("#hand .card").evaluateAll(
    (els) => els.map((e) => e.dataset.card));
  // the bots may have taken a card since; nothing else changes hands
  assert.ok(again.every((c) => hand.includes(c)) || again.length >= hand.length - 1,
            `after the reload: ${again} (before: ${hand})`);
  assert.match(await page.locator("#my-seat .who").textContent(), /^Rae \(you\)$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the claim dialog on a phone: assign, see, cancel, claim", async () => {
  const page = await person(PHONE);
  await createRoom(page, "Pia", { pace: "1000" });
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await shot(page, "table-phone");
  await page.waitForFunction(() => /Your turn/.test(
    document.getElementById("t-turn").textContent), null, { timeout: 60000 });
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
  await page.waitForFunction(() => /claimed/.test(document.getElementById("announce")
    .textContent), null, { timeout: STEP });
  assert.match(await page.locator("#announce").textContent(),
               /^Pia claimed .+: (won|cancelled|lost|point-off)/);
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
