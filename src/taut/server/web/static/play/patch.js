// A picture sent as what changed (taut.server.play.patches): the picture held, cut into
// tokens at each "<" (a text: at its lines' ends, the patch's cut), turned into the new one
// by the patch's ops, each a number (keep that many tokens), [n] (drop n tokens), [n, text]
// (drop n tokens, put in the tokens of text) or [k, text, j] (an edit of the next token: its
// first k and last j characters kept, text put between them).
// The result is checked by its count of tokens; null where it does not come out whole.
export function applyPatch(old, patch) {
  if (typeof old !== "string" || !patch || !Array.isArray(patch.ops)) return null;
  const cut = patch.cut || "<";
  const before = old.split(cut);
  const out = [];
  let at = 0;
  for (const op of patch.ops) {
    if (typeof op === "number") {
      for (let i = 0; i < op; i++) out.push(before[at + i]);
      at += op;
    } else if (op.length === 3) {
      const token = before[at];
      if (token === undefined || op[0] + op[2] > token.length) return null;
      out.push(token.slice(0, op[0]) + op[1] + token.slice(token.length - op[2]));
      at += 1;
    } else {
      at += op[0];
      if (op.length > 1) out.push(...op[1].split(cut));
    }
  }
  if (at !== before.length || out.length !== patch.tokens) return null;
  return out.join(cut);
}
