// The Track Tiles board drawn on the page from plain data.
//
// The server sends the position as data (taut/games/tracks/table_data.py, whose docstring
// says what each key holds) and this module draws the picture from it: drawTable(data,
// "wide") returns the same SVG text, byte for byte, as the server's drawer
// (taut/games/tracks/svg.py, board_svg) draws for the same position, seat and legal moves.
// Track Tiles has one picture for every width, so drawTable(data, "narrow") is null, as the
// server's svg_narrow is None. tests/test_tracks_drawn_on_page.py holds the two drawers
// together over many random games, so a change to either side must be made to both.
//
// The parts follow svg.py in its order: numbers and text as Python writes them, the pieces
// of track, the board, the hands and words under it. No build step; what it
// shares with the other games' modules (numbers and text as Python writes them) it imports
// from ../page_text.js.

import { esc, g, wrap } from "../page_text.js";

// -- what the picture is made of ---------------------------------------------------------

const MARGIN = 44;
const MIN_WIDTH = 540;
const PANEL = 222;
const LEGEND =
  "Track colours: blue reaches the top or bottom, vermillion the left or right, " +
  "striped both, grey neither.";
const LEGEND_LINES = wrap(LEGEND, 46);

const INK = "#1a1a1a";
const MUTED = "#666666";
const GREY = "#8a8a8a";
const BLUE = "#0072B2";
const VERMILLION = "#D55E00";
const ORANGE = "#E69F00";
const CELL_FILL = "#fffdf7";
const EMPTY_FILL = "#eeeeee";

const SEATS = ["NS", "WE"];
const SEAT_COLOURS = [BLUE, VERMILLION];
const SEAT_SIDES = ["top and bottom", "left and right"];

// Sides of a cell, clockwise from the top; a kind's two strands, each joining two sides.
const N = 0, E = 1, S = 2, W = 3;
const STRANDS = [[], [[N, W], [E, S]], [[N, E], [S, W]], [[N, S], [E, W]]];
const KINDS = [1, 2, 3];

// How a strand is coloured (table_data.py): grey, blue, vermillion, both, then the
// winner's track (LOOK_WON + seat).
const LOOK_NS = 1, LOOK_WE = 2, LOOK_WON = 4;

const STYLE =
  ".tt-board [data-move]{cursor:pointer}" +
  ".tt-board .tt-ghost{opacity:0}" +
  ".tt-board [data-move]:hover .tt-ghost,.tt-board [data-move]:focus .tt-ghost{opacity:.45}" +
  ".tt-board [data-move]:hover .tt-hit,.tt-board [data-move]:focus .tt-hit" +
  "{stroke:#E69F00;stroke-width:4}" +
  ".tt-board [data-move]:focus{outline:none}" +
  ".tt-board [data-move] .tt-dot{display:none}" +
  ".tt-board:not([data-offering]) .tt-offering{visibility:hidden}" +
  ".tt-board .chosen .tt-ghost{opacity:.8}" +
  ".tt-board .chosen .tt-hit{stroke:#E69F00;stroke-width:5}" +
  // Small words grow to read at 12 px or more however small the picture is drawn.
  [13, 14, 15]
    .map((n) => `.tt-board .tt-small[font-size="${n}"]{font-size:max(${n}px,calc(12.2px*var(--unit,0)))}`)
    .join("") +
  "@media (max-width:520px){.tt-board text.tt-small[font-size]{font-size:19.5px}}";
const STYLE_PART = `<style>${STYLE}</style>`;

/** The side of a cell: the board stays about 480 units across (at most 96 a cell). */
function cellSize(size) {
  return Math.min(96, Math.floor(480 / size));
}

function pictureWidth(size) {
  return Math.max(MIN_WIDTH, 2 * MARGIN + size * cellSize(size));
}

function boardLeft(size) {
  return (pictureWidth(size) - size * cellSize(size)) / 2;
}

function columnLetter(col) {
  return String.fromCharCode(97 + col);
}

function cellName(size, cell) {
  return `${columnLetter(cell % size)}${Math.floor(cell / size) + 1}`;
}

// -- pieces of track ---------------------------------------------------------------------

function midpoint(x, y, c, side) {
  return [[x + c / 2, y], [x + c, y + c / 2], [x + c / 2, y + c], [x, y + c / 2]][side];
}

/** A piece of track joining two sides of the cell at (x, y): a straight line across, or
 * a quarter circle round the corner the two sides share. */
