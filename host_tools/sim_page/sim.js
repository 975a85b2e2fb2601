// ingboard sim: the virtual board's page. Everything it shows comes from GET /api/state (the
// firmware's tracker behind host_tools/sim_server.py); what a person does goes to POST /api/*.
// Drawn on the board: star points, coordinates on all four sides, the last move, move numbers
// on demand, where the board and the game disagree (stones to lift, missing, wrong colour), an
// engine's move to place, and at the end the count (territory, the fill-in plan, the winning
// space, losing stones, compensation stones).
"use strict";
const COLS = "ABCDEFGHJKLMNOPQRST";
const NS = "http://www.w3.org/2000/svg";
const VIEW = 600;
const $ = (id) => document.getElementById(id);
let state = null, options = null, shown = 0, busy = false, drawnSize = 0;
let review = null;             // move number shown from the move list, or null (the board)
let cursor = null;             // [col, row from the top] of the keyboard cursor
let pressNext = null;          // colour whose clock Space presses (the side that just placed)
let lastEventsKey = "";

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

function geo(size) {
  const cell = VIEW / (size + 1);
  return {
    cell,
    x: (c) => cell * (c + 1),
    y: (r) => cell * (r + 1),
    font: Math.min(cell * 0.42, 18),
  };
}

// "D4" -> [col, row from the top]
function at(name, size) {
  return [COLS.indexOf(name[0]), size - parseInt(name.slice(1), 10)];
}
function nameOf(c, r, size) { return COLS[c] + (size - r); }

function drawGrid(size, stars) {
  const svg = $("board");
  svg.textContent = "";
  const g = geo(size);
  const grid = el("g", { id: "grid" });
  for (let i = 0; i < size; i++) {
    grid.appendChild(el("line", { x1: g.x(i), y1: g.y(0), x2: g.x(i), y2: g.y(size - 1),
                                  stroke: "#333", "stroke-width": 1 }));
    grid.appendChild(el("line", { x1: g.x(0), y1: g.y(i), x2: g.x(size - 1), y2: g.y(i),
                                  stroke: "#333", "stroke-width": 1 }));
    // Coordinates on all four sides.
    const off = g.cell * 0.45;
    const attrs = { "font-size": g.font, "text-anchor": "middle", class: "coord",
                    "dominant-baseline": "central", fill: "#333" };
    grid.appendChild(el("text", { ...attrs, x: g.x(i), y: off }, COLS[i]));
    grid.appendChild(el("text", { ...attrs, x: g.x(i), y: VIEW - off }, COLS[i]));
    grid.appendChild(el("text", { ...attrs, x: off, y: g.y(i) }, String(size - i)));
    grid.appendChild(el("text", { ...attrs, x: VIEW - off, y: g.y(i) }, String(size - i)));
  }
  for (const s of stars) {
    const [c, r] = at(s, size);
    grid.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: Math.max(2.5, g.cell * 0.09),
                                    fill: "#333", class: "star", "data-point": s }));
  }
  svg.appendChild(grid);
  for (const id of ["territory", "stones", "marks", "hits"]) svg.appendChild(el("g", { id }));
  const hits = svg.querySelector("#hits");
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
    const name = nameOf(c, r, size);
    const hit = el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.5, fill: "transparent",
                               class: "point", "data-point": name, "data-stone": "." });
    hit.addEventListener("click", () => { if (cursor) cursor = [c, r]; clickPoint(name); });
    hits.appendChild(hit);
  }
  drawnSize = size;
}

// The position after move n of the game (the move list), from the setup and the moves.
function positionAfter(s, n) {
  const size = s.size, grid = [];
  for (let r = 0; r < size; r++) grid.push(Array(size).fill("."));
  for (const [p, c] of s.setup || []) { const [x, y] = at(p, size); grid[y][x] = c; }
  for (const m of s.moves.slice(0, n)) {
    if (m.p === "pass") continue;
    const [x, y] = at(m.p, size); grid[y][x] = m.c;
    for (const q of m.x) { const [a, b] = at(q, size); grid[b][a] = "."; }
  }
  return grid.map((row) => row.join(""));
}

