// The Push-Pull board drawn on the page from plain data.
//
// The server sends the position as data (taut/games/push_pull/table_data.py, whose docstring
// says what each key holds) and this module draws the picture from it: drawTable(data,
// "wide") returns the same SVG text, byte for byte, as the server's drawer
// (taut/games/push_pull/svg.py, board_svg) draws for the same position, seat and legal
// moves. Push-Pull has one picture for every width, so drawTable(data, "narrow") is null,
// as the server's svg_narrow is None. tests/test_push_pull_drawn_on_page.py holds the two
// drawers together over many random games, so a change to either side must be made to both.
//
// The parts follow svg.py in its order: numbers and text as Python writes them, the pieces,
// the duel's strip, the four-sided board, the position in words, the panel of choices and
// the whole picture. No build step; what it
// shares with the other games' modules (numbers and text as Python writes them) it imports
// from ../page_text.js.

import { esc, fixed } from "../page_text.js";

/** Python's `{x:.1f}`. */
function f1(x) {
  return fixed(x, 1);
}

// -- what the picture is made of ---------------------------------------------------------

const INK = "#1a1a1a";
const SIZE = 5;
const PIECES = "LMS";
const PIECE_NAMES = ["Large", "Medium", "Small"];
// Reddish purple, sky blue, yellow (diagram.py's PIECE_COLOURS).
const PIECE_COLOURS = ["#CC79A7", "#56B4E9", "#F0E442"];
// Half the size of each piece (L, M, S) on a square.
const RADII = [14, 12, 10];
// Where the pieces sharing a square sit, by how many share it (offsets from its centre).
const SPOTS = {
  1: [[0, 0]],
  2: [[-12, 0], [12, 0]],
  3: [[-12, -10], [12, -10], [0, 13]],
};

// Sides clockwise from north, their letters, names and players' colours (diagram.py's
// SIDE_COLOURS: orange North, vermillion East, bluish green South, blue West).
const N = 0, E = 1, S = 2, W = 3;
const SIDE_NAMES = "NESW";
const SIDE_TITLES = ["North", "East", "South", "West"];
const SIDE_COLOURS = ["#E69F00", "#D55E00", "#009E73", "#0072B2"];
// Exits: the four sides, then a team's corners (board.py).
const EXIT_NAMES = ["N", "E", "S", "W", "NE", "SE", "SW", "NW"];
const CORNER_SIDES = { 4: [N, E], 5: [S, E], 6: [S, W], 7: [N, W] };

// The four-sided board: square size, margin round the board.
const CELL = 56, MARGIN = 70;
// The duel strip: square size, margin at each end and the room above it.
const STRIP_CELL = 64, STRIP_MARGIN = 48, STRIP_TOP = 40;
const TEXT = 15;
// The panel: row height, button size and where the buttons start; with shifts, narrower
// buttons closer to the piece.
const ROW = 74, BUTTON_W = 66, BUTTON_H = 48, BUTTONS_X = 104;
const NARROW_W = 62, NARROW_X = 60;
// The panel's choices, in the order of its buttons (the letters of data.ar follow it).
const CHOICE_NAMES = ["pull", "push", "pass", "left", "right"];
// An arrow by the side it points to.
const GLYPH = { N: "\u2191", S: "\u2193", E: "\u2192", W: "\u2190" };
const WORD = { N: "north", S: "south", E: "east", W: "west" };

const STYLE =
  ".pp-board [data-part]{cursor:pointer}" +
  ".pp-board [data-part]:hover .btn,.pp-board [data-part]:focus .btn" +
  "{stroke:#1a1a1a;stroke-width:4}" +
  ".pp-board .chosen .btn{fill:#E69F00;stroke-width:4}" +
  ".pp-board .chosen text{font-weight:700}" +
  "@media (max-width:520px){.pp-board .pp-coord{display:none}}";

/** The sides of every unit, from the unit of each side. */
function unitSides(data) {
  const sides = data.u.map(() => []);
  data.su.forEach((unit, side) => {
    if (unit !== null) sides[unit].push(side);
  });
  return sides;
}