function strandPath(x, y, c, sides) {
  const [a, b] = sides;
  const [x1, y1] = midpoint(x, y, c, a);
  const [x2, y2] = midpoint(x, y, c, b);
  if ((a + 2) % 4 === b) return `M${g(x1)} ${g(y1)}L${g(x2)} ${g(y2)}`;
  const cx = sides.includes(E) ? x + c : x;
  const cy = sides.includes(S) ? y + c : y;
  // Screen coordinates run downwards: a positive cross product turns clockwise.
  const sweep = (x1 - cx) * (y2 - cy) - (y1 - cy) * (x2 - cx) > 0 ? 1 : 0;
  const r = c / 2;
  return `M${g(x1)} ${g(y1)}A${g(r)} ${g(r)} 0 0 ${sweep} ${g(x2)} ${g(y2)}`;
}

function stroke(path, colour, width, extra = "") {
  return (
    `<path d="${path}" fill="none" stroke="${colour}" stroke-width="${g(width)}" ` +
    `stroke-linecap="butt"${extra}/>`
  );
}

/** One piece of track coloured by its look. */
function piece(path, c, look) {
  const width = Math.max(3.0, c / 9);
  if (look >= LOOK_WON) {
    // data-glow: the page lights the winning track up when it is completed.
    return stroke(path, INK, width * 2.2) +
      stroke(path, SEAT_COLOURS[look - LOOK_WON], width * 1.5, ' data-glow=""');
  }
  const ns = (look & LOOK_NS) !== 0, we = (look & LOOK_WE) !== 0;
  if (ns && we) {
    const dash = ` stroke-dasharray="${g(width * 1.5)} ${g(width * 1.5)}"`;
    return stroke(path, VERMILLION, width) + stroke(path, BLUE, width, dash);
  }
  if (ns || we) return stroke(path, ns ? BLUE : VERMILLION, width);
  return stroke(path, GREY, width * 0.8);
}

/** A tile of `kind` in the cell at (x, y), its strands coloured by look0 and look1. The
 * upright piece of a crossing bridges the other (a gap in the paper under it). */
function tileArt(x, y, c, kind, look0 = 0, look1 = 0) {
  const key = `${x} ${y} ${c} ${kind} ${look0} ${look1}`;
  let art = TILE_ART.get(key);
  if (art === undefined) {
    if (TILE_ART.size > 8192) TILE_ART.clear();
    art = drawTile(x, y, c, kind, look0, look1);
    TILE_ART.set(key, art);
  }
  return art;
}

// A tile's art hardly changes from one position to the next: each place, kind and look is
// drawn once (as the server's drawer keeps it too).
const TILE_ART = new Map();

function drawTile(x, y, c, kind, look0, look1) {
  const out = [];
  const looks = [look0, look1];
  STRANDS[kind].forEach((sides, strand) => {
    const path = strandPath(x, y, c, sides);
    const drawn = piece(path, c, looks[strand]);
    if (kind === 3 && sides[0] === N && sides[1] === S) {
      out.push(stroke(path, CELL_FILL, Math.max(3.0, c / 9) * 2.6) + drawn);
    } else {
      out.unshift(drawn);
    }
  });
  return out.join("");
}

// -- the board ---------------------------------------------------------------------------

function label(x, y, text, size = 14, attrs = []) {
  const extra = attrs.map(([k, v]) => ` ${k}="${esc(v)}"`).join("");
  return (
    `<text x="${g(x)}" y="${g(y)}" font-size="${size}" text-anchor="middle"${extra}>` +
    `${esc(text)}</text>`
  );
}

/** A part the same for every position of a size, drawn once. */
function once(name, size, draw) {
  const key = `${name} ${size}`;
  let part = ONCE.get(key);
  if (part === undefined) ONCE.set(key, (part = draw()));
  return part;
}

const ONCE = new Map();

/** Column letters above and below, row numbers left and right. */
function coordinates(size, c) {
  const out = [];
  const left = boardLeft(size);
  const small = [["class", "tt-small"]];
  for (let i = 0; i < size; i++) {
    const mid = i * c + c / 2;
    const letter = columnLetter(i);
    for (const y of [MARGIN - 16, MARGIN + size * c + 28]) out.push(label(left + mid, y, letter, 14, small));
    for (const x of [left - 22, left + size * c + 22]) {
      out.push(label(x, MARGIN + mid + 5, String(i + 1), 14, small));
    }
  }
  return `<g aria-hidden="true" fill="${MUTED}">${out.join("")}</g>`;
}

