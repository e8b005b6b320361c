// Word practice: whole words fingerspelled with a tile set's pictures (/words/NAME).
//
// Reading (receptive): a word is shown one picture at a time, each for 1 / speed seconds
// (the last fifth of it blank, so a double letter shows twice); the learner types the
// word. After STREAK right answers in a row the speed rises by STEP letters a second; a
// miss lowers it by STEP (never under SLOWEST). The speed is kept in this browser.
// Signing (expressive): a word is shown and each letter is signed to the camera in turn
// (signing.js, where the server has the camera module).
import { picture } from "../signs/faces.js";
import { cameraFor, cameraModulePresent } from "../signs/signing.js";

export const STREAK = 3;
export const STEP = 0.5;
export const SLOWEST = 0.5;
export const FASTEST = 8;
const STORE = "taut:words";
const $ = (id) => document.getElementById(id);
const root = document.querySelector(".w");
const name = root.dataset.set;

let set = null;
let words = [];
let word = "";
let streak = 0;
let playing = 0; // the number of the showing now (a new one cancels the old)
let answered = true;
let camera = null;
// "1 letter", "1.5 letters": the plural for every count but exactly one.
const letters = (n) => `${n} letter${n === 1 ? "" : "s"}`;
let signed = 0; // letters of the word signed so far

