// Standings after each round (wins and the tie-breaks) and, with ?k=KEY, one player's page:
// their place and every game (opponent, colour, handicap, result, link to the board's record).
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

function add(parent, tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
}
function num(x) { return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100); }
const OUT = { B: "B+", W: "W+", "=": "jigo", "0": "both lose", "2": "both win", bye: "bye" };

async function standings() {
  const r = await fetch("/api/standings" + (params.get("round") ? "?round=" + params.get("round") : ""));
  const data = await r.json();
  if (!r.ok) { $("meta").textContent = data.error; return; }
  $("title").textContent = "Standings: " + data.name;
  $("meta").textContent = (data.rounds.length ? "after round " + data.rounds[data.rounds.length - 1] : "no result yet") +
    " · order: " + data.criteria.join(", ") + (data.ignored.length ? " (not computed: " + data.ignored.join(", ") + ")" : "");
  if (data.every.length > 1) {  // the standings after each round
    const nav = add($("box"), "p", "rounds", "after round ");
    for (const r of data.every) {
      const a = add(nav, "a", "", String(r));
      a.href = "/standings?round=" + r;
      nav.appendChild(document.createTextNode(" "));
    }
  }
  const place = {};
  data.rows.forEach((row) => { place[row.key] = row.place; });
  const t = add($("box"), "table", "standings");
  const head = add(t, "tr");
  for (const h of ["#", "player", "rank", "club"].concat(data.rounds.map((r) => "R" + r), data.criteria)) add(head, "th", "", h);
  for (const row of data.rows) {
    const tr = add(t, "tr");
    tr.dataset.key = row.key;
    add(tr, "td", "", String(row.place));
    const a = add(add(tr, "td"), "a", "", row.name);
    a.href = "/standings?" + new URLSearchParams({ k: row.key });
    add(tr, "td", "", row.rank || "");
    add(tr, "td", "", row.club || "");
    for (const r of data.rounds) {
      const g = row.games.find((x) => x.round === r);
      let text = "-";
      if (g && g.opponent === null) text = "bye";
      else if (g) {
        const won = g.outcome === g.colour || g.outcome === "2";
        const mark = g.outcome === "=" ? "=" : won ? "+" : "-";
        text = (place[g.opponent] || "?") + mark + "/" + g.colour.toLowerCase();
      }
      add(tr, "td", "rr", text);
    }
    for (const c of data.criteria) add(tr, "td", "num", num(row.values[c]));
  }
}

async function player(key) {
  const r = await fetch("/api/player?" + new URLSearchParams({ k: key }));
  const data = await r.json();
  if (!r.ok) { $("meta").textContent = data.error; return; }
  const p = data.player;
  $("title").textContent = p.name + (p.rank ? " " + p.rank : "");
  $("meta").textContent = "place " + p.place + " · " + data.criteria.map((c) => c + " " + num(p.values[c])).join(" · ") +
    (p.club ? " · " + p.club : "") + (p.country ? " · " + p.country : "");
  const t = add($("box"), "table", "standings");
  const head = add(t, "tr");
  for (const h of ["round", "table", "colour", "opponent", "H", "result", "game"]) add(head, "th", "", h);
  for (const g of data.games) {
    const tr = add(t, "tr");
    add(tr, "td", "", String(g.round));
    add(tr, "td", "", String(g.table));
    add(tr, "td", "", g.colour === "B" ? "Black" : "White");
    const a = add(add(tr, "td"), "a", "", g.opponent);
    a.href = "/standings?" + new URLSearchParams({ k: g.opponent_key });
    add(tr, "td", "", String(g.handicap || ""));
    add(tr, "td", "result", g.result ? g.result + (g.status === "reported" ? " (to confirm)" : "") : g.status);
    const td = add(tr, "td");
    if (g.board && g.g) {
      const link = add(td, "a", "", g.board);
      link.href = "/game?" + new URLSearchParams({ e: data.event, b: g.board, g: g.g });
    }
  }
}

if (params.get("k")) player(params.get("k")); else standings();
