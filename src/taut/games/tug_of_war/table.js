// The Tug of War table drawn on the page from plain data.
//
// The server sends the table as data (taut/games/tug_of_war/table_data.py, whose
// docstring says what each key holds) and this module draws the picture from it:
// drawTable(data, "wide" | "narrow") returns the same SVG text, byte for byte, as the
// server's drawer (taut/games/tug_of_war/svg.py and its svg_*.py parts) draws for the
// same position and layout. tests/test_tug_of_war_drawn_on_page.py holds the two together
// over many random games, so a change to either side must be made to both.
//
// The parts follow the Python modules: formatting as Python writes numbers and text;
// the pieces (svg_pieces.py); the choices (svg_choices.py); the score sheet
// (svg_sheet.py); the bonus step (svg_bonus.py); the hand and buttons (svg_hand.py);
// the trains and the whole picture (svg.py). No build step; what it
// shares with the other games' modules (numbers and text as Python writes them) it imports
// from ../page_text.js.

import { esc, fixed, g, wrap } from "../page_text.js";

const LAYOUTS = {
  wide: {
    width: 640,
    target: 40,
    place: 44,
    touchWidth: 720,
    trainX: 60,
    statusChars: 68,
    hintChars: 80,
    wide: true,
  },
  narrow: {
    width: 360,
    target: 50,
    place: 50,
    touchWidth: 320,
    trainX: 48,
    statusChars: 34,
    hintChars: 42,
    wide: false,
  },
};

const INK = "#1a1a1a";
const MUTED = "#666666";
const BLUE = "#0072B2";
const ORANGE = "#E69F00";
const GREEN = "#009E73";
const VERMILLION = "#D55E00";
const TILE_FILL = "#fffdf7";
const STARTER_FILL = "#f5dcea";
const END_FILL = "#fdebc8";

/** A <text> at (x, y); `attrs` are [name, value] pairs in the order they are written. */
function text(x, y, words, size = 14, attrs = []) {
  const extra = attrs.map(([k, v]) => ` ${k}="${esc(v)}"`).join("");
  return `<text x="${g(x)}" y="${g(y)}" font-size="${size}"${extra}>${esc(words)}</text>`;
}

/** The attributes of a clickable element: a whole move, else one part of one. */
function clickable(label, move, part) {
  const what = move != null ? `data-move="${esc(move)}"` : `data-part="${esc(part)}"`;
  return `class="tow-click" ${what} role="button" tabindex="0" aria-label="${esc(label)}"`;
}

function spread(count) {
  if (count === 1) return [0.0];
  const out = [];
  for (let i = 0; i < count; i++) out.push(-1 + (2 * i) / (count - 1));
  return out;
}

// Dots each side and in the middle, by number (as svg_pieces._COLUMNS).
const COLUMNS = {
  4: [2, 0],
  5: [2, 1],
  6: [3, 0],
  7: [3, 1],
  8: [3, 2],
  9: [3, 3],
  10: [4, 2],
  11: [4, 3],
  12: [4, 4],
};

function pipSpots(number) {
  if (number <= 0) return [];
  if (number === 1) return [[0.0, 0.0]];
  if (number === 2 || number === 3) {
    const spots = [
      [1.0, -1.0],
      [-1.0, 1.0],
    ];
    return number === 3 ? [...spots, [0.0, 0.0]] : spots;
  }
  const [side, middle] = COLUMNS[number] || [4, 4];
  const spots = [];
  for (const x of [-1.0, 1.0]) for (const y of spread(side)) spots.push([x, y]);
  if (middle) for (const y of spread(middle)) spots.push([0.0, y]);
  return spots;
}

function face(size, number) {
  const reach = size / 2 - size * (number < 10 ? 0.22 : 0.17);
  const radius = size * (number < 10 ? 0.085 : 0.07);
  return pipSpots(number)
    .map(
      ([x, y]) =>
        `<circle cx="${fixed(x * reach, 1)}" cy="${fixed(y * reach, 1)}" r="${fixed(radius, 1)}"/>`,
    )
    .join("");
}

