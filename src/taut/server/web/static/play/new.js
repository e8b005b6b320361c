// The new-game form: the game's options (options.js: presets, plain words, groups, only
// what applies), the seats from the server (their number can depend on the options), the
// clock, then the links to hand out.
import { OptionsForm } from "./options.js";

const entry = JSON.parse(document.getElementById("entry").textContent);
const form = document.getElementById("new-game");
const optionsBox = document.getElementById("options");
const advancedBox = document.getElementById("advanced-options");
const seatsBox = document.getElementById("seats");
const formError = document.getElementById("form-error");
const $ = (id) => document.getElementById(id);

const SEAT_KINDS = [
  ["me", "me (I play here)"],
  ["invite", "a friend (I send a link)"],
  ["open", "anyone (listed in the lobby)"],
];
const LEVEL_TEXT = { easy: "computer: easy", medium: "computer: medium", hard: "computer: hard" };

let seatsShown = [];
let seatChoices = [];
let seatsAsked = 0;
let seatTimer = null;

// The game's options, drawn from its presentation; a change asks for the seats again (their
// number can depend on the options).
const optionsForm = new OptionsForm(entry, {
  options: optionsBox, advanced: advancedBox, presetsBox: $("presets-box"), presets: $("presets"),
  more: $("more-options"), error: formError,
}, () => seatsSoon());
const readOptions = () => optionsForm.read();

function seatsSoon() {
  clearTimeout(seatTimer);
  seatTimer = setTimeout(loadSeats, 150);
}

async function loadSeats() {
  const read = readOptions();
  if (read.problem) { formError.textContent = read.problem; return; }
  const asked = ++seatsAsked;
  let response, body;
  try {
    response = await fetch("/api/seats", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: entry.name, options: read.options }),
    });
    body = await response.json();
  } catch (exc) {
    formError.textContent = `The seats cannot be loaded (${exc.message}).`;
    return;
  }
  if (asked !== seatsAsked) return; // a later change has asked again
  if (!response.ok) { formError.textContent = body.detail || body.error; return; }
  formError.textContent = "";
  showSeats(body);
}

function defaultChoice(i, levels) {
  if (i === 0) return "me";
  return levels.includes("medium") ? "medium" : "invite";
}

function showSeats(body) {
  const before = seatsShown.length;
  seatChoices = body.seats.map((_, i) => {
    const kept = seatChoices[i];
    const allowed = kept && (SEAT_KINDS.some(([k]) => k === kept) || body.levels.includes(kept));
    return allowed ? kept : defaultChoice(i, body.levels);
  });
  seatsShown = body.seats;
  const rows = body.seats.map((seat, i) => seatRow(seat, i, body.levels));
  if (before && before !== body.seats.length) {
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent = `With these options the game has ${body.seats.length} seats.`;
    rows.push(note);
  }
  seatsBox.replaceChildren(...rows);
}

function seatRow(seat, i, levels) {
  const row = document.createElement("div");
  row.className = "seat-row";
  const select = document.createElement("select");
  select.id = `seat-${i}`;
  select.name = `seat:${i}`;
  select.dataset.seat = seat.seat;
  const label = document.createElement("label");
  label.htmlFor = select.id;
  label.textContent = seat.title;
  const kinds = [...SEAT_KINDS, ...levels.map((l) => [l, LEVEL_TEXT[l] || `computer: ${l}`])];
  for (const [value, text] of kinds) {
    const el = document.createElement("option");
    el.value = value;
    el.textContent = text;
    el.selected = value === seatChoices[i];
    select.append(el);
  }
  select.addEventListener("change", () => onlyOneMe(i, select.value));
  row.append(label, select);
  return row;
}

// One person takes one seat: choosing "me" again turns the earlier one into an invitation.
function onlyOneMe(changed, value) {
  seatChoices[changed] = value;
  if (value !== "me") return;
  seatChoices.forEach((kind, i) => {
    if (i !== changed && kind === "me") {
      seatChoices[i] = "invite";
      $(`seat-${i}`).value = "invite";
      formError.textContent = "";
    }
  });
}

function absolute(path) {
  return new URL(path, location.href).href;
}

