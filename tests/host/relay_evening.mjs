// A tournament director's evening on the relay in Debian's Chromium (playwright-core):
// round 1 imported from an OpenGotha file at 1280 px and played by the simulated boards,
// results confirmed, one corrected with a reason, alerts handled, every export downloaded;
// round 2 imported from a CSV and confirmed from a 390 px phone; the projector at 1920x1080;
// the hall, standings and a player's page as a viewer; a viewer refused the director's page;
// the exported OpenGotha results imported into a fresh event.
// Usage: node relay_evening.mjs BASE FRESH ROUND1.xml ROUND2.csv OUT USER PASSWORD TABLES
// Prints one JSON object (what it saw) on stdout; screenshots and downloads go to OUT.
import path from "node:path";
import fs from "node:fs";
import { chromium } from "playwright-core";

const [base, fresh, og, csv, out, user, password, tablesText] = process.argv.slice(2);
const TABLES = Number(tablesText);
const LONG = 240000;  // a round of simulated games on a busy machine
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const step = (text) => process.stderr.write(new Date().toISOString().slice(11, 19) + " " + text + "\n");
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const r = {};

async function shot(page, name, masks, full = true, hide = []) {
  await page.waitForTimeout(300);
  // What runs with the wall clock (the boards' clocks) is left out: the image is the same
  // every run. (Set through the CSSOM: the page's CSP allows no inline style sheet.)
  await page.evaluate((sel) => sel.forEach((s) => document.querySelectorAll(s).forEach((e) => { e.style.display = "none"; })), hide);
  await page.screenshot({ path: path.join(out, name), fullPage: full,
                          mask: (masks || []).map((m) => page.locator(m)), maskColor: "#888" });
  return page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
}

const rows = (page) => page.$$eval("#tables tr[data-table]", (trs) => trs.map((tr) => ({
  table: Number(tr.dataset.table), status: tr.className,
  cells: [...tr.children].slice(0, 7).map((td) => td.querySelector("input") ? td.querySelector("input").value : td.textContent),
})));

async function allRows(page, cls) {
  await page.waitForFunction(([n, c]) => {
    const trs = document.querySelectorAll("#tables tr[data-table]");
    return trs.length === n && [...trs].every((tr) => c.includes(tr.className));
  }, [TABLES, cls], { timeout: LONG, polling: 500 });
}

async function importFile(page, file, round) {
  await page.setInputFiles("#file", file);
  await page.fill("#import-round", round ? String(round) : "");
  await page.click("#import");
  await page.waitForFunction(() => document.getElementById("import-msg").textContent.startsWith("imported") ||
    document.getElementById("status").className === "bad", null, { timeout: LONG });
  return page.textContent("#import-msg");
}