/** A unit's colour: its side's, or for a team that of its west or east side. */
function unitColour(data, unit) {
  const sides = unitSides(data)[unit];
  if (sides.length === 1) return SIDE_COLOURS[sides[0]];
  return SIDE_COLOURS[sides.includes(W) ? W : E];
}

/** The unit a piece that left by `exit` scores for (a corner: its team's). */
function exitUnit(data, exit) {
  return exit < 4 ? data.su[exit] : data.su[CORNER_SIDES[exit][0]];
}

// -- the pieces --------------------------------------------------------------------------

/** Piece `p` centred on (x, y): its shape, colour and letter; with `ident`, its identity
 * across positions (data-id: the page animates it moving). */
function piece(p, x, y, scale = 1.0, ident = true) {
  const r = RADII[p] * scale;
  const paint = `fill="${PIECE_COLOURS[p]}" stroke="${INK}" stroke-width="1.5"`;
  let shape;
  if (p === 0) {
    shape =
      `<rect x="${f1(x - r)}" y="${f1(y - r)}" width="${f1(2 * r)}" height="${f1(2 * r)}" ` +
      `rx="3" ${paint}/>`;
  } else if (p === 1) {
    shape = `<circle cx="${f1(x)}" cy="${f1(y)}" r="${f1(r)}" ${paint}/>`;
  } else {
    const d = r * 1.35;
    const pts =
      `${f1(x)},${f1(y - d)} ${f1(x + d)},${f1(y)} ` + `${f1(x)},${f1(y + d)} ${f1(x - d)},${f1(y)}`;
    shape = `<polygon points="${pts}" ${paint}/>`;
  }
  const idattr = ident ? ` data-id="piece-${PIECES[p]}"` : "";
  return (
    `<g class="piece"${idattr}>${shape}<text x="${f1(x)}" y="${f1(y + TEXT * 0.36)}" ` +
    `text-anchor="middle" font-size="${TEXT}" font-weight="700" fill="${INK}">` +
    `${PIECES[p]}</text></g>`
  );
}

/** The pieces on each square (a Map in the order L, M, S first come). */
function piecesOn(data) {
  const on = new Map();
  data.p.forEach((loc, p) => {
    if (typeof loc === "number") {
      if (!on.has(loc)) on.set(loc, []);
      on.get(loc).push(p);
    }
  });
  return on;
}

/** Scored pieces by the exit (side or corner) they left by. */
function scored(data) {
  const out = new Map();
  data.p.forEach((loc, p) => {
    if (typeof loc === "string") {
      const exit = EXIT_NAMES.indexOf(loc);
      if (!out.has(exit)) out.set(exit, []);
      out.get(exit).push(p);
    }
  });
  return out;
}

/** The pieces on one square, centred on (cx, cy), each on its spot. */
function squarePieces(pieces, cx, cy) {
  if (!pieces || !pieces.length) return "";
  const spots = SPOTS[pieces.length];
  return pieces.map((p, i) => piece(p, cx + spots[i][0], cy + spots[i][1])).join("");
}

/** Scored pieces in a short line centred on (x, y), (dx, dy) apart. */
function row(items, x, y, dx, dy) {
  const n = items.length;
  return items
    .map((p, i) => piece(p, x + (i - (n - 1) / 2) * dx, y + (i - (n - 1) / 2) * dy, 0.9))
    .join("");
}

/** "North", "North · N+E" in a team game, with "(you)" on the viewer's own sides. */
function sideLabel(data, side) {
  let text = SIDE_TITLES[side];
  const unit = data.su[side];
  // A team's sides say their team (a unit of more than one side).
  if (data.v !== "duel" && unitSides(data)[unit].length > 1) {
    text += ` \u00b7 ${data.u[unit]}`;
  }
  if (data.y && data.y.includes(side)) text += " (you)";
  return text;
}

// -- the duel's strip --------------------------------------------------------------------

