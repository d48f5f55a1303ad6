// play.test.mjs - games at the table: one person against bots to the end
// of a game in a match, a spectator, a reload mid-game, six people in six
// browsers, leaving during a game (asked first).
// In Debian's chromium, driven by playwright-core through clicks and keys
// only (tests/browser/lib.mjs). Run by tests/integration/cli_browser.sh as
//   node --test tests/browser/play.test.mjs
// with LIT (the lit binary) and ARTIFACTS (where screenshots go) set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { serveTable, LIT, PHONE, DESKTOP, STEP, base, dir, person, createRoom, told, myTurn,
         pauseServer,
         start, move, playToEnd, shot, gameWithBots } from "./lib.mjs";

serveTable();

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
  await gameWithBots(page, "Rae", { pace: "1000" });
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

test("a stalled connection is found by a ping and the seat taken up again", async () => {
  const page = await person(PHONE);
  // the stall's times shortened (web/app.js reads lit.liveness): a ping
  // after 1.5 s without a frame, a new connection 5 s after an unanswered one
  await page.evaluate(() => localStorage.setItem("lit.liveness", "1500,5000"));
  let pongs = 0;
  page.on("websocket", (ws) => ws.on("framereceived", (f) => {
    if (String(f.payload) === '{"type":"pong"}') pongs++;
  }));
  await page.reload();
  await gameWithBots(page, "Sal", { players: "4", pace: "1000" });
  await page.evaluate(() => {
    window.statuses = [];
    // each text the status was given (two in one task are two records)
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) window.statuses.push(n.textContent);
    }).observe(document.getElementById("status"), { childList: true });
  });
  // quiet on the player's own turn: pings answered, nothing else happens
  await myTurn(page);
  const before = pongs;
  for (let i = 0; i < 600 && pongs < before + 2; i++) await page.waitForTimeout(100);
  assert.ok(pongs >= before + 2, `pongs: ${pongs - before}`);
  assert.deepEqual(await page.evaluate(() => window.statuses), [], "pings answered in time");
  // the connection stalls: the socket stays open and nothing comes through
  // (the server stopped; chromium's offline mode closes sockets instead)
  pauseServer(true);
  try {
    await page.waitForFunction(() => window.statuses.some((s) => s.startsWith("no answer")), null,
                               { timeout: 60000 });
  } finally {
    pauseServer(false);
  }
  await page.waitForFunction(() => document.getElementById("status").textContent === "connected",
                             null, { timeout: 60000 });
  await myTurn(page);
  assert.match(await page.locator("#ring .plate.mine .who").textContent(), /^Sal \(you\)$/);
  await shot(page, "stalled-phone");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("creating a room waits for the connection: its button is off until the server answers", async () => {
  const page = await person(PHONE);
  // a stall found in 1.5 + 2 s (web/app.js reads lit.liveness), then the
  // page connects again, and keeps trying while the server is stopped
  await page.evaluate(() => localStorage.setItem("lit.liveness", "1500,2000"));
  await page.reload();
  await page.locator("#status", { hasText: "connected" }).waitFor();
  assert.equal(await page.locator("#create-room").isDisabled(), false);
  pauseServer(true);
  try {
    // a click now would send into a socket not open: the button is off
    await page.waitForFunction(() => document.getElementById("create-room").disabled, null,
                               { timeout: 60000 });
    assert.match(await page.locator("#status").textContent(), /connecting|no answer|lost/);
  } finally {
    pauseServer(false);
  }
  // the person clicks while it comes back: the click waits for the button,
  // and the room is made
  await page.getByLabel("Your name").fill("Wes");
  await page.getByRole("button", { name: "Create the room" }).click({ timeout: 60000 });
  await page.locator("#room").waitFor({ state: "visible", timeout: 60000 });
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

test("leaving during a game asks first: the seat goes to a bot, the player may only watch again", async () => {
  // in the lobby, Leave leaves at once: nothing is given up
  const page = await person(PHONE);
  await createRoom(page, "Lea", { pace: "1000" });
  await page.getByRole("button", { name: "Leave the room" }).click();
  await page.locator("#home").waitFor();
  await gameWithBots(page, "Lea", { pace: "1000" });
  // during the game: a dialog says what leaving means; staying changes nothing
  await page.locator("#t-leave").click();
  const dialog = page.locator("#leave-dialog");
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /A bot will take your seat for the rest of this game\. You can come back only as a spectator, unless the host gives you the seat again\./);
  assert.match(await dialog.textContent(), /You host the room: the role passes to another player\./);
  await shot(page, "leave-phone");
  await page.getByRole("button", { name: "Stay and play" }).click();
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await page.locator("#table").isVisible(), true);
  assert.match(await page.locator("#ring .plate.mine .who").textContent(), /^Lea \(you\)$/);
  // Escape stays too; then leaving for good
  await page.locator("#t-leave").click();
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await page.locator("#table").isVisible(), true);
  await page.locator("#t-leave").click();
  await page.getByRole("button", { name: "Leave and give up my seat" }).click();
  await page.locator("#home").waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
