// The few reads of a caller's values that are one call each from src/wasm/fields.rs (which
// declares them `catch`: whatever a getter or Proxy throws comes back to Rust as an error), and
// the one value the binding makes that is shared.

// An array's `length` (a Proxy's trap may say anything), or -1 for a value that is not an array.
export function arrayLength(value) {
  return Array.isArray(value) ? value.length : -1;
}

// For a string that is not well-formed UTF-16 (encodeURIComponent refuses a lone surrogate) or
// that starts with U+FFFF: U+FFFF and its code units in hex, distinct from every other string.
// Undefined for any other string.
export function escapedForm(text) {
  if (!text.startsWith("\uFFFF")) {
    try {
      encodeURIComponent(text);
      return undefined;
    } catch {}
  }
  let escaped = "\uFFFF";
  for (let index = 0; index < text.length; index++) escaped += text.charCodeAt(index).toString(16).padStart(4, "0");
  return escaped;
}

// The state `sessionReducer` takes for `undefined` (Redux's first call): frozen, since it is shared.
export function emptyState() {
  return Object.freeze({ messages: Object.freeze([]), status: "idle" });
}