function faceId(size, number) {
  return `tow-pips-${g(size)}-${number}`;
}

// The dots of a set are the same in every picture: drawn once per set and sides.
const FACES = new Map();

/** The dots of every number of the set, for each half's side, used by reference. */
function faces(top, sizes) {
  const known = `${top}:${sizes}`;
  if (!FACES.has(known)) FACES.set(known, drawFaces(top, sizes));
  return FACES.get(known);
}

function drawFaces(top, sizes) {
  const out = [];
  for (const size of sizes) {
    for (let n = 1; n <= top; n++) out.push(`<g id="${faceId(size, n)}">${face(size, n)}</g>`);
  }
  return `<defs>${out.join("")}</defs>`;
}

function pips(cx, cy, size, number) {
  if (number <= 0) return "";
  return `<use href="#${faceId(size, number)}" x="${g(cx)}" y="${g(cy)}"/>`;
}

function domino(x, y, halves, half, vertical = false, fill = TILE_FILL, stroke = 1.5) {
  const [w, h] = vertical ? [half, 2 * half] : [2 * half, half];
  const [a, b] = halves;
  let line;
  let second;
  if (vertical) {
    line = `<line x1="${g(x + 4)}" y1="${g(y + half)}" x2="${g(x + w - 4)}" y2="${g(y + half)}"/>`;
    second = [x + half / 2, y + 1.5 * half];
  } else {
    line = `<line x1="${g(x + half)}" y1="${g(y + 4)}" x2="${g(x + half)}" y2="${g(y + h - 4)}"/>`;
    second = [x + 1.5 * half, y + half / 2];
  }
  return (
    `<rect class="tow-hit" x="${g(x)}" y="${g(y)}" width="${g(w)}" height="${g(h)}" rx="4" ` +
    `fill="${fill}" stroke="${INK}" stroke-width="${g(stroke)}"/>` +
    `<g stroke="${INK}" stroke-width="1">${line}</g>` +
    `<g fill="${INK}">${pips(x + half / 2, y + half / 2, half, a)}` +
    `${pips(second[0], second[1], half, b)}</g>`
  );
}

/** A domino's identity, the same whichever way it lies: domino-3-5. */
function dominoId([a, b]) {
  return `domino-${Math.min(a, b)}-${Math.max(a, b)}`;
}

function hit(x, y, width, height) {
  return (
    `<rect x="${g(x)}" y="${g(y)}" width="${g(width)}" height="${g(height)}" ` +
    'fill="#ffffff" fill-opacity="0"/>'
  );
}

function button(x, y, width, caption, label, target, move, part) {
  return (
    `<g ${clickable(label, move, part)}>` +
    hit(x - 3, y - (target - 30) / 2, width + 6, target) +
    `<rect class="tow-hit" x="${g(x)}" y="${g(y)}" width="${g(width)}" height="30" rx="6" ` +
    `fill="#ffffff" stroke="${BLUE}" stroke-width="2"/>` +
    text(x + width / 2, y + 20, caption, 15, [
      ["text-anchor", "middle"],
      ["fill", BLUE],
      ["font-weight", "bold"],
    ]) +
    "</g>"
  );
}

/** Items [width, draw] left to right from (x0, y0), wrapping before `right`; each is drawn
 * from its own origin and placed by its group. Returns [drawing, bottom]. */
function flow(items, x0, y0, line, right) {
  const out = [];
  let x = x0;
  let y = y0;
  for (const [width, draw] of items) {
    if (x > x0 && x + width > right) {
      x = x0;
      y += line;
    }
    out.push(`<g transform="translate(${g(x)} ${g(y)})">${draw(0, 0)}</g>`);
    x += width;
  }
  return [out.join(""), y + line];
}

function buttonAt(width, caption, label, move, target) {
  return (x, y) => button(x, y, width, caption, label, target, move, null);
}

function tiles(count) {
  return count === 1 ? "1 tile" : `${count} tiles`;
}

