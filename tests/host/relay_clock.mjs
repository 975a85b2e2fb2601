// The running clocks of one board on the relay's hall page and game page (Debian's Chromium,
// playwright-core), on playwright's fake clock, paused: the page's time moves only by runFor,
// so what the clocks read does not depend on how busy the machine is.
// Usage: node relay_clock.mjs URL OUT_DIR BOARD; prints one JSON line:
//   {"hall": [[text, class] x2] 1 s after the page loaded, "hallLater": the same 3 s after,
//    "game": [text, text] on the board's game page 1 s after it loaded}; the hall page's
//    screenshot goes to OUT_DIR/hall-firmware.png
import path from "node:path";
import { launchChromium } from "./chromium.mjs";

const [url, out, board] = process.argv.slice(2);
const browser = await launchChromium(out, { viewport: { width: 1280, height: 900 } });
const clocks = (page) => page.$$eval(`.card[id$='/${board}'] .clk span`,
  (ss) => ss.map((s) => [s.textContent, s.className]));
try {
  const page = await browser.newPage();
  await page.clock.install({ time: new Date("2026-05-02T10:00:00Z") });
  await page.clock.pauseAt(new Date("2026-05-02T10:00:01Z"));
  await page.goto(url);
  await page.waitForSelector(`.card[id$='/${board}'] .clk span`);
  const r = {};
  await page.clock.runFor(1000);
  r.hall = await clocks(page);
  await page.clock.runFor(2000);
  r.hallLater = await clocks(page);
  await page.screenshot({ path: path.join(out, "hall-firmware.png") });  // to look at
  await page.click(`.card[id$='/${board}']`);
  await page.waitForSelector("#moves li");
  await page.clock.runFor(1000);
  r.game = [await page.textContent("#clock-B"), await page.textContent("#clock-W")];
  process.stdout.write(JSON.stringify(r) + "\n");
} finally {
  await browser.close();
}