function strip(data) {
  const x0 = STRIP_MARGIN, y0 = STRIP_TOP, cell = STRIP_CELL;
  const width = 2 * x0 + SIZE * cell, mid = y0 + cell / 2;
  const parts = [];
  const on = piecesOn(data);
  for (let c = 0; c < SIZE; c++) {
    const x = x0 + c * cell;
    const fill = c === Math.floor(SIZE / 2) ? "#e8e8e8" : "#f7f7f7";
    parts.push(
      `<rect x="${x}" y="${y0}" width="${cell}" height="${cell}" fill="${fill}" ` +
      `stroke="#9a9a9a"/><text x="${fixed(x + cell / 2, 0)}" y="${y0 + cell + 20}" ` +
      `text-anchor="middle" font-size="${TEXT}" fill="#555">${c}</text>`,
    );
    parts.push(squarePieces(on.get(c), x + cell / 2, mid));
  }
  const won = scored(data);
  const ends = [[W, x0 - 14, 4, "start"], [E, x0 + SIZE * cell + 6, width - 4, "end"]];
  for (const [side, bandX, textX, anchor] of ends) {
    const colour = unitColour(data, data.su[side]);
    parts.push(
      `<rect x="${bandX}" y="${y0}" width="8" height="${cell}" fill="${colour}"/>` +
      `<text x="${textX}" y="${y0 - 14}" text-anchor="${anchor}" font-size="${TEXT + 1}" ` +
      `font-weight="700" fill="${colour}">${esc(sideLabel(data, side))}</text>`,
    );
    const pieces = won.get(side);
    if (pieces) {
      const column = side === W ? (x0 - 14) / 2 : width - (x0 - 14) / 2;
      parts.push(
        row(pieces, column, mid, 0, 26) +
        `<text x="${textX}" y="${y0 + cell + 20}" text-anchor="${anchor}" ` +
        `font-size="${TEXT}" fill="${INK}">scored</text>`,
      );
    }
  }
  return [parts.join(""), width, y0 + cell + 32];
}

// -- the four-sided board ----------------------------------------------------------------

/** A side's coloured band along the board and its name beyond it. */
function band(data, side, x0, size) {
  const colour = unitColour(data, data.su[side]);
  const far = x0 + size;
  const [bx, by, bw, bh] = [
    [x0, x0 - 14, size, 8],
    [far + 6, x0, 8, size],
    [x0, far + 6, size, 8],
    [x0 - 14, x0, 8, size],
  ][side];
  const mid = x0 + Math.floor(size / 2);
  const [tx, ty, turn] = [
    [mid, 16, 0],
    [far + MARGIN - 16, mid, 90],
    [mid, far + MARGIN - 16, 0],
    [16, mid, -90],
  ][side];
  const rotate = turn ? ` transform="rotate(${turn} ${tx} ${ty})"` : "";
  return (
    `<rect x="${bx}" y="${by}" width="${bw}" height="${bh}" fill="${colour}"/>` +
    `<text x="${tx}" y="${ty}" text-anchor="middle" dominant-baseline="middle" ` +
    `font-size="${TEXT + 1}" ` +
    `font-weight="700" fill="${colour}"${rotate}>${esc(sideLabel(data, side))}</text>`
  );
}

