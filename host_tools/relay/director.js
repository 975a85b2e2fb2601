// The director's page: import pairings, bind tables to boards, confirm or correct results
// (with a reason), handle alerts, export. Every change is a POST with the header
// X-Ingboard: director (the browser adds the director's credentials it was asked for).
// Board text is set with textContent only.
"use strict";
const $ = (id) => document.getElementById(id);
let state = null, shown = null, editing = null;

function add(parent, tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}

async function post(path, body, query) {
  const r = await fetch("/director/api/" + path + (query ? "?" + new URLSearchParams(query) : ""), {
    method: "POST", headers: { "X-Ingboard": "director", "Content-Type": typeof body === "string" ? "text/plain" : "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  await load();
  return data;
}

function say(text, bad) { const s = $("status"); s.textContent = text; s.className = bad ? "bad" : "ok"; }
async function act(fn) { try { await fn(); } catch (e) { say(e.message, true); } }

$("import").addEventListener("click", () => act(async () => {
  const f = $("file").files[0];
  $("import-msg").textContent = "";
  if (!f) throw new Error("choose a file first");
  const q = { name: f.name };
  if ($("import-round").value) q.round = $("import-round").value;
  const rep = (await post("import", await f.text(), q)).imported;
  $("import-msg").textContent = "imported " + rep.tables + " tables of round(s) " + rep.rounds.join(", ") +
    ", " + rep.players + " players" + (rep.results ? ", " + rep.results + " results" : "") +
    (rep.kept.length ? "; round(s) " + rep.kept.join(", ") + " kept (already being played)" : "") +
    "; now playing round " + rep.round + "; order: " + rep.criteria.join(", ");
  say("imported " + f.name);
}));
$("confirm-all").addEventListener("click", () => act(async () => {
  const n = (await post("confirm", { round: state.round.round, all: true })).confirmed;
  say(n + " result(s) confirmed");
}));
$("round-select").addEventListener("change", (e) => act(() => post("round", { round: Number(e.target.value) })));

function renderAlerts(list) {
  const ol = $("alerts");
  ol.textContent = "";
  if (!list.length) add(ol, "li", "quiet", "no alert");
  for (const a of list) {
    const li = add(ol, "li", a.handled_at ? "handled" : "open");
    li.dataset.kind = a.kind;
    li.dataset.id = a.id;
    add(li, "b", "", a.title);
    add(li, "span", "", " · ");
    add(li, "span", "when", a.at.slice(11));
    add(li, "span", "", " · " + (a.table ? "table " + a.table + " · " : "") + (a.board || ""));
    add(li, "div", "detail", a.detail);
    add(li, "div", "todo", a.todo);
    if (a.handled_at) {
      const h = add(li, "div", "quiet", "handled ");
      add(h, "span", "when", a.handled_at.slice(11));
      h.appendChild(document.createTextNode(" by " + a.handled_by));
    }
    else add(li, "button", "handle", "Handled").addEventListener("click", () => act(() => post("alert", { id: a.id })));
  }
}

function renderTables(r) {
  const t = $("tables");
  t.textContent = "";
  const head = add(t, "tr");
  for (const h of ["table", "board", "Black", "White", "H", "state", "result", ""]) add(head, "th", "", h);
  for (const x of r.tables) {
    const tr = add(t, "tr", x.status);
    tr.dataset.table = x.table;
    add(tr, "td", "", String(x.table));
    const bd = add(tr, "td");
    const inp = add(bd, "input", "board");
    inp.value = x.board || "";
    inp.setAttribute("list", "board-names");
    inp.size = 6;
    inp.addEventListener("change", () => act(() => post("bind", { table: x.table, board: inp.value.trim() })));
    if (x.board) add(bd, "span", x.online ? "on-dot" : "off-dot", x.online ? " online" : " offline");
    add(tr, "td", "", x.black.name + (x.black.rank ? " " + x.black.rank : ""));
    add(tr, "td", "", x.white.name + (x.white.rank ? " " + x.white.rank : ""));
    add(tr, "td", "", x.handicap ? String(x.handicap) : "");
    add(tr, "td", "state", x.status + (x.busy ? " (" + x.busy + ")" : "") + (x.held ? " · held" : ""));
    add(tr, "td", "result", x.result || (x.n ? "move " + x.n : ""));
    const td = add(tr, "td", "actions");
    if (x.status === "reported") add(td, "button", "confirm", "Confirm").addEventListener("click",
      () => act(() => post("confirm", { round: r.round, table: x.table })));
    add(td, "button", "correct", "Correct").addEventListener("click", () => { editing = x.table; renderTables(r); });
    if (editing === x.table) {
      const form = add(add(t, "tr", "edit"), "td");
      form.colSpan = 8;
      add(form, "span", "", "table " + x.table + ": result ");
      const res = add(form, "input", "new-result");
      res.placeholder = "B+R, W+3.5, B+F, =";
      res.size = 8;
      add(form, "span", "", " reason ");
      const why = add(form, "input", "reason");
      why.size = 30;
      why.placeholder = "kept in the archive";
      add(form, "button", "save", "Save").addEventListener("click", () => act(async () => {
        await post("correct", { round: r.round, table: x.table, result: res.value, reason: why.value });
        editing = null;
        say("table " + x.table + " corrected");
        await load();
      }));
      add(form, "button", "cancel", "Cancel").addEventListener("click", () => { editing = null; renderTables(r); });
    }
  }
}

function render() {
  const r = state.round;
  $("event").textContent = r.name || r.event;
  $("round").textContent = r.current ? "round " + r.current : "no pairings yet";
  $("tables-title").textContent = "Tables of round " + r.round;
  const sel = $("round-select");
  if (sel.dataset.rounds !== r.rounds.join(",") || sel.value !== String(r.current)) {
    sel.textContent = "";
    for (const n of r.rounds) { const o = add(sel, "option", "", String(n)); o.value = n; }
    sel.value = r.current;
    sel.dataset.rounds = r.rounds.join(",");
  }
  $("finishing").textContent = r.finishing.length ? "Still finishing round " + r.finishing[0].round + ": " +
    r.finishing.map((f) => f.board + " (" + f.black + " - " + f.white + ", move " + f.n + ")").join(", ") : "";
  $("two").textContent = r.two_boards.map((d) => "At two boards: " + d.name + " (" + d.boards.join(", ") + ")").join(" · ");
  const dl = $("board-names");
  dl.textContent = "";
  for (const b of state.boards) add(dl, "option").value = b;
  if (editing === null) renderTables(r);
  renderAlerts(state.alerts);
  const ex = $("exports");
  if (!ex.childElementCount || ex.dataset.round !== String(r.round)) {
    ex.textContent = "";
    ex.dataset.round = r.round;
    for (const [text, href] of [["OpenGotha results (.xml)", "opengotha.xml"], ["EGD (.h9)", "egd.h9"],
                                ["AGA results", "aga.txt"], ["round " + r.round + " SGFs (.zip)", "sgf.zip?round=" + r.round]]) {
      const a = add(ex, "a", "export", text);
      a.href = "/director/export/" + href;
      a.setAttribute("download", "");
      ex.appendChild(document.createTextNode(" "));
    }
  }
  const co = $("corrections");
  co.textContent = "";
  for (const c of state.corrections) {
    const li = add(co, "li");
    add(li, "span", "when", c.at);
    li.appendChild(document.createTextNode(" round " + c.round + " table " + c.table + ": " +
      (c.before || "(none)") + " → " + c.after + " by " + c.by + " (" + c.reason + ")"));
  }
}

async function load() {
  const r = await fetch("/director/api/state" + (shown ? "?round=" + shown : ""));
  if (!r.ok) { say((await r.json()).error, true); return; }
  state = await r.json();
  render();
}
load();
setInterval(() => { if (editing === null) load(); }, 2000);
