// The Pulling Strings board drawn on the page from plain data.
//
// The server sends the position as data (taut/games/pulling_strings/table_data.py, whose
// docstring says what each key holds) and this module draws the picture from it:
// drawTable(data, "wide") returns the same SVG text, byte for byte, as the server's drawer
// (taut/games/pulling_strings/svg.py, board_svg) draws for the same position, seat and
// legal moves. The board has one picture for every width, so drawTable(data, "narrow") is
// null, as the server's svg_narrow is None. A learning game has no data: the server draws
// its pictures. tests/test_pulling_strings_drawn_on_page.py holds the two drawers together
// over many random games, so a change to either side must be made to both.
//
// The parts follow svg.py in its order: the geometry, the strings, broken ends, the ends'
// labels, homes and stacks, the position in words, the line under the board and the whole
// picture. No build step; numbers and text as Python writes them come from
// ../page_text.js.

import { esc, fixed } from "../page_text.js";

// -- what the picture is made of ---------------------------------------------------------

const SIZE = 5;
const NUM_ENDS = 4 * SIZE;
const NUM_CELLS = SIZE * SIZE;
// Distance between intersections, where column 0 and row 0 lie, and how far beyond the
// outer lines the ends' labels sit (svg.py's STEP, ORIGIN and REACH).
const STEP = 60, ORIGIN = 80, REACH = 50;
const WIDTH = 2 * ORIGIN + (SIZE - 1) * STEP;
const HEIGHT = WIDTH + 44;
const HIT_RADIUS = 30;
const INK = "#1a1a1a";
const MUTED = "#8a8a8a";
const LABEL = 17;
const STRING = "#6b4f2a";
// X blue, O vermillion (diagram.py's SEAT_COLOURS).
const SEAT_COLOURS = ["#0072B2", "#D55E00"];
// The homes of X and of O, as cells (board.py's HOME_CELLS).
const HOME_CELLS = [[1, 9, 15, 23], [3, 5, 19, 21]];
const OWNER = new Map(HOME_CELLS.flatMap((cells, seat) => cells.map((c) => [c, seat])));
const SIDES = "NESW";
const ORDINALS = ["left", "second", "middle", "fourth", "right"];
const ROWS = ["top", "second", "middle", "fourth", "bottom"];
// Clockwise from the top left: the keyboard's order through the ends.
const CLOCKWISE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 13, 12, 11, 10, 19, 18, 17, 16, 15];
const TITLE = "Pulling Strings";
// Each edition's names of the seats (rules.py's seat_titles) and of the homes' marks in
// words (svg.py's describe).
const SEAT_TITLES = { true: ["Squares", "Circles"], false: ["Eks", "Oh"] };
const MARK_WORDS = { true: ["square", "circle"], false: ["X", "O"] };

const STYLE =
  ".ps-board [data-move]{cursor:pointer}" +
  ".ps-board [data-move]:hover .end-label,.ps-board [data-move]:focus .end-label" +
  "{stroke:#E69F00;stroke-width:4}" +
  ".ps-board .chosen .end-label{fill:#E69F00}";

/** Python's floor division, for the few negative halves the geometry takes. */
function div(a, b) {
  return Math.floor(a / b);
}

function xy(cell) {
  const row = div(cell, SIZE), col = cell % SIZE;
  return [ORIGIN + col * STEP, ORIGIN + row * STEP];
}

/** The centre of an end's label. */
function endXY(end) {
  const side = div(end, SIZE), i = end % SIZE;
  const near = ORIGIN - REACH, far = ORIGIN + (SIZE - 1) * STEP + REACH;
  const line = ORIGIN + i * STEP;
  return [[line, near], [far, line], [line, far], [near, line]][side];
}

/** Where an end is, in words: "the top of the middle column". */
function endTitle(end) {
  const side = div(end, SIZE), i = end % SIZE;
  if (side === 0 || side === 2) {
    return `the ${side === 0 ? "top" : "bottom"} of the ${ORDINALS[i]} column`;
  }
  return `the ${side === 1 ? "right" : "left"} end of the ${ROWS[i]} row`;
}

function endName(end) {
  return `${SIDES[div(end, SIZE)]}${end % SIZE}`;
}

function isBroken(data, end) {
  // The mask fits in 20 bits: a number's bit operations read it exactly.
  return ((data.b >> end) & 1) === 1;
}

// -- the strings and broken ends ---------------------------------------------------------

/** The ten strings between their labels (stubs of broken ends are drawn over them). */
function strings() {
  const low = ORIGIN - REACH + LABEL, high = ORIGIN + (SIZE - 1) * STEP + REACH - LABEL;
  const parts = [];
  for (let i = 0; i < SIZE; i++) {
    const at = ORIGIN + i * STEP;
    parts.push(`<line x1="${at}" y1="${low}" x2="${at}" y2="${high}"/>`);
    parts.push(`<line x1="${low}" y1="${at}" x2="${high}" y2="${at}"/>`);
  }
  return `<g stroke="${STRING}" stroke-width="3" aria-hidden="true">${parts.join("")}</g>`;
}
const STRINGS = strings();