try {
  step('// A viewer: no credentials');
  // A viewer: no credentials, so nothing of the director's.
  const viewer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const vpage = await viewer.newPage();
  // The director's page asks for the password: without it the browser cannot open it.
  const probe = await viewer.newPage();
  r.viewerDirector = await probe.goto(base + "/director").then((resp) => resp.status(), (e) => String(e).split("\n")[0]);
  await probe.close();
  await vpage.goto(base + "/");
  r.viewerState = await vpage.evaluate(async () => (await fetch("/director/api/state")).status);
  r.viewerPost = await vpage.evaluate(async () => (await fetch("/director/api/round", {
    method: "POST", headers: { "X-Ingboard": "director" }, body: '{"round": 1}' })).status);

  step('// The director at 1280 px');
  // The director at 1280 px: round 1 from OpenGotha's file.
  const desk = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true,
                                          httpCredentials: { username: user, password } });
  const page = await desk.newPage();
  r.directorStatus = (await page.goto(base + "/director")).status();
  r.import1 = await importFile(page, og, null);
  step('await allRows(page, ["reported"]);');
  await allRows(page, ["reported"]);
  await page.waitForSelector("#alerts li[data-kind='offline']", { timeout: LONG });
  r.rows1 = await rows(page);
  r.alerts1 = await page.$$eval("#alerts li", (ls) => ls.map((l) => [l.dataset.kind, l.className,
    l.querySelector(".todo") ? l.querySelector(".todo").textContent : ""]));
  step('r.director1280 =');
  r.director1280 = await shot(page, "director-1280.png", [".when"]);
  for (const row of r.rows1) {
    if (row.table === 2) continue;
    await page.click(`#tables tr[data-table='${row.table}'] button.confirm`);
    await page.waitForSelector(`#tables tr[data-table='${row.table}'].confirmed`);
  }
  await page.click("#tables tr[data-table='2'] button.correct");
  await page.fill("tr.edit input.new-result", "B+F");
  await page.fill("tr.edit input.reason", "illegal move by White at move 8: the game goes to Black");
  await page.click("tr.edit button.save");
  await page.waitForSelector("#tables tr[data-table='2'].corrected");
  while (await page.locator("#alerts li.open button.handle").count()) {
    const before = await page.locator("#alerts li.open").count();
    await page.locator("#alerts li.open button.handle").first().click();
    await page.waitForFunction((n) => document.querySelectorAll("#alerts li.open").length < n, before);
  }
  r.rowsConfirmed = await rows(page);
  r.corrections = await page.$$eval("#corrections li", (ls) => ls.map((l) => l.textContent));
  r.downloads = {};
  for (const link of await page.$$("#exports a.export")) {
    const [dl] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const file = path.join(out, dl.suggestedFilename());
    await dl.saveAs(file);
    r.downloads[dl.suggestedFilename()] = file;
  }

  step('// Round 2 from a CSV');
  // Round 2 from a CSV, from a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  r.import2 = await importFile(page, csv, 2);
  await page.waitForFunction(() => document.getElementById("tables-title").textContent.endsWith("2"));
  await allRows(page, ["reported"]);
  await page.click("#confirm-all");
  await allRows(page, ["confirmed"]);
  r.rows2 = await rows(page);
  r.director390 = await shot(page, "director-390.png", [".when"]);

  step('// The projector');
  // The projector, 1920x1080, as anyone sees it.
  const proj = await viewer.newPage();
  await proj.setViewportSize({ width: 1920, height: 1080 });
  await proj.goto(base + "/projector");
  await proj.waitForFunction((n) => document.querySelectorAll(".pcard").length === n, TABLES);
  await proj.waitForTimeout(500);
  r.projector = await proj.evaluate(() => ({
    round: document.getElementById("round").textContent,
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    cards: [...document.querySelectorAll(".pcard")].map((c) => [c.dataset.table, c.className,
      c.querySelector(".pres").textContent]),
  }));
  r.projectorShot = await shot(proj, "projector-1920.png", [".pclk"], false);

  step('// The hall, the standings');
  // The hall, the standings and a player's page, as a viewer, at 1280 and 390 px.
  await vpage.goto(base + "/");
  await vpage.waitForFunction((n) => document.querySelectorAll(".card").length === n, TABLES);
  await vpage.waitForFunction(() => !document.getElementById("links").hidden);
  r.hall = { round: await vpage.textContent("#round"), info: await vpage.textContent("#roundinfo") };
  r.hall1280 = await shot(vpage, "hall-1280.png", ["#conn"], true, [".clk"]);
  await vpage.goto(base + "/standings");
  await vpage.waitForSelector("table.standings tr[data-key]");
  r.standings = await vpage.$$eval("table.standings tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  r.standings1280 = await shot(vpage, "standings-1280.png");
  await vpage.setViewportSize({ width: 390, height: 844 });
  await vpage.click("table.standings tr[data-key] a");
  await vpage.waitForSelector("table.standings td.result");
  r.player = { title: await vpage.textContent("#title"), meta: await vpage.textContent("#meta"),
               games: await vpage.$$eval("table.standings tr", (trs) => trs.slice(1).map((tr) => [...tr.children].map((td) => td.textContent))) };
  r.player390 = await shot(vpage, "player-390.png");
  await vpage.goto(base + "/");
  await vpage.waitForFunction((n) => document.querySelectorAll(".card").length === n, TABLES);
  // The links line comes with the page's second fetch: the picture waits for it, as at 1280 px
  // (without it the page was 20 px shorter whenever the machine was slow).
  await vpage.waitForFunction(() => !document.getElementById("links").hidden);
  r.hall390 = await shot(vpage, "hall-390.png", ["#conn"], true, [".clk"]);

  step('// The results, exported');
  // The results, exported for OpenGotha, into a fresh event.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(base + "/director");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("#exports a.export[href$='opengotha.xml']")]);
  const final = path.join(out, "final-" + dl.suggestedFilename());
  await dl.saveAs(final);
  await page.goto(fresh + "/director");
  r.freshImport = await importFile(page, final, null);
  say(r);
} catch (e) {
  say({ error: String(e && e.stack || e), partial: r });
} finally {
  await browser.close();
}