function board(data) {
  const x0 = MARGIN, cell = CELL, size = SIZE * CELL;
  // The starting square, the board's centre, is shaded.
  const start = Math.floor(SIZE / 2) * SIZE + Math.floor(SIZE / 2);
  const parts = [];
  for (let sq = 0; sq < SIZE * SIZE; sq++) {
    const r = Math.floor(sq / SIZE), c = sq % SIZE;
    const x = x0 + c * cell, y = x0 + r * cell;
    const fill = sq === start ? "#e3e3e3" : (r + c) % 2 ? "#f7f7f7" : "#eeeeee";
    parts.push(
      `<rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${fill}" stroke="#9a9a9a"/>` +
      `<text class="pp-coord" x="${x + 3}" y="${y + 11}" font-size="10" fill="#666">` +
      `${r},${c}</text>`,
    );
  }
  const on = [...piecesOn(data)].sort((a, b) => a[0] - b[0]);
  for (const [sq, pieces] of on) {
    const r = Math.floor(sq / SIZE), c = sq % SIZE;
    parts.push(squarePieces(pieces, x0 + c * cell + cell / 2, x0 + r * cell + cell / 2));
  }
  for (const side of [N, E, S, W]) parts.push(band(data, side, x0, size));
  const near = x0 - 32, far = x0 + size + 32, mid = x0 + Math.floor(size / 2);
  const where = [
    [mid, near, 30, 0],
    [far, mid, 0, 30],
    [mid, far, 30, 0],
    [near, mid, 0, 30],
  ];
  const exits = [...scored(data)].sort((a, b) => a[0] - b[0]);
  for (const [exit, pieces] of exits) {
    let x, y, dx, dy;
    if (exit < 4) {
      [x, y, dx, dy] = where[exit];
    } else {
      const sides = CORNER_SIDES[exit];
      x = sides.includes(W) ? near : far;
      y = sides.includes(N) ? near : far;
      [dx, dy] = [0, 26];
      // The corner's name on the board's side of its pieces.
      const reach = 13 * pieces.length + 10;
      const ty = y < mid ? y + reach + 4 : y - reach;
      parts.push(
        `<text x="${fixed(x, 0)}" y="${fixed(ty, 0)}" text-anchor="middle" font-size="${TEXT}" ` +
        `fill="${INK}">${EXIT_NAMES[exit]}</text>`,
      );
    }
    parts.push(row(pieces, x, y, dx, dy));
  }
  const total = 2 * x0 + size;
  return [parts.join(""), total, total];
}

// -- the position in words ---------------------------------------------------------------

/** Where piece `p` is, in words. */
function whereIs(data, p) {
  const loc = data.p[p];
  if (typeof loc === "string") {
    const exit = EXIT_NAMES.indexOf(loc);
    const way = exit < 4 ? `off the ${SIDE_TITLES[exit]} side` : `off the ${loc} corner`;
    return `scored by ${data.u[exitUnit(data, exit)]} (${way})`;
  }
  if (data.v === "duel") return `on square ${loc}`;
  return `on row ${Math.floor(loc / SIZE)}, column ${loc % SIZE}`;
}

/** The position in words, for the picture's accessible name. */
function describe(data) {
  const where = [0, 1, 2].map((p) => `${PIECES[p]} ${whereIs(data, p)}`).join("; ");
  const scores = data.u.map((u, i) => `${u} ${data.sc[i]}`).join(", ");
  const board =
    data.v === "duel"
      ? "strip squares 0 (West) to 4 (East)"
      : "rows 0 to 4 from North, columns 0 to 4 from West";
  let text = `Push-Pull, ${data.v}, turn ${data.t} (${board}). ${where}. Scored: ${scores}.`;
  if (data.o != null) text += ` Game over: ${data.o}.`;
  return text;
}

// -- the panel of choices ----------------------------------------------------------------

/** Where the panel's buttons start and how wide each is. */
function buttonsAt(data) {
  return data.n > 3 ? [NARROW_X, NARROW_W] : [BUTTONS_X, BUTTON_W];
}

/** The panel's rows from the move template: [slot, side, piece] each, in its order. */
function slotsOf(data) {
  const out = [];
  for (const part of data.c.split(",")) {
    const p = PIECES.indexOf(part[0]);
    for (const [, slot] of part.matchAll(/\{([^}]*)\}/g)) {
      // A seat of several sides names the side after the piece; one side needs no name.
      const side = data.y.length > 1 ? SIDE_NAMES.indexOf(slot.slice(1)) : data.y[0];
      out.push([slot, side, p]);
    }
  }
  return out;
}

