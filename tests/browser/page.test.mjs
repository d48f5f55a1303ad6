// page.test.mjs - the page itself: the claim dialog on a phone, a game by the
// keyboard alone, a whole game at phone and laptop sizes with every turn's
// controls in view, the dark theme and reduced motion, every claimed set
// seen whole at 6 and 8 players on a phone and 12 on a laptop, a long name
// on a phone. (The sanitizer build skips this file: the server it talks to
// is the one the other files test.)
// In Debian's chromium, driven by playwright-core through clicks and keys
// only (tests/browser/lib.mjs). Run by tests/integration/cli_browser.sh as
//   node --test tests/browser/page.test.mjs
// with LIT (the lit binary) and ARTIFACTS (where screenshots go) set.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveTable, PHONE, DESKTOP, STEP, person, createRoom, told, toldMatching, myTurn,
         start, move, finishClaim, playToEnd, shot, inView, gameWithBots } from "./lib.mjs";

serveTable();

test("the claim dialog on a phone: assign, see, cancel, claim", async () => {
  const page = await person(PHONE);
  await gameWithBots(page, "Pia", { pace: "1000" });
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

// The dialog itself (web/claim.js), driven on the page with positions of
// its own: a claim in the making outlives positions where its set may not
// be claimed (the turn went to the other team and came back), and is back
// whole when it may; the cards you held are yours, those you lost have no
// holder again; another set chosen starts a new claim.
test("the claim dialog keeps the claim being made while its set may not be claimed", async () => {
  const page = await person(PHONE);
  await page.evaluate(async () => {
    const { openClaim } = await import("/claim.js");
    const sets = { "low-spades": ["2s", "3s", "4s", "5s", "6s", "7s"],
                   "high-hearts": ["9h", "Th", "Jh", "Qh", "Kh", "Ah"] };
    window.sent = null;
    window.dlg = openClaim({
      sets, claimable: ["high-hearts", "low-spades"], hand: ["2s", "3s", "9h"], seq: 5, me: 1,
      players: 4, seatName: (n) => `seat ${n}`,
      onClaim: (set, holders, seq) => { window.sent = { set, holders, seq }; } });
  });
  const pressed = () => page.evaluate(() =>
    [...document.querySelectorAll("#cd-sets button[aria-pressed=true]")].map((b) => b.dataset.set));
  const labels = () => page.evaluate(() =>
    [...document.querySelectorAll("#cd-cards button")].map((b) => b.getAttribute("aria-label")));
  await page.locator("#cd-sets button[data-set=low-spades]").click();
  for (let i = 0; i < 4; i++) await page.locator("#cd-mates button[data-seat='3']").click();
  assert.equal(await page.locator("#cd-confirm").isEnabled(), true);
  // the turn goes to the other team: nothing to claim, the draft kept
  await page.evaluate(() => window.dlg.update({ claimable: [], hand: ["2s", "3s", "9h"], seq: 6 }));
  assert.equal(await page.locator("#cd-moved").textContent(),
               "The game moved on: you may not claim now.");
  assert.deepEqual(await pressed(), []);
  assert.equal(await page.locator("#cd-confirm").isDisabled(), true);
  // back, with 3s asked away: the set and every holder given, 3s with none
  await page.evaluate(() => window.dlg.update({ claimable: ["high-hearts", "low-spades"],
                                                hand: ["2s", "9h"], seq: 9 }));
  assert.equal(await page.locator("#cd-moved").textContent(),
               "The game moved on: check your claim again.");
  assert.deepEqual(await pressed(), ["low-spades"]);
  assert.deepEqual(await labels(), ["2 of spades: seat 1", "3 of spades: not given yet",
                                    "4 of spades: seat 3", "5 of spades: seat 3",
                                    "6 of spades: seat 3", "7 of spades: seat 3"]);
  await page.locator("#cd-mates button[data-seat='3']").click();
  await page.locator("#cd-confirm").click();
  assert.deepEqual(await page.evaluate(() => window.sent),
                   { set: "low-spades", seq: 9, holders: { "2s": 1, "3s": 3, "4s": 3, "5s": 3,
                                                          "6s": 3, "7s": 3 } });
  // another set chosen is a new claim: nothing of the first carried over
  await page.evaluate(async () => {
    const { openClaim } = await import("/claim.js");
    window.dlg = openClaim({
      sets: { "low-spades": ["2s", "3s", "4s", "5s", "6s", "7s"],
              "high-hearts": ["9h", "Th", "Jh", "Qh", "Kh", "Ah"] },
      claimable: ["high-hearts", "low-spades"], hand: ["2s", "9h"], seq: 10, me: 1, players: 4,
      seatName: (n) => `seat ${n}`, onClaim: () => {} });
  });
  await page.locator("#cd-sets button[data-set=low-spades]").click();
  await page.locator("#cd-mates button[data-seat='3']").click();
  await page.locator("#cd-sets button[data-set=high-hearts]").click();
  await page.evaluate(() => window.dlg.update({ claimable: ["high-hearts", "low-spades"],
                                                hand: ["2s", "9h"], seq: 11 }));
  assert.deepEqual(await pressed(), ["high-hearts"]);
  assert.equal((await labels()).filter((l) => !/not given yet/.test(l)).length, 1);
  await page.getByRole("button", { name: "Cancel" }).click();
  assert.deepEqual(page.errors, []);
  await page.context().close();
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
  // the create button went with the home page: the focus is on the host's first step
  await page.waitForFunction(() => document.activeElement.id === "fill");
  assert.ok((await focused(page)).ring, "a ring on Bots in empty seats");
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
  // every card has a holder: then the focus is on the claim's summary, not
  // on Claim: an Enter too many (a held key) claims nothing; Claim is the
  // next Tab stop
  for (let i = 0; i < 7 && (await focused(page)).id !== "cd-summary"; i++)
    await press(page, "Enter");
  assert.equal((await focused(page)).id, "cd-summary");
  assert.match(await page.locator("#cd-summary").textContent(), /^[a-z]+ [a-z]+: /);
  await press(page, "Enter");
  await press(page, "Enter");
  assert.equal((await focused(page)).id, "cd-summary");
  assert.equal(await page.locator("#claim-dialog").isVisible(), true, "still open");
  assert.equal((await press(page, "Tab")).id, "cd-confirm");
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
  for (let i = 0; i < 7 && (await focused(page)).id !== "cd-summary"; i++)
    await press(page, "Enter");
  assert.equal((await press(page, "Tab")).id, "cd-confirm");
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

// ---- a turn in one screen, the scoresheet, themes, motion ----------------


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
    await gameWithBots(page, "Vic", { pace: "0" });
    const until = Date.now() + 180000;
    let turns = 0;
    // to the game's end, and on to another when the deal gave this seat
    // fewer than four turns (bots that hit keep the turn)
    for (;;) {
      assert.ok(Date.now() < until, "the game did not end in time");
      if (await page.locator("#over").isVisible()) {
        if (turns > 3) break;
        await page.getByRole("button", { name: "Play again" }).click();
        await page.locator("#over").waitFor({ state: "hidden" });
        continue;
      }
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

test("dark theme follows the system, the toggle is kept; reduced motion moves nothing", async () => {
  for (const [size, label] of [[PHONE, "phone"], [DESKTOP, "desktop"]]) {
    const page = await person(size, { colorScheme: "dark" });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    assert.equal(await page.getByRole("button", { name: "Dark theme" }).getAttribute("aria-pressed"),
                 "true");
    await gameWithBots(page, "Dee", { pace: "1000" });
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

// ---- every claimed set in view; long names ---------------------------------

// What of the claimed sets in the middle of the felt cannot be seen whole
// once they have landed (a claimed set flies from the claimer's seat): []
// when every set and every pile's head is inside the felt, under no seat's
// plate, clipped by nothing and its name not cut.
async function pilesHidden(page) {
  return page.evaluate(async () => {
    // (bots claim meanwhile: measured once no set is in the air)
    for (;;) {
      const flying = [...document.querySelectorAll("#claimed .setchip")]
        .flatMap((c) => c.getAnimations());
      if (!flying.length) break;
      await Promise.all(flying.map((a) => a.finished.catch(() => {})));
    }
    const bad = [], r = (el) => el.getBoundingClientRect();
    const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
      a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 &&
      a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
    const felt = document.getElementById("felt");
    const plates = [...document.querySelectorAll("#ring .plate")];
    for (const el of document.querySelectorAll("#claimed .setchip, #claimed .pilehead")) {
      const b = r(el), what = el.dataset.set || el.textContent;
      if (!b.width || !inside(b, r(felt))) bad.push(`${what}: outside the felt`);
      for (const p of plates) if (over(b, r(p))) bad.push(`${what}: under seat ${p.dataset.seat}`);
      for (let a = el.parentElement; a !== felt; a = a.parentElement)
        if (getComputedStyle(a).overflow !== "visible" && !inside(b, r(a))) bad.push(`${what}: clipped`);
      for (const t of el.querySelectorAll(".chipname"))
        if (t.scrollWidth > t.clientWidth + 1) bad.push(`${what}: its name cut`);
    }
    return bad;
  });
}

// The page's width beyond the screen's (0: no sideways scrolling; a phone's
// browser widens its layout to what overflows, so innerWidth would grow too).
async function wider(page) {
  return page.evaluate(() => document.documentElement.scrollWidth -
                             document.documentElement.clientWidth);
}

for (const [label, size, players] of [["phone", PHONE, "8"], ["phone", PHONE, "6"],
                                      ["laptop", DESKTOP, "12"]]) {
  test(`every claimed set is seen whole: ${players} players on a ${label}`, async () => {
    const page = await person(size);
    await gameWithBots(page, "Cid", { players, pace: "0" });
    // after each claim, and at the end (a wrong claim may make a third
    // pile, nobody's): every set in the middle of the felt, none under a seat
    let claims = 0;
    const until = Date.now() + 180000;
    while (!(await page.locator("#over").isVisible())) {
      assert.ok(Date.now() < until, "the game did not end in time");
      await move(page, 2);
      const now = await page.locator("#claimed .setchip").count();
      if (now !== claims) assert.deepEqual(await pilesHidden(page), [], `${now} sets claimed`);
      claims = now;
      await page.waitForTimeout(40);
    }
    assert.equal(await page.locator("#claimed .setchip").count(), 8);
    assert.deepEqual(await pilesHidden(page), [], "at the end");
    await shot(page, `piles-${label}-${players}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("a name of 32 letters with no space never widens the phone's page", async () => {
  const long = "W".repeat(32);
  const page = await person(PHONE);
  const code = await createRoom(page, long, { players: "4", pace: "0" });
  // another long name, watching and asking for a seat; a chat line
  const other = await person(PHONE);
  await other.getByLabel("Your name").fill("M".repeat(32));
  await other.getByLabel("Room code").fill(code);
  await other.getByRole("button", { name: "Join", exact: true }).click();
  await other.getByRole("button", { name: "Ask the host for a seat" }).click();
  await page.locator("#r-waiting", { hasText: "is waiting for a seat" }).waitFor();
  await page.getByLabel("a chat line").fill(long);
  await page.getByLabel("a chat line").press("Enter");
  await other.locator("#chat li").waitFor();
  for (const p of [page, other]) assert.equal(await wider(p), 0, "the room");
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  await myTurn(page);
  await page.getByRole("button", { name: "How many cards does each hold?" }).click();
  for (const p of [page, other]) assert.equal(await wider(p), 0, "the table");
  await page.getByRole("button", { name: "Claim a set…" }).click();
  await page.locator("#cd-sets button").first().click();
  for (let i = 0; i < 6 && await page.locator("#cd-confirm").isDisabled(); i++)
    await page.locator("#cd-mates button").first().click();
  assert.equal(await wider(page), 0, "the claim dialog");
  const box = await page.locator("#claim-dialog").boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
  await page.getByRole("button", { name: "Cancel" }).click();
  // the last question, the history, the end, the review: all named
  await playToEnd([page], 120000, 3);
  for (const p of [page, other]) assert.equal(await wider(p), 0, "the end");
  await shot(page, "long-name-phone");
  await page.getByRole("link", { name: "Review the game" }).click();
  await page.locator("#rv-marks li").first().waitFor({ timeout: 60000 });
  await page.locator("#rv-sheet table").waitFor({ timeout: 30000 });
  assert.equal(await wider(page), 0, "the review");
  for (const p of [page, other]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

// ---- a phone's small things -----------------------------------------------

// Whether the error banner is below the header's buttons: true, or where both are.
async function belowHeader(page) {
  return page.evaluate(() => {
    const e = document.getElementById("error").getBoundingClientRect();
    const bottom = Math.max(...["theme", "mute"].map((id) =>
      document.getElementById(id).getBoundingClientRect().bottom));
    return e.top >= bottom || JSON.stringify({ banner: e, buttons: bottom });
  });
}

for (const players of ["8", "12"]) {
  test(`on a phone at ${players}: a seat's clock whole in its narrow seat`, async () => {
    const page = await person(PHONE);
    await gameWithBots(page, "Ida", { players, turn: "20000", pace: "2000" });
    // the icon and "· 20 s" in sight, whole, inside the seat; "to play" is
    // there for a screen reader only (too wide for the seat)
    const fits = () => page.evaluate(() => {
      const m = document.querySelector("#ring .plate.turn .marker");
      if (!m || !/\d s$/.test(m.textContent)) return null;
      const b = m.getBoundingClientRect(), p = m.closest(".plate").getBoundingClientRect();
      const words = m.querySelector(".markwords").getBoundingClientRect();
      return m.scrollWidth <= m.clientWidth && b.right <= p.right + 0.5 &&
        b.left >= p.left - 0.5 && words.width <= 1 ||
        JSON.stringify({ text: m.textContent, wide: m.scrollWidth, box: m.clientWidth,
                         marker: b, plate: p, words: words.width });
    });
    await page.waitForFunction(() => /\d s$/.test(
      document.querySelector("#ring .plate.turn .marker")?.textContent || ""));
    let seen = 0;
    for (let i = 0; i < 200 && seen < 3; i++) {
      const f = await fits();
      if (f !== null) { assert.equal(f, true); seen++; }
      await page.waitForTimeout(50);
    }
    assert.ok(seen > 0, "no seat's clock seen");
    await shot(page, `seat-clock-phone-${players}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("on a phone: errors are sentences under the header; a seat's clock on one line; history numbers whole", async () => {
  const page = await person(PHONE);
  // a name of 20 letters but 40 bytes: too long, said so
  await page.getByLabel("Your name").fill("\u00E9".repeat(20));
  await page.getByRole("button", { name: "Create the room" }).click();
  await page.waitForFunction(() => document.getElementById("error").textContent);
  assert.match(await page.locator("#error").textContent(),
               /^A name is at most 32 bytes; this one is 40 /);
  assert.equal(await belowHeader(page), true);
  assert.equal(await page.locator("#room").isVisible(), false);
  // the server's words: a capital and a stop
  await page.getByLabel("Your name").fill("Pia");
  await page.getByLabel("Room code").fill("ZZZZZZ");
  await page.getByRole("button", { name: "Join", exact: true }).click();
  await page.locator("#error", { hasText: "no room" }).waitFor();
  assert.equal(await page.locator("#error").textContent(), "There is no room with that code.");
  assert.equal(await belowHeader(page), true);
  await shot(page, "error-phone");
  // a timed turn: "▶ to play · 20 s" on one line, inside its seat
  await createRoom(page, "Pia", { turn: "20000", pace: "2000" });
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await start(page);
  const marker = () => page.evaluate(() => {
    const m = document.querySelector("#ring .plate.turn .marker");
    if (!m || !/\d s$/.test(m.textContent)) return null;
    const b = m.getBoundingClientRect(), p = m.closest(".plate").getBoundingClientRect();
    const line = parseFloat(getComputedStyle(m).fontSize) * 1.6;
    return b.height <= line && m.scrollWidth <= m.clientWidth && b.right <= p.right &&
      b.left >= p.left ||
      JSON.stringify({ text: m.textContent, wide: m.scrollWidth, marker: b, plate: p });
  });
  await page.waitForFunction(() => /\d s$/.test(
    document.querySelector("#ring .plate.turn .marker")?.textContent || ""));
  for (let i = 0; i < 2; i++) {
    const m = await marker();
    if (m !== null) assert.equal(m, true);
    await myTurn(page);
  }
  assert.equal(await marker(), true, "on Pia's seat");
  // the banner of the join refused, if still shown, is under the header again
  await page.evaluate(() => scrollTo(0, 0));
  if (await page.locator("#error").textContent()) assert.equal(await belowHeader(page), true);
  await shot(page, "seat-clock-phone");
  // the history's numbers: room for four digits before each line
  const room = await page.locator("#history").evaluate((ol) => {
    const css = getComputedStyle(ol), ctx = document.createElement("canvas").getContext("2d");
    ctx.font = `${css.fontSize} ${css.fontFamily}`;
    return { need: ctx.measureText("9999. ").width, have: parseFloat(css.paddingLeft) };
  });
  assert.ok(room.need <= room.have, JSON.stringify(room));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
