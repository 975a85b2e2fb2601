// Plays a short game in the browser simulator (ingboard sim) by clicking, with Debian's
// Chromium driven by playwright-core. Usage: node sim_browser.mjs URL OUT_DIR
// Writes OUT_DIR/board.png (screenshot) and OUT_DIR/session.log (downloaded), and prints one
// JSON object: the event lines shown, the status line, where points are on the screenshot.
import path from "node:path";
import { launchChromium } from "./chromium.mjs";

const [url, out] = process.argv.slice(2);
const browser = await launchChromium(out, {
  viewport: { width: 1200, height: 800 },
  acceptDownloads: true,
});
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector("circle.point[data-point='E5']");
  const events = () => page.$$eval("#events div", (ds) => ds.map((d) => d.textContent));
  async function waitFor(text) {
    await page.waitForFunction((t) => [...document.querySelectorAll("#events div")]
      .some((d) => d.textContent.includes(t)), text, { timeout: 10000 });
  }
  async function stone(point, color) {
    await page.click(`circle.point[data-point='${point}']`);
    await page.waitForSelector(`circle.point[data-point='${point}'][data-stone='${color}']`);
  }
  async function lift(point) {
    await page.click(`circle.point[data-point='${point}']`);
    await page.waitForSelector(`circle.point[data-point='${point}'][data-stone='.']`);
  }
  async function press(color) { await page.click("#press-" + color); }
  // A new 5x5 game (12 stones each): walls on C and D, White invades at B3 and is captured by
  // A3, then four passes end play (Ing) and the game is counted by fill-in.
  await page.selectOption("#size", "5");
  await page.click("#new-game");
  await page.waitForSelector("circle.point[data-point='E5']");
  await page.waitForFunction(() => !document.querySelector("circle.point[data-point='F6']"));
  const moves = [["C3", "B"], ["D3", "W"], ["C2", "B"], ["D2", "W"], ["C4", "B"], ["D4", "W"],
                 ["C1", "B"], ["D1", "W"], ["C5", "B"], ["D5", "W"], ["B4", "B"], ["B3", "W"],
                 ["B2", "B"], ["E1", "W"]];
  let n = 0;
  for (const [p, c] of moves) {
    await stone(p, c);
    await page.waitForTimeout(150);  // the stone settles (board time), then the press
    await press(c);
    n += 1;
    await waitFor(`${n} ${c} ${p}`);
  }
  await stone("A3", "B");
  await waitFor("15 B A3 captures B3");
  await lift("B3");  // the captured stone goes back to White's bowl
  await press("B");
  for (const [i, c] of [[16, "W"], [17, "B"], [18, "W"], [19, "B"]]) {
    await page.waitForTimeout(200);
    await press(c);
    await waitFor(`${i} ${c} pass`);
  }
  await waitFor("count:");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Result:"));
  await page.waitForTimeout(600);  // clock faces reloaded after the end
  const boxes = {};
  for (const p of ["C3", "B3", "D3", "E5"]) {
    const b = await page.locator(`circle.point[data-point='${p}']`).boundingBox();
    // A little off the centre: between the grid lines, inside a stone if there is one.
    boxes[p] = [Math.round(b.x + b.width * 0.62), Math.round(b.y + b.height * 0.62)];
  }
  const clocks = await page.$$eval(".clocks img", (is) => is.map((i) => [i.naturalWidth, i.naturalHeight]));
  const clockBox = await page.locator("#clock-B").boundingBox();
  await page.screenshot({ path: path.join(out, "board.png") });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-log")]);
  await download.saveAs(path.join(out, "session.log"));
  console.log(JSON.stringify({
    events: await events(),
    status: await page.textContent("#status"),
    boxes, clocks,
    clockBox: [clockBox.x, clockBox.y, clockBox.width, clockBox.height].map(Math.round),
  }));
} finally {
  await browser.close();
}