/** NS's edges (top, bottom) and WE's (left, right) as thick bars in their colours. */
function edges(size, c) {
  const left = boardLeft(size), right = boardLeft(size) + size * c;
  const top = MARGIN, bottom = MARGIN + size * c;
  const bars = [
    [left, top - 4, right, top - 4, BLUE],
    [left, bottom + 4, right, bottom + 4, BLUE],
    [left - 4, top, left - 4, bottom, VERMILLION],
    [right + 4, top, right + 4, bottom, VERMILLION],
  ];
  return bars
    .map(([x1, y1, x2, y2, colour]) =>
      `<line x1="${g(x1)}" y1="${g(y1)}" x2="${g(x2)}" y2="${g(y2)}" stroke="${colour}" ` +
      'stroke-width="7"/>')
    .join("");
}

/** One cell: its tile, a place to put a tile of kind `place` (null: none), or a dot. */
function cellPart(size, cell, kind, look0, look1, last, place) {
  const c = cellSize(size);
  const r = Math.floor(cell / size), col = cell % size;
  const x = boardLeft(size) + col * c, y = MARGIN + r * c;
  const name = cellName(size, cell);
  const square =
    `<rect class="tt-hit" x="${g(x)}" y="${y}" width="${c}" height="${c}" ` +
    `fill="${kind ? CELL_FILL : EMPTY_FILL}" stroke="${GREY}" stroke-width="1"/>`;
  if (kind) {
    const words = `${name}: kind ${kind}` + (last ? ", the last tile placed" : "");
    // The tile's identity across positions (the page animates it coming down).
    return (
      `<g data-id="tile-${esc(name)}" role="img" aria-label="${esc(words)}">${square}` +
      `${tileArt(x, y, c, kind, look0, look1)}</g>`
    );
  }
  if (place !== null) {
    const ghost = `<use class="tt-ghost" href="#${ghostId(c, place)}" x="${g(x)}" y="${y}"/>`;
    const words = `place kind ${place} on ${name}`;
    return (
      `<g class="tt-click" data-move="${esc(name)}" role="button" tabindex="0" ` +
      `aria-label="${esc(words)}">${square}${ghost}</g>`
    );
  }
  // Offered by the page when it is the viewer's move.
  const dot = `<circle class="tt-dot" cx="${g(x + c / 2)}" cy="${g(y + c / 2)}" r="2" fill="${GREY}"/>`;
  const ghost = `<use class="tt-ghost" href="#${offerId(c)}" x="${g(x)}" y="${y}"/>`;
  return `<g data-offer="${esc(name)}">${square}${dot}${ghost}</g>`;
}

function ghostId(c, kind) {
  return `tt-ghost-${g(c)}-${kind}`;
}

function ghost(c, kind) {
  return `<defs><g id="${ghostId(c, kind)}">${tileArt(0, 0, c, kind)}</g></defs>`;
}

function offerId(c) {
  return `tt-offer-${g(c)}`;
}

function kindId(c, kind) {
  return `tt-kind-${g(c)}-${kind}`;
}

/** Every kind of tile, grey, at the origin: what the hands and hovered cells <use>. */
function kindsPart(c) {
  return `<defs>${KINDS.map((k) => `<g id="${kindId(c, k)}">${tileArt(0, 0, c, k)}</g>`).join("")}</defs>`;
}

function offered(c, kind) {
  return `<defs><use id="${offerId(c)}" href="#${kindId(c, kind)}"/></defs>`;
}

/** The board's cells, then the frame round the last placement. */
function cells(data, movable) {
  const { size, place, last } = data;
  const c = cellSize(size);
  const parts = data.cells.map((v, cell) => {
    const kind = v & 3;
    if (kind) return cellPart(size, cell, kind, (v >> 2) & 7, (v >> 5) & 7, cell === last, null);
    return cellPart(size, cell, 0, 0, 0, false, movable.has(cell) ? place : null);
  });
  const empty = data.cells.filter((v) => !v).length;
  if (movable.size && place) parts.unshift(ghost(c, place));
  if (place && movable.size < empty) parts.unshift(offered(c, place));
  if (last !== null) {
    const r = Math.floor(last / size), col = last % size;
    const x = boardLeft(size) + col * c + 3, y = MARGIN + r * c + 3;
    parts.push(
      `<rect x="${g(x)}" y="${y}" width="${c - 6}" height="${c - 6}" fill="none" ` +
      `stroke="${ORANGE}" stroke-width="3" stroke-dasharray="6 3" aria-hidden="true"/>`,
    );
  }
  return parts;
}

