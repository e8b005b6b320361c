// A picture sent as what changed (taut.server.play.patches): the picture held, cut into
// tokens (a tag, or the text between two tags), turned into the new one by the patch's ops,
// each a number (keep that many tokens) or [n, text] (drop n tokens, put text there). The
// result is checked by its count of tokens; null where it does not come out whole.
const TOKEN = /<[^>]*>|[^<]+/g;

export function applyPatch(old, patch) {
  if (typeof old !== "string" || !patch || !Array.isArray(patch.ops)) return null;
  const before = old.match(TOKEN) || [];
  const out = [];
  let at = 0;
  for (const op of patch.ops) {
    if (typeof op === "number") {
      for (let i = 0; i < op; i++) out.push(before[at + i]);
      at += op;
    } else {
      at += op[0];
      out.push(op[1]);
    }
  }
  if (at !== before.length) return null;
  const picture = out.join("");
  return (picture.match(TOKEN) || []).length === patch.tokens ? picture : null;
}
