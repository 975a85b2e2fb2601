// ingboard sim: the virtual board's page. Everything it shows comes from GET /api/state (the
// firmware's tracker behind host_tools/sim_server.py); what a person does goes to POST /api/*.
// Drawing is sim_board.js, sounds sim_sound.js.
"use strict";
const $ = (id) => document.getElementById(id);
let state = null, options = null, shown = 0, busy = false, drawnKey = "";
let review = null;             // move number shown from the move list, or null (the board)
let cursor = null;             // [col, row from the top] of the keyboard cursor
let pressNext = null;          // colour whose clock Space presses (the side that just placed)
let nextColour = null;         // "B"/"W" for the next stone only, then back to the side to play
let lastEventsKey = "";
let heard = -1;                // events already sounded (-1: none yet, the first state is silent)
let lastBeep = {};             // colour -> the second of the last time beep

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

const WHY_WORDS = {
  captured: "captured: lift it", "taken-back": "taken back by the undo: lift it",
  "not-in-game": "not in the game: lift it", "wrong-colour": "wrong colour",
};

// The status line: the result, else a standing alert with its reason in words, else what the
// board waits for.
function statusText(s) {
  if (s.result) return "Result: " + s.result;
  const alert = (s.alerts || [])[0];
  if (alert) return (alert.points.length ? alert.points.join(" ") + ": " : "") + alert.text;
  if (s.phase === "paused") {
    return s.assist ? "Paused: click each dead group to take it off (again to put it back), then pass (or agree)"
      : "Paused: take the dead stones off, then pass (or agree)";
  }
  const who = COLOUR[s.to_play] + " to play";
  if (!s.clock_started && !s.moves.length) return who + " (the clocks start with the first stone or press)";
  return who;
}

function checkText(s) {
  const why = s.marks.why || {}, parts = [];
  const named = (ps) => ps.map((p) => p + (why[p] && WHY_WORDS[why[p]] ? " (" + WHY_WORDS[why[p]] + ")" : "")).join(", ");
  const lift = s.marks.lift.filter((p) => !(s.alerts || []).some((a) => a.points.includes(p)));
  if (lift.length) parts.push("lift " + named(lift));
  if (s.marks.missing.length && s.phase !== "paused") parts.push("put back " + s.marks.missing.join(" ") + " (missing)");
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
    if (left.length) return who + " says dead: " + left.join(" ") + (s.assist ? " — click each group to confirm" : " — take them off");
    if (s.to_play === e.color) return who + " passes" + (s.assist ? "" : ": press " + COLOUR[e.color] + "'s clock");
    return who + " agrees the dead stones are off";
  }
  if (s.to_play !== e.color) return who + " waits for your move";
  if (!e.move) return who + " is thinking…";
  if (s.assist) {
    if (e.move === "pass") return who + " passes";
    if (e.move === "resign") return who + " resigns";
    return who + " plays " + e.move;
  }
  if (e.move === "pass") return who + " passes: press " + COLOUR[e.color] + "'s clock";
  if (e.move === "resign") return who + " resigns: press “resign " + e.color + "”";
  return who + " plays " + e.move + ": place it and press " + COLOUR[e.color] + "'s clock";
}