/** Paper over an end's string near its label and draw a frayed cut. */
function brokenStub(end) {
  const [x, y] = endXY(end);
  const [dx, dy] = [[0, 1], [-1, 0], [0, -1], [1, 0]][div(end, SIZE)];
  const gapFrom = LABEL - 2, gapTo = REACH - 22;
  const ax = x + dx * gapFrom, ay = y + dy * gapFrom;
  const bx = x + dx * gapTo, by = y + dy * gapTo;
  const cover = `<line x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}" stroke="#ffffff" stroke-width="7"/>`;
  const px = -dy, py = dx;
  const zig = [-4, 4, -4, 4]
    .map((w, k) => `${bx + dx * k * 3 + px * w},${by + dy * k * 3 + py * w}`)
    .join(" ");
  return (
    `<g data-id="cut-${endName(end)}" aria-hidden="true">${cover}` +
    `<polyline points="${zig}" fill="none" stroke="${STRING}" stroke-width="2"/></g>`
  );
}

// -- the ends' labels --------------------------------------------------------------------

function labelShape(x, y, published, cls, extra) {
  if (published) {
    const s = 2 * LABEL - 2;
    return (
      `<rect class="${cls}" x="${x - div(s, 2)}" y="${y - div(s, 2)}" width="${s}" ` +
      `height="${s}" rx="5" ${extra}/>`
    );
  }
  return `<circle class="${cls}" cx="${x}" cy="${y}" r="${LABEL - 1}" ${extra}/>`;
}

/** An invisible disc under a clickable end: a finger's target larger than its label. */
function hit(x, y) {
  return `<circle cx="${x}" cy="${y}" r="${HIT_RADIUS}" fill="#ffffff" fill-opacity="0"/>`;
}

/** One end's label: a button when `move` is given, struck through when broken. */
function endLabel(data, end, move) {
  const published = data.p;
  const [x, y] = endXY(end);
  const letterText = data.l[end];
  const letter = esc(letterText);
  const ident = `data-id="end-${endName(end)}"`;
  const text = `<text x="${x}" y="${y + 7}" text-anchor="middle">${letter}</text>`;
  if (isBroken(data, end)) {
    const shape = labelShape(
      x, y, published, "end-label", 'fill="#f2f2f2" stroke="#8a8a8a" stroke-dasharray="4 3"',
    );
    const strike =
      `<line x1="${x - 11}" y1="${y + 11}" x2="${x + 11}" y2="${y - 11}" ` +
      `stroke="${INK}" stroke-width="2"/>`;
    return (
      `<g class="end broken" ${ident} fill="${MUTED}"><title>${letter}: broken</title>` +
      `${shape}${text}${strike}</g>`
    );
  }
  const fill = published ? "#f3e2bf" : "#ffffff";
  const shape = labelShape(
    x, y, published, "end-label", `fill="${fill}" stroke="${INK}" stroke-width="2"`,
  );
  if (move === undefined) return `<g class="end" ${ident} fill="${INK}">${shape}${text}</g>`;
  const label = `pull ${letterText}, ${endTitle(end)}`;
  return (
    `<g class="end" ${ident} fill="${INK}" data-move="${esc(move)}" role="button" ` +
    `tabindex="0" aria-label="${esc(label)}">${hit(x, y)}${shape}${text}</g>`
  );
}

/** The moves offered, by end: each end's letter unless `mt` writes it otherwise. */
function movesOf(data) {
  const moves = new Map();
  for (const end of data.m ?? []) moves.set(end, data.l[end]);
  for (const [end, move] of data.mt ?? []) moves.set(end, move);
  return moves;
}

// -- homes and stacks --------------------------------------------------------------------

/** A home's mark: a square or circle outline (published), or the letter X or O. */
function homeMark(seat, x, y, published, small) {
  const colour = SEAT_COLOURS[seat];
  if (published) {
    const size = small ? 14 : 48;
    if (seat === 0) {
      return (
        `<rect class="home" x="${x - div(size, 2)}" y="${y - div(size, 2)}" width="${size}" ` +
        `height="${size}" fill="${colour}" fill-opacity="0.15" stroke="${colour}" ` +
        'stroke-width="3"/>'
      );
    }
    return (
      `<circle class="home" cx="${x}" cy="${y}" r="${div(size, 2) + 2}" fill="${colour}" ` +
      `fill-opacity="0.15" stroke="${colour}" stroke-width="3"/>`
    );
  }
  const size = small ? 16 : 32;
  const patch = small
    ? ""
    : `<circle cx="${x}" cy="${y}" r="19" fill="#ffffff" stroke="${colour}" ` +
      'stroke-width="1.5" stroke-dasharray="3 3"/>';
  return (
    `${patch}<text class="home" x="${x}" y="${fixed(y + size * 0.36, 0)}" ` +
    `text-anchor="middle" font-size="${size}" font-weight="700" fill="${colour}" ` +
    `stroke="#ffffff" stroke-width="${small ? 1 : 3}" paint-order="stroke">` +
    `${"XO"[seat]}</text>`
  );
}

