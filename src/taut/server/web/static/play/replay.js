// Step through a finished game: buttons, a slider, and the arrow, Home and End keys. Steps go
// from one told move to the next: positions nobody narrates (a deal's single draws) are passed.
import { pickBoard, sizeBoard } from "./board.js";
import { finishAnimation, swapBoard } from "./animate.js";

const root = document.querySelector(".game");
const gameId = root.dataset.gameId;
const $ = (id) => document.getElementById(id);
let positions = [];
let stops = []; // indices of the positions a step lands on
let at = 0; // index into stops

function show() {
  const index = stops[at];
  const p = positions[index];
  drawBoard(p);
  $("board-text").textContent = p.text;
  const last = positions.length - 1;
  $("where").textContent = `Position ${index} of ${last}` + (p.result ? `: ${p.result}` : "");
  $("lines").replaceChildren(...p.lines.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  $("no-lines").hidden = index !== 0;
  $("scrub").value = String(at);
  $("scrub").setAttribute("aria-valuetext", `position ${index} of ${last}`);
  $("first").disabled = $("prev").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === stops.length - 1;
  showJudged(index);
}

// The position's board, drawn by the server (the game is over, so all of it is public): the
// picture that fits the board's room (some games send one for a phone).
function drawBoard(p) {
  const holder = $("board");
  const picture = pickBoard(holder, p.board, p.board_narrow);
  if (holder.dataset.drawn !== `${p.move}:${picture === p.board}`) {
    if (holder.dataset.drawn?.startsWith(`${p.move}:`)) {
      // The same position at another width: nothing moved.
      finishAnimation();
      holder.innerHTML = picture;
    } else swapBoard(holder, picture);
    holder.dataset.drawn = `${p.move}:${picture === p.board}`;
  }
  sizeBoard(holder, false);
}

// -- the analysis board -----------------------------------------------------------------------
// Asked of the server (POST starts it once, GET follows it); computed in its worker pool and
// kept, so a second visit shows it at once.

const COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
let analysis = null;
let graphX = null; // where the graph draws the position after move k, across
const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text) node.textContent = text;
  return node;
}

function fmt(x) {
  return (Math.round(x * 1000) / 1000).toFixed(3).replace(/\.?0+$/, "") || "0";
}

// Go to the step nearest the position reached by move k (a judged move).
function goToMove(k) {
  let best = 0;
  for (let i = 0; i < stops.length; i++) if (Math.abs(stops[i] - k) < Math.abs(stops[best] - k)) best = i;
  go(best);
}

