"use strict";
// The relay's live page. Everything a board sends is text, never markup: esc() on every value
// put into innerHTML (issue 19); the server's Content-Security-Policy forbids inline script.
const boards = {};
function esc(x){ return String(x==null?"":x).replace(/[&<>"'`]/g,
  c=>({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;","`":"&#96;"})[c]); }
function num(x){ const n=Number(x); return Number.isFinite(n)?n:0; }
function key(v){ return v.event + "/" + v.board; }
function ms(t){ if(t==null) return "-"; t=Math.max(0,Math.round(num(t)/1000));
  const h=Math.floor(t/3600), m=Math.floor(t/60)%60, s=t%60;
  return (h?h+":":"")+String(m).padStart(2,"0")+":"+String(s).padStart(2,"0"); }
function side(c, s, run){ if(!s||typeof s!=="object") return "<span>"+c+" -</span>";
  const cls = run===c ? "run" : "";
  const left = s.main_ms>0 ? s.main_ms : s.period_ms;
  return "<span class='"+cls+"'>"+c+" "+ms(left)+" PP "+num(s.penalty)+"</span>"; }
function svgBoard(v){
  const rows=Array.isArray(v.rows)?v.rows:[], n=rows.length||19, step=240/(n+1); let s="";
  s+="<rect width='240' height='240' fill='#dcb35c'/>";
  for(let i=1;i<=n;i++){ s+="<line x1='"+step+"' y1='"+i*step+"' x2='"+n*step+"' y2='"+i*step+"' stroke='#000' stroke-width='.5'/>";
    s+="<line x1='"+i*step+"' y1='"+step+"' x2='"+i*step+"' y2='"+n*step+"' stroke='#000' stroke-width='.5'/>"; }
  rows.forEach((r,y)=>{ r=String(r); for(let x=0;x<r.length;x++){ const c=r[x]; if(c==="B"||c==="W")
    s+="<circle cx='"+(x+1)*step+"' cy='"+(y+1)*step+"' r='"+step*0.47+"' fill='"+(c==="B"?"#000":"#fff")+"' stroke='#000' stroke-width='.4'/>"; }});
  if(v.last && typeof v.last.p==="string" && v.last.p!=="pass" && rows.length){
    const cols="ABCDEFGHJKLMNOPQRST";
    const x=cols.indexOf(v.last.p[0])+1, y=n-num(parseInt(v.last.p.slice(1)))+1;
    s+="<circle cx='"+x*step+"' cy='"+y*step+"' r='"+step*0.2+"' fill='red' class='last'/>"; }
  return "<svg viewBox='0 0 240 240'>"+s+"</svg>"; }
function render(v){
  let el=document.getElementById("b-"+key(v));
  if(!el){ el=document.createElement("div"); el.id="b-"+key(v); el.className="card";
    document.getElementById("boards").appendChild(el); }
  const p=(v.info&&v.info.players)||{}; const nm=x=>typeof x==="object"&&x?x.name:(x||"?");
  const clock=v.clock||{};
  el.className="card "+(v.online?"on":"off");
  el.dataset.ply=v.n||0; el.dataset.last=v.last?v.last.c+" "+v.last.p:"";
  el.dataset.online=v.online?"1":"0";
  el.innerHTML="<h2><span class='dot'></span> "+esc(v.board)+": "+esc(nm(p.B))+" - "+
    esc(nm(p.W))+"</h2>"+
    svgBoard(v)+"<div>move <span class='ply'>"+num(v.n)+"</span> "+
    (v.last?"<span class='lastmove'>"+esc(v.last.c)+" "+esc(v.last.p)+"</span>":"")+"</div>"+
    "<div class='clk'>"+side("B",clock.B,clock.run)+side("W",clock.W,clock.run)+"</div>"+
    (v.result?"<div class='res'>"+esc(v.result)+"</div>":"")+
    (v.held?"<div>held for the TD</div>":"")+
    (v.quarantined?"<div class='quar'>"+num(v.quarantined)+
      " message(s) quarantined for the TD</div>":""); }
const es=new EventSource("/events");
es.onopen=()=>{document.getElementById("conn").textContent="live";};
es.onerror=()=>{document.getElementById("conn").textContent="reconnecting";};
es.addEventListener("snapshot",e=>{ JSON.parse(e.data).boards.forEach(v=>{boards[key(v)]=v; render(v);}); });
es.addEventListener("board",e=>{ const v=JSON.parse(e.data); const old=boards[key(v)];
  if(old&&old.clock&&!v.clock&&old.g===v.g) v.clock=old.clock; boards[key(v)]=v; render(v); });
es.addEventListener("clock",e=>{ const c=JSON.parse(e.data); const v=boards[key(c)];
  if(v&&v.g===c.g){ v.clock=c.clock; render(v); } });
