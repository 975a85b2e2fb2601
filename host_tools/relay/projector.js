// The projector: every table of the round on one screen (1920x1080 holds 60), no scrolling.
// The grid's columns and rows are chosen so the cards are as large as the screen allows;
// names, clocks and results scale with the card. It asks the relay for the round every two
// seconds and runs the clocks in between. Board text is set with textContent only.
"use strict";
const $ = (id) => document.getElementById(id);
let data = null, fetchedAt = 0;

function add(parent, tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

// Columns x rows for n cards in w x h: the largest card of about 2:1 (width:height).
function grid(n, w, h) {
  let best = [1, n, 0];
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const cw = w / cols, ch = h / rows;
    const size = Math.min(cw / 2, ch);
    if (size > best[2]) best = [cols, rows, size];
  }
  return best;
}

function who(p) { return p.name + (p.rank ? " " + p.rank : ""); }

function render() {
  if (!data) return;
  const hall = $("hall"), tables = data.tables;
  $("event").textContent = data.name || data.event;
  $("round").textContent = "round " + data.round;
  const notes = [];
  if (data.finishing.length) notes.push("still playing round " + data.finishing[0].round + ": " +
    data.finishing.map((f) => f.board).join(", "));
  for (const d of data.two_boards) notes.push(d.name + " at " + d.boards.join(" and "));
  $("note").textContent = notes.join(" · ");
  const top = hall.getBoundingClientRect().top;
  const W = document.documentElement.clientWidth - 8, H = window.innerHeight - top - 6;
  const [cols, rows] = grid(Math.max(tables.length, 1), W, H);
  const ch = Math.floor(H / rows) - 6;
  hall.style.gridTemplateColumns = "repeat(" + cols + ", 1fr)";
  hall.style.gridAutoRows = ch + "px";
  hall.style.setProperty("--u", Math.max(8, Math.min(ch / 5.2, (W / cols) / 11)) + "px");
  hall.textContent = "";
  const elapsed = performance.now() - fetchedAt;
  for (const t of tables) {
    const c = add(hall, "div", "pcard " + t.status + (t.online ? "" : " off"));
    c.dataset.table = t.table;
    const head = add(c, "div", "phead");
    add(head, "span", "ptable", String(t.table));
    add(head, "span", "pboard", (t.board || "no board") + (t.handicap ? " · H" + t.handicap : "") +
        (t.busy ? " · " + t.busy : ""));
    const run = t.result ? null : t.clock && t.clock.run;
    for (const [c2, p] of [["B", t.black], ["W", t.white]]) {
      const line = add(c, "div", "pname side-" + c2);
      add(line, "span", "stone " + c2);
      add(line, "span", "nm", who(p));
      const s = t.clock && t.clock[c2];
      add(line, "span", "pclk" + (run === c2 ? " run" : ""),
          s ? clockText(sideLeft(s, run === c2, elapsed)) : "");
    }
    const res = t.result || (t.n ? "move " + t.n : "");
    add(c, "div", "pres" + (t.result ? "" : " quiet"), res + (t.status === "reported" ? " ?" : ""));
  }
  // A long name gets a smaller font (not below 18 px) before it is cut with an ellipsis.
  const u = parseFloat(hall.style.getPropertyValue("--u"));
  for (const nm of hall.querySelectorAll(".nm")) {
    let f = u;
    while (nm.scrollWidth > nm.clientWidth && f > Math.max(18, u * 0.7)) {
      f -= 1;
      nm.style.fontSize = f + "px";
    }
  }
  if (tables.some((t) => t.status === "reported")) {
    $("note").textContent += ($("note").textContent ? " · " : "") + "? = result waiting for the director";
  }
}

async function load() {
  try {
    const r = await fetch("/api/round");
    if (r.ok) { data = await r.json(); fetchedAt = performance.now(); render(); }
    else $("note").textContent = "no tournament on this relay yet";
  } catch (e) { /* the relay restarts: the next poll */ }
}
load();
setInterval(load, 2000);
setInterval(render, 1000);
window.addEventListener("resize", render);
