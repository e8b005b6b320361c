// The new-game form: the game's presets, one field per declared option (in plain words, in
// the plugin's groups; technical ones under "More"; options that do not apply to the current
// choices hidden and not sent), the seats from the server (their number can depend on the
// options), then the links to hand out.
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

function human(name) {
  return name.replace(/[_-]+/g, " ");
}

function shown(value) {
  if (value === null) return "none";
  if (value === true) return "on";
  if (value === false) return "off";
  return String(value);
}

// One option's control: a switch, a list of choices, a number or a text.
function control(option) {
  const id = `option-${option.name}`;
  let input;
  if (option.kind === "bool" && !option.nullable) {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = option.default === true;
  } else if (option.choices.length || option.kind === "bool") {
    input = document.createElement("select");
    const values = option.kind === "bool" ? [true, false] : option.choices;
    for (const value of option.nullable ? [null, ...values] : values) {
      const el = document.createElement("option");
      el.value = JSON.stringify(value);
      el.textContent = shown(value) + (value === option.default ? " (default)" : "");
      el.selected = value === option.default;
      input.append(el);
    }
  } else {
    input = document.createElement("input");
    if (option.kind === "int" || option.kind === "float") {
      input.type = "number";
      input.step = option.kind === "int" ? "1" : "any";
      input.inputMode = option.kind === "int" ? "numeric" : "decimal";
      if (option.minimum !== null) input.min = option.minimum;
      if (option.maximum !== null) input.max = option.maximum;
    } else {
      input.type = "text";
      input.spellcheck = false;
    }
    input.value = option.default === null ? "" : String(option.default);
    if (option.nullable) input.placeholder = "none";
  }
  input.id = id;
  input.name = `option:${option.name}`;
  input.dataset.option = option.name;
  input.addEventListener("change", () => { followChoices(); seatsSoon(); });
  input.addEventListener("input", () => { input.removeAttribute("aria-invalid"); });
  return input;
}

function labelOf(option) {
  return option.label || human(option.name);
}

function field(option) {
  const box = document.createElement("div");
  box.className = "field";
  box.id = `field-${option.name}`;
  const input = control(option);
  const label = document.createElement("label");
  label.htmlFor = input.id;
  label.textContent = labelOf(option);
  const hint = document.createElement("p");
  hint.className = "hint";
  hint.id = `${input.id}-hint`;
  const doc = (option.help || option.doc).replace(/\.$/, "");
  const typed = input.tagName === "INPUT" && input.type !== "checkbox";
  hint.textContent = typed ? `${doc}. Allowed: ${option.allowed}; default: ${shown(option.default)}.` : `${doc}.`;
  input.setAttribute("aria-describedby", hint.id);
  if (input.type === "checkbox") {
    box.classList.add("check");
    label.prepend(input);
    box.append(label, hint);
  } else {
    box.append(label, input, hint);
  }
  if (option.upload && input.tagName === "SELECT") box.append(...uploadField(option, input));
  return box;
}

// An option that also takes a file of the player's own (a tile set): the file is read here
// and sent as its text, as one more choice of the list; the server checks it.
function uploadField(option, select) {
  const file = document.createElement("input");
  file.type = "file";
  file.accept = option.upload;
  file.id = `${select.id}-file`;
  const label = document.createElement("label");
  label.htmlFor = file.id;
  label.textContent = `Or your own ${labelOf(option).toLowerCase()} file (${option.upload})`;
  const hint = document.createElement("p");
  hint.className = "hint";
  hint.id = `${file.id}-hint`;
  hint.textContent = "Pictures must be inside the file: taut tiles FILE --bundle OUT writes one.";
  file.setAttribute("aria-describedby", hint.id);
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    if (chosen.size > 2000000) {
      formError.textContent = `${chosen.name} is larger than 2 MB.`;
      return;
    }
    let mine = select.querySelector("option[data-upload]");
    if (!mine) {
      mine = document.createElement("option");
      mine.dataset.upload = "true";
      select.append(mine);
    }
    mine.value = JSON.stringify(await chosen.text());
    mine.textContent = `your file: ${chosen.name}`;
    mine.selected = true;
    followChoices();
    seatsSoon();
  });
  return [label, file, hint];
}

// The options as the server reads them, or the first problem found (and its field marked).
// An option that does not apply to the current choices is not sent: the server's default holds.
function readOptions() {
  const out = {};
  const applying = applies();
  for (const option of entry.options) {
    const input = $(`option-${option.name}`);
    input.removeAttribute("aria-invalid");
    if (!applying.has(option.name)) continue;
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else if (input.value.trim() === "") value = option.nullable ? null : (option.kind === "str" ? "" : undefined);
    else if (option.kind === "int") {
      value = /^[+-]?\d{1,18}$/.test(input.value.trim()) ? Number(input.value.trim()) : undefined;
      const low = option.minimum !== null && value < option.minimum;
      const high = option.maximum !== null && value > option.maximum;
      if (low || high) value = undefined;
    } else if (option.kind === "float") {
      value = /^[+-]?(\d{1,17}(\.\d{0,17})?|\.\d{1,17})$/.test(input.value.trim()) ? Number(input.value.trim()) : undefined;
      const low = option.minimum !== null && value < option.minimum;
      const high = option.maximum !== null && value > option.maximum;
      if (low || high) value = undefined;
    } else value = input.value;
    if (value === undefined) {
      input.setAttribute("aria-invalid", "true");
      return { problem: `${labelOf(option)}: allowed values are ${option.allowed}.`, input };
    }
    out[option.name] = value;
  }
  return { options: out };
}

