// Tournaments: the list and the form that makes one (/tournaments: the game's options drawn
// as the new-game form draws them), and one tournament's standings and rounds, kept up to
// date, with this player's own games (/t/ID).
import { OptionsForm } from "../play/options.js";

const $ = (id) => document.getElementById(id);

async function player() {
  if (window.tautPlayer) await window.tautPlayer.ready;
  return window.tautPlayer ? window.tautPlayer.headers() : {};
}

async function call(path, options = {}) {
  const headers = { "Content-Type": "application/json", ...(await player()) };
  const response = await fetch(path, { ...options, headers });
  let body = {};
  try { body = await response.json(); } catch { /* an empty answer */ }
  if (!response.ok) throw new Error(body.detail || body.error || `the server answered ${response.status}`);
  return body;
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

async function listPage() {
  const body = document.getElementById("tournaments");
  const table = document.getElementById("tournaments-table");
  const empty = document.getElementById("tournaments-empty");
  const error = document.getElementById("tournaments-error");
  async function load() {
    let found;
    try {
      found = await call("/api/tournaments");
    } catch (exc) {
      error.textContent = `The tournaments cannot be loaded (${exc.message}).`;
      return;
    }
    error.textContent = "";
    table.hidden = found.length === 0;
    empty.hidden = found.length > 0;
    body.replaceChildren();
    for (const t of found) {
      const row = document.createElement("tr");
      const name = document.createElement("td");
      name.append(link(t.page, t.name));
      const system = t.system === "swiss" ? `Swiss, ${t.rounds} rounds` : "round robin";
      row.append(name, cell(`${t.title} (${t.variant})`), cell(`${system}${t.rated ? ", rated" : ""}`),
        cell(when(t.starts_at)), cell(String(t.entrants)), cell(t.status));
      body.append(row);
    }
  }
  const form = document.getElementById("tournament-form");
  const system = document.getElementById("t-system");
  const roundsRow = document.getElementById("t-rounds-row");
  const start = document.getElementById("t-start");
  const soon = new Date(Date.now() + 3600 * 1000 - new Date().getTimezoneOffset() * 60000);
  start.value = soon.toISOString().slice(0, 16);
  system.addEventListener("change", () => { roundsRow.hidden = system.value !== "swiss"; });
  // The chosen game's options, drawn from its presentation; the seats they make are checked
  // as they change (a tournament game has two).
  const entries = new Map(JSON.parse($("entries").textContent).map((e) => [e.name, e]));
  const game = $("t-game");
  const problem = $("tournament-form-error");
  const note = $("t-seats-note");
  let optionsForm = null;
  let asked = 0;
  let timer = null;
  async function checkSeats() {
    const read = optionsForm.read();
    if (read.problem) { problem.textContent = read.problem; return; }
    const mine = ++asked;
    try {
      const response = await fetch("/api/seats", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: game.value, options: read.options }),
      });
      const body = await response.json();
      if (mine !== asked) return;
      if (!response.ok) { problem.textContent = body.detail || body.error; return; }
      const two = body.seats.length === 2;
      note.textContent = two ? "A tournament game has two seats."
        : `With these options the game has ${body.seats.length} seats; a tournament game has two.`;
      note.classList.toggle("error", !two);
      problem.textContent = "";
    } catch (exc) {
      problem.textContent = `The options cannot be checked (${exc.message}).`;
    }
  }
  function showGame() {
    const entry = entries.get(game.value);
    optionsForm = new OptionsForm(entry, {
      options: $("options"), advanced: $("advanced-options"), presetsBox: $("presets-box"),
      presets: $("presets"), more: $("more-options"), error: problem,
    }, () => { clearTimeout(timer); timer = setTimeout(checkSeats, 150); });
    optionsForm.build();
    $("options-box").hidden = entry.options.length === 0;
    checkSeats();
  }
  game.addEventListener("change", showGame);
  showGame();
  const clock = $("time_control");
  clock.addEventListener("change", () => {
    const other = clock.value === "other";
    $("time-control-other-field").hidden = !other;
    if (other) $("time_control_other").focus();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    problem.textContent = "";
    const read = optionsForm.read();
    if (read.problem) {
      problem.textContent = read.problem;
      for (let box = read.input.closest("details"); box; box = box.parentElement.closest("details")) box.open = true;
      read.input.focus();
      return;
    }
    try {
      const sent = {
        name: $("t-name").value,
        game: game.value,
        options: read.options,
        system: system.value,
        starts_at: new Date(start.value).getTime() / 1000,
        rated: document.getElementById("t-rated").checked,
      };
      if (system.value === "swiss") sent.rounds = Number(document.getElementById("t-rounds").value);
      const control = clock.value === "other" ? $("time_control_other").value.trim() : clock.value;
      if (control && control !== "none") sent.time_control = control;
      const made = await call("/api/tournaments", { method: "POST", body: JSON.stringify(sent) });
      await call(`/api/tournaments/${encodeURIComponent(made.id)}/join`, { method: "POST" });
      location.href = made.page;
    } catch (exc) {
      problem.textContent = `The tournament was not made: ${exc.message}.`;
    }
  });
  load();
  setInterval(load, 15000);
}

