/**
 * A fresh id for a message or run the hook creates. crypto.getRandomValues, unlike
 * crypto.randomUUID, also works on plain http from another machine (not a secure context).
 */
export function newId(prefix) {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `${prefix}_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}
