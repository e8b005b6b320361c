// Commitments, as the server and `taut verify` compute them (see taut/server/commit.py).
export const SCHEME = "taut-commit:v1";

export function newSalt() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function commitment(gameId, move, seat, action, salt) {
  const text = `${SCHEME}|${gameId}|${move}|${seat}|${action}|${salt}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