function linkItem(label, path) {
  const item = document.createElement("li");
  const name = document.createElement("strong");
  name.textContent = label;
  const text = document.createElement("a");
  text.className = "link-text";
  text.href = path;
  text.textContent = absolute(path);
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "secondary small";
  copy.textContent = "Copy";
  copy.setAttribute("aria-label", `Copy the link: ${label}`);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(absolute(path));
      copy.textContent = "Copied";
    } catch {
      copy.textContent = "Select the link to copy it";
    }
  });
  item.append(name, text, copy);
  return item;
}

function remember(body) {
  try {
    const links = {};
    for (const [seat, link] of Object.entries(body.links)) if (link !== body.mine) links[seat] = link;
    localStorage.setItem(`taut:links:${body.id}`, JSON.stringify({ links, spectator: body.spectator }));
  } catch { /* storage refused: the links are shown here only */ }
}

function showMade(body) {
  const list = $("links");
  list.replaceChildren();
  for (const [seat, link] of Object.entries(body.links)) {
    if (link === body.mine) continue;
    const title = (seatsShown.find((s) => s.seat === seat) || { title: seat }).title;
    list.append(linkItem(`Seat ${title}`, link));
  }
  list.append(linkItem("Spectators", body.spectator));
  const mine = $("mine");
  mine.replaceChildren();
  if (body.mine) {
    const go = document.createElement("a");
    go.href = body.mine;
    go.className = "button";
    go.textContent = "Go to your seat";
    mine.append(go);
  } else {
    mine.textContent = "You did not take a seat: watch through the spectators' link.";
  }
  $("made").hidden = false;
  form.hidden = true;
  $("made-title").focus();
}

// The time control: a preset, or a live one typed (the server checks it and says what is
// allowed).
function timeControl() {
  const chosen = $("time_control").value;
  return chosen === "other" ? $("time_control_other").value.trim() : chosen;
}

$("time_control").addEventListener("change", () => {
  const other = $("time_control").value === "other";
  $("time-control-other-field").hidden = !other;
  if (other) $("time_control_other").focus();
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const read = readOptions();
  if (read.problem) {
    formError.textContent = read.problem;
    for (let box = read.input.closest("details"); box; box = box.parentElement.closest("details")) box.open = true;
    read.input.focus();
    return;
  }
  const seats = seatsShown.map((_, i) => ({ kind: seatChoices[i] }));
  if (!seats.length) { formError.textContent = "The seats have not loaded yet."; return; }
  if (!timeControl()) {
    formError.textContent = "Type a time control such as 5+3 (minutes each + seconds a move), or choose one from the list.";
    $("time_control_other").focus();
    return;
  }
  const deadline = $("reveal_deadline").value.trim();
  const request = {
    game: entry.name, options: read.options, seats, name: $("name").value.trim(),
    pace: $("pace").value, reveal_deadline: deadline ? Number(deadline) : null,
    rated: $("rated").checked, time_control: timeControl(),
  };
  const button = $("make");
  button.disabled = true;
  formError.textContent = "";
  try {
    // The maker's player (player.js) takes the maker's seat; a rated game needs one.
    if (window.tautPlayer) await window.tautPlayer.ready;
    const player = window.tautPlayer ? window.tautPlayer.headers() : {};
    const response = await fetch("/api/games", {
      method: "POST", headers: { "Content-Type": "application/json", ...player },
      body: JSON.stringify(request),
    });
    const body = await response.json();
    if (!response.ok) { formError.textContent = body.detail || body.error; return; }
    remember(body);
    const toSend = Object.values(body.links).filter((link) => link !== body.mine);
    if (body.mine && toSend.length === 0) { location.href = body.mine; return; }
    showMade(body);
  } catch (exc) {
    formError.textContent = `The game could not be made (${exc.message}).`;
  } finally {
    button.disabled = false;
  }
});

optionsForm.build();
if (!entry.options.length) $("options-box").hidden = true;
// On a phone the options start folded, so that the seats and the button stay near.
if (window.matchMedia("(max-width: 30em)").matches) $("options-box").open = false;
loadSeats();