// -- the choices (svg_choices.py) ----------------------------------------------------------

const key = ([a, b]) => `${a},${b}`;

/** The seat's legal plays by tile (data `c`), and the open ends the part tiles fit. */
function readChoices(data) {
  const plays = new Map();
  const parts = [];
  for (const [a, b, found, name] of data.c || []) {
    plays.set(key([a, b]), { found, name });
    if (found.length > 1) parts.push({ halves: [a, b], found, name });
  }
  const fitting = new Map();
  for (const { found, name } of parts) {
    for (const [j, e] of found) {
      const at = `${j}.${e}`;
      if (!fitting.has(at)) fitting.set(at, []);
      fitting.get(at).push(name);
    }
  }
  const other = ["D", "P", "K", "G"].some((k) => k in data);
  return { plays, parts, fitting, other };
}

function fitStyle(ch) {
  return ch.parts
    .map((p) => p.name)
    .sort()
    .map(
      (name) =>
        `.tow-board:has(.chosen[data-part="tile=${name}"]) [data-fits~="${name}"] .tow-hit` +
        "{stroke:#E69F00;stroke-width:5}",
    )
    .join("");
}

function hint(ch) {
  if (ch.parts.length) {
    return (
      "Your move: choose a tile with a thick border, then an open end with a thick " +
      "border (a tile that fits one place only needs no end)."
    );
  }
  if (ch.plays.size) return "Your move: choose a tile with a thick border.";
  return ch.other ? "Your move: choose a button below." : "";
}

/** A line for each part tile written the other way round, shown while it is chosen. */
function laidAs(ch, y) {
  const out = [];
  const style = [];
  for (const { halves, name } of ch.parts) {
    const [a, b] = halves;
    if (name === `${a}-${b}`) continue;
    const first = name.split("-")[0];
    const words = `${a}-${b} is written ${name}: its ${first} meets the end.`;
    out.push(text(8, y + 14, words, 13, [["class", `tow-laid-${name}`]]));
    style.push(`.tow-board:has(.chosen[data-part="tile=${name}"]) .tow-laid-${name}`);
  }
  if (!out.length) return ["", y];
  const shown = `<style>.tow-board [class^=tow-laid]{display:none}${style.join(",")}`;
  return [shown + "{display:inline}</style>" + out.join(""), y + 20];
}

// -- the score sheet (svg_sheet.py) --------------------------------------------------------

const SHEET_HALF = 28;

function scoreSheet(data, y, layout) {
  const names = data.nm;
  const points = "pt" in data;
  const heads = [
    [30, "Seat", "start"],
    [170, "Score", "end"],
    [235, "Tiles", "end"],
  ];
  if (points) heads.push([320, "Round pts", "end"]);
  const out = heads.map(([x, h, a]) =>
    text(x, y + 14, h, 13, [
      ["fill", MUTED],
      ["text-anchor", a],
    ]),
  );
  let rowY = y + 34;
  for (let s = 0; s < names.length; s++) {
    const name = names[s] + (data.v === s && data.iv ? " (you)" : "");
    const weight = data.v === s ? "bold" : "normal";
    if (data.a.includes(s)) {
      out.push(
        text(8, rowY, "\u25b6", 15, [
          ["fill", ORANGE],
          ["aria-label", "to move"],
        ]),
      );
    }
    out.push(text(30, rowY, name, 15, [["font-weight", weight]]));
    const score = data.sc[s];
    const colour = score > 0 ? GREEN : score < 0 ? VERMILLION : INK;
    const said = score > 0 ? `+${score}` : String(score);
    out.push(
      text(165, rowY, said, 14, [
        ["fill", colour],
        ["text-anchor", "end"],
        ["font-weight", "bold"],
      ]),
    );
    const size = typeof data.t[s] === "number" && data.t[s] < 2 ? "-" : String(data.n[s]);
    out.push(text(235, rowY, size, 15, [["text-anchor", "end"]]));
    if (points) out.push(text(320, rowY, String(data.pt[s]), 15, [["text-anchor", "end"]]));
    rowY += 22;
  }
  if (layout.wide) {
    const [drawn, bottom] = factsBeside(data, y);
    return [out.join("") + drawn, Math.max(rowY, bottom) + 4];
  }
  const [drawn, bottom] = factsUnder(data, rowY - 6);
  return [out.join("") + drawn, bottom];
}

