// The virtual board (ingboard sim --manual-time) in Debian's Chromium, driven by playwright-core:
// one browser for every scenario of tests/host/test_sim_browser.py.
// Usage: node sim_browser.mjs URL ENGINE_URL|- OUT_DIR
// Prints one JSON object with what each scenario saw; screenshots go to OUT_DIR/*.png.
import path from "node:path";
import { spawn } from "node:child_process";
import { launchChromium } from "./chromium.mjs";

const [url, engineUrl, out] = process.argv.slice(2);
const browser = await launchChromium(out, {
  viewport: { width: 1280, height: 900 },
  acceptDownloads: true,
});
const seen = {};
// Board time moves only when asked: the same board times (and clock faces) every run.
async function wait(base, ms) {
  const r = await fetch(base + "api/wait", { method: "POST", body: JSON.stringify({ ms }) });
  if (!r.ok) throw new Error("wait: " + (await r.text()));
}
async function api(base) { return (await fetch(base + "api/state")).json(); }

function helpers(page, base) {
  const h = {
    async events() { return page.$$eval("#events div", (ds) => ds.map((d) => d.textContent)); },
    async waitFor(text) {
      await page.waitForFunction((t) => [...document.querySelectorAll("#events div")]
        .some((d) => d.textContent.includes(t)), text, { timeout: 15000 });
    },
    async stone(point, color) {
      await page.click(`circle.point[data-point='${point}']`);
      await page.waitForSelector(`circle.point[data-point='${point}'][data-stone='${color}']`);
    },
    async lift(point) {
      await page.click(`circle.point[data-point='${point}']`);
      await page.waitForSelector(`circle.point[data-point='${point}'][data-stone='.']`);
    },
    async settle() { await wait(base, 300); },
    async count(selector) { return page.locator(selector).count(); },
    async text(selector) { return page.textContent(selector); },
  };
  return h;
}

async function shot(page, name, width) {
  await page.setViewportSize({ width, height: 900 });
  await page.waitForTimeout(200);
  // Clock faces reloaded for this state; nothing else on the page moves with manual time.
  await page.waitForFunction(() => [...document.querySelectorAll(".clocks img")]
    .every((i) => i.complete && i.naturalWidth > 0));
  await page.screenshot({ path: path.join(out, name), fullPage: true });
  return page.evaluate(() => document.documentElement.scrollWidth);
}

// -- 1. a 5x5 game by clicking: capture, lifting, move list, numbers, count -------------------
async function shortGame() {
  const page = await browser.newPage();
  const h = helpers(page, url);
  await page.goto(url);
  await page.waitForSelector("#rules option", { state: "attached" });
  await page.click("#settings-box summary");
  await page.selectOption("#size", "5");
  await page.fill("#name-B", "Ann");
  await page.fill("#name-W", "Bo");
  await page.click("#new-game");
  await page.waitForSelector("circle.point[data-point='E5']");
  await page.waitForFunction(() => !document.querySelector("circle.point[data-point='F6']"));
  const r = { coords: await h.count("text.coord"), stars5: await h.count("circle.star") };
  r.status0 = await h.text("#status");
  const moves = [["C3", "B"], ["D3", "W"], ["C2", "B"], ["D2", "W"], ["C4", "B"], ["D4", "W"],
                 ["C1", "B"], ["D1", "W"], ["C5", "B"], ["D5", "W"], ["B4", "B"], ["B3", "W"],
                 ["B2", "B"], ["E1", "W"]];
  let n = 0;
  for (const [p, c] of moves) {
    await h.stone(p, c);
    await h.settle();
    await page.click("#press-" + c);
    n += 1;
    await h.waitFor(`${n} ${c} ${p}`);
    if (n === 1) {
      await page.waitForSelector("circle.last-move[data-point='C3']");
      r.lastMove1 = await page.getAttribute("circle.last-move", "data-point");
    }
  }
  await h.stone("A3", "B");
  await h.settle();
  await h.waitFor("15 B A3 captures B3");
  // The captured stone is still on the board: drawn as a stone to lift until it is lifted.
  await page.waitForSelector("path.lift[data-point='B3']");
  r.check = await h.text("#check");
  await h.lift("B3");
  await page.waitForFunction(() => !document.querySelector("path.lift"));
  r.checkAfter = await h.text("#check");
  r.prisoners = await h.text("#prisoners");
  await page.click("#press-B");
  // Move numbers on demand; the move list shows any earlier position.
  await page.check("#numbers");
  r.numbers = await page.$$eval("text.number", (ts) => ts.map((t) => t.getAttribute("data-point") + "=" + t.textContent).sort());
  await page.uncheck("#numbers");
  await page.click("#moves li[data-n='3']");
  await page.waitForSelector("#review:not([hidden])");
  r.reviewStones = await h.count("#stones circle.stone");
  r.reviewText = await h.text("#review");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#review[hidden]", { state: "attached" });
  r.stonesBack = await h.count("#stones circle.stone");
  for (const [i, c] of [[16, "W"], [17, "B"], [18, "W"], [19, "B"]]) {
    await wait(url, 200);
    await page.click("#press-" + c);
    await h.waitFor(`${i} ${c} pass`);
  }
  await h.waitFor("count:");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Result:"));
  await wait(url, 1000);
  await page.waitForTimeout(500);  // a poll after the end: the faces show the stopped clock
  r.status = await h.text("#status");
  r.faces = await page.$$eval(".clocks figcaption", (fs) => fs.map((f) => f.textContent));
  r.territory = await page.$$eval("rect.territory", (rs) => rs.map((x) => x.getAttribute("data-point")).sort());
  r.winning = await page.$$eval("circle.winning-space", (cs) => cs.map((x) => x.getAttribute("data-point")));
  r.losing = await page.$$eval("circle.losing", (cs) => cs.length);
  r.fill = await h.count("#territory circle.fill");
  r.compensation = await page.$$eval("rect.comp-mark", (cs) => cs.map((x) => x.getAttribute("data-point")).sort());
  r.countText = await h.text("#count");
  r.events = await h.events();
  r.width1280 = await shot(page, "sim-1280.png", 1280);
  r.width390 = await shot(page, "sim-390.png", 390);
  await page.setViewportSize({ width: 1280, height: 900 });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-log")]);
  await download.saveAs(path.join(out, "session.log"));
  await page.close();
  return r;
}