function stoneAt(g, layer, c, r, colour, cls) {
  layer.appendChild(el("circle", {
    cx: g.x(c), cy: g.y(r), r: g.cell * 0.47, class: "stone " + colour + (cls ? " " + cls : ""),
    fill: colour === "B" ? "#111" : "#f8f8f4", stroke: "#000", "stroke-width": 1,
  }));
}

function cross(g, layer, c, r, colour, cls, size) {
  const d = g.cell * (size || 0.25), x = g.x(c), y = g.y(r);
  const path = `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`;
  layer.appendChild(el("path", { d: path, stroke: colour, "stroke-width": Math.max(2, g.cell * 0.08),
                                 class: "mark " + cls, fill: "none" }));
}

function drawBoard(s) {
  const size = s.size, g = geo(size), svg = $("board");
  const terr = svg.querySelector("#territory"), stones = svg.querySelector("#stones");
  const marks = svg.querySelector("#marks");
  terr.textContent = ""; stones.textContent = ""; marks.textContent = "";
  const rows = review === null ? s.rows : positionAfter(s, review);
  for (const hit of svg.querySelectorAll("circle.point")) {
    const [c, r] = at(hit.getAttribute("data-point"), size);
    hit.setAttribute("data-stone", s.rows[r][c]);
  }
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
    const ch = rows[r][c];
    if (ch === "B" || ch === "W") stoneAt(g, stones, c, r, ch);
  }
  const upTo = review === null ? s.moves.length : review;
  // Move numbers (the latest move on each point still holding its stone) or the last move.
  const played = s.moves.slice(0, upTo);
  if ($("numbers").checked) {
    const seen = {};
    played.forEach((m) => { if (m.p !== "pass") seen[m.p] = m; });
    for (const p in seen) {
      const m = seen[p], [c, r] = at(p, size);
      if (rows[r][c] !== m.c) continue;
      marks.appendChild(el("text", {
        x: g.x(c), y: g.y(r), "font-size": Math.min(g.cell * 0.45, 20), "text-anchor": "middle",
        "dominant-baseline": "central", fill: m.c === "B" ? "#fff" : "#000",
        class: "number" + (m === played[played.length - 1] ? " last-number" : ""),
        "data-point": p,
      }, String(m.n)));
    }
  } else {
    const last = [...played].reverse().find((m) => m.p !== "pass");
    if (last && played[played.length - 1] === last) {
      const [c, r] = at(last.p, size);
      if (rows[r][c] === last.c) {
        marks.appendChild(el("circle", {
          cx: g.x(c), cy: g.y(r), r: g.cell * 0.22, fill: "none",
          stroke: last.c === "B" ? "#fff" : "#000", "stroke-width": Math.max(2, g.cell * 0.07),
          class: "last-move", "data-point": last.p,
        }));
      }
    }
  }
  if (review === null) drawDifferences(s, g, marks);
  if (review === null && s.owner) drawCount(s, g, terr, marks);
  if (review === null && s.engine) drawEngine(s, g, marks);
  if (cursor) {
    const [c, r] = cursor, d = g.cell * 0.5;
    marks.appendChild(el("rect", { x: g.x(c) - d, y: g.y(r) - d, width: 2 * d, height: 2 * d,
                                   fill: "none", stroke: "#1c5fd1", "stroke-width": 3,
                                   class: "cursor", "data-point": nameOf(c, r, size) }));
  }
}

// Where the board and the game disagree: nothing is ever silently out of step.
function drawDifferences(s, g, marks) {
  const size = s.size;
  for (const p of s.marks.lift) {
    const [c, r] = at(p, size);
    cross(g, marks, c, r, "#e0201b", "lift", 0.3);
    marks.lastChild.setAttribute("data-point", p);
  }
  for (const p of s.marks.missing) {
    const [c, r] = at(p, size), colour = s.game_rows[r][c];
    marks.appendChild(el("circle", {
      cx: g.x(c), cy: g.y(r), r: g.cell * 0.44, fill: colour === "B" ? "#1118" : "#fff8",
      stroke: "#e0201b", "stroke-width": 2.5, "stroke-dasharray": "5 4", class: "mark missing",
      "data-point": p,
    }));
  }
  for (const p of s.marks.wrong) {
    const [c, r] = at(p, size);
    marks.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.5, fill: "none",
                                     stroke: "#f08000", "stroke-width": 3, class: "mark wrong",
                                     "data-point": p }));
    cross(g, marks, c, r, "#f08000", "wrong-x", 0.25);
  }
}

