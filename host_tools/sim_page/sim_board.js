// ingboard sim: drawing the board (SVG). Star points, coordinates on all four sides in a margin
// no stone reaches, the stones, the last move or move numbers, where the board and the game
// disagree (with the reason in words under the stone), an engine's move, dead-stone
// suggestions, and at the end the count (territory, the fill-in plan, the winning space,
// losing stones, compensation stones). `legendItems(s)` lists what is drawn, for the legend.
"use strict";
const COLS = "ABCDEFGHJKLMNOPQRST";
const NS = "http://www.w3.org/2000/svg";
const VIEW = 600;
const RED = "#e0201b", ORANGE = "#f08000", BLUE = "#1c5fd1";

function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// The grid inside a margin for the coordinates: a first-line stone (radius 0.47 of a cell)
// ends before the margin, so the letters and numbers are never covered.
function geo(size) {
  const pad = 28;
  const cell = (VIEW - 2 * pad) / size;
  return {
    cell, pad,
    x: (c) => pad + cell * (c + 0.5),
    y: (r) => pad + cell * (r + 0.5),
    font: Math.min(17, Math.max(12, cell * 0.42)),
  };
}

// "D4" -> [col, row from the top]
function at(name, size) {
  return [COLS.indexOf(name[0]), size - parseInt(name.slice(1), 10)];
}
function nameOf(c, r, size) { return COLS[c] + (size - r); }

function drawGrid(size, stars, onPoint) {
  const svg = document.getElementById("board");
  svg.textContent = "";
  const g = geo(size);
  const grid = el("g", { id: "grid" });
  const first = g.x(0), last = g.x(size - 1);
  for (let i = 0; i < size; i++) {
    grid.appendChild(el("line", { x1: g.x(i), y1: first, x2: g.x(i), y2: last,
                                  stroke: "#333", "stroke-width": 1 }));
    grid.appendChild(el("line", { x1: first, y1: g.y(i), x2: last, y2: g.y(i),
                                  stroke: "#333", "stroke-width": 1 }));
    const off = g.pad / 2;
    const attrs = { "font-size": g.font, "text-anchor": "middle", class: "coord",
                    "dominant-baseline": "central", fill: "#222", "font-weight": "bold" };
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
  for (const id of ["territory", "stones", "marks", "words", "hits"]) svg.appendChild(el("g", { id }));
  const hits = svg.querySelector("#hits");
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
    const name = nameOf(c, r, size);
    const hit = el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.5, fill: "transparent",
                               class: "point", "data-point": name, "data-stone": "." });
    hit.addEventListener("click", () => onPoint(c, r, name));
    hits.appendChild(hit);
  }
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

// The reason for a mark, in words, on a label under (or above, on the first line) the point.
const WHY = {
  captured: "captured", "taken-back": "undone", "not-in-game": "not in game",
  missing: "missing", "wrong-colour": "wrong colour", suicide: "suicide", ko: "ko",
  superko: "superko", recycle: "Ing ko", occupied: "occupied", "not-your-turn": "not your turn",
  "stone-extra": "extra stone", "two-stones": "two stones", "stone-moved": "moved",
  "stone-missing": "missing", "remove-captured": "captured", "resign-offer": "resign?",
  "dead-point": "dead sensor", "fill-in-wrong": "fill-in", "fill-in-disturbed": "moved",
};
function word(g, layer, c, r, text, size) {
  const fs = Math.max(11, Math.min(15, g.cell * 0.3));
  // Across the lower edge of the marked stone: on the first line it reaches into the margin,
  // never onto a neighbouring point's stone's middle.
  const y = g.y(r) + g.cell * 0.42;
  const w = text.length * fs * 0.58 + 8;
  const x = Math.min(VIEW - w / 2 - 2, Math.max(w / 2 + 2, g.x(c)));
  layer.appendChild(el("rect", { x: x - w / 2, y: y - fs * 0.7, width: w, height: fs * 1.4, rx: 3,
                                 fill: "#fff", stroke: RED, "stroke-width": 1.5, class: "why-box" }));
  layer.appendChild(el("text", { x, y, "font-size": fs, "text-anchor": "middle",
                                 "dominant-baseline": "central", fill: "#900", class: "why",
                                 "data-point": nameOf(c, r, size) }, text));
}