/** A face-down tile, standing for the boneyard. */
function faceDown(x, y) {
  return (
    `<rect x="${g(x)}" y="${g(y)}" width="${SHEET_HALF}" height="${2 * SHEET_HALF}" rx="4" ` +
    `fill="${BLUE}" fill-opacity="0.25" stroke="${INK}" stroke-width="1.5"/>`
  );
}

function factsBeside(data, y) {
  const out = [];
  let fy = y + 14;
  for (const line of data.f) {
    out.push(text(360, fy, line, 14, [["fill", MUTED]]));
    fy += 19;
  }
  if (data.b != null) {
    out.push(faceDown(360, fy));
    out.push(text(398, fy + 34, data.b, 15));
    fy += 2 * SHEET_HALF + 6;
  }
  return [out.join(""), fy];
}

function factsUnder(data, top) {
  const out = [];
  let fx = 8;
  let fy = top + 14;
  if (data.b != null) {
    out.push(faceDown(8, top));
    fx = 8 + SHEET_HALF + 10;
    out.push(text(fx, fy, data.b, 15));
    fy += 20;
  }
  for (const line of data.f) {
    out.push(text(fx, fy, line, 14, [["fill", MUTED]]));
    fy += 19;
  }
  const bottom = fx > 8 ? Math.max(fy - 14, top + 2 * SHEET_HALF) : fy - 14;
  return [out.join(""), bottom + 8];
}

// -- the bonus step (svg_bonus.py) ---------------------------------------------------------

const SHARE_BUTTONS = 30;
const PLACES = ["units", "tens", "hundreds", "thousands"];

function shareDigits(target, most, y, layout) {
  const width = String(most).length;
  const out = [];
  const size = layout.target;
  for (let p = width - 1; p >= 0; p--) {
    const top = Math.min(9, Math.floor(most / 10 ** p));
    const slot = PLACES[p];
    const items = [];
    for (let d = 0; d <= top; d++) items.push([size, digit(slot, d, size)]);
    let drawn;
    if (layout.wide) {
      out.push(text(10, y + 20, slot, 14, [["fill", MUTED]]));
      [drawn, y] = flow(items, 100, y, size, layout.width - 8);
    } else {
      // Ten digits do not fit across a phone's picture: under the place's name, wrapped.
      out.push(text(10, y + 14, slot, 14, [["fill", MUTED]]));
      [drawn, y] = flow(items, 10, y + 30, size, layout.width - 8);
    }
    out.push(drawn);
  }
  let template = "-";
  for (let p = width - 1; p >= 0; p--) template += `{${PLACES[p]}}`;
  template += `@${target}`;
  const defaults = [];
  for (let p = 0; p < width; p++) defaults.push(`${PLACES[p]}=0`);
  return [out.join(""), y, template, defaults.join(";")];
}

function digit(slot, d, target) {
  const label = `${slot} digit ${d} of the share`;
  return (x, y) => button(x, y, target - 6, String(d), label, target, null, `${slot}=${d}`);
}

