// A learner's calibration of the sign recogniser: their own signs, which the recogniser
// adapts to (signs.js: calibrate, and the calibration argument of classify). Kept with the
// player on the server (PUT /api/me/calibration, so it follows them to every device they
// sign in on) and in this browser's storage (for a browser without a player, or a server
// that is away).
//
//   import { loadCalibration, saveCalibration, deleteCalibration } from "/static/signs/calibration.js";
//   await loadCalibration()     the calibration ({version, letters}) or null
//   await saveCalibration(cal)  keeps it; resolves to where: {server: bool, browser: true}
//   await deleteCalibration()   forgets it everywhere

const STORE = "taut:calibration";
const HEADER = "X-Taut-Player";

function storageGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function storageSet(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

function playerKey() {
  try { return (JSON.parse(storageGet("taut:player") || "null") || {}).key || null; } catch { return null; }
}

async function api(method, body = undefined) {
  const key = playerKey();
  if (!key) return null;
  try {
    const response = await fetch("/api/me/calibration", {
      method,
      headers: { "Content-Type": "application/json", [HEADER]: key },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) return null;
    return await response.json();
  } catch {
    return null;
  }
}

function local() {
  try { return JSON.parse(storageGet(STORE) || "null"); } catch { return null; }
}

// The player's calibration as the server keeps it (the server decides: one deleted on
// another device is gone here too); this browser's copy when there is no player or the
// server cannot be asked.
export async function loadCalibration() {
  const answer = await api("GET");
  if (answer) {
    storageSet(STORE, answer.calibration ? JSON.stringify(answer.calibration) : null);
    return answer.calibration || null;
  }
  return local();
}

export async function saveCalibration(calibration) {
  const browser = storageSet(STORE, JSON.stringify(calibration));
  const answer = await api("PUT", { calibration });
  return { server: Boolean(answer), browser };
}

export async function deleteCalibration() {
  storageSet(STORE, null);
  await api("DELETE");
}

// How many letters and signs a calibration holds.
export function calibrationSize(calibration) {
  const letters = Object.keys((calibration && calibration.letters) || {});
  const signs = letters.reduce((n, k) => n + calibration.letters[k].length, 0);
  return { letters: letters.length, signs };
}
