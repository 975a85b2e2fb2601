// The relay's hall page: the event and round, one card per board (position, last move, both
// clocks running between the board's 1 Hz clock messages, penalty points, the result until
// the board's next game), and the results table of every round. Everything shown is set with
// textContent or SVG attributes: nothing a board sends is ever markup.
"use strict";
const boards = {};       // key -> view
const clockAt = {};      // key -> performance.now() when its clock message arrived
const $ = (id) => document.getElementById(id);
function key(v) { return v.event + "/" + v.board; }
function playerName(x) { return typeof x === "object" && x ? String(x.name || "?") : String(x || "?"); }

function add(parent, tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

function gameUrl(v) {
  return "/game?" + new URLSearchParams({ e: v.event, b: v.board, g: v.g || "" }).toString();
}

function card(v) {
  const id = "b-" + key(v);
  let el = document.getElementById(id);
  if (!el) {
    el = document.createElement("a");
    el.id = id;
    $("boards").appendChild(el);
  }
  return el;
}

function render(v) {
  const el = card(v);
  const p = (v.info && v.info.players) || {};
  el.className = "card " + (v.online ? "on" : "off");
  el.href = v.g ? gameUrl(v) : "#";
  el.dataset.ply = v.n || 0;
  el.dataset.last = v.last ? v.last.c + " " + v.last.p : "";
  el.dataset.online = v.online ? "1" : "0";
  el.dataset.result = v.result || "";
  el.textContent = "";
  const h = add(el, "h2");
  add(h, "span", "dot");
  h.appendChild(document.createTextNode(" " + v.board + ": " + playerName(p.B) + " - " + playerName(p.W)));
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  el.appendChild(svg);
  drawGoBoard(svg, v.rows || [], { last: v.last && v.last.p !== "pass" ? v.last.p : null });
  const line = add(el, "div");
  const rnd = v.info && v.info.round;
  line.appendChild(document.createTextNode((rnd ? "round " + rnd + " · " : "") + "move "));
  add(line, "span", "ply", String(v.n || 0));
  if (v.last) { line.appendChild(document.createTextNode(" ")); add(line, "span", "lastmove", v.last.c + " " + v.last.p); }
  const clk = add(el, "div", "clk");
  add(clk, "span", "side-B");
  add(clk, "span", "side-W");
  add(el, "div", "res", v.result ? v.result + (v.reason ? " (" + v.reason + ")" : "") : "");
  if (v.held) add(el, "div", "held", "held for the TD");
  if (v.quarantined) add(el, "div", "quar", Number(v.quarantined) + " message(s) quarantined for the TD");
  renderClock(v);
}

function renderClock(v) {
  const el = document.getElementById("b-" + key(v));
  if (!el) return;
  const clock = v.clock || {}, elapsed = performance.now() - (clockAt[key(v)] || performance.now());
  const run = v.result ? null : clock.run;
  for (const c of ["B", "W"]) {
    const span = el.querySelector(".side-" + c), s = clock[c];
    span.className = "side-" + c + (run === c ? " run" : "");
    span.textContent = c + " " + (s ? clockText(sideLeft(s, run === c, elapsed)) + " PP " + (s.penalty || 0) : "-");
  }
}

let tournament = null;  // the director's round (GET /api/round), when the relay has one
function header() {
  const views = Object.values(boards);
  const events = [...new Set(views.map((v) => v.event))];
  if (events.length === 1) $("event").textContent = events[0];
  if (tournament) {
    $("event").textContent = tournament.name || tournament.event;
    $("round").textContent = tournament.current ? "round " + tournament.current : "";
    const notes = [];
    if (tournament.finishing.length) notes.push("still finishing round " + tournament.finishing[0].round + ": " +
      tournament.finishing.map((f) => f.board).join(", "));
    for (const d of tournament.two_boards) notes.push("at two boards: " + d.name + " (" + d.boards.join(", ") + ")");
    $("roundinfo").textContent = notes.join(" · ");
    const prev = new Set(tournament.finishing.map((f) => tournament.event + "/" + f.board));
    for (const v of views) {
      const el = document.getElementById("b-" + key(v));
      if (el) el.classList.toggle("prev", prev.has(key(v)));
    }
    return;
  }
  const rounds = views.map((v) => (v.info && Number(v.info.round)) || 0).filter((x) => x > 0);
  $("round").textContent = rounds.length ? "round " + Math.max(...rounds) : "";
}

let roundTimer = null;
function loadRound() {
  clearTimeout(roundTimer);
  roundTimer = setTimeout(async () => {
    try {
      const r = await fetch("/api/round");
      tournament = r.ok ? await r.json() : null;
      $("links").hidden = !tournament;
      header();
    } catch (e) { /* the relay is restarting: the next event asks again */ }
  }, 300);
}

function relayStatus(r) {
  const b = $("broker");
  const words = { connected: "broker connected", connecting: "connecting to the broker",
                  unreachable: "BROKER UNREACHABLE", refused: "BROKER REFUSED THE RELAY'S LOGIN",
                  denied: "BROKER REFUSED THE RELAY'S SUBSCRIPTION" };
  b.textContent = (words[r.broker] || r.broker) + (r.detail && r.broker !== "connected" ? ": " + r.detail : "");
  b.className = ["unreachable", "refused", "denied"].includes(r.broker) ? "bad" : "";
}

let resultsTimer = null;
function loadResults() {
  clearTimeout(resultsTimer);
  resultsTimer = setTimeout(async () => {
    try {
      const data = await (await fetch("/api/results")).json();
      const box = $("tables");
      box.textContent = "";
      for (const round of [...data.rounds].reverse()) {
        add(box, "h3", "", "Round " + round.round);
        const t = add(box, "table");
        t.dataset.round = round.round;
        const head = add(t, "tr");
        for (const h of ["board", "Black", "White", "result"]) add(head, "th", "", h);
        for (const g of round.games) {
          const tr = add(t, "tr");
          const td = add(tr, "td");
          const a = add(td, "a", "", g.board);
          a.href = gameUrl(g);
          add(tr, "td", "", g.black);
          add(tr, "td", "", g.white);
          add(tr, "td", "result", g.result ? g.result + (g.reason === "corrected" ? " (corrected)" : "") : "playing");
        }
      }
    } catch (e) { /* the relay is restarting: the next event loads them again */ }
  }, 300);
}

function update(v) {
  const k = key(v), old = boards[k];
  if (old && old.clock && !v.clock && old.g === v.g) v.clock = old.clock;
  boards[k] = v;
  render(v);
  header();
  if (!old || old.g !== v.g || old.result !== v.result) { loadResults(); loadRound(); }
}

const es = new EventSource("/events");
es.onopen = () => { $("conn").textContent = "live"; };
es.onerror = () => { $("conn").textContent = "reconnecting"; };
es.addEventListener("snapshot", (e) => {
  const data = JSON.parse(e.data);
  if (data.relay) relayStatus(data.relay);
  data.boards.forEach((v) => { clockAt[key(v)] = performance.now(); update(v); });
  loadResults();
  loadRound();
});
es.addEventListener("board", (e) => update(JSON.parse(e.data)));
es.addEventListener("relay", (e) => relayStatus(JSON.parse(e.data)));
es.addEventListener("clock", (e) => {
  const c = JSON.parse(e.data), v = boards[key(c)];
  if (v && v.g === c.g) { v.clock = c.clock; clockAt[key(c)] = performance.now(); renderClock(v); }
});
// The running side's time goes down between the board's clock messages.
setInterval(() => Object.values(boards).forEach(renderClock), 250);
