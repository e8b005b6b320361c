// The flash-card page: one tile set, its cards scheduled by Leitner boxes (leitner.js), the
// progress kept in this browser's localStorage under "taut:flashcards" (the same JSON as
// the progress file of `taut flashcards`). Every answer is a button; keys 1-6 choose.
import {
  BOARD_TO_OTHER, DIRECTIONS, checkDeck, choices, emptyDeck, nextCard, parseProgress, record,
  skip, stateOf, summary,
} from "./leitner.js";

const STORE = "taut:flashcards";
const SEED = "taut:flashcards:seed";
const $ = (id) => document.getElementById(id);
const root = document.querySelector(".fc");
const name = root.dataset.set;

let set = null; // the tile set, as /api/tilesets/NAME serves it
let progress = null;
let deck = null;
let card = null; // [tile, direction]
let offered = []; // the tiles on the buttons
let answered = false;
let seed = "";
const visit = { right: 0, wrong: 0 };

// -- storage ------------------------------------------------------------------------------

const memory = new Map();
const storage = {
  get(key) { try { return localStorage.getItem(key); } catch { return memory.get(key) ?? null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { memory.set(key, value); } },
};

function load() {
  const raw = storage.get(STORE);
  progress = { version: 1, sets: {} };
  if (raw !== null) {
    try {
      progress = parseProgress(raw);
      if (progress.sets[name] !== undefined) checkDeck(progress.sets[name], `sets.${name}`, set.tiles.length);
    } catch (exc) {
      // A damaged record of this set is put aside (kept under another key), never used.
      // (progress is what parsed: every set, or nothing when the whole record is damaged)
      storage.set(`${STORE}:unreadable`, raw);
      delete progress.sets[name];
      say(`Your saved progress could not be read (${exc.message}); this set starts afresh.`);
    }
  }
  deck = progress.sets[name] || emptyDeck();
  progress.sets[name] = deck;
  seed = storage.get(SEED) || String(Math.floor(Math.random() * 2 ** 31));
  storage.set(SEED, seed);
}

const save = () => storage.set(STORE, JSON.stringify(progress));

// -- faces --------------------------------------------------------------------------------

const isPicture = (face) => face.svg !== null && face.svg !== undefined;
const kinds = (direction) => (direction === BOARD_TO_OTHER
  ? [set.board_kind, set.other_kind] : [set.other_kind, set.board_kind]);
const asked = (tile, direction) => set.tiles[tile][direction === BOARD_TO_OTHER ? "board" : "other"];
const answer = (tile, direction) => set.tiles[tile][direction === BOARD_TO_OTHER ? "other" : "board"];

// A picture without its own label (its <title> would name the answer), hidden from
// assistive technology: the description or the button's label says what it shows.
function picture(face) {
  const holder = document.createElement("span");
  holder.className = "fc-picture";
  holder.setAttribute("aria-hidden", "true");
  holder.innerHTML = face.svg; // drawn by the game's plugin, not typed by anyone
  for (const t of holder.querySelectorAll("title, desc")) t.remove();
  for (const svg of holder.querySelectorAll("svg")) {
    svg.removeAttribute("aria-label");
    svg.setAttribute("focusable", "false");
  }
  return holder;
}

function text(tag, className, content) {
  const el = document.createElement(tag);
  el.className = className;
  el.textContent = content;
  return el;
}

// Both faces of a tile: "14 = XIV", "か = カ (ka)", "M = <the handshape's name>".
function pair(tile) {
  const t = set.tiles[tile];
  const other = isPicture(t.other) ? t.other.name : t.other.text;
  const aliases = t.other.aliases.length ? ` (${t.other.aliases.join(", ")})` : "";
  return `${t.board.text} = ${other}${aliases}`;
}

// A tile as the summary names it: "IV (4)", "カ (か)", "M".
function label(tile) {
  const t = set.tiles[tile];
  return t.other.text === t.board.text ? t.board.text : `${t.other.text} (${t.board.text})`;
}

const times = (n) => (n === 1 ? "once" : n === 2 ? "twice" : `${n} times`);
const ways = (direction) => kinds(direction).join(" \u2192 ");

// -- a card -------------------------------------------------------------------------------

function wanted() {
  const way = document.querySelector('input[name="fc-way"]:checked').value;
  return way === "both" ? DIRECTIONS : [way];
}

function say(message) { $("fc-feedback").textContent = message; }

function show() {
  card = nextCard(deck, set.tiles.length, wanted(), seed, name);
  save();
  answered = false;
  const [tile, direction] = card;
  const [from, to] = kinds(direction);
  const state = stateOf(deck, card);
  $("fc-meta").textContent = `${ways(direction)} \u00b7 ${state ? `box ${state.box}` : "new card"} \u00b7 round ${deck.round}`;
  $("fc-question").textContent = `Which ${to} goes with this ${from}?`;
  const face = asked(tile, direction);
  const shown = $("fc-face");
  shown.dataset.direction = direction;
  shown.replaceChildren();
  if (isPicture(face)) {
    shown.append(picture(face), text("p", "fc-description", face.description || face.name));
  } else {
    shown.append(text("p", "fc-text", face.text));
  }
  offered = choices(deck, set.tiles.length, card, seed, name);
  const buttons = offered.map((t, i) => {
    const option = answer(t, direction);
    const button = document.createElement("button");
    button.type = "button";
    button.className = `fc-choice${isPicture(option) ? " fc-choice-picture" : ""}`;
    button.dataset.tile = String(t);
    button.setAttribute("aria-keyshortcuts", String(i + 1));
    button.append(text("span", "fc-key", String(i + 1)));
    button.lastChild.setAttribute("aria-hidden", "true");
    if (isPicture(option)) {
      button.append(picture(option));
      button.setAttribute("aria-label", `${i + 1}: ${option.description || `picture ${i + 1}`}`);
    } else {
      button.append(text("span", "fc-choice-text", option.text));
    }
    button.addEventListener("click", () => choose(t));
    return button;
  });
  $("fc-choices").replaceChildren(...buttons);
  $("fc-next").hidden = true;
  $("fc-skip").hidden = false;
  say("");
}

function choose(given) {
  if (answered) return;
  answered = true;
  const right = record(deck, card, given);
  save();
  visit[right ? "right" : "wrong"] += 1;
  for (const button of $("fc-choices").children) {
    const t = Number(button.dataset.tile);
    button.setAttribute("aria-disabled", "true");
    if (t === card[0]) {
      button.classList.add("right");
      button.append(text("span", "fc-mark", " \u2713 right"));
    } else if (t === given) {
      button.classList.add("wrong");
      button.append(text("span", "fc-mark", " \u2717 your choice"));
    }
  }
  say(right ? `Right: ${pair(card[0])}.` : `Not right: ${pair(card[0])}; you chose ${pair(given)}.`);
  $("fc-skip").hidden = true;
  $("fc-next").hidden = false;
  $("fc-next").focus();
  showSummary();
}

// -- the summary --------------------------------------------------------------------------

// The whole set, both ways, whichever way the cards are asked now.
function showSummary() {
  const s = summary(deck, set.tiles.length, DIRECTIONS);
  const out = [];
  const boxes = document.createElement("ol");
  boxes.className = "fc-boxes";
  boxes.setAttribute("aria-label", "Cards by box");
  s.boxes.forEach((n, i) => {
    const li = document.createElement("li");
    li.append(text("span", "fc-box-name", `Box ${i + 1}`), text("span", "fc-box-count", String(n)));
    li.setAttribute("aria-label", `box ${i + 1}: ${n} card${n === 1 ? "" : "s"}`);
    boxes.append(li);
  });
  out.push(boxes, text("p", "hint", `Not seen yet: ${s.unseen}. Box 1 comes every round, box 2 every 2nd, box 3 every 4th, box 4 every 8th, box 5 every 16th.`));
  const total = s.right + s.wrong;
  if (total === 0) {
    out.push(text("p", "", "No answers yet."));
  } else {
    const visitTotal = visit.right + visit.wrong;
    const now = visitTotal ? ` This visit: ${visit.right} right of ${visitTotal}.` : "";
    out.push(text("p", "fc-accuracy", `Accuracy: ${s.right} right of ${total} (${Math.round((100 * s.right) / total)}%).${now}`));
  }
  const items = [
    ...s.missed.map((m) => `Practise ${label(m.tile)}, ${ways(m.direction)}: missed ${times(m.wrong)}, right ${m.right ? times(m.right) : "never"}.`),
    ...s.confusions.map((c) => `You mixed up ${label(c.first)} and ${label(c.second)} ${times(c.count)}.`),
  ];
  if (items.length) {
    const list = document.createElement("ul");
    list.className = "fc-practise";
    for (const item of items) list.append(text("li", "", item));
    out.push(list);
  }
  $("fc-summary").replaceChildren(...out);
}

// -- wiring -------------------------------------------------------------------------------

function keys(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || answered || !card) return;
  if (event.target instanceof HTMLInputElement && event.target.type !== "radio") return;
  const n = Number(event.key);
  if (Number.isInteger(n) && n >= 1 && n <= offered.length) {
    event.preventDefault();
    choose(offered[n - 1]);
  }
}

async function start() {
  try {
    const response = await fetch(`/api/tilesets/${encodeURIComponent(name)}`);
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    set = await response.json();
  } catch (exc) {
    $("fc-question").textContent = "The cards cannot be loaded.";
    say(`The tile set could not be loaded (${exc.message}); reload the page to try again.`);
    return;
  }
  load();
  $("fc-next").addEventListener("click", () => { show(); $("fc-question").focus(); });
  $("fc-skip").addEventListener("click", () => { skip(deck, card); save(); show(); $("fc-question").focus(); });
  $("fc-reset").addEventListener("click", () => {
    deck = emptyDeck();
    progress.sets[name] = deck;
    visit.right = visit.wrong = 0;
    save();
    show();
    showSummary();
    say("Your progress on this set is forgotten; it starts afresh.");
  });
  for (const radio of document.querySelectorAll('input[name="fc-way"]')) {
    radio.addEventListener("change", () => { if (!answered) show(); });
  }
  document.addEventListener("keydown", keys);
  const note = $("fc-feedback").textContent;
  show();
  if (note) say(note);
  showSummary();
}

start();
