// Signing to the camera: the browser's camera, MediaPipe Hands and a game's recogniser turn a
// fingerspelled letter into an answer. The video never leaves the browser; nothing is sent.
//
//   import { startSigning, stopSigning, captureSign, sketch } from "/static/signs/camera.js";
//
//   await startSigning({ video, canvas, recogniser, model, calibration, onGuess, onSign, onRate });
//     video       a <video> element: the live preview (shown mirrored, like a mirror)
//     canvas      a <canvas> over it (optional): the hand's landmarks are drawn there
//     recogniser  URL of a plain script defining TautSigns (classify, classifyFrames,
//                 squareUp), as a game's plugin serves it at /game-files/GAME/NAME (the
//                 game page reads the address from its #camera element's data-recogniser)
//     model       URL of the JSON the recogniser reads (data-model)
//     calibration the learner's calibration ({version, letters}, see calibration.js) or null
//     onGuess({letter, top, points, moving})  every frame with a hand (letter null: not
//                 sure, sign again; top [[letter, score], ...]; moving: read from motion)
//     onRate({fps, ms})  about once a second: frames read a second, and the milliseconds
//                 the hand tracker took for the last one
//     onSign({letter, top, points})           a sign is made: the same letter held steadily
//                 for HOLD_MS, a J or Z drawn in the air, or captureSign() (Space / Enter on
//                 the preview) taking the current guess
//   Resolves to true once the camera runs (false: stopSigning() came first); rejects with an
//   Error whose message says, for people, why it cannot (no camera, permission refused,
//   MediaPipe Hands not installed here).
//
//   stopSigning()   stops the camera and forgets the frames; safe to call at any time.
//   setCalibration(calibration)  reads with another calibration (null: none) from now on.
//   captureSign()   signs the current guess now (false when there is none).
//   sketch(points)  a small SVG drawing of 21 landmarks [x, y, z], mirrored as the preview.
//
// Points are MediaPipe's 21 landmarks squared up to one unit (x and y in the image's height).
// With `?hands=test` in the page's address, no camera or MediaPipe is used: the page gets
// window.__tautSigns.inject(points, handedness, width, height), which feeds landmarks into
// the same path a camera frame takes (used by the browser tests).

export const HOLD_MS = 800;
/**
 * How the hand tracker runs, chosen by measurement (benchmarks/signs_camera.py): the lite
 * landmark model on a 640x480 picture. The page's address may ask for another to measure
 * it: ?camera-model=0|1&camera-size=WIDTHxHEIGHT.
 */
export const TRACKER = { modelComplexity: 0, width: 640, height: 480 };
/** How far (in palm lengths) the fingertips may drift while a sign is held. */
export const STILL = 0.35;
/** How much of the recent past a J or Z is read from. */
const MOTION_MS = 1500;
/** Frames a motion needs before it is read. */
const MOTION_FRAMES = 8;
const MEDIAPIPE = "/vendor/mediapipe/";

const BONES = [
  [0, 1], [1, 2], [2, 3], [3, 4], [0, 5], [5, 6], [6, 7], [7, 8], [5, 9], [9, 10], [10, 11],
  [11, 12], [9, 13], [13, 14], [14, 15], [15, 16], [13, 17], [0, 17], [17, 18], [18, 19], [19, 20],
];
const CHAINS = [[0, 1, 2, 3, 4], [0, 5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [0, 17, 18, 19, 20], [5, 9, 13, 17]];

const scripts = new Map(); // URL -> promise of its loading, so each script loads once
let run = null; // the running session: { stream, hands, frame, listeners, ... }

function loadScript(url, why) {
  if (!scripts.has(url)) {
    scripts.set(url, new Promise((resolve, reject) => {
      const el = document.createElement("script");
      el.src = url;
      el.onload = () => resolve();
      el.onerror = () => { scripts.delete(url); reject(new Error(why)); };
      document.head.append(el);
    }));
  }
  return scripts.get(url);
}

async function loadRecogniser(recogniser, model) {
  await loadScript(recogniser, "The sign recogniser could not be loaded from this server.");
  const response = await fetch(model).catch(() => null);
  if (!response || !response.ok) throw new Error("The sign recogniser's templates could not be loaded from this server.");
  return { signs: globalThis.TautSigns, templates: await response.json() };
}

export function testMode() {
  return new URLSearchParams(location.search).get("hands") === "test";
}

function cameraProblem(error) {
  const name = error && error.name;
  if (name === "NotAllowedError" || name === "SecurityError") return "Permission to use the camera was refused.";
  if (name === "NotFoundError" || name === "OverconstrainedError") return "No camera was found.";
  if (name === "NotReadableError") return "The camera is in use by another program.";
  return `The camera could not be started (${(error && error.message) || error}).`;
}

// The tracker's settings: TRACKER, or what the page's address asks for.
function tracker() {
  const asked = new URLSearchParams(location.search);
  const out = { ...TRACKER };
  const model = asked.get("camera-model");
  if (model === "0" || model === "1") out.modelComplexity = Number(model);
  const size = (asked.get("camera-size") || "").match(/^(\d{2,4})x(\d{2,4})$/);
  if (size) { out.width = Number(size[1]); out.height = Number(size[2]); }
  return out;
}

async function openCamera(video) {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    throw new Error("This browser gives this page no camera (a camera needs a secure address: https, or localhost).");
  }
  let stream;
  try {
    const { width, height } = tracker();
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user", width, height }, audio: false });
  } catch (error) {
    throw new Error(cameraProblem(error));
  }
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play();
  return stream;
}

