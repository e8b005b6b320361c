// The board picture's conventions (see taut/core/svg.py): `data-move` chooses a whole move,
// `data-part="SLOT=VALUE"` one part of a move composed by the root's `data-compose` template
// (`{SLOT}` placeholders) from `data-defaults="SLOT=VALUE;..."` and the parts chosen.

export function board(holder) {
  return holder.querySelector("svg");
}

// The width, in CSS pixels, the board is drawn in (a holder not laid out yet, hidden, has
// none: the window's stands for it).
export function boardRoom(holder) {
  const style = getComputedStyle(holder);
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  return holder.clientWidth ? holder.clientWidth - padding : window.innerWidth;
}

// Which picture of a position to draw in `holder`: a game may send, beside its `wide` one, a
// `narrow` one laid out for a phone; that one is drawn where the holder has less room than
// the wide one may be drawn in (its root's data-touch-width), so nothing scrolls sideways.
// A page that told the server its room is sent only the one that fits.
export function pickBoard(holder, wide, narrow) {
  if (!narrow) return wide;
  if (!wide) return narrow;
  const root = wide.slice(0, wide.indexOf(">"));
  const touch = /data-touch-width="([\d.]+)"/.exec(root);
  if (!touch) return wide;
  return boardRoom(holder) < Number(touch[1]) ? narrow : wide;
}

function pair(text) {
  const at = text.indexOf("=");
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}

export function defaultsOf(svg) {
  const out = {};
  for (const item of (svg?.dataset.defaults || "").split(";")) {
    if (!item) continue;
    const [slot, value] = pair(item);
    out[slot] = value;
  }
  return out;
}

const CHOICES = "[data-move], [data-part]";
// How far (CSS px) a finger may move between pressing and lifting and still tap.
const TAP_SLOP = 10;
const watched = new WeakSet(); // holders whose taps are followed

// The choice `target` is part of, in `holder`'s picture (the page around it may use the
// same attributes: the game's root keeps its move number in data-move).
function choiceIn(holder, target) {
  const el = target.closest ? target.closest(CHOICES) : null;
  return el && holder.contains(el) ? el : null;
}

function choiceKey(el) {
  return el.dataset.move !== undefined ? `[data-move="${CSS.escape(el.dataset.move)}"]` : `[data-part="${CSS.escape(el.dataset.part)}"]`;
}

// A tap is a press and a lift in one place. The browser only calls it a click on a piece when
// both land on it, so a piece that moves under the finger loses the tap: one sliding into
// place when the press ends its animation, or one drawn again by a frame that came between.
// The press is remembered, and a click that lands on no choice, near where the press was,
// goes to the choice that was pressed.
function followTaps(holder) {
  if (watched.has(holder)) return;
  watched.add(holder);
  let pressed = null;
  holder.addEventListener("pointerdown", (event) => {
    const el = choiceIn(holder, event.target);
    pressed = el ? { key: choiceKey(el), x: event.clientX, y: event.clientY } : null;
  });
  holder.addEventListener("click", (event) => {
    const was = pressed;
    pressed = null;
    if (!was || choiceIn(holder, event.target)) return;
    if (Math.hypot(event.clientX - was.x, event.clientY - was.y) > TAP_SLOP) return;
    const svg = board(holder);
    const el = svg && svg.querySelector(was.key);
    if (el) el.dispatchEvent(new MouseEvent("click", { bubbles: true, clientX: event.clientX, clientY: event.clientY }));
  });
}

// Turn the picture's offers (data-offer="MOVE", drawn whoever looks) into choices: those of
// `legal` become data-move buttons named by data-offer-words (the root's, or an element's), the rest plain
// places again. The root has data-offering while any is offered.
export function offerMoves(holder, legal) {
  const svg = board(holder);
  if (!svg) return;
  const on = new Set(legal);
  // On the root, or on an element of the picture of its own (the root's tag then stays the
  // same from move to move, and a patch leaves it alone).
  const named = svg.dataset.offerWords !== undefined ? svg : svg.querySelector("[data-offer-words]");
  const words = (named && named.dataset.offerWords) || "{move}";
  let any = false;
  for (const el of svg.querySelectorAll("[data-offer]")) {
    const move = el.dataset.offer;
    if (on.has(move)) {
      any = true;
      if (el.dataset.move === move) continue;
      el.dataset.move = move;
      el.setAttribute("role", "button");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-label", words.replaceAll("{move}", move));
    } else if (el.dataset.move !== undefined) {
      delete el.dataset.move;
      for (const name of ["role", "tabindex", "aria-label", "aria-pressed"]) el.removeAttribute(name);
      el.classList.remove("chosen");
    }
  }
  if (any) svg.setAttribute("data-offering", "");
  else if (svg.querySelector("[data-offer]")) svg.removeAttribute("data-offering");
}

const wired = new WeakSet(); // elements already listened to