function drawBoard(s, view) {
  const size = s.size, g = geo(size), svg = document.getElementById("board");
  const layer = (id) => svg.querySelector("#" + id);
  const terr = layer("territory"), stones = layer("stones"), marks = layer("marks");
  const words = layer("words");
  terr.textContent = ""; stones.textContent = ""; marks.textContent = ""; words.textContent = "";
  const review = view.review;
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
  const played = s.moves.slice(0, upTo);
  if (view.numbers) {
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
  if (review === null) {
    drawDifferences(s, g, marks, words);
    if (s.owner) drawCount(s, g, terr, marks);
    if (s.engine) drawEngine(s, g, marks);
    drawDead(s, g, marks);
  }
  if (view.cursor) {
    const [c, r] = view.cursor, d = g.cell * 0.5;
    marks.appendChild(el("rect", { x: g.x(c) - d, y: g.y(r) - d, width: 2 * d, height: 2 * d,
                                   fill: "none", stroke: BLUE, "stroke-width": 3,
                                   class: "cursor", "data-point": nameOf(c, r, size) }));
  }
}

// Where the board and the game disagree: nothing is ever silently out of step. Each mark has
// its reason in words under the stone.
function drawDifferences(s, g, marks, words) {
  const size = s.size, why = s.marks.why || {};
  for (const p of s.marks.lift) {
    const [c, r] = at(p, size);
    cross(g, marks, c, r, RED, "lift", 0.3);
    marks.lastChild.setAttribute("data-point", p);
    if (why[p]) word(g, words, c, r, WHY[why[p]] || why[p], size);
  }
  for (const p of s.marks.missing) {
    const [c, r] = at(p, size), colour = s.game_rows[r][c];
    marks.appendChild(el("circle", {
      cx: g.x(c), cy: g.y(r), r: g.cell * 0.44, fill: colour === "B" ? "#1118" : "#fff8",
      stroke: RED, "stroke-width": 2.5, "stroke-dasharray": "5 4", class: "mark missing",
      "data-point": p,
    }));
    if (s.phase !== "paused") word(g, words, c, r, "missing", size);
  }
  for (const p of s.marks.wrong) {
    const [c, r] = at(p, size);
    marks.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.5, fill: "none",
                                     stroke: ORANGE, "stroke-width": 3, class: "mark wrong",
                                     "data-point": p }));
    cross(g, marks, c, r, ORANGE, "wrong-x", 0.25);
    word(g, words, c, r, "wrong colour", size);
  }
  // A standing alert on a point with no other mark (e.g. a stone on a ko point, not pressed).
  const marked = new Set([...s.marks.lift, ...s.marks.missing, ...s.marks.wrong]);
  for (const a of s.alerts || []) {
    for (const p of a.points) {
      if (marked.has(p)) continue;
      marked.add(p);
      const [c, r] = at(p, size);
      marks.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.5, fill: "none",
                                       stroke: RED, "stroke-width": 3, class: "mark alerted",
                                       "data-point": p }));
      word(g, words, c, r, WHY[a.code] || a.code, size);
    }
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
                                     stroke: RED, "stroke-width": 4, class: "winning-space",
                                     "data-point": p }));
  }
  const loser = winner === "B" ? "W" : "B";
  for (const p of plan.points.losing) {
    const [c, r] = at(p, size);
    stoneAt(g, marks, c, r, loser, "losing");
    cross(g, marks, c, r, RED, "losing-x", 0.22);
  }
  const by = plan.compensation && plan.compensation.by;
  for (const p of plan.points.compensation) {
    const [c, r] = at(p, size);
    stoneAt(g, marks, c, r, by || "W", "compensation");
    const q = g.cell * 0.2;
    marks.appendChild(el("rect", { x: g.x(c) - q, y: g.y(r) - q, width: 2 * q, height: 2 * q,
                                   fill: "none", stroke: BLUE, "stroke-width": 3,
                                   class: "comp-mark", "data-point": p }));
  }
  const pby = plan.penalty && plan.penalty.by;
  for (const p of plan.points.penalty) {
    const [c, r] = at(p, size);
    stoneAt(g, marks, c, r, pby || "B", "penalty");
    const q = g.cell * 0.2;
    marks.appendChild(el("rect", { x: g.x(c) - q, y: g.y(r) - q, width: 2 * q, height: 2 * q,
                                   fill: "none", stroke: ORANGE, "stroke-width": 3,
                                   class: "penalty-mark", "data-point": p }));
  }
}

function drawEngine(s, g, marks) {
  const e = s.engine, size = s.size;
  if (e.move && e.move !== "pass" && e.move !== "resign" && s.phase === "play") {
    const [c, r] = at(e.move, size);
    if (s.rows[r][c] === ".") {
      marks.appendChild(el("circle", { cx: g.x(c), cy: g.y(r), r: g.cell * 0.47,
                                       fill: e.color === "B" ? "#1117" : "#fffa",
                                       stroke: BLUE, "stroke-width": 3,
                                       "stroke-dasharray": "6 3", class: "suggest",
                                       "data-point": e.move }));
    }
  }
}