function loadHands() {
  return loadScript(`${MEDIAPIPE}hands.js`, "MediaPipe Hands is not installed on this server (make vendor installs it), so the camera cannot read hands.");
}

async function openHands(onResults) {
  const hands = new globalThis.Hands({ locateFile: (file) => MEDIAPIPE + file });
  hands.setOptions({ maxNumHands: 1, modelComplexity: tracker().modelComplexity, minDetectionConfidence: 0.6, minTrackingConfidence: 0.5 });
  hands.onResults(onResults);
  try {
    await hands.initialize();
  } catch (error) {
    throw new Error(`MediaPipe Hands could not start in this browser (${(error && error.message) || error}).`);
  }
  return hands;
}

// MediaPipe names the hand as if the image were mirrored; the frames it reads here are not,
// so its "Left" is the signer's right hand.
function realHand(results) {
  const label = results.multiHandedness && results.multiHandedness[0] && results.multiHandedness[0].label;
  if (label === "Left") return "right";
  if (label === "Right") return "left";
  return null;
}

export async function startSigning({ video, canvas = null, recogniser, model, calibration = null, onGuess = () => {}, onSign = () => {}, onRate = () => {} }) {
  stopSigning();
  const session = { video, canvas, calibration, onGuess, onSign, onRate, frames: [], held: null, guess: null, stopped: false, rate: { since: 0, count: 0 } };
  run = session;
  try {
    const { signs, templates } = await loadRecogniser(recogniser, model);
    session.signs = signs;
    session.model = templates;
    if (run !== session) return false;
    if (testMode()) {
      globalThis.__tautSigns = {
        // `at` (milliseconds, performance.now()'s clock) stamps the frame as a camera would,
        // so that a test's motion keeps its pace however busy the machine is.
        calibrated: () => Boolean(run === session && session.calibration),
        inject: (points, handedness = null, width = 1, height = 1, at = undefined) => {
          if (run !== session) return;
          const started = performance.now();
          seen(session, points, handedness, width, height, at);
          counted(session, performance.now() - started);
        },
      };
      return true;
    }
    // The small script first and the camera next, so that a missing MediaPipe or a refused
    // camera is told at once; the model (megabytes of WebAssembly) loads last.
    await loadHands();
    if (run !== session) return false;
    const stream = await openCamera(video);
    if (run !== session) { stream.getTracks().forEach((t) => t.stop()); return false; }
    session.stream = stream;
    const hands = await openHands((results) => {
      if (run !== session) return;
      const marks = results.multiHandLandmarks && results.multiHandLandmarks[0];
      if (!marks) { lost(session); return; }
      const points = marks.map((p) => [p.x, p.y, p.z]);
      seen(session, points, realHand(results), video.videoWidth || 1, video.videoHeight || 1);
    });
    if (run !== session) { Promise.resolve().then(() => hands.close()).catch(() => {}); return false; }
    session.hands = hands;
    pump(session);
    return true;
  } catch (error) {
    if (run === session) stopSigning();
    throw error;
  }
}

export function stopSigning() {
  const session = run;
  run = null;
  if (!session) return;
  session.stopped = true;
  cancelAnimationFrame(session.timer);
  if (session.stream) session.stream.getTracks().forEach((t) => t.stop());
  if (session.video) session.video.srcObject = null;
  if (session.hands) Promise.resolve().then(() => session.hands.close()).catch(() => {});
  if (session.canvas) session.canvas.getContext("2d").clearRect(0, 0, session.canvas.width, session.canvas.height);
  if (globalThis.__tautSigns) delete globalThis.__tautSigns;
}

export function setCalibration(calibration) {
  if (run) run.calibration = calibration || null;
}

export function captureSign() {
  const session = run;
  if (!session || !session.guess || !session.guess.letter) return false;
  sign(session, session.guess);
  return true;
}

// One frame at a time: MediaPipe reads the next only when it is done with this one.
function pump(session) {
  const step = async () => {
    if (session.stopped) return;
    // A preview out of sight (not this player's turn) is not read: it would only cost time.
    if (session.video.readyState >= 2 && session.video.offsetParent !== null) {
      const started = performance.now();
      try { await session.hands.send({ image: session.video }); } catch { /* a dropped frame */ }
      counted(session, performance.now() - started);
    }
    if (!session.stopped) session.timer = requestAnimationFrame(step);
  };
  session.timer = requestAnimationFrame(step);
}

