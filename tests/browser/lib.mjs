// lib.mjs - what the browser tests share (tests/browser/*.test.mjs): a
// server and a chromium for each test file, a person (a page of its own),
// a room made through the form, a move by clicks, a game played to its end,
// screenshots. Everything is done as a person would: clicks and keys only,
// never a protocol message from a test.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const LIT = process.env.LIT;
const ARTIFACTS = process.env.ARTIFACTS || "build/browser-artifacts";
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 800 };
export const STEP = 15000; // the longest wait for one thing to show

let server, browser, log;
// the server's address, and a folder of the file's own (live bindings: set
// by the hooks serveTable registers)
export let base, dir;

// The hooks of a test file: a server of its own (its own store, on a port
// of its own) and a chromium, for every test of the file; both stopped after.
export function serveTable() {
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
    log = "";
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
    // Debian's chromium headless shell: the same Blink without the
    // browser's own shell, about 40% less CPU over the four files than
    // the whole browser in its headless mode (docs/BENCHMARKS.md "The test
    // suite"); LIT_CHROMIUM names another build of chromium to run them in
    browser = await chromium.launch({
      executablePath: process.env.LIT_CHROMIUM || "/usr/bin/chromium-headless-shell",
      args: ["--no-sandbox"] });
  });

  after(async () => {
    await browser?.close();
    // the server stops cleanly (under the sanitizers: no leak, no error)
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.on("exit", (code, signal) => r({ code, signal })));
      server.kill("SIGTERM");
      assert.deepEqual(await exited, { code: 0, signal: null }, log);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

// Stops the file's server (SIGSTOP: its sockets stay open and say
// nothing, as a stalled network's do) or lets it go on (SIGCONT).
export function pauseServer(paused) {
  server.kill(paused ? "SIGSTOP" : "SIGCONT");
}

// A page of its own (its own storage: another person), failing the test on
// any script error or a refused content-security-policy. The test listens
// without acting: it counts the turn's sounds (window.tones) and keeps every
// line the aria-live log was given (window.heard; the log keeps the last few).
export async function person(viewport = DESKTOP, { colorScheme = "light",
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

export async function createRoom(page, name, { players = "6", pace = "0", preset = "classic",
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

// A room made by PAGE (createRoom's options), bots in its empty seats, and
// its game started: a person alone at a table of bots.
export async function gameWithBots(page, name, options) {
  await createRoom(page, name, options);
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
}

// Every line the aria-live log was given, oldest first.
export async function told(page) {
  return page.evaluate(() => window.heard);
}

export async function toldMatching(page, re, timeout = STEP) {
  await page.waitForFunction((src) => window.heard.some((t) => new RegExp(src).test(t)),
                             re.source, { timeout });
  return (await told(page)).filter((t) => re.test(t)).pop();
}

export async function myTurn(page, timeout = 60000) {
  await page.waitForFunction(() => /Your turn/.test(
    document.getElementById("t-turn").textContent), null, { timeout });
}

// This page's turn, or the game's end (bots that ask each other well may
// keep the turn from a seat until the game is over): "turn" or "over".
export async function myTurnOrOver(page, timeout = 60000) {
  await page.waitForFunction(() => /Your turn|Game over/.test(
    document.getElementById("t-turn").textContent), null, { timeout });
  return /Game over/.test(await page.locator("#t-turn").textContent()) ? "over" : "turn";
}

export async function start(page) {
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
export async function move(page, claimEvery = 0) {
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
// The game goes on under the dialog (web/claim.js: a bot may claim the set
// chosen, and the dialog then has none chosen, or none left to claim), so
// each round looks again: confirm when every card has a holder, a set when
// none is chosen, else the next card to the first teammate; cancel when no
// set is left. A click that a redraw overtook is tried again next round.
export async function finishClaim(page) {
  const dialog = page.locator("#claim-dialog");
  await dialog.waitFor({ state: "visible", timeout: STEP });
  const quick = { timeout: 2000 };
  for (let i = 0; i < 60; i++) {
    if (!(await dialog.isVisible())) return;
    try {
      if (!(await page.locator("#cd-confirm").isDisabled()))
        return await page.locator("#cd-confirm").click(quick);
      if (!(await page.locator("#cd-sets button[aria-pressed=true]").count())) {
        if (!(await page.locator("#cd-sets button").count()))
          return await page.locator("#cd-cancel").click(quick);
        await page.locator("#cd-sets button").first().click(quick);
      } else {
        await page.locator("#cd-mates button:not([disabled])").first().click(quick);
      }
    } catch (err) {
      if (err.name !== "TimeoutError") throw err;
    }
  }
  assert.fail("the claim dialog could not be finished in 60 rounds");
}

export async function playToEnd(pages, limit = 120000, claimEvery = 0) {
  const until = Date.now() + limit;
  while (Date.now() < until) {
    if (await pages[0].locator("#over").isVisible()) return;
    let moved = false;
    for (const p of pages) moved = (await move(p, claimEvery)) || moved;
    await pages[0].waitForTimeout(moved ? 60 : 40);
  }
  assert.fail("the game did not end in time");
}

export async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, name + ".png"), fullPage: true });
}

// Whether every element SEL finds is wholly inside the viewport, the page
// not scrolled: true, or what is not.
export async function inView(page, sel) {
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