// The dead stones suggested at the pause (the engine opponent's, else GNU Go's counsel):
// a red triangle on each stone still on the board.
function deadSuggested(s) {
  if (s.phase !== "paused") return [];
  if (s.engine && s.engine.dead) return s.engine.dead;
  return (s.counsel && s.counsel.dead) || [];
}
function drawDead(s, g, marks) {
  const size = s.size;
  for (const p of deadSuggested(s)) {
    const [c, r] = at(p, size);
    if (s.rows[r][c] === ".") continue;
    const x = g.x(c), y = g.y(r), q = g.cell * 0.2;
    marks.appendChild(el("path", { d: `M${x},${y - q}L${x + q},${y + q}L${x - q},${y + q}Z`,
                                   fill: RED, class: "dead", "data-point": p }));
  }
}

// The legend: one line for every kind of mark drawn on the board now (classes in the SVG).
const LEGEND = [
  ["path.lift", "lift", "red cross: a stone to take off the board (its reason is written under it)"],
  ["circle.missing", "missing", "dashed ring: a stone of the game missing from the board, put it back"],
  ["circle.wrong", "wrong", "orange ring: a stone of the wrong colour"],
  ["circle.alerted", "alerted", "red ring: a stone the rules refuse here (reason under it)"],
  ["circle.suggest", "suggest", "dashed stone: the engine's move"],
  ["path.dead", "dead", "red triangle: suggested dead, one click takes the group off"],
  ["rect.territory", "territory", "small square: territory of that colour"],
  ["circle.fill", "fill", "faint stone: where the fill-in puts a stone (Ing count)"],
  ["circle.winning-space", "winning", "red ring: the winning space, left empty by the fill-in"],
  ["circle.losing", "losing", "stone with a red cross: a losing stone, placed in the winner's area"],
  ["rect.comp-mark", "comp", "blue square: a compensation (komi) stone"],
  ["rect.penalty-mark", "penalty", "orange square: a penalty stone"],
  ["circle.last-move", "last", "small ring: the last move"],
];
function legendItems() {
  const svg = document.getElementById("board");
  return LEGEND.filter(([sel]) => svg.querySelector(sel)).map(([, key, text]) => [key, text]);
}

function legendIcon(key) {
  const s = el("svg", { viewBox: "0 0 24 24", width: 20, height: 20, class: "icon" });
  const stone = (fill) => s.appendChild(el("circle", { cx: 12, cy: 12, r: 10, fill, stroke: "#000" }));
  const x = (colour) => s.appendChild(el("path", { d: "M6,6L18,18M18,6L6,18", stroke: colour, "stroke-width": 3 }));
  const sq = (colour, fill) => s.appendChild(el("rect", { x: 7, y: 7, width: 10, height: 10, fill: fill || "none", stroke: colour, "stroke-width": 2.5 }));
  s.appendChild(el("rect", { x: 0, y: 0, width: 24, height: 24, fill: "#dcb35c" }));
  switch (key) {
    case "lift": stone("#111"); x(RED); break;
    case "missing": s.appendChild(el("circle", { cx: 12, cy: 12, r: 9, fill: "#fff8", stroke: RED, "stroke-width": 2, "stroke-dasharray": "4 3" })); break;
    case "wrong": stone("#f8f8f4"); s.appendChild(el("circle", { cx: 12, cy: 12, r: 11, fill: "none", stroke: ORANGE, "stroke-width": 2.5 })); break;
    case "alerted": stone("#f8f8f4"); s.appendChild(el("circle", { cx: 12, cy: 12, r: 11, fill: "none", stroke: RED, "stroke-width": 2.5 })); break;
    case "suggest": s.appendChild(el("circle", { cx: 12, cy: 12, r: 10, fill: "#fffa", stroke: BLUE, "stroke-width": 2, "stroke-dasharray": "4 2" })); break;
    case "dead": stone("#f8f8f4"); s.appendChild(el("path", { d: "M12,7L17,17L7,17Z", fill: RED })); break;
    case "territory": sq("#555", "#111"); break;
    case "fill": s.appendChild(el("circle", { cx: 12, cy: 12, r: 7, fill: "#1119", stroke: "#555" })); break;
    case "winning": s.appendChild(el("circle", { cx: 12, cy: 12, r: 8, fill: "none", stroke: RED, "stroke-width": 3 })); break;
    case "losing": stone("#111"); x(RED); break;
    case "comp": stone("#f8f8f4"); sq(BLUE); break;
    case "penalty": stone("#111"); sq(ORANGE); break;
    case "last": stone("#111"); s.appendChild(el("circle", { cx: 12, cy: 12, r: 5, fill: "none", stroke: "#fff", "stroke-width": 2 })); break;
  }
  return s;
}
