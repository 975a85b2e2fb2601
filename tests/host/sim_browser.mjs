// The virtual board (ingboard sim --manual-time) in Debian's Chromium, driven by playwright-core:
// one browser for every scenario of tests/host/test_sim_browser.py.
// Usage: node sim_browser.mjs URL ENGINE_URL|- OUT_DIR
// Prints one JSON object with what each scenario saw; screenshots go to OUT_DIR/*.png.
import path from "node:path";
import { spawn } from "node:child_process";
import { launchChromium } from "./chromium.mjs";

const [url, engineUrl, out] = process.argv.slice(2);
// SIM_ONLY=engine runs only the engine scenario (test_katago.py), on SIM_ENGINE_SIZE lines,
// against the engine named SIM_ENGINE_NAME on the page.
const ONLY = process.env.SIM_ONLY || "";
const ENGINE_SIZE = Number(process.env.SIM_ENGINE_SIZE || 7);
const ENGINE_NAME = process.env.SIM_ENGINE_NAME || "GNU Go"; // the opponent's name on the page
const ENGINE_WAIT_MS = Number(process.env.SIM_ENGINE_WAIT_MS || 120000);
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
  await page.uncheck("#assist");  // the physical chores: every lift and press by hand
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
  await page.uncheck("#assist");
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
  // Undo says first what it will do; then White's stone leaves the game but is still on the
  // board: drawn as one to lift.
  await page.keyboard.press("u");
  await page.waitForSelector("#undo-ask:not([hidden])");
  r.undoAsk = await h.text("#undo-text");
  r.movesBeforeUndo = (await api(url)).moves.length;
  await page.click("#undo-yes");
  await page.waitForSelector("path.lift[data-point='G5']");
  await page.focus("#board");
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
  // The last ten seconds of a byo-yomi period beep once a second (the sounds list).
  const heardBefore = await page.evaluate(() => window.simSounds.filter((x) => x.name === "time").length);
  await wait(url, 60000 + 20000 - 8000);  // basic time gone, 8 s left of the first period
  await page.waitForFunction((n) => window.simSounds.filter((x) => x.name === "time").length > n, heardBefore);
  r.timeClock = (await api(url)).clock[(await api(url)).to_play];
  await wait(url, 2000);
  await page.waitForFunction((n) => window.simSounds.filter((x) => x.name === "time").length > n + 1, heardBefore);
  r.timeBeeps = (await page.evaluate(() => window.simSounds.filter((x) => x.name === "time").length)) - heardBefore;
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
  // Assist (the sim's default): the person only clicks their stones (one click = a move, the
  // clock pressed for them) and the Pass button; GNU Go's stones are placed and its clock
  // pressed by the board; captures are lifted; at the pause one click takes a dead group off.
  const page = await browser.newPage();
  const h = helpers(page, engineUrl);
  await page.goto(engineUrl);
  await page.waitForSelector("#rules option", { state: "attached" });
  await page.click("#settings-box summary");
  await page.selectOption("#size", String(ENGINE_SIZE));
  await page.fill("#name-B", "Person");
  await page.fill("#name-W", ENGINE_NAME);
  const assistDefault = await page.isChecked("#assist");
  await page.click("#new-game");
  const last = "ABCDEFGHJKLMNOPQRST"[ENGINE_SIZE - 1] + ENGINE_SIZE;
  const beyond = "ABCDEFGHJKLMNOPQRST"[ENGINE_SIZE] + (ENGINE_SIZE + 1);
  await page.waitForSelector(`circle.point[data-point='${last}']`);
  await page.waitForFunction((b) => !document.querySelector(`circle.point[data-point='${b}']`), beyond);
  const person = gtpPlayer(ENGINE_SIZE);
  await person.init(8);
  const r = { assistDefault, plies: 0, personClicks: 0, personPasses: 0 };
  try {
    // The person's engine hears every White move from the move list (a move commits before
    // its clock press, so the list, not the side to play, says what has happened).
    let told = 0;
    r.trace = [];
    for (let ply = 0; ply < 20000; ply++) {
      const s = await api(engineUrl);
      for (const m of s.moves.slice(told)) {
        r.trace.push(m.c + m.p);
        if (m.c === "W") await person.send("play w " + (m.p === "pass" ? "pass" : m.p));
      }
      told = s.moves.length;
      if (s.phase !== "play") break;
      if (s.marks.lift.length || s.marks.missing.length) r.untidy = (r.untidy || 0) + 1;
      const n = s.moves.length;
      const last = s.moves[n - 1];
      if (s.to_play === "B" && (!last || last.c === "W")) {
        const v = (await person.send("genmove b")).toUpperCase();
        if (v === "RESIGN") { r.personResigned = true; break; }
        if (v === "PASS") { await page.click("#pass"); r.personPasses += 1; }
        else {
          await page.click(`circle.point[data-point='${v}']`);
          await page.waitForSelector(`circle.point[data-point='${v}'][data-stone='B']`);
          r.personClicks += 1;
        }
        await wait(engineUrl, 300);
        try {
          await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, n);
        } catch (e) {
          const st = await api(engineUrl);
          throw new Error("Black's " + v + " not taken: " + JSON.stringify({ trace: r.trace, rows: st.rows, alerts: st.alerts, marks: st.marks, moves: st.moves.map((m) => m.c + m.p), engine: st.engine }));
        }
      } else {
        // GNU Go's move: the board places it and presses its clock as board time moves on.
        await wait(engineUrl, 200);
        await page.waitForTimeout(50);
      }
      r.plies += 1;
    }
    // The pause: GNU Go names the dead stones; one click per group takes it off.
    let s = await api(engineUrl);
    r.phaseAtPause = s.phase;
    if (s.phase === "paused") {
      await page.waitForFunction(() => /says dead|passes|agrees/.test(document.getElementById("engine").textContent), null, { timeout: ENGINE_WAIT_MS });
      r.deadLine = await h.text("#engine");
      s = await api(engineUrl);
      r.dead = s.engine.dead;
      r.deadTriangles = await h.count("path.dead");
      r.groupClicks = 0;
      for (const p of s.engine.dead) {
        const st = await api(engineUrl), c = "ABCDEFGHJKLMNOPQRST".indexOf(p[0]);
        if (st.rows[ENGINE_SIZE - parseInt(p.slice(1), 10)][c] !== ".") {
          await page.click(`circle.point[data-point='${p}']`);
          await page.waitForSelector(`circle.point[data-point='${p}'][data-stone='.']`);
          r.groupClicks += 1;
        }
      }
      r.deadLeft = await h.count("path.dead");
      await wait(engineUrl, 1000);
      for (let i = 0; i < 6 && (await api(engineUrl)).phase === "paused"; i++) {
        const st = await api(engineUrl);
        if (st.to_play === "B") {
          await page.click("#pass");
          await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, st.moves.length);
        }
        await wait(engineUrl, 500);
        await page.waitForTimeout(300);
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

// -- 4. assist without an engine: the colour control, an illegal stone marked with its
// reason, Pass, a capture lifted by the board, GNU Go's dead stones at the pause confirmed
// one click per group, the estimate, the legend, Home/End, sounds and mute, result faces ----
const ASSIST_MOVES = ["C3", "E5", "C4", "E4", "C5", "E3", "D3", "F6", "D4", "B6", "D5", "E2",
                      "A2", "G2", "B1"];
async function assistGame() {
  const page = await browser.newPage();
  const h = helpers(page, url);
  await page.goto(url);
  await page.waitForSelector("#rules option", { state: "attached" });
  await page.click("#settings-box summary");
  await page.selectOption("#size", "7");
  await page.fill("#name-B", "Ann");
  await page.fill("#name-W", "Bo");
  await page.check("#assist");
  await page.click("#new-game");
  await page.waitForSelector("circle.point[data-point='G7']");
  await page.waitForFunction(() => !document.querySelector("circle.point[data-point='H8']"));
  await page.click("#settings-box summary");  // closed again: the board and the marks in view
  const r = {};
  async function play(p) {
    const n = (await api(url)).moves.length;
    const c = (await api(url)).to_play;
    await page.click(`circle.point[data-point='${p}']`);
    // The click's request first (it is sent after the click returns), then board time moves.
    await page.waitForSelector(`circle.point[data-point='${p}'][data-stone='${c}']`);
    await wait(url, 300);
    await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, n);
    await wait(url, 200);
  }
  // The colour control: "white once" places one white stone, then it is the side to play.
  await page.click("#once-W");
  r.colourOnce = await h.text("#colour-now");
  await page.click("circle.point[data-point='G7']");
  await page.waitForSelector("circle.point[data-point='G7'][data-stone='W']");
  r.colourAfter = await h.text("#colour-now");
  await wait(url, 600);
  // The alert stands once the stone has lain there its alert time: the status line says it.
  await page.waitForFunction(() => /^G7: /.test(document.getElementById("status").textContent));
  await page.waitForSelector("text.why[data-point='G7']");
  r.wrongWord = await h.text("text.why[data-point='G7']");
  r.wrongStatus = await h.text("#status");
  await h.lift("G7");
  await wait(url, 300);
  await page.waitForFunction(() => !document.querySelector("text.why"));
  for (const p of ASSIST_MOVES) await play(p);
  // White's stone on A1 would have no liberty: refused, marked with the reason in words.
  await page.click("circle.point[data-point='A1']");
  await page.waitForSelector("circle.point[data-point='A1'][data-stone='W']");
  await wait(url, 600);
  await page.waitForFunction(() => /^A1: /.test(document.getElementById("status").textContent));
  await page.waitForSelector("text.why[data-point='A1']");
  r.suicideWord = await h.text("text.why[data-point='A1']");
  r.suicideStatus = await h.text("#status");
  r.suicideCross = await h.count("path.lift[data-point='A1']");
  r.legendAtSuicide = await page.$$eval("#legend li", (ls) => ls.map((l) => l.dataset.mark));
  r.suicideAlerts = (await h.events()).filter((e) => e.includes("ALERT suicide")).length;
  await h.lift("A1");
  await wait(url, 300);
  await page.waitForFunction(() => !document.getElementById("status").textContent.includes("Suicide"));
  for (const p of ["B2", "C2", "F2"]) await play(p);
  await play("B3");  // captures B2: the board lifts it
  await page.waitForSelector("circle.point[data-point='B2'][data-stone='.']");
  r.afterCapture = { check: await h.text("#check"), prisoners: await h.text("#prisoners"),
                     lifts: await h.count("path.lift") };
  for (const p of ["F3", "C6", "G4", "B5"]) await play(p);  // B6 is now dead in Black's area
  // Undo says first what it will do; "keep it" does nothing.
  await page.click("#undo");
  await page.waitForSelector("#undo-ask:not([hidden])");
  r.undoText = await h.text("#undo-text");
  await page.click("#undo-no");
  await page.waitForSelector("#undo-ask[hidden]", { state: "attached" });
  r.movesKept = (await api(url)).moves.length;
  // Home shows the empty board, End the game again.
  await page.focus("#board");
  await page.keyboard.press("Home");
  await page.waitForSelector("#review:not([hidden])");
  r.homeStones = await h.count("#stones circle.stone");
  r.homeText = await h.text("#review");
  await page.keyboard.press("End");
  await page.waitForSelector("#review[hidden]", { state: "attached" });
  // Passes: the Pass button (White), the P key (Black): the pause.
  const before = (await api(url)).moves.length;
  await page.click("#pass");
  await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, before);
  await wait(url, 300);
  await page.focus("#board");
  await page.keyboard.press("p");
  await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, before + 1);
  await wait(url, 300);
  await page.waitForFunction(() => /Paused/.test(document.getElementById("status").textContent));
  for (let i = 0; i < 400; i++) {
    const s = await api(url);
    if (s.counsel && s.counsel.dead !== null) break;
    await page.waitForTimeout(100);
  }
  await page.waitForSelector("path.dead", { timeout: 60000 });
  const st = await api(url);
  r.dead = st.counsel.dead;
  r.counselText = await h.text("#counsel");
  r.legendAtPause = await page.$$eval("#legend li", (ls) => ls.map((l) => l.dataset.mark));
  await page.click("#estimate");
  await page.waitForFunction(() => /estimates/.test(document.getElementById("counsel").textContent));
  r.estimateText = await h.text("#counsel");
  r.pause1280 = await shot(page, "assist-pause-1280.png", 1280);
  r.pause390 = await shot(page, "assist-pause-390.png", 390);
  await page.setViewportSize({ width: 1280, height: 900 });
  // One click takes a dead group off, a click where it lay puts it back.
  const first = r.dead[0];
  await page.click(`circle.point[data-point='${first}']`);
  await page.waitForSelector(`circle.point[data-point='${first}'][data-stone='.']`);
  r.liftedChains = (await api(url)).lifted_chains;
  await page.click(`circle.point[data-point='${first}']`);
  await page.waitForSelector(`circle.point[data-point='${first}'][data-stone='W']`);
  r.chainsAfterPutBack = (await api(url)).lifted_chains;
  for (const p of r.dead) {
    const s = await api(url), c = "ABCDEFG".indexOf(p[0]);
    if (s.rows[7 - parseInt(p.slice(1), 10)][c] !== ".") {
      await page.click(`circle.point[data-point='${p}']`);
      await page.waitForSelector(`circle.point[data-point='${p}'][data-stone='.']`);
    }
  }
  r.deadLeft = await h.count("path.dead");
  await wait(url, 500);
  const soundsBefore = await page.evaluate(() => window.simSounds.map((x) => x.name));
  // Mute, then the last passes: no sound.
  await page.click("#sound");
  r.soundButton = await h.text("#sound");
  for (let i = 0; i < 4 && (await api(url)).phase === "paused"; i++) {
    const n = (await api(url)).moves.length;
    await page.click("#pass");
    await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, n);
    await wait(url, 300);
  }
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Result:"));
  await wait(url, 500);
  await page.waitForTimeout(600);
  r.sounds = soundsBefore;
  r.soundsMuted = (await page.evaluate(() => window.simSounds.map((x) => x.name))).length - soundsBefore.length;
  await page.click("#sound");  // sound on again (localStorage keeps the choice)
  r.status = await h.text("#status");
  r.legendAtEnd = await page.$$eval("#legend li", (ls) => ls.map((l) => l.dataset.mark));
  r.faceB = await page.evaluate(async () => {
    const b = await (await fetch("/api/clock/B.png")).arrayBuffer();
    return Array.from(new Uint8Array(b)).length;
  });
  r.end1280 = await shot(page, "assist-end-1280.png", 1280);
  await page.close();
  return r;
}

