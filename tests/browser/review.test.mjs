// review.test.mjs - what the table teaches: the live scoresheet and its likeliest
// placement, the hint, a finished game's review (on a phone too, while the
// room's next game starts).
// In Debian's chromium, driven by playwright-core through clicks and keys
// only (tests/browser/lib.mjs). Run by tests/integration/cli_browser.sh as
//   node --test tests/browser/review.test.mjs
// with LIT (the lit binary) and ARTIFACTS (where screenshots go) set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveTable, PHONE, base, person, createRoom, told, myTurn, myTurnOrOver, start, move,
         playToEnd, shot, gameWithBots } from "./lib.mjs";

serveTable();

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
  // offers the scoresheet's likeliest placement of it (the bots may keep
  // the turn from Sol until the game is over: then Sol, the host, starts
  // another)
  let set = null;
  for (let i = 0; i < 60 && !set; i++) {
    if (await myTurnOrOver(page, 120000) === "over") {
      await page.getByRole("button", { name: "Play again" }).click();
      await page.locator("#over").waitFor({ state: "hidden" });
      continue;
    }
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

test("a hint names master's move and why, and Ask plays it in one press", async () => {
  const page = await person();
  await gameWithBots(page, "Hal", { pace: "400" });
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

// ---- the review of a finished game -----------------------------------------

test("a finished game's review: every step, any seat's scoresheet, marks; by link and list", async () => {
  const page = await person();
  await gameWithBots(page, "Rev", { pace: "0" });
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
  // the reviewed seat is the player's own: its marks come from master
  await page.locator("#rv-marks li").first().waitFor({ timeout: 60000 });
  const mine = await page.locator("#rv-marks li").count();
  assert.ok(mine > 0);
  assert.match(await page.locator("#rv-summary").textContent(), /^\d+ decisions?: \d+ asks?, /);
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
               /^Rev's decision: (chance [0-9.<]+%; )?master (does the same|would .+; cost \d\.\d\d) \((best|good|inaccuracy|mistake)\)$/);
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

test("a review on a phone: marks go to their step in view; the next game is told over it", async () => {
  const host = await person();
  const code = await createRoom(host, "Ann", { players: "4", pace: "0" });
  const bo = await person(PHONE);
  await bo.getByLabel("Your name").fill("Bo");
  await bo.getByLabel("Room code").fill(code);
  await bo.getByRole("button", { name: "Join", exact: true }).click();
  await bo.locator("#seats li", { hasText: "Seat 2," }).getByRole("button", { name: "Sit here" })
    .click();
  await host.locator("#seats li", { hasText: "Seat 2, team B: Bo" }).waitFor();
  await host.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(host);
  await bo.locator("#table").waitFor();
  // the bots' seats as the table names them
  assert.match(await bo.locator("#ring .plate[data-seat='3'] .who").textContent(), /^bot 3$/);
  await playToEnd([host, bo], 120000, 3);
  await bo.locator("#over").waitFor();
  await bo.getByRole("link", { name: "Review the game" }).click();
  await bo.locator("#rv-marks li").first().waitFor({ timeout: 60000 });
  // the same names in the review: "bot 3", never the record's "basic"
  assert.deepEqual(await bo.locator("#rv-view button").allTextContents(),
                   ["Ann", "Bo", "bot 3", "bot 4"]);
  // the head on a phone: the score on one line, the step buttons and the
  // slider in one row
  const head = await bo.evaluate(() => {
    const tops = [...document.querySelectorAll(".rvnav > *")]
      .map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2));
    const h = (id) => document.getElementById(id).getBoundingClientRect().height;
    const size = (id) => parseFloat(getComputedStyle(document.getElementById(id)).fontSize);
    return { score: h("rv-score") / size("rv-score"), rows: new Set(tops).size };
  });
  assert.ok(head.score < 1.6, `the score on one line: ${JSON.stringify(head)}`);
  await shot(bo, "review-head-phone");
  assert.equal(head.rows, 1, "the step buttons and the slider in one row");
  // counts in words: "1 set", "2 sets"
  const summary = await bo.locator("#rv-summary").textContent();
  assert.doesNotMatch(summary, /(^|\D)1 (decisions|asks|hits|claims|sets)\b/, summary);
  // the last mark, far down the phone's page: its step and its detail come into view
  const mark = bo.locator("#rv-marks button").last();
  const step = await mark.getAttribute("data-step");
  await mark.tap();
  await bo.waitForFunction((k) => document.getElementById("rv-step").value === k, step);
  await bo.locator("#rv-mark").waitFor();
  assert.equal(await inViewport(bo, "#rv-where"), true);
  assert.equal(await inViewport(bo, "#rv-mark"), true);
  // Ann starts the next game while Bo reads: Bo deals it, so it is Bo's
  // turn; the review says so on top, the tab's title too, and leads back
  await host.getByRole("button", { name: "Play again" }).click();
  const next = bo.locator("#rv-next");
  await next.waitFor();
  assert.equal(await bo.locator("#rv-next-text").textContent(),
               "The next game has started \u2014 your turn.");
  assert.equal(await inViewport(bo, "#rv-next"), true);
  assert.equal(await inViewport(bo, "#rv-where"), true, "the bar covers not the step");
  await bo.waitForFunction(() => document.title === "Your turn · Literature");
  await shot(bo, "review-next-phone");
  await bo.getByRole("button", { name: "Back to the table" }).tap();
  await bo.locator("#table").waitFor();
  assert.equal(await bo.locator("#t-turn").textContent(), "Your turn");
  assert.equal(await bo.locator("#review").isVisible(), false);
  for (const p of [host, bo]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

// Whether the element SEL finds is wholly inside the viewport where the
// page is scrolled to now.
async function inViewport(page, sel) {
  return page.locator(sel).evaluate((el) => {
    const b = el.getBoundingClientRect();
    return b.height > 0 && b.top >= 0 && b.bottom <= innerHeight || JSON.stringify(b);
  });
}