function bonusButtons(data, y, layout) {
  const names = data.nm;
  const [winnerSeat, left, targetSeat] = data.bn;
  const winner = names[winnerSeat];
  const out = [];
  const items = [];
  const size = layout.target;
  const right = layout.width - 8;
  const number = layout.place - 6;
  const shares = data.G || [];
  if ("K" in data) {
    const keep = data.K;
    const label = `${winner} keeps the remaining ${left} points (${keep})`;
    items.push([170, buttonAt(160, `Keep ${left}`, label, keep, size)]);
  }
  const target = targetSeat == null ? "" : names[targetSeat];
  // Two players never split the leftover: it is kept whole or taken whole.
  const split = names.length > 2;
  if (shares.length && !split) {
    for (const [k, move] of shares) {
      let caption;
      let label;
      if (k === 0) {
        caption = `Keep all ${left}`;
        label = `${winner} keeps all ${left} points (${move})`;
      } else {
        caption = `${target} loses ${k}`;
        label = `${target} loses all ${k} points (${move})`;
      }
      items.push([170, buttonAt(160, caption, label, move, size)]);
    }
  } else if (shares.length && !data.GM) {
    out.push(text(10, y + 18, `Points ${target} loses:`, 14));
    y += 26;
    for (const [k, move] of shares) {
      const label = `${target} loses ${k} of the ${left} points (${move})`;
      items.push([layout.place, buttonAt(number, String(k), label, move, size)]);
    }
  } else if (shares.length) {
    // More shares than buttons: none, all, and the share composed of digits.
    const none = shares[0];
    const every = shares[shares.length - 1];
    out.push(text(10, y + 18, `Points ${target} loses (0 to ${every[0]}):`, 14));
    y += 26;
    const nothing = `${target} loses nothing (${none[1]})`;
    items.push([120, buttonAt(110, "none: 0", nothing, none[1], size)]);
    const label = `${target} loses all ${every[0]} points (${every[1]})`;
    items.push([120, buttonAt(110, `all: ${every[0]}`, label, every[1], size)]);
    const [digits, bottom, compose, defaults] = shareDigits(
      targetSeat,
      every[0],
      y + size,
      layout,
    );
    const [drawn] = flow(items, 10, y, size, right);
    return [out.join("") + drawn + digits, bottom, compose, defaults];
  }
  const [drawn, bottom] = items.length ? flow(items, 10, y, size, right) : ["", y];
  return [out.join("") + drawn, bottom, null, null];
}

function bonusFacts(data, y, layout) {
  const names = data.nm;
  const [, , , pipsLeft, targets, given] = data.bn;
  const left = pipsLeft
    .map((p, s) => (p == null ? null : `${names[s]} ${p}`))
    .filter((said) => said != null)
    .join(", ");
  const lines = [`Pips left in hand: ${left}.`];
  if (given.length) {
    const count = Math.min(targets.length, given.length);
    const handed = [];
    for (let i = 0; i < count; i++) handed.push(`${names[targets[i]]} -${given[i]}`);
    lines.push(`Handed out so far: ${handed.join(", ")}.`);
  }
  const out = [];
  for (const said of lines) {
    for (const line of wrap(said, layout.hintChars)) {
      out.push(text(10, y + 16, line, 14));
      y += 20;
    }
  }
  return [out.join(""), y + 4];
}

// -- the hand and the buttons (svg_hand.py) ------------------------------------------------

const HAND_HALF = 30;

function handTile(data, halves, ch, dim, place) {
  const names = data.nm;
  const found = ch.plays.get(key(halves));
  const plays = found ? found.found.map(([j, e, move]) => [j, e, move, names[j]]) : [];
  const part = plays.length > 1 ? found.name : "";
  const drawn = data.ph === "drawn" && data.dr != null && key(data.dr) === key(halves);
  const faded = dim && !plays.length;
  return (x, y) => drawnTile(halves, plays, part, drawn, faded, place, x, y);
}

