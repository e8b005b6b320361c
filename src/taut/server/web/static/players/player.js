// The player behind this browser: a key made on the first visit and kept in localStorage
// (the server keeps only its SHA-256), sent in the X-Taut-Player header. Every page loads
// this script; it also attaches the seat of a game link to the player, fills the player's
// own page (name, devices, sign-in links) and signs a new device in from a link.

const STORE = "taut:player";
const HEADER = "X-Taut-Player";
const memory = new Map();
const storage = {
  get(key) { try { return localStorage.getItem(key); } catch { return memory.get(key) ?? null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { memory.set(key, value); } },
  remove(key) { try { localStorage.removeItem(key); } catch { memory.delete(key); } },
};

function saved() {
  try { return JSON.parse(storage.get(STORE) || "null"); } catch { return null; }
}

function keep(body) {
  const me = { key: body.key, id: body.id, name: body.name };
  storage.set(STORE, JSON.stringify(me));
  return me;
}

// A device's label in words people use ("Firefox on Linux", "Safari on iPhone"); the list
// of devices adds when each was added and last seen, so that two alike can be told apart.
const BROWSERS = [[/Edg\//, "Edge"], [/OPR\//, "Opera"], [/Firefox\//, "Firefox"],
  [/Chrome\//, "Chrome"], [/Safari\//, "Safari"]];
const SYSTEMS = [[/iPhone/, "iPhone"], [/iPad/, "iPad"], [/Android/, "Android"],
  [/Windows/, "Windows"], [/Mac OS X|Macintosh/, "macOS"], [/CrOS/, "ChromeOS"],
  [/Linux|X11/, "Linux"]];

function device() {
  const agent = navigator.userAgent || "";
  const named = (table, fallback) => (table.find(([pattern]) => pattern.test(agent)) || [null, fallback])[1];
  return `${named(BROWSERS, "A browser")} on ${named(SYSTEMS, "an unknown system")}`.slice(0, 80);
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, {
    day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
}

async function api(path, options = {}) {
  const me = saved();
  const headers = { "Content-Type": "application/json", ...(options.headers || {}) };
  if (me && me.key) headers[HEADER] = me.key;
  const response = await fetch(path, { ...options, headers });
  let body = {};
  try { body = await response.json(); } catch { /* an empty answer */ }
  return { ok: response.ok, status: response.status, body };
}

async function create() {
  const response = await fetch("/api/players", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ device: device() }),
  });
  if (!response.ok) return null;
  return keep(await response.json());
}

// The player of this browser, made on the first visit; a key the server no longer knows
// (revoked from another device) is dropped and a new player made.
async function ensure() {
  const me = saved();
  if (me && me.key) {
    const answer = await api("/api/me");
    if (answer.ok) return keep({ ...answer.body, key: me.key });
    if (answer.status !== 401) return me;  // the server is away: keep the key
    storage.remove(STORE);
  }
  return create();
}

function showMe(me) {
  const link = document.getElementById("me-link");
  if (!link || !me) return;
  link.href = `/players/${encodeURIComponent(me.name)}`;
  link.textContent = me.name;
  link.hidden = false;
}

async function attachSeat(me) {
  const match = location.pathname.match(/^\/g\/([^/]+)$/);
  const token = location.hash.slice(1);
  if (!match || !token || !me) return;
  storage.set(`taut:seat:${match[1]}`, location.pathname + location.hash);
  // A seat another player holds was refused once: say so again without asking again. The
  // refusal is asked for in the answer's body, so that it is no failed request.
  const refusedKey = `taut:refused:${match[1]}:${token}`;
  let line = storage.get(refusedKey);
  if (!line) {
    // A spectator's link attaches nothing (the answer names no seat); the game plays on.
    const answer = await api(`/api/games/${match[1]}/player`, {
      method: "POST", body: JSON.stringify({ token, refusal_in_body: true }),
    });
    // A rated game says for whom this seat counts, or why it cannot count.
    if (answer.ok && answer.body.refusal) {
      line = answer.body.refusal;
      storage.set(refusedKey, line);
    } else if (answer.ok && answer.body.rated) line = `Rated game: seat ${answer.body.seat} counts for ${answer.body.player}.`;
  }
  const main = document.getElementById("main");
  if (line && main) {
    const note = text("p", line);
    note.className = "note";
    note.id = "rated-note";
    main.prepend(note);
  }
}

function text(tag, content) {
  const node = document.createElement(tag);
  node.textContent = content;
  return node;
}

async function fillOwnPage(me) {
  const data = document.getElementById("player-data");
  if (!data) return;
  for (const link of document.querySelectorAll("a[data-game]")) {
    const kept = storage.get(`taut:seat:${link.dataset.game}`);
    if (kept) link.href = kept;
  }
  const page = JSON.parse(data.textContent);
  if (!me || page.id !== me.id) return;
  document.getElementById("you").hidden = false;
  // The page is public and says whose move it is by name; to its own player, "Your move".
  for (const mover of document.querySelectorAll("tr.your-move .mover")) mover.textContent = "Your move";
  const list = document.getElementById("devices");
  async function devices() {
    const answer = await api("/api/me");
    if (!answer.ok) return;
    list.replaceChildren();
    for (const d of answer.body.devices) {
      const item = text("li", `${d.device}${d.this ? " (this one)" : ""}, added ${when(d.created)}, last seen ${when(d.seen)} `);
      const revoke = text("button", d.this ? "Sign out here" : "Revoke");
      revoke.type = "button";
      revoke.addEventListener("click", async () => {
        await api(`/api/me/devices/${encodeURIComponent(d.id)}`, { method: "DELETE" });
        if (d.this) { storage.remove(STORE); location.href = "/"; return; }
        devices();
      });
      item.append(revoke);
      list.append(item);
    }
  }
  devices();
  document.getElementById("rename").addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("rename-error");
    const name = document.getElementById("new-name").value;
    const answer = await api("/api/me/name", { method: "POST", body: JSON.stringify({ name }) });
    if (!answer.ok) { error.textContent = answer.body.detail || answer.body.error; return; }
    keep({ ...me, name: answer.body.name });
    location.href = answer.body.page;
  });
  document.getElementById("signin-link").addEventListener("click", async () => {
    const out = document.getElementById("signin-out");
    const answer = await api("/api/me/signin-link", { method: "POST" });
    if (!answer.ok) { out.textContent = answer.body.detail || "no link could be made"; return; }
    const url = new URL(answer.body.link, location.href).href;
    out.replaceChildren(
      text("span", `Open this link on the other device within ${answer.body.seconds / 60} minutes (once): `),
      text("code", url),
    );
  });
}

async function signIn() {
  const status = document.getElementById("signin-status");
  const token = location.hash.slice(1);
  if (!token) { status.textContent = "This sign-in link has no token: make a new one."; return null; }
  history.replaceState(null, "", location.pathname);  // the token is used once: drop it
  const answer = await api("/api/signin", {
    method: "POST", body: JSON.stringify({ token, device: device() }),
  });
  if (!answer.ok) { status.textContent = answer.body.detail || answer.body.error; return saved(); }
  const me = keep(answer.body);
  status.replaceChildren(text("span", "Signed in as "), Object.assign(text("a", me.name), { href: answer.body.page }));
  return me;
}

const ready = (async () => {
  const me = location.pathname === "/signin" ? await signIn() : await ensure();
  showMe(me);
  if (location.pathname === "/me") {
    if (me) location.replace(`/players/${encodeURIComponent(me.name)}`);
    else document.getElementById("me-status").textContent = "No player could be made here.";
  }
  await attachSeat(me);
  await fillOwnPage(me);
  return me;
})().catch(() => null);

window.tautPlayer = {
  ready,
  // The header of this browser's player, for the API calls of other scripts.
  headers() { const me = saved(); return me && me.key ? { [HEADER]: me.key } : {}; },
};