function counselText(s) {
  const parts = [];
  if (s.phase === "paused" && !s.engine && s.counsel) {
    const dead = s.counsel.dead;
    if (s.counsel.error) parts.push("GNU Go: " + s.counsel.error);
    else if (dead === null || dead === undefined) parts.push("GNU Go is looking for dead stones…");
    else {
      const left = dead.filter((p) => { const [c, r] = at(p, s.size); return s.rows[r][c] !== "."; });
      parts.push(left.length ? "GNU Go suggests dead: " + left.join(" ") + " (red triangles)" :
        dead.length ? "The suggested dead stones are off" : "GNU Go sees no dead stones");
    }
  }
  if (s.estimate) parts.push("GNU Go estimates " + s.estimate);
  return parts.join(" · ");
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

function renderLegend() {
  const box = $("legend");
  const items = legendItems();
  const key = items.map((i) => i[0]).join();
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.textContent = "";
  for (const [k, text] of items) {
    const li = document.createElement("li");
    li.dataset.mark = k;
    li.appendChild(legendIcon(k));
    li.appendChild(document.createTextNode(" " + text));
    box.appendChild(li);
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

function renderColour(s) {
  const to = s ? s.to_play : "B";
  $("colour-now").textContent = nextColour ? COLOUR[nextColour] + " (once)" : COLOUR[to] + " (to play)";
  for (const c of ["B", "W"]) $("once-" + c).setAttribute("aria-pressed", nextColour === c ? "true" : "false");
}

// Sounds for what happened since the last state: stones, presses, alerts, the end; and a beep
// each second of the last ten of the running side's time.
function sound(s) {
  if (heard < 0 || heard > s.events.length) { heard = s.events.length; return; }
  let alert = false, move = false, end = false;
  for (const e of s.events.slice(heard)) {
    if (e.type === "alert") alert = true;
    else if (e.type === "move" || e.type === "pass") move = true;
    else if (e.type === "end") end = true;
  }
  heard = s.events.length;
  if (end) Sound.play("end");
  else if (alert) Sound.play("alert");
  else if (move) Sound.play("press");
  if (!s.result && s.clock_started && s.clock) {
    const side = s.clock[s.to_play];
    const left = side.period ? side.period_ms : side.main_ms;
    if (left !== null && left !== undefined && left > 0 && left <= 10000) {
      const sec = Math.ceil(left / 1000);
      if (lastBeep[s.to_play] !== sec) { lastBeep[s.to_play] = sec; Sound.play("time"); }
    }
  }
}

function render(s) {
  state = s;
  const key = s.size + s.stars.join();
  if (drawnKey !== key) {
    drawGrid(s.size, s.stars, (c, r, name) => { if (cursor) cursor = [c, r]; clickPoint(name); });
    drawnKey = key;
  }
  if (review !== null && review > s.moves.length) showMove(null);
  drawBoard(s, { review, cursor, numbers: $("numbers").checked });
  const box = $("events");
  const ekey = s.events.length ? JSON.stringify(s.events[0]) : "";
  if (ekey !== lastEventsKey || shown > s.events.length) { box.textContent = ""; shown = 0; lastEventsKey = ekey; heard = -1; }
  for (; shown < s.events.length; shown++) {
    const e = s.events[shown], text = describe(e);
    if (!text) continue;
    const div = document.createElement("div");
    div.className = e.type; div.textContent = text; box.appendChild(div);
    box.scrollTop = box.scrollHeight;
  }
  sound(s);
  $("status").textContent = statusText(s);
  $("status").className = (s.alerts || []).length && !s.result ? "alerting" : "";
  $("check").textContent = checkText(s);
  $("engine").textContent = engineText(s);
  $("counsel").textContent = counselText(s);
  $("mode").textContent = s.assist ? "assist: captures lifted, engine moves placed, clocks pressed for you"
    : "physical chores: you lift, place and press everything";
  const pr = s.prisoners;
  $("prisoners").textContent = "Prisoners: Black has taken " + pr.B + ", White " + pr.W;
  $("bowls").textContent = "Bowls: black " + (s.bowls.B ?? "---") + ", white " + (s.bowls.W ?? "---");
  const pl = s.config.players || {};
  $("players").textContent = (pl.B || "Black") + " – " + (pl.W || "White") + " · " +
    s.config.rules + ", " + s.size + "×" + s.size + (s.config.komi !== undefined ? ", komi " + s.config.komi : "");
  $("pass").disabled = !!s.result;
  $("estimate").hidden = !s.counsel;
  countText(s);
  renderClocks(s);
  renderMoves(s);
  renderLegend();
  renderColour(s);
}

async function post(action, body) {
  busy = true;
  try {
    const r = await fetch("/api/" + action, { method: "POST", body: JSON.stringify(body || {}),
                                               headers: { "Content-Type": "application/json" } });
    const data = await r.json();
    if (data.error) { $("status").textContent = "Error: " + data.error; $("status").className = "alerting"; return null; }
    render(data);
    setTimeout(refresh, 200);  // what assist does after the stone (the press) shows soon
    return data;
  } finally { busy = false; }
}

async function clickPoint(name) {
  if (review !== null) showMove(null);
  const [c, r] = at(name, state.size);
  const placing = state.rows[r][c] === ".";
  const col = nextColour || state.to_play;
  const body = { point: name, color: placing ? nextColour : null };
  if (placing) { nextColour = null; renderColour(state); }
  const data = await post("click", body);
  if (data) Sound.play("stone");
  if (data && placing) pressNext = col;
}

function press(c) { pressNext = null; Sound.play("press"); return post("press", { color: c }); }
function pass() { pressNext = null; return post("pass", {}); }

// Undo says first what it will do: the move taken back, and what happens to the stones.
function undoPlan(s) {
  const m = s.moves[s.moves.length - 1];
  if (!m) return null;
  let text = "Undo takes back move " + m.n + ": " + COLOUR[m.c] + " " + (m.p === "pass" ? "pass" : m.p);
  if (m.p !== "pass") {
    text += s.assist ? " (its stone is lifted" : " (lift its stone";
    if (m.x.length) text += (s.assist ? " and " : ", put back ") + m.x.join(" ") + (s.assist ? " put back" : "");
    text += ")";
  }
  return text + "; " + COLOUR[m.c] + " is to play again.";
}
function askUndo() {
  if (!state) return;
  const plan = undoPlan(state);
  $("undo-text").textContent = plan || "There is no move to take back.";
  $("undo-yes").hidden = !plan;
  $("undo-ask").hidden = false;
  (plan ? $("undo-yes") : $("undo-no")).focus();
}
function closeUndo() { $("undo-ask").hidden = true; $("board").focus(); }

async function refresh() {
  if (busy) return;
  try {
    const data = await (await fetch("/api/state")).json();
    // The board behind the page failed (the device twin: 503 with why): said, not drawn.
    if (data.error) { $("status").textContent = "Error: " + data.error; $("status").className = "alerting"; return; }
    render(data);
  } catch (e) { /* server gone */ }
}

async function poll() {
  await refresh();
  setTimeout(poll, 400);
}

// -- the settings form and the SGF ----------------------------------------------------------

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
  body.assist = $("assist").checked;
  return body;
}

async function openSgf(file) {
  const text = await file.text();
  review = null; cursor = null; pressNext = null; nextColour = null;
  const data = await post("open", { sgf: text, assist: $("assist").checked });
  if (data) $("note").textContent = "Opened " + file.name + ": " + data.moves.length + " moves, " +
    COLOUR[data.to_play] + " to play.";
}

// -- keyboard play ---------------------------------------------------------------------------

function onKey(ev) {
  const t = ev.target;
  if (!state || (t && /^(INPUT|SELECT|TEXTAREA|BUTTON|SUMMARY)$/.test(t.tagName))) return;
  if (!$("undo-ask").hidden) {
    if (ev.key === "Escape") closeUndo(); else return;
    ev.preventDefault(); return;
  }
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
  } else if (ev.key === "p" || ev.key === "P") {
    pass();
  } else if (ev.key === "n" || ev.key === "N") {
    $("numbers").checked = !$("numbers").checked; render(state);
  } else if (ev.key === "u" || ev.key === "U") {
    askUndo();
  } else if (ev.key === "[" || ev.key === "PageUp") {
    showMove(Math.max(0, (review === null ? state.moves.length : review) - 1));
  } else if (ev.key === "]" || ev.key === "PageDown") {
    showMove(review === null ? null : review + 1);
  } else if (ev.key === "Home") {
    showMove(0);
  } else if (ev.key === "End" || ev.key === "Escape") {
    showMove(null);
  } else if (ev.key === "b" || ev.key === "B" || ev.key === "w" || ev.key === "W") {
    const c = ev.key.toUpperCase();
    nextColour = nextColour === c ? null : c; renderColour(state);
  } else {
    return;
  }
  ev.preventDefault();
}

async function start() {
  $("press-B").addEventListener("click", () => press("B"));
  $("press-W").addEventListener("click", () => press("W"));
  $("pass").addEventListener("click", pass);
  $("estimate").addEventListener("click", () => post("estimate", {}));
  $("numbers").addEventListener("change", () => state && render(state));
  $("review-end").addEventListener("click", () => showMove(null));
  $("undo").addEventListener("click", askUndo);
  $("undo-yes").addEventListener("click", async () => { closeUndo(); await post("button", { name: "undo" }); });
  $("undo-no").addEventListener("click", closeUndo);
  for (const c of ["B", "W"]) {
    $("once-" + c).addEventListener("click", () => { nextColour = nextColour === c ? null : c; renderColour(state); });
  }
  $("sound").addEventListener("click", () => {
    Sound.setMuted(!Sound.isMuted());
    $("sound").textContent = Sound.isMuted() ? "sound: off" : "sound: on";
    $("sound").setAttribute("aria-pressed", Sound.isMuted() ? "false" : "true");
  });
  $("sound").textContent = Sound.isMuted() ? "sound: off" : "sound: on";
  for (const b of document.querySelectorAll("button[data-button]"))
    b.addEventListener("click", () => post("button", { name: b.getAttribute("data-button") }));
  $("settings").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    review = null; cursor = null; pressNext = null; nextColour = null;
    $("note").textContent = "";
    await post("new", settingsBody());
  });
  $("open-sgf").addEventListener("change", (ev) => { const f = ev.target.files[0]; if (f) openSgf(f); ev.target.value = ""; });
  document.addEventListener("keydown", onKey);
  fillForm(await (await fetch("/api/options")).json());
  const first = await (await fetch("/api/state")).json();
  $("assist").checked = !!first.assist;
  $("size").value = String(first.size);  // the game in progress (the twin's board is 19x19)
  render(first);
  setTimeout(poll, 400);
}

start();
