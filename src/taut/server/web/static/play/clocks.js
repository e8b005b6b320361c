// The game's clocks on its page. The server keeps the time and decides when a clock has run
// out; this only shows what the latest frame says (per seat the milliseconds left and whose
// clocks run), counting down between frames. Each clock says in words whether it runs, is
// low or ran out (not by colour alone); the polite live region speaks only at a few marks
// (a minute, 30 and 10 seconds left on this seat's clock, a clock run out), never every second.
import { who } from "./panels.js";

const $ = (id) => document.getElementById(id);
const TICK_MS = 200;
// Below this a live clock is low (a correspondence clock: below a sixth of its time).
const LOW_MS = 20000;
const MARKS_MS = [60000, 30000, 10000];

let shown = null; // { f, at }: the latest frame with clocks and when it came (performance.now())
let timer = null;
let said = new Set(); // the marks already spoken, per move

function pad(n) {
  return String(n).padStart(2, "0");
}

// Milliseconds as a clock shows them: 4:05, 1:02:03, 0:09.4 under ten seconds, days as 1 d 23 h.
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t >= 86400000) {
    const days = Math.floor(t / 86400000);
    return `${days} d ${Math.floor((t % 86400000) / 3600000)} h`;
  }
  if (t >= 3600000) {
    return `${Math.floor(t / 3600000)}:${pad(Math.floor((t % 3600000) / 60000))}:${pad(Math.floor((t % 60000) / 1000))}`;
  }
  if (t < 10000) return `0:0${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  // Rounded up, as clocks do: a clock shows 0:00 only when it has run out.
  const s = Math.ceil(t / 1000);
  return `${Math.floor(s / 60)}:${pad(s % 60)}`;
}

function leftNow(clock, seat, elapsed) {
  const left = clock.left[seat];
  return clock.running.includes(seat) ? left - elapsed : left;
}

function lowAt(clock) {
  if (clock.kind === "days") return Math.max(...Object.values(clock.left), 0) / 6 || 3600000;
  return LOW_MS;
}

function stateWords(clock, seat, ms) {
  if (clock.flagged === seat) return "out of time";
  if (!clock.running.includes(seat)) return clock.kind === "days" ? "not to move" : "stopped";
  return ms < lowAt(clock) ? "running, low on time" : "running";
}

function draw() {
  if (!shown) return;
  const { f, at } = shown;
  const clock = f.clock;
  const elapsed = performance.now() - at;
  for (const item of $("clocks").children) {
    const seat = item.dataset.seat;
    const ms = leftNow(clock, seat, elapsed);
    const running = clock.running.includes(seat);
    const idleDays = clock.kind === "days" && !running && clock.flagged !== seat;
    item.querySelector(".clock-time").textContent = idleDays ? "—" : clockText(ms);
    item.querySelector(".clock-state").textContent = stateWords(clock, seat, ms);
    item.classList.toggle("running", running);
    item.classList.toggle("low", running && ms < lowAt(clock));
    item.classList.toggle("flagged", clock.flagged === seat);
    if (running && seat === f.you) speakMarks(f, ms);
  }
  if (!clock.running.length) stopTicking();
}

function speakMarks(f, ms) {
  if (f.clock.kind === "days") return;
  for (const mark of MARKS_MS) {
    const key = `${f.move}:${mark}`;
    if (ms <= mark && ms > mark - 5000 && !said.has(key)) {
      said.add(key);
      const note = $("clock-note");
      const left = mark >= 60000 ? plural(mark / 60000, "minute") : plural(mark / 1000, "second");
      note.textContent = `${left} left on your clock.`;
      // Said once by the live region; cleared soon after, so that it never reads as what
      // the clock shows now.
      clearTimeout(noteTimer);
      noteTimer = setTimeout(() => { if (note.textContent.endsWith("left on your clock.")) note.textContent = ""; }, 4000);
    }
  }
}

let noteTimer = null;

// "1 minute", "3 minutes".
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function stopTicking() {
  clearInterval(timer);
  timer = null;
}

function item(f, seat) {
  const li = document.createElement("li");
  li.className = "clock";
  li.dataset.seat = seat;
  const name = Object.assign(document.createElement("span"), { className: "clock-seat", textContent: who(f, seat) });
  const time = Object.assign(document.createElement("span"), { className: "clock-time" });
  time.setAttribute("role", "timer");
  time.setAttribute("aria-label", `${who(f, seat)}'s clock`);
  const state = Object.assign(document.createElement("span"), { className: "clock-state" });
  li.append(name, " ", time, " ", state);
  return li;
}

// Forget the game shown (a rematch followed on the page): its clocks and what was said.
export function resetClocks() {
  shown = null;
  said = new Set();
  stopTicking();
  const note = document.getElementById("clock-note");
  if (note) note.textContent = "";
}

// Show this frame's clocks (call with every frame; a game without clocks hides the panel).
export function renderClocks(f) {
  const panel = $("clock-panel");
  const result = $("clock-result");
  if (!panel) return;
  const clock = f.clock;
  panel.hidden = !clock;
  if (!clock) { shown = null; stopTicking(); return; }
  const was = shown ? shown.f.clock : null;
  shown = { f, at: performance.now() };
  $("clock-control").textContent = clock.kind === "days"
    ? `Correspondence: ${clock.control}.`
    : `Time control ${clock.control}: ${plural(Number(clock.control.split("+")[0]), "minute")} each, plus ${plural(clock.increment_ms / 1000, "second")} a move.`;
  const seats = Object.keys(clock.left);
  const list = $("clocks");
  if ([...list.children].map((li) => li.dataset.seat).join() !== seats.join()) {
    list.replaceChildren(...seats.map((seat) => item(f, seat)));
  }
  for (const li of list.children) li.querySelector(".clock-seat").textContent = who(f, li.dataset.seat);
  if (clock.flagged && (!was || was.flagged !== clock.flagged)) {
    $("clock-note").textContent = `${who(f, clock.flagged)} ran out of time.`;
  }
  if (result) {
    result.hidden = !clock.flagged;
    result.textContent = clock.flagged ? `${who(f, clock.flagged)} lost on time.` : "";
  }
  if (!clock.started && f.phase !== "over") {
    $("clock-control").textContent += " The clocks start with the first choice once every seat is taken.";
  }
  draw();
  if (clock.running.length && !timer) timer = setInterval(draw, TICK_MS);
}
