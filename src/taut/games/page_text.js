// Numbers and text written as Python writes them, for the games' page modules that draw a
// table from its facts (each game's table.js, served as /game-files/GAME/table.js, imports
// this as ../page_text.js). Each of them must draw exactly the server's pictures, whose
// numbers are Python's f-strings, whose lines are textwrap.wrap's and whose text is
// escaped by html.escape; the tests that compare each game's two drawings hold these to
// Python's.

/** Python's `{x:g}`: six significant digits, no trailing zeros, an exponent below 1e-4
 * or from 1e6 on, an exact tie rounded to even. */
export function g(x) {
  // A Map takes -0 for 0: Python keeps its sign ("-0").
  if (Object.is(x, -0)) return "-0";
  let text = G.get(x);
  if (text === undefined) {
    if (G.size > 4096) G.clear();
    text = formatG(x);
    G.set(x, text);
  }
  return text;
}

// A picture writes the same few numbers many times over (its coordinates, its widths).
const G = new Map();

function formatG(x) {
  // The shortest text that reads back as x: with six significant digits or fewer, and
  // neither too small nor too large for plain digits, it is what Python writes.
  const shortest = String(x);
  if (/^-?\d{1,6}(\.\d+)?$/.test(shortest) && Math.abs(x) >= 1e-4) {
    if (shortest.replace(/^-?0*\.?0*/, "").replace(".", "").length <= 6) return shortest;
  }
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  const sign = x < 0 ? "-" : "";
  // toExponential rounds a tie away from zero; Python to even. Seven digits show a tie's
  // last one, and the exact value (toExponential(99) writes every digit a double has here)
  // says whether it is a tie.
  let [digits, exp] = split(Math.abs(x).toExponential(5));
  const [seven, sevenExp] = split(Math.abs(x).toExponential(6));
  if (seven.endsWith("5") && /^\d\.\d{6}0*e/.test(Math.abs(x).toExponential(99))) {
    let n = BigInt(seven.slice(0, 6));
    if (n % 2n === 1n) n += 1n;
    // 999999 rounded up is 1000000: one digit more, the exponent one up.
    [digits, exp] = [n.toString(), sevenExp];
    if (digits.length > 6) [digits, exp] = [digits.slice(0, 6), exp + 1];
  }
  if (exp < -4 || exp >= 6) {
    const mantissa = trim(`${digits[0]}.${digits.slice(1)}`);
    const e = String(Math.abs(exp)).padStart(2, "0");
    return `${sign}${mantissa}e${exp < 0 ? "-" : "+"}${e}`;
  }
  if (exp >= 0) return sign + trim(`${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`);
  return sign + trim(`0.${"0".repeat(-exp - 1)}${digits}`);
}

/** The digits (no point) and the exponent of toExponential's text. */
function split(text) {
  const [mantissa, exp] = text.split("e");
  return [mantissa.replace(".", ""), Number(exp)];
}

/** A decimal without its trailing zeros (and without its point when nothing follows). */
function trim(text) {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/** Python's `{x:.Nf}` for N = `digits`: an exact tie rounded to even (toFixed rounds it
 * up, and rounds the double's decimal approximation rather than its exact value). */
export function fixed(x, digits) {
  const negative = x < 0 || Object.is(x, -0);
  // toFixed(100) writes the double's exact decimal value (far fewer digits than 100).
  const [whole, fraction] = Math.abs(x).toFixed(100).split(".");
  let n = BigInt(whole + fraction.slice(0, digits));
  const rest = fraction.slice(digits);
  const half = "5" + "0".repeat(rest.length - 1);
  if (rest > half || (rest === half && n % 2n === 1n)) n += 1n;
  if (digits === 0) return `${negative ? "-" : ""}${n}`;
  const text = n.toString().padStart(digits + 1, "0");
  return `${negative ? "-" : ""}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Python's html.escape(text, quote=True) (taut.core.svg.esc). */
export function esc(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

// textwrap's word splitting (Python 3.11's TextWrapper.wordsep_re): whitespace, a run of
// dashes between words, or a word cut after a hyphen between letters.
const WS = "\\t\\n\\x0b\\x0c\\r ";
const WORD_PUNCT = "[\\w!\"'&.,?]";
const LETTER = "[^\\d\\W]";
const WORDSEP = new RegExp(
  `([${WS}]+` +
    `|(?<=${WORD_PUNCT})-{2,}(?=\\w)` +
    `|[^${WS}]+?(?:` +
    `-(?:(?<=${LETTER}{2}-)|(?<=${LETTER}-${LETTER}-))(?=${LETTER}-?${LETTER})` +
    `|(?=[${WS}]|$)` +
    `|(?<=${WORD_PUNCT})(?=-{2,}\\w)` +
    "))",
);

/** textwrap.wrap(words, width) with its defaults: lines of at most `width` characters,
 * long words broken (after a hyphen where there is one), spaces at line ends dropped. */
export function wrap(words, width) {
  const text = words.replace(/[\t\n\x0b\x0c\r]/g, " ");
  const chunks = text.split(WORDSEP).filter((c) => c);
  chunks.reverse();
  const lines = [];
  while (chunks.length) {
    const line = [];
    let length = 0;
    if (lines.length && chunks[chunks.length - 1].trim() === "") chunks.pop();
    while (chunks.length) {
      const size = chunks[chunks.length - 1].length;
      if (length + size > width) break;
      line.push(chunks.pop());
      length += size;
    }
    if (chunks.length && chunks[chunks.length - 1].length > width) {
      // A word longer than a line: as much as fits, cut after its last hyphen if any.
      const room = width < 1 ? 1 : width - length;
      const chunk = chunks[chunks.length - 1];
      let end = room;
      if (chunk.length > room) {
        const hyphen = chunk.lastIndexOf("-", room - 1);
        if (hyphen > 0 && /[^-]/.test(chunk.slice(0, hyphen))) end = hyphen + 1;
      }
      line.push(chunk.slice(0, end));
      chunks[chunks.length - 1] = chunk.slice(end);
    }
    if (line.length && line[line.length - 1].trim() === "") line.pop();
    if (line.length) lines.push(line.join(""));
  }
  return lines;
}

// -- the pieces (svg_pieces.py) ------------------------------------------------------------
