// The webhook field of the player's own page: read, saved and removed with the player's key.

const $ = (id) => document.getElementById(id);
const HEADER = "X-Taut-Player";

function key() {
  try { return (JSON.parse(localStorage.getItem("taut:player") || "null") || {}).key || null; } catch { return null; }
}

async function call(method, body) {
  const k = key();
  if (!k) { $("webhook-status").textContent = "Make a player first (this page does it on your first visit)."; return null; }
  const headers = { [HEADER]: k };
  if (body) headers["Content-Type"] = "application/json";
  const answer = await fetch("/api/me/webhook", { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) { $("webhook-status").textContent = data.detail || data.error || "The server refused it."; return null; }
  return data;
}

async function load() {
  const data = await call("GET");
  if (data) $("webhook-url").value = data.url || "";
}

$("webhook-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const url = $("webhook-url").value.trim();
  if (!url) { $("webhook-status").textContent = "Give a URL, or remove the webhook."; return; }
  if (await call("PUT", { url })) $("webhook-status").textContent = "Saved.";
});
$("webhook-clear").addEventListener("click", async () => {
  if (await call("DELETE")) { $("webhook-url").value = ""; $("webhook-status").textContent = "Removed."; }
});
setTimeout(load, 300); // after player.js has made the player on a first visit