function drawnTile([a, b], plays, part, drawn, dim, place, x, y) {
  const name = `${a}-${b}`;
  const what = `tile ${name}` + (drawn ? " drawn just now" : "");
  const ident = `data-id="${dominoId([a, b])}"`;
  let body = hit(x - (place - HAND_HALF) / 2, y, place, 2 * HAND_HALF + 36);
  body += `<g class="tow-face">${domino(x, y + 14, [a, b], HAND_HALF, true)}</g>`;
  // The space (not drawn) parts the numbers from "drawn" in the element's text.
  body += text(x + HAND_HALF / 2, y + 2 * HAND_HALF + 30, `${name} `, 13, [
    ["text-anchor", "middle"],
  ]);
  if (drawn) {
    body += text(x + HAND_HALF / 2, y + 10, "drawn", 13, [
      ["text-anchor", "middle"],
      ["font-weight", "bold"],
    ]);
  }
  if (plays.length === 1) {
    const [train, end, move, owner] = plays[0];
    const label = `play ${move}: ${what} on ${owner}'s train, end ${train}.${end}`;
    return `<g ${ident} ${clickable(label, move, null)}>${body}</g>`;
  }
  if (plays.length) {
    const label = `${what}: fits ${plays.length} open ends; choose one of them next`;
    return `<g ${ident} ${clickable(label, null, `tile=${part}`)}>${body}</g>`;
  }
  const faded = dim ? ' class="tow-dim"' : "";
  return `<g ${ident}${faded} role="img" aria-label="${esc(what)}">${body}</g>`;
}

function hands(data, ch, y, layout) {
  const names = data.nm;
  const out = [];
  const dim = ch.plays.size > 0 || ch.other;
  for (const [s, hand] of data.h) {
    const pipCount = hand.reduce((sum, [a, b]) => sum + a + b, 0);
    const whose = data.iv ? `Your hand (${names[s]})` : `${names[s]}'s hand`;
    const said = `${whose}: ${tiles(hand.length)}, ${pipCount} pips`;
    out.push(text(8, y + 16, said, 15, [["font-weight", "bold"]]));
    if (!hand.length) {
      y += 26;
      continue;
    }
    const place = layout.place;
    const items = hand.map((t) => [place, handTile(data, t, ch, dim, place)]);
    let drawn;
    [drawn, y] = flow(items, 10, y + 22, 2 * HAND_HALF + 40, layout.width);
    out.push(`<g role="group" aria-label="${esc(whose)}">${drawn}</g>`);
  }
  return [out.join(""), y];
}

function controls(data, ch, y, layout) {
  if (data.ph === "bonus" && data.bn != null) {
    let facts;
    [facts, y] = bonusFacts(data, y, layout);
    const [drawn, bottom, compose, defaults] = bonusButtons(data, y, layout);
    return [facts + drawn, bottom, compose, defaults];
  }
  const items = [];
  const size = layout.target;
  if ("D" in data) {
    const label = "draw a tile from the boneyard (nothing in your hand fits)";
    items.push([150, buttonAt(140, "Draw a tile", label, data.D, size)]);
  }
  if ("P" in data) {
    let label = "pass (nothing fits and the boneyard is empty)";
    if (data.ph === "drawn") label = "pass (the drawn tile fits nowhere)";
    items.push([110, buttonAt(100, "Pass", label, data.P, size)]);
  }
  const compose = ch.parts.length ? "{tile}@{end}" : null;
  if (!items.length) return ["", y, compose, null];
  const [drawn, bottom] = flow(items, 10, y, size, layout.width - 8);
  return [drawn, bottom, compose, null];
}

// -- the trains (svg.py) -------------------------------------------------------------------

const HALF = 28;
const TRAIN_LINE = 50;

const shift = (draw, dx) => (x, y) => draw(x + dx, y);
const then = (first, second, dx) => (x, y) => first(x, y) + second(x + dx, y);

function endBox(name, seat, e, value, fits, layout) {
  return (x, y) => {
    const ident = `data-id="end-${seat}.${e}"`;
    const box =
      `<rect class="tow-hit" x="${g(x)}" y="${g(y)}" width="${HALF}" height="${HALF}" ` +
      `rx="5" fill="${END_FILL}" stroke="${ORANGE}" stroke-width="2"/>` +
      // The space (not drawn) keeps the number and the notation two words: "6 0.1".
      text(x + HALF / 2, y + HALF / 2 + 6, `${value} `, 17, [
        ["text-anchor", "middle"],
        ["font-weight", "bold"],
      ]) +
      text(x + HALF / 2, y + HALF + 14, `${seat}.${e}`, 13, [
        ["text-anchor", "middle"],
        ["fill", MUTED],
      ]);
    const wide = layout.place;
    const area = hit(x - (wide - HALF) / 2, y - 7, wide, TRAIN_LINE);
    if (!fits.length) return `<g ${ident}>${area}${box}</g>`;
    const label =
      `${value} ${seat}.${e}: open end ${seat}.${e} of ${name}'s train, ` +
      `${value}; ${fits.join(", ")} fit here`;
    const fitting = esc(fits.join(" "));
    return (
      `<g ${ident} ${clickable(label, null, `end=${seat}.${e}`)} data-fits="${fitting}">` +
      `${area}${box}</g>`
    );
  };
}