// The count, drawn as it is done: territory, the fill-in plan's stones, the winning space, the
// losing stones and the compensation stones (Ing 1991 Art. 4 "Positioning").
function drawCount(s, g, terr, marks) {
  const size = s.size, d = g.cell * 0.16;
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
    const o = s.owner[r][c];
    if (o !== "b" && o !== "w") continue;
    terr.appendChild(el("rect", { x: g.x(c) - d, y: g.y(r) - d, width: 2 * d, height: 2 * d,
                                  fill: o === "b" ? "#111" : "#fff", stroke: "#555",
                                  class: "territory " + o, "data-point": nameOf(c, r, size) }));
  }
  const plan = s.phase === "ended" ? s.plan : null;
  if (!plan || !plan.points) return;
  const special = new Set(Object.values(plan.points).flat());
  if (plan.final) {
    for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
      const f = plan.final[r][c], name = nameOf(c, r, size);
      if ((f === "B" || f === "W") && s.game_rows[r][c] === "." && !special.has(name)) {
        terr.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.3,
                                        fill: f === "B" ? "#1119" : "#fff9", stroke: "#555",
                                        class: "fill " + f, "data-point": name }));
      }
    }
  }
  const winner = (s.result || "").startsWith("W") ? "W" : "B";
  for (const p of plan.points.winning_space) {
    const [c, r] = at(p, size);
    marks.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.38, fill: "none",
                                     stroke: "#e0201b", "stroke-width": 4, class: "winning-space",
                                     "data-point": p }));
  }
  const loser = winner === "B" ? "W" : "B";
  for (const p of plan.points.losing) {
    const [c, r] = at(p, size);
    stoneAt(g, marks, c, r, loser, "losing");
    cross(g, marks, c, r, "#e0201b", "losing-x", 0.22);
  }
  const by = plan.compensation && plan.compensation.by;
  for (const p of plan.points.compensation) {
    const [c, r] = at(p, size);
    stoneAt(g, marks, c, r, by || "W", "compensation");
    const q = g.cell * 0.2;
    marks.appendChild(el("rect", { x: g.x(c) - q, y: g.y(r) - q, width: 2 * q, height: 2 * q,
                                   fill: "none", stroke: "#1c5fd1", "stroke-width": 3,
                                   class: "comp-mark", "data-point": p }));
  }
  const pby = plan.penalty && plan.penalty.by;
  for (const p of plan.points.penalty) {
    const [c, r] = at(p, size);
    stoneAt(g, marks, c, r, pby || "B", "penalty");
  }
}

function drawEngine(s, g, marks) {
  const e = s.engine, size = s.size;
  if (e.move && e.move !== "pass" && e.move !== "resign" && s.phase === "play") {
    const [c, r] = at(e.move, size);
    if (s.rows[r][c] === ".") {
      marks.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.47,
                                       fill: e.color === "B" ? "#1117" : "#fffa",
                                       stroke: "#1c5fd1", "stroke-width": 3,
                                       "stroke-dasharray": "6 3", class: "suggest",
                                       "data-point": e.move }));
    }
  }
  for (const p of e.dead || []) {
    const [c, r] = at(p, size);
    if (s.rows[r][c] === "." ) continue;
    const x = g.x(c), y = g.y(r), q = g.cell * 0.2;
    marks.appendChild(el("path", { d: `M${x},${y - q}L${x + q},${y + q}L${x - q},${y + q}Z`,
                                   fill: "#e0201b", class: "dead", "data-point": p }));
  }
}

const COLOUR = { B: "Black", W: "White" };

