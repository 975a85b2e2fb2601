// The relay pages' board: an SVG of `size` lines, 240 user units across (a card's board, or
// the game page's with coordinates), built with DOM calls only (no markup from data), and the
// rules needed to replay a move list (captures; suicide removes the player's own chain).
"use strict";
const GO_COLS = "ABCDEFGHJKLMNOPQRST";
const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(name, attrs, text) {
  const e = document.createElementNS(SVG_NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

// "D4" -> [col, row from the top], or null
function goPoint(name, size) {
  if (typeof name !== "string" || name.length < 2) return null;
  const c = GO_COLS.indexOf(name[0]), r = size - parseInt(name.slice(1), 10);
  return c >= 0 && c < size && r >= 0 && r < size ? [c, r] : null;
}

function emptyGrid(size) {
  const g = [];
  for (let r = 0; r < size; r++) g.push(Array(size).fill("."));
  return g;
}

function chainAt(grid, c, r) {
  const size = grid.length, colour = grid[r][c], seen = new Set([r * size + c]);
  const stack = [[c, r]], stones = [];
  let liberties = 0;
  while (stack.length) {
    const [x, y] = stack.pop();
    stones.push([x, y]);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const a = x + dx, b = y + dy;
      if (a < 0 || b < 0 || a >= size || b >= size || seen.has(b * size + a)) continue;
      seen.add(b * size + a);
      if (grid[b][a] === ".") liberties++;
      else if (grid[b][a] === colour) stack.push([a, b]);
    }
  }
  return { stones, liberties };
}

// Play one move on a grid (rows of "."/"B"/"W" arrays); returns the grid.
function goPlay(grid, colour, point) {
  const size = grid.length, at = goPoint(point, size);
  if (!at) return grid;
  const [c, r] = at, other = colour === "B" ? "W" : "B";
  grid[r][c] = colour;
  for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
    const a = c + dx, b = r + dy;
    if (a < 0 || b < 0 || a >= size || b >= size || grid[b][a] !== other) continue;
    const ch = chainAt(grid, a, b);
    if (!ch.liberties) for (const [x, y] of ch.stones) grid[y][x] = ".";
  }
  const own = chainAt(grid, c, r);
  if (!own.liberties) for (const [x, y] of own.stones) grid[y][x] = ".";
  return grid;
}

// Draw rows (strings or arrays) into svg; opts: {last: "D4", coords: true}.
function drawGoBoard(svg, rows, opts) {
  opts = opts || {};
  const n = rows.length || 19, step = 240 / (n + 1);
  svg.textContent = "";
  svg.setAttribute("viewBox", "0 0 240 240");
  svg.appendChild(svgEl("rect", { width: 240, height: 240, fill: "#dcb35c" }));
  for (let i = 1; i <= n; i++) {
    svg.appendChild(svgEl("line", { x1: step, y1: i * step, x2: n * step, y2: i * step,
                                    stroke: "#000", "stroke-width": 0.5 }));
    svg.appendChild(svgEl("line", { x1: i * step, y1: step, x2: i * step, y2: n * step,
                                    stroke: "#000", "stroke-width": 0.5 }));
    if (opts.coords) {
      const f = { "font-size": Math.min(step * 0.45, 9), "text-anchor": "middle",
                  "dominant-baseline": "central", fill: "#333", class: "coord" };
      svg.appendChild(svgEl("text", { ...f, x: i * step, y: step * 0.45 }, GO_COLS[i - 1]));
      svg.appendChild(svgEl("text", { ...f, x: i * step, y: 240 - step * 0.45 }, GO_COLS[i - 1]));
      svg.appendChild(svgEl("text", { ...f, x: step * 0.45, y: i * step }, String(n - i + 1)));
      svg.appendChild(svgEl("text", { ...f, x: 240 - step * 0.45, y: i * step }, String(n - i + 1)));
    }
  }
  rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      const c = row[x];
      if (c !== "B" && c !== "W") continue;
      svg.appendChild(svgEl("circle", { cx: (x + 1) * step, cy: (y + 1) * step, r: step * 0.47,
                                        fill: c === "B" ? "#000" : "#fff", stroke: "#000",
                                        "stroke-width": 0.4, class: "stone" }));
    }
  });
  const last = goPoint(opts.last, n);
  if (last) {
    svg.appendChild(svgEl("circle", { cx: (last[0] + 1) * step, cy: (last[1] + 1) * step,
                                      r: step * 0.2, fill: "red", class: "last" }));
  }
}

// Time left as a clock shows it (whole seconds rounded up).
function clockText(ms) {
  if (ms == null) return "-";
  const t = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
  return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
}

// One side of a clock message, `elapsed` ms after it was received if that side runs.
function sideLeft(side, running, elapsed) {
  if (!side) return null;
  const inMain = side.main_ms > 0;
  let left = inMain ? side.main_ms : side.period_ms;
  if (running) left -= elapsed;
  return left;
}