/** An intersection: its home (if any) and its stack (if any). */
function cellDrawn(published, cell, disks) {
  const [x, y] = xy(cell);
  const owner = OWNER.get(cell);
  const parts = [];
  if (owner !== undefined && (published || !disks)) {
    parts.push(homeMark(owner, x, y, published, false));
  }
  if (disks) {
    const fill = owner === undefined ? INK : SEAT_COLOURS[owner];
    parts.push(
      `<g data-alike="stack"><circle cx="${x}" cy="${y}" r="17" fill="${fill}" ` +
        `stroke="#ffffff" stroke-width="2"/><text x="${x}" y="${y + 6}" ` +
        `text-anchor="middle" font-size="17" font-weight="700" fill="#ffffff">${disks}</text></g>`,
    );
    if (owner !== undefined && !published) {
      parts.push(homeMark(owner, x + 20, y - 16, published, true));
    }
  } else if (owner === undefined) {
    parts.push(`<circle cx="${x}" cy="${y}" r="4" fill="${STRING}"/>`);
  }
  return parts.join("");
}

// A board's cells take few forms (a home or not, a stack of up to some ten disks).
const CELLS = new Map();

function cell(published, cell, disks) {
  const key = `${published ? 1 : 0},${cell},${disks}`;
  let drawn = CELLS.get(key);
  if (drawn === undefined) {
    if (CELLS.size > 4096) CELLS.clear();
    drawn = cellDrawn(published, cell, disks);
    CELLS.set(key, drawn);
  }
  return drawn;
}

// -- the words ---------------------------------------------------------------------------

/** An intersection by the letter above its column and the letter left of its row. */
function cellName(data, cell) {
  return `(${data.l[cell % SIZE]},${data.l[3 * SIZE + div(cell, SIZE)]})`;
}

/** The position in words, for the picture's accessible name. */
function describe(data) {
  const marks = MARK_WORDS[data.p];
  const stacks = data.s.map(([cell, n]) => {
    const owner = OWNER.get(cell);
    const home = owner === undefined ? "" : ` (${marks[owner]} home of ${"XO"[owner]})`;
    return `${n} at ${cellName(data, cell)}${home}`;
  });
  const broken = [];
  for (let end = 0; end < NUM_ENDS; end++) if (isBroken(data, end)) broken.push(data.l[end]);
  // Python's sorted(): by code point (the letters lie in the Basic Multilingual Plane,
  // where that is the order of UTF-16 units that a plain comparison follows).
  broken.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const [hx, ho] = data.h;
  const parts = [
    `${TITLE}, turn ${data.t}`,
    "stacks: " + (stacks.join("; ") || "none"),
    `disks home: X ${hx}, O ${ho} (5 win)`,
    "broken ends: " + (broken.join(", ") || "none"),
  ];
  if (data.o != null) parts.push(`game over: ${data.o}`);
  return parts.join(". ") + ".";
}

/** The line under the board: disks home on each side, the turn, the result. */
function status(data) {
  const [hx, ho] = data.h;
  const names = SEAT_TITLES[data.p];
  let line =
    `<tspan fill="${SEAT_COLOURS[0]}" font-weight="700">X (${esc(names[0])}) ${hx}</tspan>` +
    ` \u00b7 <tspan fill="${SEAT_COLOURS[1]}" font-weight="700">O (${esc(names[1])}) ${ho}` +
    `</tspan> home \u00b7 turn ${data.t}`;
  if (data.o != null) line += ` \u00b7 ${esc(data.o)}`;
  return (
    `<text x="${div(WIDTH, 2)}" y="${WIDTH + 22}" text-anchor="middle" font-size="16">` +
    `${line}</text>`
  );
}

// -- the whole picture -------------------------------------------------------------------

/** The SVG text of the position in `data` (table_data.py) for `layout` "wide"; null for
 * "narrow" (one picture serves every width). */
export function drawTable(data, layout) {
  if (layout !== "wide") return null;
  const moves = movesOf(data);
  const body = [STRINGS];
  for (let end = 0; end < NUM_ENDS; end++) if (isBroken(data, end)) body.push(brokenStub(end));
  const disks = new Map(data.s);
  for (let c = 0; c < NUM_CELLS; c++) body.push(cell(data.p, c, disks.get(c) ?? 0));
  body.push('<g font-size="20" font-weight="700" font-family="sans-serif">');
  for (const end of CLOCKWISE) body.push(endLabel(data, end, moves.get(end)));
  body.push("</g>");
  body.push(status(data));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" ` +
    `class="ps-board" role="group" aria-label="${esc(describe(data))}" ` +
    `font-family="sans-serif"><style>${STYLE}</style>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>${body.join("")}</svg>`
  );
}