function laid(halves) {
  return (x, y) => `<g data-id="${dominoId(halves)}">${domino(x, y, halves, HALF)}</g>`;
}

function starter(halves) {
  return (x, y) =>
    `<g data-id="${dominoId(halves)}">` +
    `<rect x="${g(x - 3)}" y="${g(y - 3)}" width="${2 * HALF + 6}" height="${HALF + 6}" ` +
    `rx="6" fill="none" stroke="${INK}" stroke-width="1" stroke-dasharray="3 2"/>` +
    domino(x, y, halves, HALF, false, STARTER_FILL) +
    text(x + HALF, y + HALF + 15, "starter", 13, [
      ["text-anchor", "middle"],
      ["fill", MUTED],
    ]) +
    "</g>";
}

function sum(total) {
  return (x, y) => text(x + 6, y + HALF / 2 + 6, `= ${total}`, 16, [["font-weight", "bold"]]);
}

// Why a seat has no train, by the code the data sends in its place.
const NO_TRAIN = ["out of the game", "sits out the tie-break", "no starter yet"];

function trainRow(data, seat, fitting, y, layout) {
  const name = data.nm[seat];
  const weight = data.v === seat ? "bold" : "normal";
  const head = text(8, y + HALF / 2 + 5, name, 15, [["font-weight", weight]]);
  const line = data.t[seat];
  if (typeof line === "number") {
    const why = text(layout.trainX, y + HALF / 2 + 5, NO_TRAIN[line], 14, [["fill", MUTED]]);
    return [head + why, y + HALF + 12];
  }
  const [first, side0, side1] = line;
  // The open ends: the last tile laid on each side, else the starter's half.
  const ends = [
    side0.length ? side0[side0.length - 1][1] : first[0],
    side1.length ? side1[side1.length - 1][1] : first[1],
  ];
  const gap = 4;
  const fits0 = fitting.get(`${seat}.0`) || [];
  const fits1 = fitting.get(`${seat}.1`) || [];
  const items = [[HALF + 2 * gap, shift(endBox(name, seat, 0, ends[0], fits0, layout), gap)]];
  for (let i = side0.length - 1; i >= 0; i--) {
    const [a, b] = side0[i];
    items.push([2 * HALF + gap, laid([b, a])]);
  }
  items.push([2 * HALF + 3 * gap, shift(starter(first), gap)]);
  for (const t of side1) items.push([2 * HALF + gap, laid(t)]);
  const total = ends[0] + ends[1];
  const last = shift(endBox(name, seat, 1, ends[1], fits1, layout), gap);
  // The last open end and the sum stay on one line.
  items.push([HALF + 2 * gap + 64, then(last, sum(total), HALF + 2 * gap)]);
  const [drawn, bottom] = flow(items, layout.trainX, y, TRAIN_LINE, layout.width - 8);
  const count = side0.length + side1.length;
  const label =
    `${name}'s train: starter ${first[0]}-${first[1]}, ${tiles(count)} more laid; open ` +
    `ends ${ends[0]} (end ${seat}.0) and ${ends[1]} (end ${seat}.1), sum ${total}`;
  return [`${head}<g role="group" aria-label="${esc(label)}">${drawn}</g>`, bottom];
}