// The graph is one control, as a slider is: a click or a tap anywhere on it goes to the
// judged move nearest across, the arrow keys to the judged move before or after (its points
// are too close together to be a finger's targets each).
function drawGraph() {
  const [lo, hi] = analysis.range;
  const last = Math.max(1, positions.length - 1);
  const W = 320, H = 150, L = 38, R = 8, T = 10, B = 26;
  const x = (k) => L + ((W - L - R) * k) / last;
  graphX = x;
  const y = (v) => T + ((H - T - B) * (hi - v)) / (hi - lo || 1);
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`, role: "slider", tabindex: 0, "aria-labelledby": "analysis-title",
    "aria-describedby": "eval-caption", "aria-valuemin": 0, "aria-valuemax": last, "aria-valuenow": 0,
    "font-family": "sans-serif",
  });
  svg.append(el("line", { x1: L, x2: W - R, y1: y((lo + hi) / 2), y2: y((lo + hi) / 2), stroke: "#c8c8c8" }));
  // Words on the graph are 13 units: 12 pixels or more wherever the graph is drawn.
  for (const v of [lo, hi]) {
    svg.append(el("text", { x: L - 5, y: y(v) + 5, "text-anchor": "end", "font-size": 13, fill: "#555" }, fmt(v)));
  }
  svg.append(el("line", { class: "here", id: "eval-here", x1: x(0), x2: x(0), y1: T, y2: H - B }));
  const judged = [...analysis.moves].sort((a, b) => a.move - b.move);
  const said = (m) => `Move ${m.move}, ${m.seat}: value ${fmt(m.value)}${m.label ? ", " + m.label : ""}`;
  analysis.seats.forEach((seat, s) => {
    const mine = judged.filter((m) => m.seat_index === s);
    if (!mine.length) return;
    const colour = COLOURS[s % COLOURS.length];
    svg.append(el("polyline", {
      points: mine.map((m) => `${x(m.move)},${y(m.value)}`).join(" "),
      fill: "none", stroke: colour, "stroke-width": 2,
    }));
    for (const m of mine) {
      // What the point says is also in data-said, for whatever reads the page.
      const dot = el("circle", {
        class: "point", cx: x(m.move), cy: y(m.value), r: m.label ? 5 : 3.5, fill: colour, "data-said": said(m),
      });
      dot.append(el("title", {}, `Move ${m.move}, ${played(m)}: value ${fmt(m.value)}, loss ${fmt(m.loss)}`));
      svg.append(dot);
    }
    svg.append(el("text", { x: L + 4 + 70 * s, y: H - 7, "font-size": 13, fill: colour }, seat));
  });
  let at = -1; // the judged move the graph is on
  const pick = (i) => {
    if (!judged.length) return;
    at = Math.max(0, Math.min(judged.length - 1, i));
    const m = judged[at];
    svg.setAttribute("aria-valuenow", m.move);
    svg.setAttribute("aria-valuetext", said(m));
    goToMove(m.move);
  };
  svg.addEventListener("click", (event) => {
    const toUser = svg.getScreenCTM().inverse();
    const across = new DOMPoint(event.clientX, event.clientY).matrixTransform(toUser).x;
    let best = 0;
    judged.forEach((m, i) => { if (Math.abs(x(m.move) - across) < Math.abs(x(judged[best].move) - across)) best = i; });
    pick(best);
  });
  svg.addEventListener("keydown", (event) => {
    const step = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 }[event.key];
    if (step) pick(at < 0 ? (step > 0 ? 0 : judged.length - 1) : at + step);
    else if (event.key === "Home") pick(0);
    else if (event.key === "End") pick(judged.length - 1);
    else return;
    event.preventDefault();
  });
  $("eval-graph").replaceChildren(svg);
}

// A judged move in the game's words (analyses kept from before words were added: notation).
function played(m) {
  return m.action_words && m.action_words !== m.action ? `${m.seat} played “${m.action_words}”` : `${m.seat} played ${m.action}`;
}

function enginePlays(m) {
  return m.best_words && m.best_words !== m.best ? `“${m.best_words}”` : m.best;
}

function showJudged(index) {
  if (!analysis) return;
  const here = $("eval-here");
  if (here && graphX) {
    const X = graphX(index);
    here.setAttribute("x1", X);
    here.setAttribute("x2", X);
  }
  const mine = analysis.moves.filter((m) => m.move === index);
  $("no-judged").hidden = mine.length > 0;
  $("judged").replaceChildren(...mine.map((m) => {
    const li = document.createElement("li");
    const same = m.best === m.action;
    li.append(`${played(m)}: value ${fmt(m.value)}, loss ${fmt(m.loss)}`);
    if (m.label) {
      const tag = document.createElement("span");
      tag.className = `label label-${m.label}`;
      tag.textContent = m.label;
      li.append(" ", tag);
    }
    li.append(same ? " · the engine agrees." : ` · the engine plays ${enginePlays(m)}.`);
    return li;
  }));
  const boards = mine.filter((m) => m.best !== m.action);
  $("engine").hidden = boards.length === 0;
  const holder = $("engine-board");
  holder.replaceChildren();
  for (const m of boards) {
    const box = document.createElement("div");
    box.innerHTML = m.engine_board; // drawn by the server for a finished game
    // A picture to look at, not to play on: its moves are no controls any more, so they
    // keep no role, and no name either (the caption says which move is highlighted).
    for (const target of box.querySelectorAll("[data-move], [data-part], [tabindex]")) {
      target.removeAttribute("tabindex");
      target.removeAttribute("role");
      target.removeAttribute("aria-label");
    }
    const caption = document.createElement("p");
    caption.className = "hint";
    caption.textContent = `${m.seat}: the engine plays ${enginePlays(m)} (highlighted).`;
    holder.append(caption, box);
  }
}

function showAnalysis(result) {
  analysis = result;
  $("analyse").hidden = true;
  $("analysis-progress").hidden = true;
  $("analysis-result").hidden = false;
  drawGraph();
  // A row a measure and a column a seat (as lichess shows it): two to four seats fit the
  // side panel, where six measures side by side did not.
  const seats = Object.entries(result.summary);
  const cell = (tag, text, scope) => {
    const node = document.createElement(tag);
    node.textContent = String(text);
    if (scope) node.scope = scope;
    return node;
  };
  $("summary-seats").replaceChildren(cell("td", ""), ...seats.map(([seat]) => cell("th", seat, "col")));
  const measures = [
    ["Moves judged", (s) => s.moves],
    ["Average loss", (s) => fmt(s.average_loss)],
    ["Inaccuracies", (s) => s.inaccuracy],
    ["Mistakes", (s) => s.mistake],
    ["Blunders", (s) => s.blunder],
  ];
  $("summary").replaceChildren(...measures.map(([label, value]) => {
    const tr = document.createElement("tr");
    tr.append(cell("th", label, "row"), ...seats.map(([, s]) => cell("td", value(s))));
    return tr;
  }));
  const t = result.thresholds;
  $("thresholds").textContent = `A move that gives away at least ${fmt(t.inaccuracy)} is an inaccuracy, `
    + `${fmt(t.mistake)} a mistake, ${fmt(t.blunder)} a blunder (values from ${fmt(result.range[0])} to `
    + `${fmt(result.range[1])}; ${result.think} s of search a move where the game is not solved).`;
  if (stops.length) show();
}

async function follow(start) {
  const url = `/api/games/${encodeURIComponent(gameId)}/analysis`;
  $("analysis-error").textContent = "";
  try {
    const response = await fetch(url, { method: start ? "POST" : "GET" });
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail || body.error || response.statusText);
    if (body.status === "done") return showAnalysis(body.analysis);
    if (body.status === "failed") {
      $("analysis-progress").hidden = true;
      $("analyse").hidden = false;
      $("analyse").textContent = "Try the analysis again";
      $("analysis-error").textContent = `The analysis failed: ${body.error}.`;
      return;
    }
    if (body.status === "running") {
      $("analyse").hidden = true;
      $("analysis-progress").hidden = false;
      $("analysis-bar").max = Math.max(1, body.total);
      $("analysis-bar").value = body.done;
      $("analysis-count").textContent = `${body.done} of ${body.total} moves`;
      setTimeout(() => follow(false), 700);
    }
  } catch (exc) {
    $("analysis-error").textContent = `The analysis cannot be loaded (${exc.message}).`;
  }
}

$("analyse").addEventListener("click", () => follow(true));

function go(k) {
  if (!stops.length) return;
  at = Math.max(0, Math.min(stops.length - 1, k));
  show();
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(at - 1));
$("next").addEventListener("click", () => go(at + 1));
$("last").addEventListener("click", () => go(stops.length - 1));
$("scrub").addEventListener("input", () => go(Number($("scrub").value)));
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target.closest && target.closest("input, select, textarea")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: stops.length - 1 };
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
});
window.addEventListener("resize", () => { if (positions.length) drawBoard(positions[stops[at]]); });

try {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/positions`);
  const body = await response.json();
  if (response.ok) {
    positions = body;
    const last = positions.length - 1;
    stops = positions.map((p, i) => i).filter((i) => i === 0 || i === last || positions[i].lines.length > 0);
    $("scrub").max = String(stops.length - 1);
    go(0);
    follow(false); // shows a kept analysis, or one under way
  } else {
    $("where").textContent = "No replay yet";
    document.querySelector(".analysis").hidden = true;
    $("error").textContent = `${body.detail || body.error}.`;
    for (const id of ["first", "prev", "next", "last", "scrub"]) $(id).disabled = true;
  }
} catch (exc) {
  $("error").textContent = `The game cannot be loaded (${exc.message}).`;
}
