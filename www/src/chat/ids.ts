/**
 * A fresh id for a message the page creates. crypto.getRandomValues, unlike crypto.randomUUID,
 * also works on plain http from another machine (not a secure context), e.g. the demo opened by
 * its LAN address.
 */
export function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `${prefix}_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}