async function tournamentPage(id) {
  const error = document.getElementById("t-error");
  const join = document.getElementById("t-join");
  const levels = document.getElementById("t-levels");
  const path = `/api/tournaments/${encodeURIComponent(id)}`;
  const starts = document.getElementById("t-starts");
  starts.textContent = when(Number(starts.getAttribute("datetime")));

  function show(t) {
    document.getElementById("t-state").textContent = t.note ? `${t.status}: ${t.note}` : t.status;
    join.hidden = t.status !== "open" || t.entered;
    levels.hidden = t.status !== "open" || !t.mine;
    for (const button of levels.querySelectorAll("button")) {
      button.hidden = !t.levels.includes(button.dataset.level);
    }
    const standings = document.getElementById("t-standings");
    standings.replaceChildren();
    for (const s of t.standings) {
      const row = document.createElement("tr");
      const name = document.createElement("td");
      name.append(s.page ? link(s.page, s.name) : s.name);
      const byes = s.byes ? ` +${s.byes} bye${s.byes > 1 ? "s" : ""}` : "";
      row.append(cell(String(s.rank)), name, cell(String(s.points)), cell(String(s.tiebreak)),
        cell(`${s.wins}–${s.draws}–${s.losses}${byes}`));
      standings.append(row);
    }
    const rounds = document.getElementById("t-rounds");
    rounds.replaceChildren();
    for (const r of t.rounds) {
      const title = document.createElement("h3");
      title.textContent = `Round ${r.round}`;
      const list = document.createElement("ul");
      for (const b of r.boards) {
        const item = document.createElement("li");
        if (b.bye) {
          item.textContent = `${b.first.name}: bye`;
        } else {
          item.append(`${b.first.name} – ${b.second.name}: ${b.result} `);
          // A game still going is to be played; a finished one is there to look at again.
          if (b.yours) item.append(link(b.yours, b.score === null ? "play your game" : "your game"), " ");
          if (b.game) item.append("(", link(b.game, "watch"), ")");
        }
        list.append(item);
      }
      rounds.append(title, list);
    }
  }

  async function load() {
    try {
      show(await call(path));
      error.textContent = "";
    } catch (exc) {
      error.textContent = `The tournament cannot be loaded (${exc.message}).`;
    }
  }
  join.addEventListener("click", async () => {
    try { show(await call(`${path}/join`, { method: "POST" })); } catch (exc) { error.textContent = exc.message; }
  });
  for (const button of levels.querySelectorAll("button")) {
    button.addEventListener("click", async () => {
      try {
        show(await call(`${path}/entrants`, { method: "POST", body: JSON.stringify({ level: button.dataset.level }) }));
      } catch (exc) { error.textContent = exc.message; }
    });
  }
  // Live: the server sends the tournament again whenever it changes (an entrant, a round
  // paired, a game over); a lost connection is opened again, and meanwhile the page asks.
  let retry = 1000;
  async function follow() {
    const headers = await player();
    const url = new URL(`${path}/live`, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      retry = 1000;
      socket.send(JSON.stringify({ key: headers["X-Taut-Player"] || null }));
    });
    socket.addEventListener("message", (event) => {
      show(JSON.parse(event.data));
      error.textContent = "";
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4404) { error.textContent = "This tournament is no longer here."; return; }
      load();
      setTimeout(follow, retry);
      retry = Math.min(retry * 2, 30000);
    });
  }
  load();
  follow();
}

const one = document.getElementById("tournament");
if (one) tournamentPage(one.dataset.id); else listPage();
