// Leitner boxes for flash cards, the rule of taut.core.flashcards and the same JSON:
//
// * A card is a tile asked one way: "board->other" (shown the board face, give the other)
//   or "other->board". Every card sits in box 1..5.
// * Play goes in rounds numbered from 1; box b is reviewed in the rounds divisible by
//   2 ** (b - 1): box 1 every round, box 2 every 2nd, box 3 every 4th, box 4 every 8th,
//   box 5 every 16th. A round asks, once each and shuffled, every card seen before whose
//   box is due and up to NEW_PER_ROUND cards never seen; a round with nothing due is passed.
// * Right moves a card up a box (box 5 keeps it); wrong puts it back in box 1 and, when the
//   answer names another tile, counts the pair as confused. A skipped card goes to the end
//   of its round. Choices offer the tiles confused before first.
//
// Progress is {"version": 1, "sets": {NAME: DECK}} with DECK = {round, queue: [[tile,
// direction]], last: [tile, direction] | null, cards: [{tile, direction, box, right, wrong,
// round}], confusions: [{direction, asked, given, count}]}: the file `taut flashcards`
// writes. The shuffles are seeded (a string hash into mulberry32), so one seed gives one
// order here, though not the order Python's random gives.

export const BOARD_TO_OTHER = "board->other";
export const OTHER_TO_BOARD = "other->board";
export const DIRECTIONS = [BOARD_TO_OTHER, OTHER_TO_BOARD];
export const BOXES = 5;
export const NEW_PER_ROUND = 5;
export const CHOICES = 6;
export const VERSION = 1;

export const interval = (box) => 2 ** (box - 1);
export const isDue = (box, round) => round % interval(box) === 0;

export function emptyDeck() {
  return { round: 0, queue: [], last: null, cards: [], confusions: [] };
}

// -- seeded shuffles ------------------------------------------------------------------------