// -- 5. open an SGF and continue from it -----------------------------------------------------
const OPEN_SGF = "(;GM[1]FF[4]SZ[9]KM[8]RU[Goe]PB[Ann]PW[Bo];B[ee];W[ce];B[dd];W[dc];B[cd];W[ed];B[de];W[ec];B[bc])";
async function openSgf() {
  const page = await browser.newPage();
  const h = helpers(page, url);
  await page.goto(url);
  await page.waitForSelector("#rules option", { state: "attached" });
  await page.setInputFiles("#open-sgf", { name: "opened.sgf", mimeType: "application/x-go-sgf",
                                          buffer: Buffer.from(OPEN_SGF) });
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 9);
  await page.waitForFunction(() => document.getElementById("note").textContent !== "");
  const r = { openedNote: await h.text("#note") };
  let s = await api(url);
  r.opened = { moves: s.moves.map((m) => m.c + m.p), to_play: s.to_play, players: s.config.players,
               marks: s.marks, size: s.size };
  await page.click("circle.point[data-point='F4']");
  await wait(url, 300);
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length === 10);
  s = await api(url);
  r.continued = s.moves.map((m) => m.c + m.p).slice(-1)[0];
  const bad = await page.evaluate(async () => (await fetch("/api/open", { method: "POST", body: JSON.stringify({ sgf: "(;GM[1]SZ[9];B[zz" }) })).json());
  r.badSgf = bad.error || null;
  r.afterBad = (await api(url)).moves.length;
  await page.close();
  return r;
}

try {
  if (ONLY !== "engine") {
    seen.short = await shortGame();
    seen.settings = await settingsKeyboardUndo();
    seen.assist = await assistGame();
    seen.open = await openSgf();
  }
  if (engineUrl !== "-") seen.engine = await engineGame();
  console.log(JSON.stringify(seen));
} finally {
  await browser.close();
}
