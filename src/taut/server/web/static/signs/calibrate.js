// Teaching the camera a learner's hand: each still letter in turn, a few still frames of
// it, then the recogniser's calibration of them (TautSigns.calibrate) kept with the player
// (calibration.js). The camera part is camera.js's: with ?hands=test the tests feed
// landmarks in where the camera's would come.

import { startSigning, stopSigning } from "./camera.js";
import { calibrationSize, deleteCalibration, loadCalibration, saveCalibration } from "./calibration.js";

const $ = (id) => document.getElementById(id);
const root = $("cal");
const PER_LETTER = Number(root.dataset.signs) || 3;
/** A hand held this still (palm lengths) for HOLD_MS gives one frame. */
const STILL = 0.12;
const HOLD_MS = 500;

let letters = [];
let at = 0;
let taken = []; // [[letter, points], ...]
let onLetter = 0;
let steady = null; // { points, since }
let current = null; // the latest hand's points
let model = null;

function say(text) { $("cal-status").textContent = text; }

function describe(calibration) {
  if (!calibration) return "No calibration yet: the camera reads you as it reads everyone.";
  const { letters: n, signs } = calibrationSize(calibration);
  return `Calibrated: ${n} letter${n === 1 ? "" : "s"}, ${signs} sign${signs === 1 ? "" : "s"} of your hand. The camera reads your signs with them.`;
}

async function showSaved() {
  const calibration = await loadCalibration();
  say(describe(calibration));
  $("cal-delete").hidden = !calibration;
  $("cal-start").textContent = calibration ? "Calibrate again" : "Start";
}

function travelled(from, to) {
  const palm = Math.hypot(from[9][0] - from[0][0], from[9][1] - from[0][1]) || 1;
  let most = 0;
  for (const k of [4, 8, 12, 16, 20]) {
    most = Math.max(most, Math.hypot(to[k][0] - from[k][0], to[k][1] - from[k][1]) / palm);
  }
  return most;
}

function showLetter() {
  const letter = letters[at];
  $("cal-letter").textContent = letter;
  $("cal-progress").textContent = `Letter ${at + 1} of ${letters.length}: ${onLetter} of ${PER_LETTER} frames taken. Hold the sign still.`;
  const picture = $("cal-pictures").content.querySelector(`[data-letter="${letter}"]`);
  $("cal-picture").replaceChildren(...(picture ? [...picture.cloneNode(true).childNodes] : []));
  $("cal-picture").setAttribute("aria-label", `The handshape of ${letter}`);
}

async function finish() {
  stopSigning();
  $("cal-work").hidden = true;
  $("cal-start").hidden = false;
  if (!taken.length) { await showSaved(); return; }
  const calibration = globalThis.TautSigns.calibrate(model, taken);
  const where = await saveCalibration(calibration);
  await showSaved();
  if (!where.server && !where.browser) say("The calibration could not be kept: this browser refuses storage and no player is signed in.");
  $("cal-title").focus();
}

function take(points) {
  taken.push([letters[at], points]);
  onLetter += 1;
  steady = null;
  if (onLetter >= PER_LETTER) {
    at += 1;
    onLetter = 0;
    if (at >= letters.length) { finish(); return; }
  }
  showLetter();
}

function guessed(guess) {
  current = guess.points;
  if (!guess.points) {
    $("cal-guess").textContent = "No hand in sight.";
    steady = null;
    return;
  }
  $("cal-guess").textContent = guess.letter ? `The camera reads ${guess.letter} now.` : "The camera is not sure yet: that is what this is for.";
  const now = performance.now();
  if (!steady || travelled(steady.points, guess.points) > STILL) {
    steady = { points: guess.points, since: now };
    return;
  }
  if (now - steady.since >= HOLD_MS) take(guess.points);
}

async function start() {
  const response = await fetch(root.dataset.model).catch(() => null);
  if (!response || !response.ok) { say("The recogniser could not be loaded from this server."); return; }
  model = await response.json();
  letters = model.letters;
  at = 0;
  onLetter = 0;
  taken = [];
  steady = null;
  $("cal-work").hidden = false;
  $("cal-start").hidden = true;
  $("cal-delete").hidden = true;
  say("Calibrating: sign each letter as the picture shows it.");
  showLetter();
  try {
    await startSigning({
      video: $("cal-video"), canvas: $("cal-canvas"),
      recogniser: root.dataset.recogniser, model: root.dataset.model,
      onGuess: guessed,
      onRate: ({ fps }) => { $("cal-rate").textContent = `${fps.toFixed(1)} frames a second`; },
    });
    $("cal-letter-title").focus();
  } catch (error) {
    $("cal-work").hidden = true;
    $("cal-start").hidden = false;
    say(`${error.message}`);
  }
}

if (!root.dataset.recogniser) {
  say("This server has no sign recogniser to calibrate.");
  $("cal-start").disabled = true;
} else {
  showSaved();
  $("cal-start").addEventListener("click", start);
  $("cal-skip").addEventListener("click", () => {
    at += 1;
    onLetter = 0;
    if (at >= letters.length) finish(); else showLetter();
  });
  $("cal-stop").addEventListener("click", finish);
  $("cal-take").addEventListener("click", () => { if (current) take(current); });
  $("cal-delete").addEventListener("click", async () => {
    await deleteCalibration();
    await showSaved();
  });
  document.addEventListener("keydown", (event) => {
    if ($("cal-work").hidden || event.key !== " ") return;
    if (event.target !== document.body) return;
    event.preventDefault();
    if (current) take(current);
  });
}
