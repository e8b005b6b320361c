// Moves on the board, animated: the picture of the position before turns into the next one.
//
// The server draws each position whole; what makes two pictures one motion are attributes of
// their elements (docs/browser.md):
//   data-id="NAME"     one piece, the same in every position. Moved, it slides from its old
//                      place (turning where it was upright and now lies: a domino leaving
//                      the hand for a train); new, it comes down onto the board; gone, it
//                      fades away; changed where it stands, its old look fades into the new.
//   data-alike="KIND"  pieces without an identity (stacks that split and combine): each old
//                      one goes to the nearest new one of its kind, and a new one that none
//                      reached comes from the nearest old one.
//   data-glow          lights up when it first appears (a completed winning track).
// It is short (under a second), any click or key press (or the next picture) ends it at once,
// and when it ends the board is exactly the picture the server drew: the motion lives in Web
// Animations and in copies of old pieces laid over the board, and all of them are removed.
// It is off where the browser asks for reduced motion and where the player unticked
// "Animate moves" (kept in localStorage).

const KEY = "taut:animate";
const SVG_NS = "http://www.w3.org/2000/svg";
// Pieces slide first, new ones come down from 120 ms, a winning track lights up last: all
// of it within 900 ms.
const MOVE_MS = 420;
const ENTER_DELAY_MS = 120;
const ENTER_MS = 380;
const FADE_MS = 320;
const GLOW_DELAY_MS = 460;
const GLOW_MS = 440;
// What a copy of an old piece needs from the groups it was drawn in (they stay behind).
const INHERITED = [
  "fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "font-family",
  "font-size", "font-weight", "text-anchor", "dominant-baseline", "paint-order",
];
// What would make a copy look clickable or be read out (the real piece is under it).
const LIVE = ["id", "tabindex", "role", "data-move", "data-part", "data-id", "data-alike", "data-glow", "aria-label", "aria-pressed"];
// What a shape looks like: drawn where, how and with what words.
const SHAPE = ["x", "y", "width", "height", "cx", "cy", "r", "rx", "x1", "y1", "x2", "y2", "d", "points", "transform"];
const PAINT = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray", "font-size", "font-weight"];

const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

let run = null; // the animation under way: { holder, svg, animations, ghosts }
let swaps = 0; // counts pictures put in, so a picture replaced at once is not animated

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

function store(value) {
  try { localStorage.setItem(KEY, value); } catch { /* not kept: this page only */ }
}

// Whether moves are animated: not where the browser asks for reduced motion, nor where the
// player turned it off.
export function animationOn() {
  return !(reduced && reduced.matches) && stored() !== "0";
}

// Put the picture `html` in `holder` in place of the one there, and animate the change once
// the page has finished drawing the frame (sized it, marked what is chosen): in a microtask,
// still before the browser paints.
export function swapBoard(holder, html) {
  finishAnimation();
  const old = holder.querySelector("svg");
  let before = null;
  try {
    if (old && animationOn() && document.visibilityState !== "hidden") before = snapshot(old);
  } catch { /* not measurable: the picture is only replaced */ }
  holder.innerHTML = html;
  const swap = ++swaps;
  if (!before) return;
  queueMicrotask(() => {
    if (swap !== swaps) return;
    try { play(holder, before); } catch { finishAnimation(); }
  });
}

// End the animation under way at once: the board is left as the server drew it.
export function finishAnimation() {
  const job = run;
  run = null;
  if (!job) return;
  for (const animation of job.animations) animation.cancel();
  for (const ghost of job.ghosts) ghost.remove();
  delete job.holder.dataset.animating;
}

// -- measuring --------------------------------------------------------------------------------

function matrix(m) {
  return new DOMMatrix([m.a, m.b, m.c, m.d, m.e, m.f]);
}

// Where a piece is drawn on the screen and what it looks like, from what is seen of it: not
// what only takes its clicks (shapes with neither paint nor stroke, which come and go with
// the turn), nor what makes it clickable (a seat that has chosen gets the same picture again,
// no longer clickable: its pieces have not changed).
function measure(el) {
  let box = null;
  const look = [];
  for (const leaf of el.children.length ? el.querySelectorAll("*") : [el]) {
    if (leaf.children.length || leaf.localName === "title") continue;
    const style = getComputedStyle(leaf);
    const filled = style.fill !== "none" && parseFloat(style.fillOpacity) > 0;
    const stroked = style.stroke !== "none" && parseFloat(style.strokeOpacity) > 0;
    if (!filled && !stroked) continue;
    const r = leaf.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    box = box ? union(box, r) : r;
    let opacity = 1;
    for (let up = leaf; up && up !== el.parentNode; up = up.parentNode) opacity *= parseFloat(getComputedStyle(up).opacity);
    look.push([
      leaf.localName, opacity, leaf.textContent,
      ...SHAPE.map((name) => leaf.getAttribute(name)), ...PAINT.map((name) => style.getPropertyValue(name)),
    ].join("|"));
  }
  return { box: box || el.getBoundingClientRect(), look: look.join("\n") };
}