// Frames a second, told about once a second: how live the camera feels on this machine.
// The totals stay in globalThis.__tautCamera for anyone measuring the page.
function counted(session, ms) {
  const now = performance.now();
  const totals = globalThis.__tautCamera || (globalThis.__tautCamera = { frames: 0, ms: 0, since: now });
  totals.frames += 1;
  totals.ms += ms;
  const rate = session.rate;
  if (!rate.since) rate.since = now;
  rate.count += 1;
  if (now - rate.since >= 1000) {
    session.onRate({ fps: (rate.count * 1000) / (now - rate.since), ms });
    rate.since = now;
    rate.count = 0;
  }
}

function lost(session) {
  session.frames = [];
  session.held = null;
  session.guess = null;
  draw(session, null);
  session.onGuess({ letter: null, top: [], points: null, moving: false });
}

function seen(session, raw, handedness, width, height, at = undefined) {
  const now = at === undefined ? performance.now() : at;
  const points = session.signs.squareUp(raw, width, height);
  draw(session, raw);
  let guess = { ...session.signs.classify(session.model, points, handedness, session.calibration), points, moving: false };
  session.frames.push({ t: now, points });
  while (session.frames.length && now - session.frames[0].t > MOTION_MS) session.frames.shift();
  if (session.frames.length >= MOTION_FRAMES) {
    const moved = session.signs.classifyFrames(session.model, session.frames.map((f) => f.points), handedness, session.calibration);
    const motion = (session.model.templates && session.model.templates.motion) || {};
    if (moved.letter && moved.letter in motion) guess = { ...moved, points, moving: true };
  }
  session.guess = guess;
  session.onGuess(guess);
  if (guess.moving) {
    sign(session, guess); // the motion is the sign: drawn, it is made
    session.frames = [];
    return;
  }
  const held = session.held;
  if (!guess.letter) { session.held = null; return; }
  // A hold counts only while the hand keeps still: a J or Z traced with the I or D shape
  // must not be signed as I or D before its motion is read.
  if (!held || held.letter !== guess.letter || (!held.signed && travelled(held.points, points) > STILL)) {
    session.held = { letter: guess.letter, since: now, signed: false, points };
    return;
  }
  if (!held.signed && now - held.since >= HOLD_MS) sign(session, guess);
}

// How far the index and little fingertips moved between two landmark sets, in palm lengths
// (wrist to the middle finger's knuckle), so the hand's size and distance do not matter.
function travelled(from, to) {
  if (!from || !to) return 0;
  const palm = Math.hypot(from[9][0] - from[0][0], from[9][1] - from[0][1]) || 1;
  let most = 0;
  for (const k of [8, 20]) {
    most = Math.max(most, Math.hypot(to[k][0] - from[k][0], to[k][1] - from[k][1]) / palm);
  }
  return most;
}

function sign(session, guess) {
  session.held = { letter: guess.letter, since: performance.now(), signed: true };
  session.onSign({ letter: guess.letter, top: guess.top, points: guess.points });
}

function draw(session, raw) {
  const canvas = session.canvas;
  if (!canvas) return;
  const video = session.video;
  const width = (video && video.videoWidth) || canvas.clientWidth || 320;
  const height = (video && video.videoHeight) || canvas.clientHeight || 240;
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const g = canvas.getContext("2d");
  g.clearRect(0, 0, width, height);
  if (!raw) return;
  g.lineWidth = Math.max(2, width / 160);
  g.strokeStyle = "#E69F00";
  g.beginPath();
  for (const [a, b] of BONES) {
    g.moveTo(raw[a][0] * width, raw[a][1] * height);
    g.lineTo(raw[b][0] * width, raw[b][1] * height);
  }
  g.stroke();
  g.fillStyle = "#0072B2";
  for (const [x, y] of raw) {
    g.beginPath();
    g.arc(x * width, y * height, g.lineWidth * 1.5, 0, 2 * Math.PI);
    g.fill();
  }
}

export function sketch(points, size = 96) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("class", "hand-sketch");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "a sketch of the hand the camera saw");
  const xs = points.map((p) => -p[0]); // mirrored, as the preview shows it
  const ys = points.map((p) => p[1]);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  const span = Math.max(Math.max(...xs) - left, Math.max(...ys) - top) || 1;
  const pad = size * 0.08;
  const k = (size - 2 * pad) / span;
  const dx = (size - (Math.max(...xs) - left) * k) / 2;
  const dy = (size - (Math.max(...ys) - top) * k) / 2;
  const at = (i) => `${((xs[i] - left) * k + dx).toFixed(1)},${((ys[i] - top) * k + dy).toFixed(1)}`;
  for (const chain of CHAINS) {
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", chain.map(at).join(" "));
    svg.append(line);
  }
  return svg;
}
