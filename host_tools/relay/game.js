// The relay's game page: one game's board, move list (click a move to see that position),
// clocks and SGF download; it follows the game live over the same event stream.
"use strict";
const $ = (id) => document.getElementById(id);
const q = new URLSearchParams(location.search);
const want = { e: q.get("e") || "", b: q.get("b") || "", g: q.get("g") || "" };
let game = null, shown = null, clock = null, clockAt = 0;

function playerName(x) { return typeof x === "object" && x ? String(x.name || "?") : String(x || "?"); }

function position(n) {
  const grid = emptyGrid((game.info && game.info.size) || 19);
  for (const [_n, c, p] of game.moves.slice(0, n)) if (p !== "pass") goPlay(grid, c, p);
  return grid;
}

function draw() {
  const n = shown === null ? game.moves.length : shown;
  const last = n ? game.moves[n - 1] : null;
  drawGoBoard($("board"), position(n), { coords: true, last: last && last[2] !== "pass" ? last[2] : null });
  $("board").dataset.ply = n;
  const list = $("moves");
  list.textContent = "";
  for (const [m, c, p] of game.moves) {
    const li = document.createElement("li");
    li.textContent = m + " " + c + " " + p;
    li.dataset.n = m;
    if (m === n && shown !== null) li.className = "shown";
    li.addEventListener("click", () => { shown = m === game.moves.length ? null : m; draw(); });
    list.appendChild(li);
  }
}

function renderClock() {
  const run = game && game.result ? null : clock && clock.run;
  const elapsed = performance.now() - clockAt;
  for (const c of ["B", "W"]) {
    const s = clock && clock[c], span = $("clock-" + c);
    span.className = "side-" + c + (run === c ? " run" : "");
    span.textContent = c + " " + (s ? clockText(sideLeft(s, run === c, elapsed)) + " PP " + (s.penalty || 0) : "-");
  }
}

async function load() {
  const r = await fetch("/api/game?" + new URLSearchParams(want).toString());
  if (!r.ok) { $("title").textContent = "no such game (yet)"; return; }
  game = await r.json();
  const info = game.info || {}, p = info.players || {};
  $("title").textContent = game.board + ": " + playerName(p.B) + " (B) – " + playerName(p.W) + " (W)";
  const meta = [game.event, info.round ? "round " + info.round : null, info.rules,
                info.komi !== undefined ? "komi " + info.komi : null,
                info.size ? info.size + "×" + info.size : null].filter(Boolean);
  $("meta").textContent = meta.join(" · ");
  $("result").textContent = game.result ? game.result + (game.reason ? " (" + game.reason + ")" : "") : "";
  $("sgf").href = "/api/game.sgf?" + new URLSearchParams(want).toString();
  document.title = $("title").textContent;
  if (game.clock) { clock = game.clock; clockAt = performance.now(); }
  draw();
  renderClock();
}

const es = new EventSource("/events");
es.onopen = () => { $("conn").textContent = "live"; };
es.onerror = () => { $("conn").textContent = "reconnecting"; };
function mine(v) { return v.event === want.e && v.board === want.b && v.g === want.g; }
es.addEventListener("snapshot", () => load());
es.addEventListener("board", (e) => { if (mine(JSON.parse(e.data))) load(); });
es.addEventListener("clock", (e) => {
  const c = JSON.parse(e.data);
  if (mine(c)) { clock = c.clock; clockAt = performance.now(); renderClock(); }
});
setInterval(renderClock, 250);