const memory = new Map();
const storage = {
  get(key) { try { return localStorage.getItem(key); } catch { return memory.get(key) ?? null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { memory.set(key, value); } },
};

const say = (message) => { $("w-feedback").textContent = message; };
const clamp = (speed) => Math.min(FASTEST, Math.max(SLOWEST, Math.round(speed * 4) / 4));
const speed = () => clamp(Number($("w-speed").value) || 1.5);
const mode = () => document.querySelector('input[name="w-mode"]:checked').value;

function setSpeed(value) {
  $("w-speed").value = String(clamp(value));
  storage.set(STORE, JSON.stringify({ speed: clamp(value) }));
}

// The tile whose board face is the letter (the words are spelt with board faces).
const tileOf = (letter) => set.tiles.findIndex((t) => t.board.text.toUpperCase() === letter);


function pick() {
  const length = $("w-length").value;
  const pool = words.filter((w) => length === "any" || w.length === Number(length));
  const others = pool.filter((w) => w !== word);
  const from = others.length ? others : pool;
  return from[Math.floor(Math.random() * from.length)];
}

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// Show the word's pictures in order at the speed set now.
async function showWord() {
  const mine = ++playing;
  const stage = $("w-stage");
  const each = 1000 / speed();
  $("w-again").disabled = true;
  stage.dataset.state = "showing";
  for (let i = 0; i < word.length; i++) {
    if (mine !== playing) return;
    const tile = tileOf(word[i]);
    const shown = picture(set.tiles[tile].other);
    shown.dataset.tile = String(tile);
    shown.dataset.index = String(i);
    stage.replaceChildren(shown);
    await wait(each * 0.8);
    if (mine !== playing) return;
    stage.replaceChildren();
    await wait(each * 0.2);
  }
  if (mine !== playing) return;
  stage.dataset.state = "done";
  $("w-again").disabled = false;
  $("w-answer").focus();
}

// A new word; in reading mode it is shown at once unless `show` is false (the first word
// waits for the learner's "Show the word").
function nextWord(show = true) {
  word = pick();
  answered = false;
  $("w-answer").value = "";
  $("w-next").hidden = true;
  if (mode() === "read") {
    say(`A word of ${letters(word.length)}, at ${letters(speed())} a second.`);
    $("w-check").disabled = false;
    $("w-again").disabled = false;
    if (show) showWord();
  } else {
    startSigningWord();
  }
}

function check(event) {
  event.preventDefault();
  if (answered || mode() !== "read") return;
  const typed = $("w-answer").value.trim().toUpperCase();
  if (!typed) return;
  answered = true;
  playing += 1; // stop the showing, if still on
  $("w-check").disabled = true;
  $("w-again").disabled = false;
  if (typed === word) {
    streak += 1;
    let more = "";
    if (streak >= STREAK) {
      streak = 0;
      const faster = clamp(speed() + STEP);
      if (faster > speed()) more = ` ${STREAK} in a row: faster now, ${letters(faster)} a second.`;
      setSpeed(faster);
    }
    say(`Right: ${word}.${more}`);
  } else {
    streak = 0;
    const slower = clamp(speed() - STEP);
    const more = slower < speed() ? ` Slower now: ${letters(slower)} a second.` : "";
    setSpeed(slower);
    say(`Not right: the word was ${word}; you typed ${typed}.${more}`);
  }
  $("w-streak").textContent = `Right in a row: ${streak} of ${STREAK}`;
  $("w-next").hidden = false;
  $("w-next").focus();
}

// -- signing a word -----------------------------------------------------------------------

function showLetters() {
  const holder = $("w-word");
  holder.replaceChildren(...[...word].map((letter, i) => {
    const span = document.createElement("span");
    span.className = `w-letter${i < signed ? " done" : ""}${i === signed ? " now" : ""}`;
    span.textContent = letter;
    return span;
  }));
  holder.setAttribute("aria-label", `${word}: ${signed} of ${word.length} letters signed`);
}

async function startSigningWord() {
  signed = 0;
  showLetters();
  if (!camera) camera = await cameraFor($("w-video"), $("w-canvas"), $("w-camera").dataset);
  if (!camera.ready) {
    say(camera.message);
    return;
  }
  say(`Sign ${word}, letter by letter.`);
  camera.listen({
    failed: (message) => say(message),
    guess: (letter, unsure) => { $("w-guess").textContent = letter ? `The camera sees: ${letter}` : unsure ? "Not sure which letter that is: sign again." : ""; },
    sign: (letter) => {
      if (answered) return;
      if (letter === word[signed]) {
        signed += 1;
        showLetters();
        if (signed === word.length) {
          answered = true;
          say(`Right: you signed ${word}.`);
          $("w-next").hidden = false;
        } else {
          say(`${letter}: right. Now ${word[signed]}.`);
        }
      } else {
        say(`That was ${letter || "no letter"}; sign ${word[signed]}.`);
      }
    },
  });
}

function switchMode() {
  const reading = mode() === "read";
  $("w-read").hidden = !reading;
  $("w-sign").hidden = reading;
  playing += 1;
  if (camera && reading) camera.pause();
  $("w-stage").replaceChildren();
  nextWord(false);
}

async function start() {
  try {
    const response = await fetch(`/api/words/${encodeURIComponent(name)}`);
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    const body = await response.json();
    set = body.set;
    words = body.words;
  } catch (exc) {
    say(`The words could not be loaded (${exc.message}); reload the page to try again.`);
    return;
  }
  try {
    const kept = JSON.parse(storage.get(STORE) || "{}");
    if (typeof kept.speed === "number") $("w-speed").value = String(clamp(kept.speed));
  } catch { /* a damaged record: the default speed */ }
  $("w-form").addEventListener("submit", check);
  $("w-again").addEventListener("click", () => { if (mode() === "read") showWord(); });
  $("w-next").addEventListener("click", () => nextWord());
  $("w-speed").addEventListener("change", () => setSpeed(speed()));
  $("w-length").addEventListener("change", () => nextWord(false));
  for (const radio of document.querySelectorAll('input[name="w-mode"]')) radio.addEventListener("change", switchMode);
  if (!$("w-camera").dataset.recogniser) {
    $("w-sign-note").textContent = "(not available for this tile set)";
  } else if (!(await cameraModulePresent())) {
    $("w-sign-note").textContent = "(not available: this server has no camera module)";
  }
  $("w-streak").textContent = `Right in a row: 0 of ${STREAK}`;
  root.dataset.ready = "true";
  nextWord(false);
}

start();
