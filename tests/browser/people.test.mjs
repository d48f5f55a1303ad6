// people.test.mjs - people at one table: the lobby and the chat, a timed turn
// with its waits, a turn that runs out under the claim dialog (and a bot's
// move for the player, told until the player acts), a friend's link and a
// seat asked of the host, the host through a reload.
// In Debian's chromium, driven by playwright-core through clicks and keys
// only (tests/browser/lib.mjs). Run by tests/integration/cli_browser.sh as
//   node --test tests/browser/people.test.mjs
// with LIT (the lit binary) and ARTIFACTS (where screenshots go) set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveTable, PHONE, DESKTOP, STEP, person, createRoom, told, toldMatching, myTurn,
         start, move, playToEnd, shot, inView } from "./lib.mjs";

serveTable();

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

// In the open claim dialog: the first set, each card not yours to the last
// teammate offered. Returns the set.
async function claimToMate(page) {
  await page.getByRole("button", { name: "Claim a set…" }).click();
  const set = await page.locator("#cd-sets button").first().getAttribute("data-set");
  await page.locator(`#cd-sets button[data-set=${set}]`).click();
  for (let i = 0; i < 7 && await page.locator("#cd-confirm").isDisabled(); i++)
    await page.locator("#cd-mates button").last().click();
  return set;
}

test("a turn runs out under the claim dialog: it follows the game, a stale claim is told", async () => {
  const page = await person(PHONE);
  await createRoom(page, "Tim", { players: "4", turn: "20000", pace: "400" });
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  // the claim made, not confirmed, until the turn's time has run out and a
  // bot has played for Tim: the dialog takes the new position and says so,
  // keeping the set and its holders if Tim may still claim it (or again: on
  // a slow machine the turn may have gone to the other team and come back
  // before the page is looked at)
  await myTurn(page, STEP);
  const set = await claimToMate(page);
  const moved = page.locator("#cd-moved");
  await moved.waitFor({ timeout: 40000 });
  const text = await moved.textContent();
  assert.match(text, /^The game moved on: (check your claim again|you may not claim now)\.$/);
  if (await page.locator(`#cd-sets button[data-set=${set}]`).count()) {
    // (the bot asked for Tim: the set is still there, and every card's holder)
    assert.equal(await page.locator(`#cd-sets button[data-set=${set}]`).getAttribute("aria-pressed"),
                 "true");
    assert.equal(await page.locator("#cd-confirm").isEnabled(), true, "the holders kept");
  } else {
    assert.equal(await page.locator("#cd-confirm").isDisabled(), true);
  }
  await shot(page, "claim-moved-phone");
  await page.getByRole("button", { name: "Cancel" }).click();
  // what the bot did for Tim is said until Tim acts again
  const stoodIn = page.locator("#stood-in");
  assert.equal(await stoodIn.textContent(), "Your time ran out: a bot played for you.");
  assert.equal(await inView(page, "#stood-in"), true);
  // a claim confirmed the moment the time runs out, on a page too busy to
  // hear of the bot's move first: refused as stale, and said; the dialog
  // opens again on the new position when Tim may still claim
  await myTurn(page, 60000);
  assert.equal(await stoodIn.isVisible(), true, "still said on the next turn");
  await claimToMate(page);
  // (the page idles until the turn's last seconds, then is kept busy until
  // 4 s past its end: a busy page all along kept a core spinning for the
  // whole turn)
  await page.waitForFunction(() => {
    const left = /(\d+) s/.exec(document.getElementById("t-clock").textContent);
    return left && Number(left[1]) <= 3;
  }, null, { polling: 200, timeout: 60000 });
  await page.evaluate(() => {
    for (const until = performance.now() + 7000; performance.now() < until;);
    document.getElementById("cd-confirm").click();
  });
  await page.waitForFunction(() => !document.getElementById("cd-moved").hidden ||
    /^The game moved on before your claim reached it/.test(document.getElementById("error").textContent));
  if (await page.locator("#claim-dialog").isVisible()) {
    assert.equal(await moved.textContent(), "The game moved on: check your claim again.");
    await page.getByRole("button", { name: "Cancel" }).click();
  }
  assert.ok(!(await told(page)).some((t) => /^Tim claimed /.test(t) &&
                                      !t.endsWith("(a bot played for them)")), "no claim made");
  // Tim's own move ends the notice
  await myTurn(page, 60000);
  assert.equal(await move(page), true);
  await stoodIn.waitFor({ state: "hidden" });
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
  // (the host's page takes the same news on its own connection: waited
  // for, not read at once, as on a loaded machine it may come later)
  await host.locator("#r-waiting").waitFor({ state: "hidden" });
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