// -- groups, conditions and presets (from the plugin's presentation of its options) ----------

const byName = new Map(entry.options.map((o) => [o.name, o]));

// An option's current value in the form (a text or number field as typed: undefined if unread).
function currentValue(option) {
  const input = $(`option-${option.name}`);
  if (input.type === "checkbox") return input.checked;
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  const text = input.value.trim();
  if (text === "") return option.nullable ? null : "";
  return option.kind === "int" || option.kind === "float" ? Number(text) : input.value;
}

function setValue(option, value) {
  const input = $(`option-${option.name}`);
  if (input.type === "checkbox") input.checked = value === true;
  else if (input.tagName === "SELECT") input.value = JSON.stringify(value);
  else input.value = value === null ? "" : String(value);
  input.removeAttribute("aria-invalid");
}

// The options that apply now: each of an option's conditions names an option that applies
// and holds one of the listed values.
function applies() {
  const out = new Set();
  const visiting = new Set();
  const check = (option) => {
    if (out.has(option.name)) return true;
    if (visiting.has(option.name)) return false;
    visiting.add(option.name);
    const ok = Object.entries(option.shown_when || {}).every(([other, values]) => {
      const found = byName.get(other);
      return found && check(found) && values.some((v) => v === currentValue(found));
    });
    visiting.delete(option.name);
    if (ok) out.add(option.name);
    return ok;
  };
  for (const option of entry.options) check(option);
  return out;
}

function groupBox(name, holder) {
  const box = document.createElement("fieldset");
  box.className = "option-group";
  box.dataset.group = name;
  const legend = document.createElement("legend");
  legend.textContent = name;
  box.append(legend);
  holder.append(box);
  return box;
}

function buildOptions() {
  const plain = new Map();
  const more = new Map();
  for (const name of entry.groups || []) {
    plain.set(name, groupBox(name, optionsBox));
    more.set(name, groupBox(name, advancedBox));
  }
  for (const option of entry.options) {
    const boxes = option.advanced ? more : plain;
    const group = option.group || "Options";
    if (!boxes.has(group)) boxes.set(group, groupBox(group, option.advanced ? advancedBox : optionsBox));
    boxes.get(group).append(field(option));
  }
  buildPresets();
  followChoices();
}

function buildPresets() {
  const presets = entry.presets || [];
  $("presets-box").hidden = presets.length === 0;
  $("presets").replaceChildren(...presets.map((preset, i) => {
    const row = document.createElement("div");
    row.className = "field check preset";
    const radio = Object.assign(document.createElement("input"), {
      type: "radio", name: "preset", id: `preset-${i}`, value: String(i),
    });
    radio.addEventListener("change", () => { if (radio.checked) applyPreset(preset); });
    const label = document.createElement("label");
    label.htmlFor = radio.id;
    label.append(radio, ` ${preset.name}`);
    const hint = Object.assign(document.createElement("p"), {
      className: "hint", id: `${radio.id}-hint`, textContent: preset.description,
    });
    radio.setAttribute("aria-describedby", hint.id);
    row.append(label, hint);
    return row;
  }));
}

// A preset sets every option it names; the others go back to their defaults, except the
// technical ones (under "More"), which keep what the player set.
function applyPreset(preset) {
  for (const option of entry.options) {
    if (option.advanced && !(option.name in preset.values)) continue;
    const upload = $(`option-${option.name}`).querySelector?.("option[data-upload]");
    if (upload) upload.remove();
    const file = $(`option-${option.name}-file`);
    if (file) file.value = "";
    setValue(option, option.name in preset.values ? preset.values[option.name] : option.default);
  }
  followChoices();
  seatsSoon();
}

// After any change: hide what does not apply (and empty groups), and mark the preset the
// options now match (none: the player's own choice).
function followChoices() {
  const applying = applies();
  for (const option of entry.options) $(`field-${option.name}`).hidden = !applying.has(option.name);
  for (const box of document.querySelectorAll(".option-group")) {
    box.hidden = ![...box.querySelectorAll(".field")].some((f) => !f.hidden);
  }
  $("more-options").hidden = ![...advancedBox.querySelectorAll(".field")].some((f) => !f.hidden);
  let matched = false;
  (entry.presets || []).forEach((preset, i) => {
    const same = entry.options.every((option) => {
      const wanted = option.name in preset.values ? preset.values[option.name] : option.default;
      if (!applying.has(option.name) || (option.advanced && !(option.name in preset.values))) return true;
      return currentValue(option) === wanted;
    });
    $(`preset-${i}`).checked = same && !matched;
    matched = matched || same;
  });
}

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

buildOptions();
if (!entry.options.length) $("options-box").hidden = true;
// On a phone the options start folded, so that the seats and the button stay near.
if (window.matchMedia("(max-width: 30em)").matches) $("options-box").open = false;
loadSeats();