function describe(e) {
  const t = (e.t / 1000).toFixed(1) + "s ";
  switch (e.type) {
    case "move": return t + e.n + " " + e.color + " " + e.point +
      (e.captures.length ? " captures " + e.captures.join(" ") : "");
    case "pass": return t + e.n + " " + e.color + " pass";
    case "alert": return t + "ALERT " + e.code + " " + e.points.join(" ") + ": " + e.text;
    case "count": return t + "count: Black " + e.black + ", White " + e.white + ", komi " +
      e.komi + " -> " + e.result + (e.winning_space ? " (winning space " + e.winning_space + ")" : "");
    case "end": return t + "end: " + e.result + " (" + e.reason + ")";
    case "removal": return t + "dead stones off: " + e.points.join(" ");
    case "bowls": return t + "bowls (" + e.phase + "): B " + (e.B ?? "---") + ", W " + (e.W ?? "---");
    case "pause": case "resume": case "undo": return t + e.type;
    default: return null;
  }
}

function statusText(s) {
  if (s.result) return "Result: " + s.result;
  if (s.phase === "paused") return "Paused: take the dead stones off, then pass (or agree)";
  if (!s.clock_started && !s.moves.length) return COLOUR[s.to_play] + " to play (the clocks start with the first stone or press)";
  return COLOUR[s.to_play] + " to play";
}

function checkText(s) {
  const parts = [];
  if (s.marks.lift.length) parts.push("lift " + s.marks.lift.join(" ") + " (not in the game)");
  if (s.marks.missing.length) parts.push("put back " + s.marks.missing.join(" ") + " (missing)");
  if (s.marks.wrong.length) parts.push("wrong colour on " + s.marks.wrong.join(" "));
  return parts.length ? "Board ≠ game: " + parts.join(" · ") : "";
}

function engineText(s) {
  const e = s.engine;
  if (!e) return "";
  const who = e.name + " (" + COLOUR[e.color] + ")";
  if (e.error) return who + " stopped: " + e.error;
  if (s.result) return "";
  if (s.phase === "paused") {
    if (e.dead === null) return who + " is looking at the position…";
    const left = e.dead.filter((p) => { const [c, r] = at(p, s.size); return s.rows[r][c] !== "."; });
    if (left.length) return who + " says dead: " + left.join(" ") + " — take them off";
    if (s.to_play === e.color) return who + " passes: press " + COLOUR[e.color] + "'s clock";
    return who + " agrees the dead stones are off";
  }
  if (s.to_play !== e.color) return who + " waits for your move";
  if (!e.move) return who + " is thinking…";
  if (e.move === "pass") return who + " passes: press " + COLOUR[e.color] + "'s clock";
  if (e.move === "resign") return who + " resigns: press “resign " + e.color + "”";
  return who + " plays " + e.move + ": place it and press " + COLOUR[e.color] + "'s clock";
}

function countText(s) {
  const box = $("count");
  box.textContent = "";
  const ev = s.count;
  if (!ev) return;
  const add = (text, cls) => { const p = document.createElement("p"); p.textContent = text;
    if (cls) p.className = cls; box.appendChild(p); };
  add("Count: Black " + ev.black + ", White " + ev.white +
      (ev.shared ? ", shared " + ev.shared : "") + ", komi " + ev.komi + " → " + ev.result, "count-line");
  const plan = s.plan;
  if (plan && plan.points) {
    add("Fill-in: Black fills " + plan.fill.B + ", White fills " + plan.fill.W +
        (plan.compensation.stones ? "; " + COLOUR[plan.compensation.by] + " places " +
          plan.compensation.stones + " compensation stones (blue squares)" : "") +
        (plan.penalty.stones ? "; " + COLOUR[plan.penalty.by] + " places " + plan.penalty.stones +
          " penalty stones" : "") + ".");
    const win = plan.points.winning_space.length ? "winning space " +
      plan.points.winning_space.join(" ") + " (red ring)" : "no winning space";
    add(win + (plan.points.losing.length ? "; losing stones " + plan.points.losing.join(" ") +
        " (red crosses)" : "") + ".");
  }
}

