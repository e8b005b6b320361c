// What a frame says about the players and the story of the game, as text and list items
// (names are always inserted as text).

export function seatOf(f, name) {
  return f.seats.find((s) => s.seat === name) || { seat: name, title: name, kind: "human", name: "" };
}

// A seat as the sentences name it: "O (Ann)", "E (computer)", or the bare seat.
export function who(f, name) {
  const s = seatOf(f, name);
  if (s.kind === "computer") return `${name} (computer)`;
  return s.name ? `${name} (${s.name})` : name;
}

export function listed(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// The log is a window of the latest lines: the lines of `now` after where `old` ends.
export function newLines(old, now) {
  for (let k = Math.min(old.length, now.length); k > 0; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) same = old[old.length - k + i] === now[i];
    if (same) return now.slice(k);
  }
  return now.slice();
}

// How many of the log's last lines the last move added (the server may say; else they are
// found by comparing with the frame before).
export function lastLines(f, before, count) {
  let out = count;
  if (typeof f.last === "number") out = f.last;
  else if (before) {
    const added = newLines(before.log, f.log);
    if (f.move !== before.move) out = added.length || out;
    else out += added.length;
  }
  return Math.min(out, f.log.length);
}

export function logItems(f, last) {
  return f.log.map((line, i) => {
    const item = document.createElement("li");
    item.textContent = line;
    if (i >= f.log.length - last) item.classList.add("last");
    return item;
  });
}

function badgesOf(f, s) {
  const badges = [];
  if (s.seat === f.you) badges.push(["you", "you"]);
  if (f.acting.includes(s.seat) && f.phase !== "over") {
    if (f.phase === "play") badges.push(["wait", "to move"]);
    else if (f.revealed.includes(s.seat)) badges.push(["done", "revealed"]);
    else if (f.committed.includes(s.seat)) badges.push(["done", "has chosen"]);
    else badges.push(["wait", "choosing…"]);
  }
  if (f.winners && f.winners.includes(s.seat)) badges.push(["done", "won"]);
  else if (f.phase === "over" && f.winners && f.winners.length) badges.push(["lost", "lost"]);
  return badges;
}

// The players: each seat's title, who sits there, and where they stand now.
export function seatItems(f) {
  return f.seats.map((s) => {
    const item = document.createElement("li");
    const title = document.createElement("span");
    title.className = "who";
    title.textContent = s.title;
    // An unnamed seat of this person needs no name: its "you" badge says it.
    const person = s.kind === "computer" ? `the computer (${s.agent})` : s.name || (s.seat === f.you ? "" : "a player");
    item.append(title, document.createTextNode(person ? `: ${person}` : ""));
    if (f.acting.includes(s.seat) && f.phase !== "over") item.classList.add("acting");
    for (const [kind, text] of badgesOf(f, s)) {
      const badge = document.createElement("span");
      badge.className = `badge ${kind}`;
      badge.textContent = text;
      item.append(badge);
    }
    return item;
  });
}

// The links of a game this browser made (kept when it was made), to pass on again.
export function shareItems(kept, here) {
  const entries = [
    ...Object.entries(kept.links || {}).map(([seat, link]) => [`Seat ${seat}`, link]),
    ["Spectators", kept.spectator],
  ];
  return entries.filter(([, link]) => link).map(([label, link]) => {
    const item = document.createElement("li");
    const name = document.createElement("strong");
    name.textContent = label;
    const a = document.createElement("a");
    a.className = "link-text";
    a.href = link;
    a.textContent = new URL(link, here).href;
    item.append(name, a);
    return item;
  });
}
