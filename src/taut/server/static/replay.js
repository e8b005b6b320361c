// Step through a finished game: buttons, a slider, and the arrow, Home and End keys. Steps go
// from one told move to the next: positions nobody narrates (a deal's single draws) are passed.
import { sizeBoard } from "./board.js";

const root = document.querySelector(".game");
const gameId = root.dataset.gameId;
const $ = (id) => document.getElementById(id);
let positions = [];
let stops = []; // indices of the positions a step lands on
let at = 0; // index into stops

function show() {
  const index = stops[at];
  const p = positions[index];
  const holder = $("board");
  holder.innerHTML = p.board; // drawn by the server; the game is over, so all of it is public
  sizeBoard(holder, false);
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
}

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
window.addEventListener("resize", () => sizeBoard($("board"), false));

try {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/positions`);
  const body = await response.json();
  if (response.ok) {
    positions = body;
    const last = positions.length - 1;
    stops = positions.map((p, i) => i).filter((i) => i === 0 || i === last || positions[i].lines.length > 0);
    $("scrub").max = String(stops.length - 1);
    go(0);
  } else {
    $("where").textContent = "No replay yet";
    $("error").textContent = `${body.detail || body.error}.`;
    for (const id of ["first", "prev", "next", "last", "scrub"]) $(id).disabled = true;
  }
} catch (exc) {
  $("error").textContent = `The game cannot be loaded (${exc.message}).`;
}
