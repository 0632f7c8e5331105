// The errors the module throws (src/wasm/error.rs), coded as all of the package's are
// (src/shared/coded-error.js). Made in JavaScript, so the wasm carries no message formatting.

import { codedError, invalidInput } from "../shared/coded-error.js";

/** Bad input found by a step after reading it (`problem`), with what was thrown. */
export function unreadableError(path, problem, thrown) {
  return invalidInput(path, `${problem} (${describe(thrown)})`);
}

/** The core could not apply an action it had accepted: a bug of the package. */
export function internalError() {
  return codedError(
    new Error("chat-session-reducer: internal error: an action could not be applied; please report it"),
    "internal",
  );
}

// The name and message of a thrown value; what a caller's code threw may have throwing getters too.
function describe(thrown) {
  try {
    if (thrown instanceof Error) {
      const { name, message } = thrown;
      if (typeof name === "string" && typeof message === "string") return `${name}: ${message}`;
    }
  } catch {}
  return typeof thrown === "string" ? thrown : "unknown error";
}