function paintOf(parent) {
  const style = getComputedStyle(parent);
  return INHERITED.map((name) => `${name}:${style.getPropertyValue(name)}`).join(";");
}

function union(a, b) {
  const left = Math.min(a.left, b.left);
  const top = Math.min(a.top, b.top);
  return new DOMRect(left, top, Math.max(a.right, b.right) - left, Math.max(a.bottom, b.bottom) - top);
}

// Where each piece of the old picture is on the screen, and what it looks like.
function snapshot(svg) {
  const ids = new Map();
  const alike = [];
  for (const el of svg.querySelectorAll("[data-id], [data-alike]")) {
    const { box, look } = measure(el);
    const frame = el.parentNode.getScreenCTM && el.parentNode.getScreenCTM();
    if ((!box.width && !box.height) || !frame) continue; // not drawn
    const item = { el, box, look, frame: matrix(frame), paint: paintOf(el.parentNode), kind: el.dataset.alike };
    if (el.dataset.id) ids.set(el.dataset.id, item);
    else alike.push(item);
  }
  return { ids, alike, glowing: !!svg.querySelector("[data-glow]") };
}

const centre = (box) => [box.left + box.width / 2, box.top + box.height / 2];
const distance = (a, b) => Math.hypot(centre(a)[0] - centre(b)[0], centre(a)[1] - centre(b)[1]);
// A piece whose middle moved less than this (in screen pixels) stayed where it was.
const NEAR = 3;
const moved = (a, b) => distance(a, b) > NEAR;
const oblong = (box) => Math.max(box.width, box.height) > 1.4 * Math.min(box.width, box.height);

// A point of the screen in the picture's units, and a step on the screen in them.
function point(toUser, [x, y]) {
  return [toUser.a * x + toUser.c * y + toUser.e, toUser.b * x + toUser.d * y + toUser.f];
}

function step(toUser, [x1, y1], [x2, y2]) {
  const dx = x1 - x2;
  const dy = y1 - y2;
  return [toUser.a * dx + toUser.c * dy, toUser.b * dx + toUser.d * dy];
}

function nearest(items, box) {
  let best = items[0];
  for (const item of items) if (distance(item.box, box) < distance(best.box, box)) best = item;
  return best;
}

// -- the kinds of motion ----------------------------------------------------------------------

// `el` slides from where the old piece was (`from`, on the screen) to where it is now, turning
// a quarter where it was upright and now lies (or the other way).
function slide(job, el, from, to) {
  const [dx, dy] = step(job.toUser, centre(from), centre(to));
  const [ox, oy] = point(job.toUser, centre(to));
  const origin = `${ox}px ${oy}px`;
  const upright = (box) => box.height > box.width;
  const turned = oblong(from) && oblong(to) && upright(from) !== upright(to);
  job.animations.push(el.animate([
    { transformOrigin: origin, translate: `${dx}px ${dy}px`, rotate: turned ? "90deg" : "0deg" },
    { transformOrigin: origin, translate: "0px 0px", rotate: "0deg" },
  ], { duration: MOVE_MS, easing: "ease-in-out" }));
}

// A new piece comes down onto the board.
function enter(job, el, box) {
  const [ox, oy] = point(job.toUser, centre(box));
  const origin = `${ox}px ${oy}px`;
  const opacity = getComputedStyle(el).opacity;
  job.animations.push(el.animate([
    { transformOrigin: origin, opacity: 0, scale: "1.35" },
    { transformOrigin: origin, opacity, scale: "1" },
  ], { duration: ENTER_MS, delay: ENTER_DELAY_MS, easing: "ease-out", fill: "backwards" }));
}

// A copy of an old piece, where it was, over the new picture.
function ghost(job, was) {
  const copy = was.el.cloneNode(true);
  for (const node of [copy, ...copy.querySelectorAll("*")]) {
    for (const name of LIVE) node.removeAttribute(name);
  }
  for (const title of copy.querySelectorAll("title")) title.remove();
  const g = document.createElementNS(SVG_NS, "g");
  const m = job.toUser.multiply(was.frame);
  g.setAttribute("data-ghost", "");
  g.setAttribute("aria-hidden", "true");
  g.setAttribute("pointer-events", "none");
  g.setAttribute("transform", `matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`);
  g.setAttribute("style", was.paint);
  g.append(copy);
  job.svg.append(g);
  job.ghosts.push(g);
  return g;
}

// An old piece (gone, or changed where it stands) fades away over the new picture.
function fade(job, was) {
  job.animations.push(ghost(job, was).animate(
    [{ opacity: 1 }, { opacity: 0 }],
    { duration: FADE_MS, easing: "ease-in", fill: "forwards" },
  ));
}

// A copy of an old piece travels to `to` and fades there (stacks that combine).
function travel(job, was, to) {
  const [dx, dy] = step(job.toUser, centre(to), centre(was.box));
  const there = `${dx}px ${dy}px`;
  job.animations.push(ghost(job, was).animate([
    { translate: "0px 0px", opacity: 1 },
    { translate: there, opacity: 1, offset: 0.85 },
    { translate: there, opacity: 0 },
  ], { duration: MOVE_MS, easing: "ease-in-out", fill: "forwards" }));
}