function rng(...parts) {
  let h = 2166136261; // FNV-1a of the parts, then mulberry32
  for (const ch of parts.join("|")) h = Math.imul(h ^ ch.codePointAt(0), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(items, random) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

// -- the deck -------------------------------------------------------------------------------

const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
export const stateOf = (deck, key) =>
  deck.cards.find((c) => c.tile === key[0] && c.direction === key[1]) || null;

function startRound(deck, size, directions, seed, name) {
  const every = [];
  for (const d of DIRECTIONS) if (directions.includes(d)) for (let i = 0; i < size; i++) every.push([i, d]);
  const unseen = shuffle(every.filter((k) => !stateOf(deck, k)), rng(seed, name, "new"));
  const fresh = unseen.slice(0, NEW_PER_ROUND);
  let round = deck.round;
  let due = [];
  do { // every box is due in a round divisible by 16
    round += 1;
    due = every.filter((k) => { const s = stateOf(deck, k); return s && isDue(s.box, round); });
  } while (!due.length && !fresh.length);
  const queue = shuffle([...due, ...fresh], rng(seed, name, round));
  if (queue.length > 1 && same(queue[0], deck.last)) [queue[0], queue[1]] = [queue[1], queue[0]];
  deck.round = round;
  deck.queue = queue;
}

// The card to ask now, [tile, direction]; a new round begins when none wanted is queued.
export function nextCard(deck, size, directions, seed, name) {
  const queued = deck.queue.find((k) => directions.includes(k[1]));
  if (queued) return queued;
  startRound(deck, size, directions, seed, name);
  return deck.queue[0];
}

// Record the answer `given` (a tile, or null for one naming none); returns whether right.
export function record(deck, card, given) {
  const right = given === card[0];
  let state = stateOf(deck, card);
  if (!state) {
    state = { tile: card[0], direction: card[1], box: 1, right: 0, wrong: 0, round: 0 };
    deck.cards.push(state);
  }
  state.box = right ? Math.min(BOXES, state.box + 1) : 1;
  state[right ? "right" : "wrong"] += 1;
  state.round = deck.round;
  const at = deck.queue.findIndex((k) => same(k, card));
  if (at >= 0) deck.queue.splice(at, 1);
  deck.last = [card[0], card[1]];
  if (!right && given !== null) {
    const c = deck.confusions.find((x) => x.direction === card[1] && x.asked === card[0] && x.given === given);
    if (c) c.count += 1;
    else deck.confusions.push({ direction: card[1], asked: card[0], given, count: 1 });
  }
  return right;
}

export function skip(deck, card) {
  deck.queue = [...deck.queue.filter((k) => !same(k, card)), [card[0], card[1]]];
}

// [other tile, times] confused with `tile` either way, most often first.
export function confusedWith(deck, tile) {
  const counts = new Map();
  for (const c of deck.confusions) {
    if (c.asked !== tile && c.given !== tile) continue;
    const other = c.asked === tile ? c.given : c.asked;
    counts.set(other, (counts.get(other) || 0) + c.count);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

// `n` tiles to choose from: the right one, the tiles confused with it, then others.
export function choices(deck, size, card, seed, name, n = CHOICES) {
  const random = rng(seed, name, card[0], card[1], deck.round);
  const picked = confusedWith(deck, card[0]).map(([t]) => t).filter((t) => t < size).slice(0, n - 1);
  const rest = [];
  for (let i = 0; i < size; i++) if (i !== card[0] && !picked.includes(i)) rest.push(i);
  shuffle(rest, random);
  return shuffle([card[0], ...picked, ...rest].slice(0, Math.max(1, n)), random);
}

// Cards per box, answers, the cards most missed and the pairs most confused.
export function summary(deck, size, directions, top = 5) {
  const states = deck.cards.filter((c) => directions.includes(c.direction));
  const boxes = Array(BOXES).fill(0);
  for (const s of states) boxes[s.box - 1] += 1;
  const missed = states.filter((s) => s.wrong > 0)
    .sort((a, b) => b.wrong - a.wrong || a.right - b.right || a.tile - b.tile)
    .slice(0, top);
  const pairs = new Map();
  for (const c of deck.confusions) {
    if (!directions.includes(c.direction)) continue;
    const key = `${Math.min(c.asked, c.given)},${Math.max(c.asked, c.given)}`;
    pairs.set(key, (pairs.get(key) || 0) + c.count);
  }
  const confusions = [...pairs]
    .map(([key, count]) => { const [first, second] = key.split(",").map(Number); return { first, second, count }; })
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, top);
  return {
    boxes,
    unseen: size * directions.length - states.length,
    right: states.reduce((n, s) => n + s.right, 0),
    wrong: states.reduce((n, s) => n + s.wrong, 0),
    missed,
    confusions,
  };
}

// -- reading the JSON strictly --------------------------------------------------------------

function fail(where, what) { throw new Error(`${where}: ${what}`); }

function object(value, where, fields) {
  if (!value || typeof value !== "object" || Array.isArray(value)) fail(where, "expected an object");
  if (fields) {
    for (const k of Object.keys(value)) if (!fields.includes(k)) fail(where, `unknown field "${k}"`);
    for (const k of fields) if (!(k in value)) fail(where, `the field "${k}" is missing`);
  }
  return value;
}

function int(value, where, lowest, highest = Infinity) {
  if (!Number.isInteger(value) || value < lowest || value > highest) fail(where, `${JSON.stringify(value)} is not an integer in range`);
}

function direction(value, where) {
  if (!DIRECTIONS.includes(value)) fail(where, `${JSON.stringify(value)} is not a direction`);
}

function key(value, where, size) {
  if (!Array.isArray(value) || value.length !== 2) fail(where, "expected [tile, direction]");
  int(value[0], where, 0, size - 1);
  direction(value[1], where);
}

// Check one deck against a set of `size` tiles; throws an Error naming what is wrong.
export function checkDeck(deck, where, size) {
  object(deck, where, ["round", "queue", "last", "cards", "confusions"]);
  int(deck.round, `${where}.round`, 0);
  for (const [name, list] of [["queue", deck.queue], ["cards", deck.cards], ["confusions", deck.confusions]]) {
    if (!Array.isArray(list)) fail(`${where}.${name}`, "expected a list");
  }
  deck.queue.forEach((k, i) => key(k, `${where}.queue[${i}]`, size));
  if (deck.last !== null) key(deck.last, `${where}.last`, size);
  deck.cards.forEach((c, i) => {
    const at = `${where}.cards[${i}]`;
    object(c, at, ["tile", "direction", "box", "right", "wrong", "round"]);
    int(c.tile, `${at}.tile`, 0, size - 1);
    direction(c.direction, `${at}.direction`);
    int(c.box, `${at}.box`, 1, BOXES);
    for (const f of ["right", "wrong", "round"]) int(c[f], `${at}.${f}`, 0);
  });
  deck.confusions.forEach((c, i) => {
    const at = `${where}.confusions[${i}]`;
    object(c, at, ["direction", "asked", "given", "count"]);
    direction(c.direction, `${at}.direction`);
    int(c.asked, `${at}.asked`, 0, size - 1);
    int(c.given, `${at}.given`, 0, size - 1);
    int(c.count, `${at}.count`, 1);
  });
  return deck;
}

// Parse the whole progress (every set); throws an Error naming what is wrong.
export function parseProgress(text) {
  const data = object(JSON.parse(text), "progress", ["version", "sets"]);
  if (data.version !== VERSION) fail("progress", `version ${JSON.stringify(data.version)} is not known`);
  object(data.sets, "sets");
  return data;
}