// Make the picture's moves clickable and reachable by keyboard; returns the parts' defaults.
// It may be called again on the same picture (its offers changed): each element is wired once.
export function wireBoard(holder, enabled, { onMove, onPart }) {
  const svg = board(holder);
  if (!svg) return {};
  followTaps(holder);
  const clickable = svg.querySelectorAll(CHOICES);
  for (const el of clickable) {
    if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
    if (!el.hasAttribute("role")) el.setAttribute("role", "button");
    if (wired.has(el)) continue;
    wired.add(el);
    const activate = (event) => {
      if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
      // An offer no longer offered is a plain place again.
      if (el.dataset.move === undefined && el.dataset.part === undefined) return;
      event.preventDefault();
      if (!enabled()) return;
      if (el.dataset.move) onMove(el.dataset.move);
      else onPart(...pair(el.dataset.part));
    };
    el.addEventListener("click", activate);
    el.addEventListener("keydown", activate);
  }
  return defaultsOf(svg);
}

// How many of the picture's units make a CSS pixel as it is drawn, kept in its root's --unit
// (and again whenever it is drawn at another size): a game's style can keep its words
// readable however small its picture is drawn, e.g. font-size: max(13px, calc(12.2px *
// var(--unit, 0))).
const resized = typeof ResizeObserver === "function"
  ? new ResizeObserver((entries) => { for (const entry of entries) keepUnit(entry.target); })
  : null;
const observed = new WeakMap(); // holder -> the picture observed in it

function keepUnit(svg) {
  // The screen's matrix, not the box's width: a picture held to a height is drawn smaller
  // than its box, centred in it.
  const m = svg.getScreenCTM && svg.getScreenCTM();
  const scale = m ? Math.hypot(m.a, m.b) : 0;
  if (scale) svg.style.setProperty("--unit", (1 / scale).toFixed(3));
}

function followUnit(holder, svg) {
  keepUnit(svg);
  if (!resized || observed.get(holder) === svg) return;
  if (observed.has(holder)) resized.unobserve(observed.get(holder));
  resized.observe(svg);
  observed.set(holder, svg);
}

// Size the picture: a text picture no larger than about twice its letters (scaled to the whole
// column they would be huge); with `zoomed`, any picture at its natural width, scrolled
// sideways. Returns whether zooming would enlarge the picture noticeably (a small screen).
export function sizeBoard(holder, zoomed) {
  const svg = board(holder);
  if (!svg) return false;
  const box = svg.viewBox && svg.viewBox.baseVal;
  const natural = box && box.width ? box.width : 0;
  const text = svg.getAttribute("font-family") === "monospace" && !svg.querySelector("[data-move], [data-part]");
  svg.style.maxWidth = text && natural ? `${Math.round(natural * 1.7)}px` : "";
  const helps = natural > holder.clientWidth * 1.3;
  const on = zoomed && helps;
  holder.classList.toggle("zoomed", on);
  svg.style.width = on ? `${Math.round(natural)}px` : "";
  svg.style.maxHeight = on ? "none" : "";
  followUnit(holder, svg);
  return helps;
}

// Outline what is chosen (and say so to screen readers with aria-pressed).
export function markSelection(holder, selection) {
  const svg = board(holder);
  if (!svg) return;
  const parts = { ...selection.defaults, ...selection.parts };
  for (const el of svg.querySelectorAll("[data-move], [data-part]")) {
    let on;
    if (el.dataset.move) on = el.dataset.move === selection.move;
    else {
      const [slot, value] = pair(el.dataset.part);
      on = !selection.move && parts[slot] === value;
    }
    el.classList.toggle("chosen", on);
    el.setAttribute("aria-pressed", String(on));
  }
}

// The move a template makes from the parts: complete once every placeholder has a value.
export function composed(template, parts) {
  let complete = true;
  const text = template.replace(/\{([^{}]+)\}/g, (_, slot) => {
    if (parts[slot] === undefined || parts[slot] === "") { complete = false; return "…"; }
    return parts[slot];
  });
  return { text, complete };
}

// The move a selection makes on the board in `holder`: a whole move chosen, or the parts
// composed by the picture's template (`{text, complete}`; empty where nothing is chosen).
export function chosenMove(holder, selection) {
  if (selection.move) return { text: selection.move, complete: true };
  const svg = board(holder);
  const template = svg && svg.dataset.compose;
  if (template) return composed(template, { ...selection.defaults, ...selection.parts });
  return { text: "", complete: false };
}

// Which board element has the focus (to give it back after the picture is drawn again).
export function focusKey(holder) {
  const el = document.activeElement;
  if (!el || !holder.contains(el)) return null;
  if (el.dataset.move) return `[data-move="${CSS.escape(el.dataset.move)}"]`;
  if (el.dataset.part) return `[data-part="${CSS.escape(el.dataset.part)}"]`;
  return null;
}

export function refocus(holder, key) {
  if (!key) return;
  const el = holder.querySelector(key);
  if (el) el.focus();
}
