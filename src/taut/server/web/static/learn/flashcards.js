// The flash-card page: one tile set, its cards scheduled by FSRS on the server (the
// scheduler of `taut flashcards`, taut.learn.flashcards), the progress kept in this
// browser's localStorage under "taut:flashcards" (the JSON of the terminal's progress file,
// version 2; a version 1 record of Leitner boxes is converted by the server on load).
// The server keeps nothing: each question sends the set's deck to /api/flashcards/next,
// each answer to /api/flashcards/review, which returns the deck to keep. Every answer is a
// button; keys 1-6 choose. A set whose other faces are pictures of hands can also be
// signed to the camera (camera.js), where the browser has one.
import { picture } from "../signs/faces.js";
import { cameraFor, cameraModulePresent } from "../signs/signing.js";

const STORE = "taut:flashcards";
const SEED = "taut:flashcards:seed";
const BOARD_TO_OTHER = "board->other";
const BOARD_TO_SIGN = "board->sign";
const BOTH = ["board->other", "other->board"];
const $ = (id) => document.getElementById(id);
const root = document.querySelector(".fc");
const name = root.dataset.set;

let set = null; // the tile set, as /api/tilesets/NAME serves it
let progress = null;
let card = null; // {tile, direction}
let offered = []; // the tiles on the buttons
let answered = false;
let busy = false;
let seed = "";
let camera = null; // the signing camera, once started
let asking = 0; // counts the cards asked for: only the latest answer is shown
const visit = { right: 0, wrong: 0, newSeen: 0, skipped: [], last: null };

// -- storage ------------------------------------------------------------------------------