function glow(job, el) {
  const width = parseFloat(getComputedStyle(el).strokeWidth) || 1;
  job.animations.push(el.animate([
    { strokeWidth: `${width}px` },
    { strokeWidth: `${width * 2}px`, offset: 0.4 },
    { strokeWidth: `${width}px` },
  ], { duration: GLOW_MS, delay: GLOW_DELAY_MS, easing: "ease-in-out" }));
}

// Pieces without identity: see the top of this file.
function flowAlike(job, olds, els) {
  const kinds = new Set([...olds.map((w) => w.kind), ...els.map((el) => el.dataset.alike)]);
  for (const kind of kinds) {
    const was = olds.filter((w) => w.kind === kind);
    const now = els.filter((el) => el.dataset.alike === kind)
      .map((el) => ({ el, ...measure(el) }))
      .filter((n) => n.box.width || n.box.height);
    if (!now.length) { for (const w of was) fade(job, w); continue; }
    if (!was.length) { for (const n of now) enter(job, n.el, n.box); continue; }
    const sources = new Map(now.map((n) => [n, []]));
    for (const w of was) sources.get(nearest(now, w.box)).push(w);
    for (const n of now) {
      const from = sources.get(n);
      if (!from.length) from.push(nearest(was, n.box));
      from.sort((a, b) => distance(a.box, n.box) - distance(b.box, n.box));
      const [first, ...rest] = from;
      if (moved(first.box, n.box)) slide(job, n.el, first.box, n.box);
      else if (first.look !== n.look) fade(job, first);
      for (const w of rest) travel(job, w, n.box);
    }
  }
}

// Lines of text that come or go above the pieces (whose move it is) move every piece below
// them by the same step down or up: that is the picture's layout, not a move. The step down
// or up most pieces made (at least half of them, and four) is taken as such a shift, and the
// old places as shifted by it, so that only what moved in the game slides.
function layoutShift(pieces) {
  const steps = pieces.map(({ box, was }) => centre(box)[1] - centre(was.box)[1]);
  const near = (dy) => steps.filter((y) => Math.abs(y - dy) <= NEAR).length;
  let shift = 0;
  let most = near(0);
  for (const dy of steps) {
    const n = near(dy);
    if (n > most) { shift = dy; most = n; }
  }
  return most >= 4 && 2 * most >= pieces.length ? shift : 0;
}

function shifted(was, dy) {
  if (!dy) return was;
  const box = new DOMRect(was.box.x, was.box.y + dy, was.box.width, was.box.height);
  return { ...was, box, frame: new DOMMatrix().translate(0, dy).multiply(was.frame) };
}

function play(holder, before) {
  const svg = holder.querySelector("svg");
  const screen = svg && svg.getScreenCTM();
  if (!screen) return;
  const job = { holder, svg, toUser: matrix(screen).inverse(), animations: [], ghosts: [] };
  run = job;
  const pieces = [];
  for (const el of svg.querySelectorAll("[data-id]")) {
    const { box, look } = measure(el);
    if (box.width || box.height) pieces.push({ el, box, look, was: before.ids.get(el.dataset.id) });
  }
  const dy = layoutShift(pieces.filter((p) => p.was));
  const present = new Set();
  for (const { el, box, look, was: old } of pieces) {
    present.add(el.dataset.id);
    const was = old && shifted(old, dy);
    if (!was) enter(job, el, box);
    else if (moved(was.box, box)) slide(job, el, was.box, box);
    else if (was.look !== look) fade(job, was);
  }
  for (const [id, was] of before.ids) if (!present.has(id)) fade(job, shifted(was, dy));
  flowAlike(job, before.alike.map((w) => shifted(w, dy)), [...svg.querySelectorAll("[data-alike]")]);
  if (!before.glowing) for (const el of svg.querySelectorAll("[data-glow]")) glow(job, el);
  if (!job.animations.length) { finishAnimation(); return; }
  holder.dataset.animating = "";
  const done = () => { if (run === job) finishAnimation(); };
  Promise.all(job.animations.map((a) => a.finished)).then(done, done);
}

// -- skipping and the setting -----------------------------------------------------------------

for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => { if (run) finishAnimation(); }, true);
}

// The page's "Animate moves" box (where it has one): ticked unless turned off; unticked and
// not to be ticked while the browser asks for reduced motion.
const box = document.getElementById("animate-moves");
if (box) {
  const show = () => {
    const still = !!(reduced && reduced.matches);
    box.checked = !still && stored() !== "0";
    box.disabled = still;
    box.parentElement.title = still ? "Your browser asks for reduced motion: moves are not animated." : "";
  };
  show();
  box.addEventListener("change", () => {
    store(box.checked ? "1" : "0");
    if (!box.checked) finishAnimation();
  });
  if (reduced && reduced.addEventListener) reduced.addEventListener("change", show);
}
