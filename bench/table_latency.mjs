// table_latency.mjs - the browser table as a player feels it: from the tap
// on Ask (or a pass) to the event on screen, over whole games against bots
// on loopback, at a phone's size and a laptop's; and the page's weight.
//   node bench/table_latency.mjs build/release/lit [GAMES]   (LIT_WEB=web: the page from web/)
// Needs the test tools (scripts/test_tools.sh --browser: playwright-core and
// Debian's chromium headless shell; LIT_CHROMIUM=PATH runs another chromium,
// such as /usr/bin/chromium, the whole browser, which the figures in
// docs/BENCHMARKS.md before 2026-11-29 were taken in). Prints one line per
// size: taps, median and p95 in ms, and the bytes of every file the page
// loads. Not a test: figures go to
// docs/BENCHMARKS.md with the machine's `lscpu` model name.
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

const lit = process.argv[2] || "build/release/lit";
const games = Number(process.argv[3] || 2);
const server = spawn(lit, ["serve", "--port", "0", "--max-rooms-per-address", "64",
                           ...(process.env.LIT_WEB ? ["--web", process.env.LIT_WEB] : [])],
                     { stdio: ["ignore", "pipe", "ignore"] });
const base = await new Promise((resolve) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = /serving on (http:\/\/[0-9.]+:[0-9]+\/)/.exec(out);
    if (m) resolve(m[1]);
  });
});
const browser = await chromium.launch({
  executablePath: process.env.LIT_CHROMIUM || "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox"] });

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];

for (const [label, viewport] of [["phone 390x844", { width: 390, height: 844 }],
                                 ["laptop 1366x800", { width: 1366, height: 800 }]]) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(base);
  await page.getByLabel("Your name").fill("Bench");
  await page.getByLabel("Bot pace").selectOption("400");
  await page.getByRole("button", { name: "Create the room" }).click();
  await page.getByRole("button", { name: "Bots in empty seats" }).click();
  await page.waitForFunction(() => !document.getElementById("start").disabled);
  // the page's weight: every file it loaded (the document, scripts, style, icon)
  const weight = await page.evaluate(() => {
    const all = [...performance.getEntriesByType("navigation"),
                 ...performance.getEntriesByType("resource")];
    return { files: all.length, bytes: all.reduce((n, e) => n + e.encodedBodySize, 0) };
  });
  // in the page: the time of each tap, and of its event's line in the live
  // region (written by the event handling when the server's event frame
  // has come and the page has been drawn from it)
  await page.evaluate(() => {
    window.lat = [];
    let at = 0;
    document.addEventListener("click", (e) => {
      if (e.target.closest("#ask-go, #passes button, #cd-confirm")) at = performance.now();
    }, true);
    new MutationObserver((changes) => {
      for (const c of changes) for (const n of c.addedNodes)
        if (at && /^Bench (asked|passed|chose|claimed) /.test(n.textContent)) {
          window.lat.push(performance.now() - at);
          at = 0;
        }
    }).observe(document.getElementById("announce"), { childList: true });
  });
  for (let g = 0; g < games; g++) {
    await page.getByRole("button", { name: g ? "Play again" : "Start the game" }).click();
    await page.locator("#over").waitFor({ state: "hidden" });
    while (!(await page.locator("#over").isVisible())) {
      const moved = await page.evaluate(() => {
        if (!/Your turn/.test(document.getElementById("t-turn").textContent)) return false;
        const pass = document.querySelector("#passes button");
        if (pass) { pass.click(); return true; }
        // (the page before the felt had the same steps under other names:
        // its figures can be taken the same way, for a comparison)
        const card = document.querySelector("#hand button.card.askable") ||
          document.querySelector("#ask-cards button:not([disabled])");
        if (card) {
          card.click();
          (document.querySelector("#ring button.plate:not([disabled])") ||
           document.querySelector("#ask-targets button:not([disabled])"))?.click();
          document.getElementById("ask-go").click();
          return true;
        }
        const claim = document.getElementById("claim");
        if (!claim.disabled) { claim.click(); return "claim"; }
        return false;
      });
      if (moved === "claim") {
        await page.locator("#cd-sets button").first().click();
        for (let i = 0; i < 13 && await page.locator("#cd-confirm").isDisabled(); i++)
          await page.locator("#cd-mates button").first().click();
        await page.locator("#cd-confirm").click();
      }
      await page.waitForTimeout(moved ? 30 : 20);
    }
  }
  const lat = (await page.evaluate(() => window.lat)).sort((a, b) => a - b);
  console.log(`${label}: ${lat.length} taps, median ${pct(lat, 0.5).toFixed(1)} ms, ` +
              `p95 ${pct(lat, 0.95).toFixed(1)} ms; page ${weight.files} files, ${weight.bytes} bytes`);
  await context.close();
}
await browser.close();
server.kill("SIGTERM");