function renderClocks(s) {
  const stamp = Date.now();
  for (const c of ["B", "W"]) {
    const img = $("clock-" + c);
    img.src = "/api/clock/" + c + ".png?t=" + stamp;
    img.className = (!s.result && s.clock_started && s.to_play === c) ? "to-play" : "";
    const cap = $("face-" + c).querySelector(".result");
    if (s.result) {
      const win = s.result.startsWith(c + "+"), draw = !/^[BW]\+/.test(s.result);
      cap.textContent = s.result + (draw ? "" : win ? " · " + COLOUR[c] + " wins" : " · " + COLOUR[c] + " loses");
      cap.className = "result" + (win ? " won" : "");
    } else {
      cap.textContent = ""; cap.className = "result";
    }
  }
}

function renderMoves(s) {
  const list = $("moves");
  const key = s.moves.map((m) => m.p).join(",") + "|" + review;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.textContent = "";
  for (const m of s.moves) {
    const li = document.createElement("li");
    li.className = m.c + (review === m.n ? " shown" : "");
    li.dataset.n = m.n;
    li.textContent = m.n + " " + m.p + (m.x.length ? " ×" + m.x.length : "");
    li.title = COLOUR[m.c] + " " + m.p + (m.x.length ? ", captures " + m.x.join(" ") : "");
    li.addEventListener("click", () => showMove(m.n));
    list.appendChild(li);
  }
  const sel = list.querySelector(".shown") || list.lastChild;
  if (sel) list.scrollTop = sel.offsetTop - list.offsetTop;
}

function showMove(n) {
  if (!state) return;
  review = (n === null || n >= state.moves.length + 1 || n < 0) ? null : n;
  $("review").hidden = review === null;
  $("review-n").textContent = review === null ? "" : review + " of " + state.moves.length;
  render(state);
}

function render(s) {
  state = s;
  if (drawnSize !== s.size || $("board").dataset.key !== s.size + s.stars.join()) {
    drawGrid(s.size, s.stars);
    $("board").dataset.key = s.size + s.stars.join();
  }
  if (review !== null && review > s.moves.length) showMove(null);
  drawBoard(s);
  const box = $("events");
  const key = s.events.length ? JSON.stringify(s.events[0]) : "";
  if (key !== lastEventsKey || shown > s.events.length) { box.textContent = ""; shown = 0; lastEventsKey = key; }
  for (; shown < s.events.length; shown++) {
    const e = s.events[shown], text = describe(e);
    if (!text) continue;
    const div = document.createElement("div");
    div.className = e.type; div.textContent = text; box.appendChild(div);
    box.scrollTop = box.scrollHeight;
  }
  $("status").textContent = statusText(s);
  $("check").textContent = checkText(s);
  $("engine").textContent = engineText(s);
  const pr = s.prisoners;
  $("prisoners").textContent = "Prisoners: Black has taken " + pr.B + ", White " + pr.W;
  $("bowls").textContent = "Bowls: black " + (s.bowls.B ?? "---") + ", white " + (s.bowls.W ?? "---");
  const pl = s.config.players || {};
  $("players").textContent = (pl.B || "Black") + " – " + (pl.W || "White") + " · " +
    s.config.rules + ", " + s.size + "×" + s.size + (s.config.komi !== undefined ? ", komi " + s.config.komi : "");
  countText(s);
  renderClocks(s);
  renderMoves(s);
}

async function post(action, body) {
  busy = true;
  try {
    const r = await fetch("/api/" + action, { method: "POST", body: JSON.stringify(body || {}),
                                               headers: { "Content-Type": "application/json" } });
    const data = await r.json();
    if (data.error) { $("status").textContent = "Error: " + data.error; return null; }
    render(data);
    return data;
  } finally { busy = false; }
}

function colour() {
  const v = document.querySelector("input[name=colour]:checked").value;
  return v || null;
}

async function clickPoint(name) {
  if (review !== null) showMove(null);
  const [c, r] = at(name, state.size);
  const placing = state.rows[r][c] === ".";
  const col = colour() || state.to_play;
  const data = await post("click", { point: name, color: colour() });
  if (data && placing) pressNext = col;
}

