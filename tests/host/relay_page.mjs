// The relay's hall page and game page in Debian's Chromium (playwright-core), against a relay
// the test runs in-process. The page's clock is playwright's fake clock, paused: running clocks
// go down exactly as far as the test advances it (runFor), so the clock texts and screenshots
// are the same every run, however busy the machine.
// Usage: node relay_page.mjs URL OUT_DIR; prints JSON lines; after {"broker?": true} it waits
// for one line on stdin (the test has told the page the broker is unreachable).
import path from "node:path";
import fs from "node:fs";
import readline from "node:readline";
import { launchChromium } from "./chromium.mjs";

const [url, out] = process.argv.slice(2);
const browser = await launchChromium(out, { viewport: { width: 1280, height: 900 },
                                            acceptDownloads: true });
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function shot(page, name, width) {
  await page.setViewportSize({ width, height: 900 });
  await page.clock.runFor(500);
  await page.screenshot({ path: path.join(out, name), fullPage: true });
  return page.evaluate(() => document.documentElement.scrollWidth);
}

const cards = (page) => page.$$eval(".card", (cs) => cs.map((c) => ({
  id: c.id, ply: Number(c.dataset.ply), result: c.dataset.result, online: c.dataset.online,
  title: c.querySelector("h2").textContent, href: c.getAttribute("href"),
  clocks: [...c.querySelectorAll(".clk span")].map((s) => [s.textContent, s.className]),
  stones: c.querySelectorAll("circle.stone").length,
})));

try {
  const page = await browser.newPage();
  // Paused, not flowing: without pauseAt the fake clock follows real time, and a busy machine
  // would make the running clocks below read a second less (the test's timing dependence).
  await page.clock.install({ time: new Date("2026-05-02T10:00:00Z") });
  await page.clock.pauseAt(new Date("2026-05-02T10:00:01Z"));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll(".card").length === 4);
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live");
  await page.clock.runFor(1000);  // the results table loads (debounced)
  await page.waitForSelector("#tables table");
  const r = {};
  r.event = await page.textContent("#event");
  r.round = await page.textContent("#round");
  r.broker = await page.textContent("#broker");
  r.cards = await cards(page);
  await page.clock.runFor(2000);  // t3's Black clock runs on between clock messages
  r.cardsLater = await cards(page);
  r.results = await page.$$eval("#tables table", (ts) => ts.map((t) => ({
    round: t.dataset.round,
    rows: [...t.querySelectorAll("tr")].slice(1).map((tr) => [...tr.children].map((td) => td.textContent)),
  })));
  r.width1280 = await shot(page, "hall-1280.png", 1280);
  r.width390 = await shot(page, "hall-390.png", 390);
  await page.setViewportSize({ width: 1280, height: 900 });
  say({ "broker?": true });
  await lines.next();
  await page.waitForFunction(() => document.getElementById("broker").className === "bad");
  r.brokerBad = await page.textContent("#broker");
  // The per-game page of board t3.
  await page.click(".card[id$='/t3']");
  await page.waitForSelector("#moves li");
  await page.clock.runFor(500);
  r.game = {
    title: await page.textContent("#title"),
    meta: await page.textContent("#meta"),
    moves: await page.$$eval("#moves li", (ls) => ls.map((l) => l.textContent)),
    stones: await page.locator("#board circle.stone").count(),
    coords: await page.locator("#board text.coord").count(),
    last: await page.getAttribute("#board", "data-ply"),
    clocks: [await page.textContent("#clock-B"), await page.textContent("#clock-W")],
  };
  r.game.width1280 = await shot(page, "game-1280.png", 1280);
  r.game.width390 = await shot(page, "game-390.png", 390);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click("#moves li[data-n='4']");
  r.game.stonesAt4 = await page.locator("#board circle.stone").count();
  r.game.plyShown = await page.getAttribute("#board", "data-ply");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#sgf")]);
  const file = path.join(out, "game.sgf");
  await download.saveAs(file);
  r.game.sgf = fs.readFileSync(file, "utf-8");
  r.game.sgfName = download.suggestedFilename();
  say(r);
} finally {
  await browser.close();
}