const memory = new Map();
const storage = {
  get(key) { try { return localStorage.getItem(key); } catch { return memory.get(key) ?? null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { memory.set(key, value); } },
};

const emptyDeck = () => ({ cards: [], confusions: [] });
const deck = () => progress.sets[name];
const save = () => storage.set(STORE, JSON.stringify(progress));

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.detail || data.error || `the server answered ${response.status}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// Read the stored progress through the server (which checks it and converts version 1).
// A damaged record is put aside (kept under another key) and this set starts afresh.
async function load() {
  const raw = storage.get(STORE);
  progress = { version: 2, sets: {} };
  if (raw !== null) {
    try {
      const checked = await post("/api/flashcards/progress", { progress: JSON.parse(raw) });
      progress = checked.progress;
      if (checked.converted) {
        save();
        say("Your progress was kept in Leitner boxes by an earlier version; it is now scheduled by FSRS, and its cards are due today.");
      }
    } catch (exc) {
      storage.set(`${STORE}:unreadable`, raw);
      say(`Your saved progress could not be read (${exc.message}); this set starts afresh.`);
    }
  }
  if (!progress.sets[name]) progress.sets[name] = emptyDeck();
  seed = storage.get(SEED) || String(Math.floor(Math.random() * 2 ** 31));
  storage.set(SEED, seed);
}

// -- faces --------------------------------------------------------------------------------

const isPicture = (face) => face.svg !== null && face.svg !== undefined;
const kinds = (direction) => (direction === BOARD_TO_OTHER || direction === BOARD_TO_SIGN
  ? [set.board_kind, set.other_kind] : [set.other_kind, set.board_kind]);
const asked = (tile, direction) => set.tiles[tile][direction === "other->board" ? "other" : "board"];
const answer = (tile, direction) => set.tiles[tile][direction === "other->board" ? "board" : "other"];


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

const ways = (direction) => (direction === BOARD_TO_SIGN
  ? `${set.board_kind} \u2192 signed ${set.other_kind}` : kinds(direction).join(" \u2192 "));
const WHY = { due: "due", new: "new card", ahead: "studying ahead: nothing is due" };

// -- a card -------------------------------------------------------------------------------

function wanted() {
  const way = document.querySelector('input[name="fc-way"]:checked').value;
  return way === "both" ? BOTH : [way];
}

function say(message) { $("fc-feedback").textContent = message; }

async function show() {
  // A newer request (a direction changed while a card was on its way) supersedes this
  // one: its answer, arriving later, must not replace the newer card.
  const ticket = ++asking;
  let next;
  try {
    next = await post("/api/flashcards/next", {
      set: name,
      deck: deck(),
      directions: wanted(),
      avoid: [...visit.skipped, ...(visit.last ? [visit.last] : [])],
      new_seen: visit.newSeen,
      seed,
    });
  } catch (exc) {
    if (ticket !== asking) return;
    if (exc.status === 400 && deck().cards.length) {
      // The stored deck does not fit this set (the set changed): put it aside, start afresh.
      storage.set(`${STORE}:unreadable`, JSON.stringify(progress));
      progress.sets[name] = emptyDeck();
      save();
      say(`Your saved progress on this set could not be used (${exc.message}); it starts afresh.`);
      return show();
    }
    say(`The next card could not be chosen (${exc.message}); reload the page to try again.`);
    return;
  }
  if (ticket !== asking) return;
  card = next.card;
  answered = false;
  const { tile, direction } = card;
  const [from, to] = kinds(direction);
  $("fc-meta").textContent = `${ways(direction)} \u00b7 ${WHY[next.reason]}`;
  $("fc-meta").dataset.reason = next.reason;
  const face = asked(tile, direction);
  const shown = $("fc-face");
  shown.dataset.direction = direction;
  shown.replaceChildren();
  if (isPicture(face)) {
    shown.append(picture(face), text("p", "fc-description", face.description || face.name));
  } else {
    shown.append(text("p", "fc-text", face.text));
  }
  $("fc-next").hidden = true;
  $("fc-skip").hidden = false;
  if (direction === BOARD_TO_SIGN) {
    $("fc-question").textContent = `Sign the ${to} of this ${from} to the camera.`;
    offered = [];
    $("fc-choices").replaceChildren();
    sign();
  } else {
    $("fc-question").textContent = `Which ${to} goes with this ${from}?`;
    offered = next.choices;
    $("fc-choices").replaceChildren(...offered.map((t, i) => button(t, i, direction)));
    say("");
  }
  showSummary(next.summary);
}

function button(t, i, direction) {
  const option = answer(t, direction);
  const b = document.createElement("button");
  b.type = "button";
  b.className = `fc-choice${isPicture(option) ? " fc-choice-picture" : ""}`;
  b.dataset.tile = String(t);
  b.setAttribute("aria-keyshortcuts", String(i + 1));
  b.append(text("span", "fc-key", String(i + 1)));
  b.lastChild.setAttribute("aria-hidden", "true");
  if (isPicture(option)) {
    b.append(picture(option));
    b.setAttribute("aria-label", `${i + 1}: ${option.description || `picture ${i + 1}`}`);
  } else {
    b.append(text("span", "fc-choice-text", option.text));
  }
  b.addEventListener("click", () => choose(t));
  return b;
}

async function choose(given) {
  if (answered || busy) return;
  busy = true;
  let done;
  try {
    done = await post("/api/flashcards/review", { set: name, deck: deck(), card, given });
  } catch (exc) {
    say(`The answer could not be recorded (${exc.message}); try again.`);
    return;
  } finally {
    busy = false;
  }
  answered = true;
  if (!deck().cards.some((c) => c.tile === card.tile && c.direction === card.direction)) visit.newSeen += 1;
  progress.sets[name] = done.deck;
  save();
  visit[done.right ? "right" : "wrong"] += 1;
  visit.last = card;
  visit.skipped = visit.skipped.filter((k) => k.tile !== card.tile || k.direction !== card.direction);
  for (const b of $("fc-choices").children) {
    const t = Number(b.dataset.tile);
    b.setAttribute("aria-disabled", "true");
    if (t === card.tile) {
      b.classList.add("right");
      b.append(text("span", "fc-mark", " \u2713 right"));
    } else if (t === given) {
      b.classList.add("wrong");
      b.append(text("span", "fc-mark", " \u2717 your choice"));
    }
  }
  const yours = given === null ? "the camera saw no sign of this set" : `you chose ${pair(given)}`;
  say(done.right
    ? `Right: ${pair(card.tile)}. Again ${done.again}.`
    : `Not right: ${pair(card.tile)}; ${yours}. Again ${done.again}.`);
  $("fc-skip").hidden = true;
  $("fc-next").hidden = false;
  $("fc-next").focus();
  showSummary(done.summary);
}

// -- signing to the camera ----------------------------------------------------------------

// Sign the card's letter: the first sign the camera reads answers the card.
async function sign() {
  const stage = $("fc-camera");
  stage.hidden = false;
  if (!camera) camera = await cameraFor($("fc-video"), $("fc-canvas"), stage.dataset);
  if (!camera.ready) {
    say(camera.message);
    return;
  }
  say("Sign it to the camera.");
  camera.listen({
    failed: (message) => say(message),
    guess: (letter, unsure) => { $("fc-guess").textContent = letter ? `The camera sees: ${letter}` : unsure ? "Not sure which letter that is: sign again." : ""; },
    sign: (letter) => {
      camera.pause();
      const upper = String(letter).toUpperCase();
      const tile = set.tiles.findIndex((t) => t.board.text.toUpperCase() === upper || t.other.text.toUpperCase() === upper);
      choose(tile >= 0 ? tile : null);
    },
  });
}

// Hide the camera; turn it off unless the cards are still signed.
function stopSigning() {
  $("fc-camera").hidden = true;
  if (!camera) return;
  if (wanted().includes(BOARD_TO_SIGN)) {
    camera.pause();
  } else {
    camera.stop();
    camera = null;
  }
}

// -- the summary --------------------------------------------------------------------------

function showSummary(s) {
  const out = [];
  const counts = document.createElement("ol");
  counts.className = "fc-boxes fc-counts";
  counts.setAttribute("aria-label", "Cards");
  for (const [label, n] of [["Due now", s.due], ["Learning", s.learning], ["Known", s.known], ["Not seen", s.unseen]]) {
    const li = document.createElement("li");
    li.append(text("span", "fc-box-name", label), text("span", "fc-box-count", String(n)));
    li.setAttribute("aria-label", `${label.toLowerCase()}: ${n} card${n === 1 ? "" : "s"}`);
    counts.append(li);
  }
  out.push(counts, text("p", "hint", "A card you know comes back after days, then weeks; one you miss, within minutes. Cards due come first; then up to five new cards a visit; with nothing due, the card due soonest."));
  const total = visit.right + visit.wrong;
  const now = total ? ` This visit: ${visit.right} right of ${total}.` : "";
  out.push(text("p", s.right + s.wrong ? "fc-accuracy" : "", `${s.accuracy}${s.right + s.wrong ? now : ""}`));
  if (s.practise.length) {
    const list = document.createElement("ul");
    list.className = "fc-practise";
    for (const item of s.practise) list.append(text("li", "", item));
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

function next() {
  stopSigning();
  return show().then(() => $("fc-question").focus());
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
  await load();
  $("fc-next").addEventListener("click", next);
  $("fc-skip").addEventListener("click", () => {
    if (card) visit.skipped.push(card);
    next();
  });
  $("fc-reset").addEventListener("click", async () => {
    progress.sets[name] = emptyDeck();
    Object.assign(visit, { right: 0, wrong: 0, newSeen: 0, skipped: [], last: null });
    save();
    stopSigning();
    await show();
    say("Your progress on this set is forgotten; it starts afresh.");
  });
  for (const radio of document.querySelectorAll('input[name="fc-way"]')) {
    radio.addEventListener("change", () => { if (!answered) next(); });
  }
  document.addEventListener("keydown", keys);
  const signRadio = document.querySelector(`input[name="fc-way"][value="${BOARD_TO_SIGN}"]`);
  if (signRadio && !(await cameraModulePresent())) {
    signRadio.disabled = true;
    $("fc-sign-note").textContent = "(not available: this server has no camera module)";
  }
  const note = $("fc-feedback").textContent;
  await show();
  if (note) say(note);
  root.dataset.ready = "true";
}

start();
