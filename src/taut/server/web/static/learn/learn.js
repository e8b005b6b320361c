// A tutorial (/learn/GAME): one lesson at a time on the real board. The server sends every
// step at once (/api/tutorials/GAME); a step that asks for a move waits for that move, chosen
// on the board or from the list, and explains a wrong one; the last offers a real game.
import { board, chosenMove, markSelection, pickBoard, sizeBoard, wireBoard } from "../play/board.js";

const root = document.querySelector(".learn");
const name = root.dataset.game;
const $ = (id) => document.getElementById(id);
let data = null;
let at = 0;
let selection = { move: null, parts: {}, defaults: {} };

function step() {
  return data.steps[at];
}

function wordsFor(move) {
  const found = step().moves.find((m) => m.notation === move);
  return found ? found.words : move;
}

function chosen() {
  return chosenMove($("board"), selection);
}

function update() {
  markSelection($("board"), selection);
  const { text, complete } = chosen();
  // A move half composed on the board shows its missing parts; nothing chosen says so.
  const started = complete || Object.keys(selection.parts).length > 0;
  $("chosen").textContent = !started ? "nothing yet" : complete ? wordsFor(text) : text;
  $("chosen").dataset.move = complete ? text : "";
  $("play").disabled = !complete;
  for (const button of $("legal").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(complete && button.dataset.move === text));
  }
}

// The parts of `move` that the board's template composes ("L={L},M={M}" and "L=pull,M=pass"
// give {L: "pull", M: "pass"}); null where the move does not fit the template.
function partsOf(template, move) {
  const slots = [];
  const pattern = template.split(/(\{[^{}]+\})/).map((piece) => {
    const slot = /^\{([^{}]+)\}$/.exec(piece);
    if (!slot) return piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    slots.push(slot[1]);
    return "(.*?)";
  }).join("");
  const found = new RegExp(`^${pattern}$`).exec(move);
  if (!found) return null;
  return Object.fromEntries(slots.map((slot, i) => [slot, found[i + 1]]));
}

function showMe() {
  const move = step().move;
  const svg = board($("board"));
  const template = svg && svg.dataset.compose;
  const parts = template ? partsOf(template, move) : null;
  selection = parts ? { move: null, parts, defaults: selection.defaults } : { ...selection, move, parts: {} };
  update();
  $("feedback").textContent = "";
  $("play").focus();
}

function play() {
  const { text, complete } = chosen();
  if (!complete) return;
  if (text === step().move) {
    show(at + 1);
    return;
  }
  const hint = step().hint || `The lesson asks for ${step().move_words}.`;
  $("feedback").textContent = `Not this one: ${wordsFor(text)} is a legal move, but not the one this lesson is about. ${hint}`;
  selection = { move: null, parts: {}, defaults: selection.defaults };
  update();
}

function moveButtons(s) {
  return s.moves.map((m) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small";
    button.dataset.move = m.notation;
    button.textContent = m.words;
    button.addEventListener("click", () => {
      selection = { move: m.notation, parts: {}, defaults: selection.defaults };
      update();
    });
    return button;
  });
}

function show(index) {
  at = index;
  const s = step();
  const last = at === data.steps.length - 1;
  root.dataset.step = String(at);
  $("step").textContent = last ? "Tutorial done" : `Step ${at + 1} of ${data.steps.length - 1}`;
  $("lesson").textContent = s.result ? `${s.result}. ${s.text}` : s.text;
  drawBoard();
  selection = { move: null, parts: {}, defaults: selection.defaults };
  $("board-text").textContent = s.board_text + (s.status && !s.board_text.includes(s.status) ? `\n${s.status}` : "");
  $("choose").hidden = !s.move;
  $("legal").replaceChildren(...moveButtons(s));
  $("next").hidden = !!s.move || last;
  $("first-game").hidden = !last;
  $("feedback").textContent = "";
  $("happened-panel").hidden = s.lines.length === 0;
  $("happened").replaceChildren(...s.lines.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  update();
  if (index > 0) (last ? $("first-game") : s.move ? $("lesson") : $("next")).focus({ preventScroll: true });
}

// The step's board, drawn by the server from the learner's view: the picture that fits the
// board's room (some games send one for a phone); the choice so far stays chosen.
function drawBoard() {
  const s = step();
  const holder = $("board");
  const picture = pickBoard(holder, s.board, s.board_narrow);
  if (holder.dataset.drawn !== `${at}:${picture === s.board}`) {
    holder.dataset.drawn = `${at}:${picture === s.board}`;
    holder.innerHTML = picture;
    selection.defaults = wireBoard(holder, () => !!step().move, {
      onMove: (move) => { selection = { move, parts: {}, defaults: selection.defaults }; update(); },
      onPart: (slot, value) => { selection.move = null; selection.parts[slot] = value; update(); },
    });
    markSelection(holder, selection);
  }
  sizeBoard(holder, false);
}

async function firstGame() {
  const button = $("first-game");
  button.disabled = true;
  $("first-game-error").textContent = "";
  try {
    if (window.tautPlayer) await window.tautPlayer.ready;
    const player = window.tautPlayer ? window.tautPlayer.headers() : {};
    const seats = data.play.seats.map((kind) => ({ kind }));
    const response = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...player },
      body: JSON.stringify({ game: data.play.game, options: data.play.options, seats }),
    });
    const body = await response.json();
    if (!response.ok || !body.mine) throw new Error(body.detail || body.error || `the server answered ${response.status}`);
    location.href = body.mine;
  } catch (exc) {
    $("first-game-error").textContent = `The game could not be made (${exc.message}); try again.`;
  } finally {
    button.disabled = false;
  }
}

async function start() {
  try {
    const response = await fetch(`/api/tutorials/${encodeURIComponent(name)}`);
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    data = await response.json();
  } catch (exc) {
    $("step").textContent = "The lesson could not be loaded";
    $("lesson").textContent = `${exc.message}; reload the page to try again.`;
    return;
  }
  $("play").addEventListener("click", play);
  $("show").addEventListener("click", showMe);
  $("next").addEventListener("click", () => show(at + 1));
  $("first-game").addEventListener("click", firstGame);
  window.addEventListener("resize", drawBoard);
  show(0);
}

start();