/** One choice button (data-part), `w` wide; `points` is its arrow's letter. */
function button(slot, side, choice, points, p, x, y, w) {
  const name = CHOICE_NAMES[choice];
  const glyph = GLYPH[points] || "";
  const aim = points in WORD ? `arrow ${WORD[points]}` : "no arrow";
  const label = `${PIECE_NAMES[p]} ${PIECES[p]}, ${SIDE_TITLES[side]}: ${name} (${aim})`;
  const chosen = name === "pass" ? ' class="chosen"' : "";
  const cx = x + Math.floor(w / 2), cy = y + Math.floor(BUTTON_H / 2);
  // An invisible rectangle takes the clicks over the whole cell of the grid of buttons.
  const padX = 3, padY = Math.floor((ROW - BUTTON_H) / 2);
  const hit =
    `<rect x="${x - padX}" y="${y - padY}" width="${w + 2 * padX}" ` +
    `height="${ROW}" fill="#ffffff" fill-opacity="0"/>`;
  return (
    `<g data-part="${esc(slot)}=${name}" role="button" tabindex="0" ` +
    `aria-label="${esc(label)}"${chosen}>${hit}` +
    `<rect class="btn" x="${x}" y="${y}" width="${w}" height="${BUTTON_H}" rx="6" ` +
    `fill="#ffffff" stroke="#0072B2" stroke-width="2"/>` +
    `<text x="${cx}" y="${cy + 5}" text-anchor="middle" font-size="${TEXT}" fill="${INK}">` +
    `${name} ${glyph}</text></g>`
  );
}

/** The seat's choice buttons: the picture and its height. */
function panel(data, slots, top) {
  const rows = [];
  let y = top + 34;
  const [start, w] = buttonsAt(data);
  const several = data.y.length > 1;
  for (const [slot, side, p] of slots) {
    rows.push(piece(p, 24, y + BUTTON_H / 2, 1.0, false));
    let name = several ? SIDE_TITLES[side] : PIECE_NAMES[p];
    if (start === NARROW_X) name = several ? SIDE_NAMES[side] : "";
    if (name) {
      rows.push(
        `<text x="44" y="${y + Math.floor(BUTTON_H / 2) + 5}" font-size="${TEXT}" fill="${INK}">` +
        `${esc(name)}</text>`,
      );
    }
    const arrows = data.ar[data.y.indexOf(side)];
    for (let i = 0; i < data.n; i++) {
      rows.push(button(slot, side, i, arrows[i], p, start + i * (w + 6), y, w));
    }
    y += ROW;
  }
  const seatName = data.y.map((s) => SIDE_NAMES[s]).join("");
  const title =
    `<text x="16" y="${top + 20}" font-size="${TEXT}" font-weight="700" fill="${INK}">` +
    `Your arrows (${esc(seatName)}): one choice per row</text>`;
  return [
    `<g role="group" aria-label="your choice for each piece">${title}${rows.join("")}</g>`,
    y - top + 6,
  ];
}

// -- the whole picture -------------------------------------------------------------------

/** The SVG text of the position in `data` (table_data.py) for `layout` "wide"; null for
 * "narrow" (one picture serves every width). */
export function drawTable(data, layout) {
  if (layout !== "wide") return null;
  let [drawn, width, height] = data.v === "duel" ? strip(data) : board(data);
  // Every picture of a game is as wide as one with its panel (nothing jumps when it goes).
  const [start, w] = buttonsAt(data);
  width = Math.max(width, start + data.n * (w + 6) + 10);
  // The narrowest the picture may be drawn for the buttons' cells to be 44 CSS pixels tall.
  const touch = Math.ceil(((width * 44) / ROW) * 1.02);
  let compose = ` data-touch-width="${touch}" style="--touch-width:${touch}px"`;
  let extra = "";
  if (data.c != null) {
    const slots = slotsOf(data);
    let more;
    [extra, more] = panel(data, slots, height);
    height += more;
    const defaults = slots.map(([slot]) => `${slot}=pass`).join(";");
    compose += ` data-compose="${esc(data.c)}" data-defaults="${esc(defaults)}"`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" ` +
    `class="pp-board" role="group" aria-label="${esc(describe(data))}"${compose} ` +
    `font-family="sans-serif"><style>${STYLE}</style>` +
    `<rect width="${width}" height="${height}" fill="#ffffff"/>${drawn}${extra}</svg>`
  );
}