// -- under the board ---------------------------------------------------------------------

/** One player's tile in hand: its picture and kind, whose sides, and the turn. */
function hand(data, seat, x, y) {
  const toMove = data.turn === seat;
  const placing = toMove && data.place > 0;
  const kind = data.hands[seat];
  const c = cellSize(data.size);
  const box = 56;
  const out = [
    `<rect x="${g(x)}" y="${g(y)}" width="${box}" height="${box}" fill="${CELL_FILL}" ` +
    `stroke="${SEAT_COLOURS[seat]}" stroke-width="3"/>`,
  ];
  let what;
  if (kind) {
    // The kind's picture drawn at the hand's size: its lines scale with it.
    out.push(`<use href="#${kindId(c, kind)}" transform="translate(${g(x)} ${g(y)}) scale(${g(box / c)})"/>`);
    what = `kind ${kind}`;
  } else {
    out.push(label(x + box / 2, y + box / 2 + 8, "?", 24, [["fill", MUTED]]));
    what = "rolls before placing";
  }
  const weight = toMove ? "bold" : "normal";
  const lines = [[SEATS[seat], 15, weight], [SEAT_SIDES[seat], 14, "normal"], [what, 14, "normal"]];
  if (placing) lines.push(["▶ to place", 14, "bold"]);
  lines.forEach(([words, size, bold], i) => {
    out.push(
      `<text class="tt-small" x="${g(x + box + 10)}" y="${g(y + 16 + 19 * i)}" ` +
      `font-size="${size}" font-weight="${bold}" fill="${INK}">${esc(words)}</text>`,
    );
  });
  const words = `${SEATS[seat]}, joining ${SEAT_SIDES[seat]}: ${what}`;
  return `<g role="img" aria-label="${esc(words)}">${out.join("")}</g>`;
}

/** What the colours say, under the board, with the line asking for a cell above it (shown
 * while cells are offered, its place kept either way). */
function legend(top) {
  const lines = [["Choose an empty cell for your tile.", " tt-offering"], ...LEGEND_LINES.map((l) => [l, ""])];
  return lines
    .map(([line, more], i) =>
      `<text class="tt-small${more}" x="12" y="${top + 136 + 24 * i}" font-size="13" ` +
      `fill="${MUTED}">${esc(line)}</text>`)
    .join("");
}

/** The SVG text of the position in `data` (table_data.py) for `layout` "wide"; null for
 * "narrow" (one picture serves every width). */
export function drawTable(data, layout) {
  if (layout !== "wide") return null;
  const { size, status: said } = data;
  const c = cellSize(size);
  const movable = new Set(data.moves);
  const width = pictureWidth(size);
  const top = MARGIN + size * c + MARGIN;
  const half = width / 2;
  const placed = data.cells.filter((v) => v).length;
  const holds = data.hands
    .map((k, s) => (k ? `${SEATS[s]} holds kind ${k}` : `${SEATS[s]} has not rolled`))
    .join("; ");
  const summary =
    `Track Tiles, ${size} by ${size}: ${said} ${placed} of ${size * size} cells ` +
    `filled; ${holds}.`;
  // The words an offered cell's choice is named by, on an element of its own.
  const offer = data.place ? `<g data-offer-words="place kind ${data.place} on {move}"/>` : "";
  const body = [
    STYLE_PART,
    `<desc>${esc(summary)}</desc>`,
    offer,
    `<rect width="${width}" height="${top + PANEL}" fill="#ffffff"/>`,
    once("kinds", c, () => kindsPart(c)),
    once("coordinates", size, () => coordinates(size, c)),
    once("edges", size, () => edges(size, c)),
    ...cells(data, movable),
    hand(data, 0, 12, top),
    hand(data, 1, half + 4, top),
    `<text class="tt-small" x="12" y="${top + 108}" font-size="15" font-weight="bold">` +
    `${esc(said)}</text>`,
    legend(top),
  ];
  const offering = movable.size ? ' data-offering=""' : "";
  const root =
    `<svg xmlns="http://www.w3.org/2000/svg" class="tt-board"${offering} ` +
    `viewBox="0 0 ${width} ${top + PANEL}" role="group" ` +
    `aria-label="Track Tiles, ${size} by ${size}" ` +
    `font-family="system-ui, sans-serif" fill="${INK}">`;
  return `${root}${body.join("")}</svg>`;
}
