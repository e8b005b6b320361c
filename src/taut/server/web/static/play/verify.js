// Verify a record: every hash recomputed here with WebCrypto; the moves replayed by the server.
import { commitment } from "./commit.js";

const $ = (id) => document.getElementById(id);
const lines = $("report-lines");

function line(text, ok) {
  const p = document.createElement("p");
  p.textContent = (ok === true ? "✓ " : ok === false ? "✗ " : "") + text;
  if (ok !== null) p.className = ok ? "ok" : "error";
  lines.append(p);
}

function summary(record) {
  const seats = Object.entries(record.seats || {}).map(([seat, who]) => `${seat}: ${who}`).join(", ");
  const game = typeof record.game === "string" ? record.game : "a game";
  line(`${game}${seats ? ` (${seats})` : ""}, ${(record.moves || []).length} moves.`, null);
}

async function checkHashes(record) {
  const all = Array.isArray(record.commitments) ? record.commitments : [];
  const gameId = (record.meta || {}).game_id || "";
  let good = 0;
  for (const c of all) {
    const digest = await commitment(gameId, c.move, c.seat, c.action, c.salt);
    if (digest === c.hash) good += 1;
    else line(`Move ${c.move}, ${c.seat}: the hash does not match the revealed move and salt.`, false);
  }
  // With nothing to check there is nothing to tick: the server's replay says the rest.
  if (all.length === 0) { line("The file holds no commitments to check (only games with choices made at the same time have them).", null); return; }
  line(`${good} of ${all.length} commitments match their reveals, checked in this browser.`, good === all.length);
}

async function checkOnServer(text) {
  let response, server;
  try {
    response = await fetch("/api/verify", { method: "POST", body: text });
    server = await response.json();
  } catch (exc) {
    line(`The server could not be asked (${exc.message}).`, false);
    return;
  }
  if (!response.ok) { line(server.detail || server.error || `The server answered ${response.status}.`, false); return; }
  for (const problem of server.problems || []) line(`The server: ${problem}.`, false);
  if (!server.readable) { line("The server found no game record here: nothing was verified.", false); return; }
  // A record that does not verify may not be the game that was played: no result is claimed.
  const how = server.ok ? `all legal${server.result ? `; ${server.result}` : ""}` : "the record does not verify (see the problems above)";
  line(`The server replayed ${server.moves} moves by the rules: ${how}.`, server.ok);
}

async function check(text) {
  lines.replaceChildren();
  $("report").hidden = false;
  let record;
  try { record = JSON.parse(text); } catch { line("The file is not JSON: a record is the JSON file a finished game offers.", false); return; }
  if (!record || typeof record !== "object" || Array.isArray(record)) { line("The file is JSON but not a record.", false); return; }
  summary(record);
  await checkHashes(record);
  await checkOnServer(text);
}

$("file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (file) await check(await file.text());
});
$("verify-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  await check($("paste").value);
});
