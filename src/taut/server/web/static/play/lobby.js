// The open games (the lobby page and the home page): taking a seat claims it and opens the game.
const body = document.getElementById("lobby");
const table = document.getElementById("lobby-table");
const empty = document.getElementById("lobby-empty");
const error = document.getElementById("lobby-error");

function ago(seconds) {
  const past = Math.max(0, Date.now() / 1000 - seconds);
  if (past < 60) return "just now";
  if (past < 3600) return `${Math.round(past / 60)} min ago`;
  if (past < 86400) return `${Math.round(past / 3600)} h ago`;
  return new Date(seconds * 1000).toLocaleDateString();
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

// Rated or not, and the rating range a rated seek asks for.
function rated(game) {
  if (!game.rated) return "no";
  return game.rating_range ? `yes, ${game.rating_range[0]} to ${game.rating_range[1]}` : "yes";
}

async function load() {
  let games;
  try {
    const response = await fetch("/api/lobby");
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    games = await response.json();
  } catch (exc) {
    error.textContent = `The open games cannot be loaded (${exc.message}); trying again soon.`;
    return;
  }
  error.textContent = "";
  empty.hidden = games.length > 0;
  table.hidden = games.length === 0;
  body.replaceChildren();
  for (const game of games) {
    const row = document.createElement("tr");
    row.append(cell(game.title), cell(game.variant || "standard"), cell(rated(game)),
      cell(game.time_control || "none"), cell(String(game.open_seats)), cell(ago(game.created)));
    const td = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small";
    button.textContent = "Take a seat";
    button.setAttribute("aria-label", `Take a seat in ${game.title}, made ${ago(game.created)}`);
    button.addEventListener("click", () => take(game.id, button));
    td.append(button);
    row.append(td);
    body.append(row);
  }
}

async function take(id, button) {
  button.disabled = true;
  try {
    const page = await (await fetch(`/api/games/${encodeURIComponent(id)}/open-seats`)).json();
    for (const seat of page.seats || []) {
      const url = `/api/games/${encodeURIComponent(id)}/claim/${encodeURIComponent(seat)}`;
      if (window.tautPlayer) await window.tautPlayer.ready;
      const headers = window.tautPlayer ? window.tautPlayer.headers() : {};
      const response = await fetch(url, { method: "POST", headers });
      if (response.ok) {
        location.href = (await response.json()).link;
        return;
      }
      if (response.status === 403) {  // outside the maker's rating range
        error.textContent = `${(await response.json()).detail}.`;
        button.disabled = false;
        return;
      }
    }
    error.textContent = "Somebody took that seat first; the list is up to date again.";
  } catch (exc) {
    error.textContent = `The seat could not be taken (${exc.message}).`;
  }
  button.disabled = false;
  load();
}

load();
setInterval(load, 10000);
