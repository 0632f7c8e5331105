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

/** v4: bad input the state shows (src/core/edit.rs `Refusal`): the call at `call` (message, part
 *  pairs, the first in the action's messages) of the action, or of batch leaf `leaf` (-1: none). */
export function refusedError(leaf, call, problem) {
  let path = leaf < 0 ? "action" : `action.actions[${leaf}]`;
  for (let at = 0; at < call.length; at += 2) {
    path += `${at === 0 ? "" : ".agent"}.messages[${call[at]}].parts[${call[at + 1]}]`;
  }
  return invalidInput(`${path}.id`, problem);
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
