// The projector page at 1920x1080 in Debian's Chromium (playwright-core): every table of the
// round on one screen. Usage: node relay_projector.mjs URL OUT NAME; prints one JSON object:
// the page's scroll size, each card's box and its name's font size, then writes OUT/NAME.
// The page runs on playwright's paused fake clock, so the running clocks read the same.
import path from "node:path";
import { launchChromium } from "./chromium.mjs";

const [url, out, name] = process.argv.slice(2);
const browser = await launchChromium(out, { viewport: { width: 1920, height: 1080 } });
try {
  const page = await browser.newPage();
  await page.clock.install({ time: new Date("2026-05-02T19:00:00Z") });
  await page.clock.pauseAt(new Date("2026-05-02T19:00:01Z"));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll(".pcard").length > 0);
  await page.clock.runFor(1000);
  const r = await page.evaluate(() => ({
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    view: [window.innerWidth, window.innerHeight],
    cards: [...document.querySelectorAll(".pcard")].map((c) => {
      const b = c.getBoundingClientRect(), nm = c.querySelector(".nm");
      return { table: c.dataset.table, box: [b.left, b.top, b.right, b.bottom],
               font: parseFloat(getComputedStyle(nm).fontSize), result: c.querySelector(".pres").textContent,
               names: [...c.querySelectorAll(".nm")].map((n) => n.textContent),
               clocks: [...c.querySelectorAll(".pclk")].map((n) => n.textContent),
               cut: [...c.querySelectorAll(".nm")].some((n) => n.scrollWidth > n.clientWidth + 1) };
    }),
    round: document.getElementById("round").textContent,
  }));
  await page.screenshot({ path: path.join(out, name) });
  process.stdout.write(JSON.stringify(r) + "\n");
} finally {
  await browser.close();
}
