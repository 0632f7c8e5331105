// Recognises, in one call from Rust, the action a streaming reply sends most: a text delta
// (without metadata, which has its own work to do).
// Read field by field, it would cost a crossing of the wasm boundary per field. Anything else,
// malformed actions included, goes through the full reader (src/wasm/read.rs), which names
// what is wrong. Returns -1, or flags: 1 the text is empty, 2 a messageId, 4 a within.
export function textDeltaShape(action) {
  if (typeof action !== "object" || action === null || action.type !== "part") return -1;
  const { part, within } = action;
  if (typeof part !== "object" || part === null || part.type !== "text-delta") return -1;
  const { text, messageId } = part;
  if (typeof text !== "string" || part.metadata !== undefined) return -1;
  if (messageId !== undefined && typeof messageId !== "string") return -1;
  if (within !== undefined && typeof within !== "string") return -1;
  return (text === "" ? 1 : 0) | (messageId === undefined ? 0 : 2) | (within === undefined ? 0 : 4);
}
