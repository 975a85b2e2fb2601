// A person playing on the device twin through the virtual board's page (ingboard twin --sim),
// in Debian's Chromium driven by playwright-core. Usage: node twin_page.mjs URL OUT_DIR MOVES
// MOVES: comma-separated points or "pass", Black first. Each move is made by one click (assist
// presses the clock) or the Pass button; the next waits until the twin's firmware has the move.
// Prints one JSON object: what the page showed.
import path from "node:path";
import { launchChromium } from "./chromium.mjs";

const [url, out, movesArg] = process.argv.slice(2);
const moves = movesArg.split(",");
const browser = await launchChromium(out, { viewport: { width: 1280, height: 900 } });
async function api() { return (await fetch(url + "api/state")).json(); }
async function until(what, pred, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const s = await api();
    if (pred(s)) return s;
    if (Date.now() > end) throw new Error("timed out waiting for " + what + ": " + JSON.stringify({ twin: s.twin, events: s.events.slice(-5), rows: s.rows, alerts: s.alerts }));
    await new Promise((r) => setTimeout(r, 200));
  }
}
const r = { steps: [] };
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector("circle.point[data-point='A1']");
  r.assist = (await api()).assist;
  let n = 0;
  for (const m of moves) {
    if (m === "pass") await page.click("#pass");
    else await page.click(`circle.point[data-point='${m}']`);
    n += 1;
    const s = await until("the twin's move " + n + " " + m, (s) => s.twin.moves.length >= n, 120000);
    r.steps.push(s.twin.moves[n - 1]);
  }
  // Passes until the twin ends the game (agree when it pauses for the dead stones).
  for (let i = 0; i < 6; i++) {
    const s = await api();
    if (s.twin.result) break;
    if (s.phase === "paused" && i >= 2) { await page.click("button[data-button='agree']"); }
    else { await page.click("#pass"); }
    await until("a pass on the twin", (t) => t.twin.moves.length > s.twin.moves.length || t.twin.result, 120000);
  }
  const s = await until("the twin's result", (s) => s.twin.result, 300000);
  r.result = s.twin.result;
  r.twinMoves = s.twin.moves;
  r.events = s.events.map((e) => e.type + (e.code ? ":" + e.code : ""));
  // The displays (the twin's frames, the page's clock faces) end on the result face: after a
  // bowl alert they show for 10 emulated seconds, and the emulator may run behind the wall.
  const shown = await until("the result faces", (s) => s.twin.result_faces && s.twin.result_faces.B && s.twin.result_faces.W, 600000);
  r.resultFaces = shown.twin.result_faces;
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(out, "twin-page-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 900 });
  await page.waitForTimeout(1000);
  await page.screenshot({ path: path.join(out, "twin-page-390.png"), fullPage: true });
  r.status = await page.textContent("#status");
  console.log(JSON.stringify(r));
} finally {
  await browser.close();
}