function trains(data, ch, y, layout) {
  const out = [text(8, y + 14, "Trains", 14, [["fill", MUTED]])];
  y += 24;
  for (let s = 0; s < data.nm.length; s++) {
    let row;
    [row, y] = trainRow(data, s, ch.fitting, y, layout);
    out.push(row);
  }
  return [out.join(""), y];
}

// -- the whole picture (svg.py) ------------------------------------------------------------

const STYLE =
  ".tow-board :where(.tow-click)>.tow-face>.tow-hit{stroke-width:3}" +
  ".tow-board :where(.tow-click[data-part^='end='])>.tow-hit{stroke:#1a1a1a;stroke-width:3}" +
  ".tow-board .tow-dim>.tow-face{opacity:.4}" +
  ".tow-board .tow-click{cursor:pointer}" +
  ".tow-board .tow-click:hover .tow-hit,.tow-board .tow-click:focus .tow-hit" +
  "{stroke:#E69F00;stroke-width:4}" +
  ".tow-board .tow-click:focus{outline:none}" +
  ".tow-board .chosen .tow-hit{stroke:#E69F00;stroke-width:5;fill:#fdebc8}";

function summary(data) {
  const names = data.nm;
  const scores = data.sc.map((v, s) => `${names[s]} ${v}`).join(", ");
  let out = `Tug of War, round ${data.r}. ${data.s} Scores: ${scores}.`;
  if (data.ph !== "deal" && data.ph !== "over") out += ` Boneyard: ${tiles(data.k)}.`;
  if (data.iv && data.v != null) {
    out += ` You are ${names[data.v]}, holding ${tiles(data.n[data.v])}.`;
  }
  return out;
}

function moved(drawn, y) {
  return drawn ? `<g transform="translate(0 ${g(y)})">${drawn}</g>` : "";
}

/**
 * The table drawn from `data` (table_data.py) for a layout, "wide" or "narrow": the
 * same SVG text as the server's draw_table for that position, seat and legal moves.
 */
export function drawTable(data, layout) {
  const lay = LAYOUTS[layout];
  if (!lay) throw new Error(`no layout ${layout}`);
  const ch = readChoices(data);
  const body = [
    `<desc>${esc(summary(data))}</desc>`,
    `<style>${STYLE}</style><style>${fitStyle(ch)}</style>`,
    faces(data.top, [HALF, HAND_HALF]),
    `<rect width="${lay.width}" height="100%" fill="#ffffff"/>`,
  ];
  let [sheet, y] = scoreSheet(data, 6, lay);
  body.push(sheet);
  for (const line of wrap(data.s, lay.statusChars)) {
    body.push(text(8, y + 16, line, 16, [["font-weight", "bold"]]));
    y += 20;
  }
  y += 4;
  for (const line of wrap(hint(ch), lay.hintChars)) {
    body.push(text(8, y + 14, line, 14, [["fill", MUTED]]));
    y += 18;
  }
  let drawn;
  let below;
  [drawn, y] = laidAs(ch, y);
  body.push(drawn);
  [drawn, below] = trains(data, ch, 6, lay);
  body.push(moved(drawn, y));
  y += below;
  [drawn, below] = hands(data, ch, 4, lay);
  body.push(moved(drawn, y));
  y += below;
  let compose;
  let defaults;
  [drawn, below, compose, defaults] = controls(data, ch, 12, lay);
  body.push(moved(drawn, y));
  y += below;
  const height = Math.trunc(y + 10);
  const touch = lay.touchWidth;
  const narrow = lay.wide ? "" : " tow-narrow";
  let attrs = compose ? ` data-compose="${esc(compose)}"` : "";
  if (compose && defaults) attrs += ` data-defaults="${esc(defaults)}"`;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" class="tow-board' +
    `${narrow}" viewBox="0 0 ${lay.width} ${height}" role="group" ` +
    `aria-label="Tug of War" data-touch-width="${touch}" ` +
    `style="--touch-width:${touch}px" ` +
    `font-family="system-ui, sans-serif" fill="${INK}"${attrs}>` +
    body.join("") +
    "</svg>"
  );
}
