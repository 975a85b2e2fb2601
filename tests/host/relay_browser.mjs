// Opens the club relay's live page in Debian's Chromium (playwright-core) and answers commands,
// one JSON object per line on stdin, with one JSON object per line on stdout, so that a test
// can make moves and kill the relay between them. Usage: node relay_browser.mjs URL OUT_DIR
//   {"op": "card", "board": "t1", "ply": 3, "timeout": 8000}  wait until the board's card shows
//        ply 3, then -> {"ply", "last", "online", "lastmove", "conn", "stones": [[x, y, fill]]}
//        (stones in the card's SVG user units, 240 wide)
//   {"op": "conn", "text": "reconnecting", "timeout": 5000}  wait for the connection label
//   {"op": "shot", "board": "t1", "file": "page.png"}  screenshot -> {"svg": [x, y, w, h]}
//   {"op": "text", "board": "t1"}  -> {"title", "h2": the card's heading as text, "elements":
//        tag names inside the heading} (board-supplied text must stay text)
//   {"op": "quit"}
// A command that fails answers {"error": "..."}; the script goes on with the next one.
import path from "node:path";
import readline from "node:readline";
import { launchChromium } from "./chromium.mjs";

const [url, out] = process.argv.slice(2);
const browser = await launchChromium(out, { viewport: { width: 900, height: 600 } });
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

try {
  const page = await browser.newPage();
  await page.goto(url);
  say({ ready: true });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const cmd = JSON.parse(line);
    if (cmd.op === "quit") break;
    try {
      if (cmd.op === "card") {
        // The card's id is "b-" + event + "/" + board; the event is not known here.
        await page.waitForFunction(([b, n]) => [...document.querySelectorAll(".card")]
          .some((c) => c.id.endsWith("/" + b) && Number(c.dataset.ply) === n),
          [cmd.board, cmd.ply], { timeout: cmd.timeout || 8000 });
        say(await page.evaluate((b) => {
          const c = [...document.querySelectorAll(".card")].find((x) => x.id.endsWith("/" + b));
          const lm = c.querySelector(".lastmove");
          return {
            ply: Number(c.dataset.ply), last: c.dataset.last, online: c.dataset.online,
            lastmove: lm ? lm.textContent : null,
            conn: document.getElementById("conn").textContent,
            stones: [...c.querySelectorAll("svg circle:not(.last)")].map((s) =>
              [Number(s.getAttribute("cx")), Number(s.getAttribute("cy")), s.getAttribute("fill")]),
          };
        }, cmd.board));
      } else if (cmd.op === "conn") {
        await page.waitForFunction((t) => document.getElementById("conn").textContent === t,
          cmd.text, { timeout: cmd.timeout || 5000 });
        say({ conn: cmd.text });
      } else if (cmd.op === "text") {
        say(await page.evaluate((b) => {
          const c = [...document.querySelectorAll(".card")].find((x) => x.id.endsWith("/" + b));
          const h2 = c.querySelector("h2");
          return { title: document.title, h2: h2.textContent,
            elements: [...h2.querySelectorAll("*")].map((e) => e.tagName.toLowerCase()) };
        }, cmd.board));
      } else if (cmd.op === "shot") {
        const svg = page.locator(`.card[id$='/${cmd.board}'] svg`);
        const b = await svg.boundingBox();
        await page.screenshot({ path: path.join(out, cmd.file) });
        say({ svg: [b.x, b.y, b.width, b.height] });
      } else {
        say({ error: "unknown op " + cmd.op });
      }
    } catch (e) {
      say({ error: String(e.message || e).split("\n")[0] });
    }
  }
} finally {
  await browser.close();
}