// -- 2. settings, keyboard play, undo drawn as a stone to lift -------------------------------
async function settingsKeyboardUndo() {
  const page = await browser.newPage();
  const h = helpers(page, url);
  await page.goto(url);
  await page.waitForSelector("#rules option", { state: "attached" });
  await page.click("#settings-box summary");
  await page.selectOption("#size", "9");
  await page.selectOption("#rules", "japanese");
  const r = { komiAfterRules: await page.inputValue("#komi") };
  await page.selectOption("#time-system", "byoyomi");
  r.timeFields = await page.$$eval("#settings label:not([hidden]) input", (is) => is.map((i) => i.id));
  await page.fill("#basic", "1");
  await page.fill("#periods", "3");
  await page.fill("#period-s", "20");
  await page.fill("#name-B", "Keyboard");
  await page.fill("#name-W", "Mouse");
  await page.click("#new-game");
  await page.waitForFunction(() => document.getElementById("players").textContent.includes("Keyboard"));
  const st = await api(url);
  r.config = st.config;
  r.stars = await page.$$eval("circle.star", (cs) => cs.map((c) => c.getAttribute("data-point")).sort());
  r.header = await h.text("#players");
  // Keyboard: the cursor starts in the centre (E5); two right, one up -> G6; Enter places.
  await page.focus("#board");
  for (const k of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp"]) await page.keyboard.press(k);
  r.cursor = await page.getAttribute("rect.cursor", "data-point");
  await page.keyboard.press("Enter");
  await page.waitForSelector("circle.point[data-point='G6'][data-stone='B']");
  await h.settle();
  await page.keyboard.press(" ");
  await h.waitFor("1 B G6");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForSelector("circle.point[data-point='G5'][data-stone='W']");
  await h.settle();
  await page.keyboard.press(" ");
  await h.waitFor("2 W G5");
  r.clockRunning = (await api(url)).clock_started;
  // Undo: White's stone leaves the game but is still on the board: drawn as one to lift.
  await page.keyboard.press("u");
  await page.waitForSelector("path.lift[data-point='G5']");
  r.undoCheck = await h.text("#check");
  await page.keyboard.press("Enter");  // the cursor is still on G5: lift it
  await page.waitForSelector("circle.point[data-point='G5'][data-stone='.']");
  await page.waitForFunction(() => !document.querySelector("path.lift"));
  // A stone knocked off: drawn as missing until it is put back.
  await page.click("circle.point[data-point='G6']");
  await page.waitForSelector("circle.missing[data-point='G6']");
  r.missingCheck = await h.text("#check");
  await page.click("circle.point[data-point='G6']");
  await page.waitForFunction(() => !document.querySelector("circle.missing"));
  r.moves = (await api(url)).moves;
  await page.close();
  return r;
}

// -- 3. a person against GNU Go, to the count ------------------------------------------------
// The person's moves come from a second GNU Go (GTP over pipes); every stone is placed, every
// capture lifted and every clock pressed by clicking the page; GNU Go's moves are read from
// the page and placed the same way.
function gtpPlayer(size) {
  const proc = spawn("/usr/games/gnugo", ["--mode", "gtp", "--level", "1", "--seed", "7"]);
  let buf = "", waiting = null;
  proc.stdout.on("data", (d) => {
    buf += d.toString();
    const i = buf.indexOf("\n\n");
    if (i >= 0 && waiting) { const reply = buf.slice(0, i); buf = buf.slice(i + 2); const w = waiting; waiting = null; w(reply); }
  });
  const send = (cmd) => new Promise((resolve) => { waiting = resolve; proc.stdin.write(cmd + "\n"); })
    .then((reply) => { if (!reply.startsWith("=")) throw new Error(cmd + ": " + reply); return reply.slice(1).trim(); });
  return { send, close: () => proc.kill(), init: async (komi) => {
    await send("boardsize " + size); await send("clear_board"); await send("komi " + komi);
  } };
}

async function engineGame() {
  const page = await browser.newPage();
  const h = helpers(page, engineUrl);
  await page.goto(engineUrl);
  await page.waitForSelector("#rules option", { state: "attached" });
  await page.click("#settings-box summary");
  await page.selectOption("#size", "7");
  await page.fill("#name-B", "Person");
  await page.fill("#name-W", "GNU Go");
  await page.click("#new-game");
  await page.waitForSelector("circle.point[data-point='G7']");
  await page.waitForFunction(() => !document.querySelector("circle.point[data-point='H8']"));
  const person = gtpPlayer(7);
  await person.init(8);
  const r = { engineLines: [], plies: 0 };
  async function liftAll() {
    for (;;) {
      const s = await api(engineUrl);
      if (!s.marks.lift.length) return;
      for (const p of s.marks.lift) await h.lift(p);
    }
  }
  try {
    for (let ply = 0; ply < 120; ply++) {
      const s = await api(engineUrl);
      if (s.phase !== "play") break;
      if (s.to_play === "B") {
        const v = (await person.send("genmove b")).toUpperCase();
        if (v === "RESIGN") { r.personResigned = true; break; }
        if (v !== "PASS") { await h.stone(v, "B"); await h.settle(); }
        await page.click("#press-B");
        await page.waitForFunction((n) => document.querySelectorAll("#moves li").length > n, s.moves.length);
        await liftAll();
      } else {
        await page.waitForFunction(() => /plays [A-T]\d+:|passes:|resigns/.test(document.getElementById("engine").textContent), null, { timeout: 60000 });
        const line = await h.text("#engine");
        r.engineLines.push(line);
        if (/resigns/.test(line)) { await page.click("button[data-button='resign-W']"); break; }
        let v = "PASS";
        const m = line.match(/plays ([A-T]\d+):/);
        if (m) { v = m[1]; await h.stone(v, "W"); await h.settle(); }
        await page.click("#press-W");
        await page.waitForFunction((n) => document.querySelectorAll("#moves li").length > n, s.moves.length);
        await liftAll();
        await person.send("play w " + v);
      }
      r.plies += 1;
    }
    // The pause: GNU Go names the dead stones, the person takes them off, both pass again.
    let s = await api(engineUrl);
    if (s.phase === "paused") {
      await page.waitForFunction(() => /says dead|passes|agrees/.test(document.getElementById("engine").textContent), null, { timeout: 60000 });
      r.deadLine = await h.text("#engine");
      s = await api(engineUrl);
      r.dead = s.engine.dead;
      for (const p of s.engine.dead) {
        const st = await api(engineUrl), c = "ABCDEFGHJ".indexOf(p[0]);
        if (st.rows[7 - parseInt(p.slice(1), 10)][c] !== ".") await h.lift(p);
      }
      await wait(engineUrl, 1000);
      for (let i = 0; i < 4 && (await api(engineUrl)).phase === "paused"; i++) {
        const c = (await api(engineUrl)).to_play;
        await page.click("#press-" + c);
        await wait(engineUrl, 500);
      }
      if ((await api(engineUrl)).phase === "paused") await page.click("button[data-button='agree']");
    }
    await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Result:"), null, { timeout: 15000 });
    await wait(engineUrl, 500);
    r.status = await h.text("#status");
    r.countText = await h.text("#count");
    r.faces = await page.$$eval(".clocks figcaption", (fs) => fs.map((f) => f.textContent));
    r.events = await h.events();
    await page.screenshot({ path: path.join(out, "engine-game.png"), fullPage: true });
  } finally {
    person.close();
    await page.close();
  }
  return r;
}

try {
  seen.short = await shortGame();
  seen.settings = await settingsKeyboardUndo();
  if (engineUrl !== "-") seen.engine = await engineGame();
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}