function press(c) { pressNext = null; return post("press", { color: c }); }

async function poll() {
  if (!busy) {
    try { render(await (await fetch("/api/state")).json()); } catch (e) { /* server gone */ }
  }
  setTimeout(poll, 400);
}

// -- the settings form ----------------------------------------------------------------------

const TIME_FIELDS = { basic_s: "basic", periods: "periods", period_s: "period-s",
                      stones: "stones", increment_s: "increment" };

function showTimeFields() {
  const keys = options.time_systems[$("time-system").value] || [];
  for (const k in TIME_FIELDS) $(TIME_FIELDS[k]).parentElement.hidden = !keys.includes(k);
}

function fillForm(opts) {
  options = opts;
  const rules = $("rules");
  for (const r of opts.rules) rules.appendChild(new Option(r.name + " — " + r.title, r.name));
  rules.value = "ing1991";
  rules.addEventListener("change", () => {
    const r = opts.rules.find((x) => x.name === rules.value);
    if (r) $("komi").value = r.komi;
  });
  for (const h of opts.handicap_styles) $("handicap-style").appendChild(new Option(h, h));
  const ts = $("time-system");
  for (const t in opts.time_systems) ts.appendChild(new Option(t, t));
  ts.value = "ing-pp";
  ts.addEventListener("change", showTimeFields);
  showTimeFields();
}

function settingsBody() {
  const num = (id) => Number($(id).value);
  const body = { size: num("size"), rules: $("rules").value, komi: num("komi") };
  const h = num("handicap");
  if (h > 0) { body.handicap = h; body.handicap_style = $("handicap-style").value; }
  const system = $("time-system").value, time = { system };
  for (const k of options.time_systems[system]) {
    time[k] = k === "basic_s" ? Math.round(num("basic") * 60) : num(TIME_FIELDS[k]);
  }
  body.time = time;
  body.players = { B: $("name-B").value, W: $("name-W").value };
  return body;
}

// -- keyboard play ---------------------------------------------------------------------------

function onKey(ev) {
  const t = ev.target;
  if (!state || (t && /^(INPUT|SELECT|TEXTAREA|BUTTON|SUMMARY)$/.test(t.tagName))) return;
  const size = state.size;
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[ev.key]) {
    const [dc, dr] = moves[ev.key];
    const [c, r] = cursor || [Math.floor(size / 2), Math.floor(size / 2)];
    cursor = [Math.min(size - 1, Math.max(0, c + (cursor ? dc : 0))),
              Math.min(size - 1, Math.max(0, r + (cursor ? dr : 0)))];
    render(state);
  } else if (ev.key === "Enter" && cursor) {
    clickPoint(nameOf(cursor[0], cursor[1], size));
  } else if (ev.key === " ") {
    press(pressNext || state.to_play);
  } else if (ev.key === "n" || ev.key === "N") {
    $("numbers").checked = !$("numbers").checked; render(state);
  } else if (ev.key === "u" || ev.key === "U") {
    post("button", { name: "undo" });
  } else if (ev.key === "[") {
    showMove(Math.max(0, (review === null ? state.moves.length : review) - 1));
  } else if (ev.key === "]") {
    showMove(review === null ? null : review + 1);
  } else if (ev.key === "Escape") {
    showMove(null);
  } else {
    return;
  }
  ev.preventDefault();
}

async function start() {
  $("press-B").addEventListener("click", () => press("B"));
  $("press-W").addEventListener("click", () => press("W"));
  $("numbers").addEventListener("change", () => state && render(state));
  $("review-end").addEventListener("click", () => showMove(null));
  for (const b of document.querySelectorAll("button[data-button]"))
    b.addEventListener("click", () => post("button", { name: b.getAttribute("data-button") }));
  $("settings").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    review = null; cursor = null; pressNext = null;
    await post("new", settingsBody());
  });
  document.addEventListener("keydown", onKey);
  fillForm(await (await fetch("/api/options")).json());
  poll();
}

start();
