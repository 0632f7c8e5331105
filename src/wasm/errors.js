// The errors the package throws: real Error objects with a machine-readable `code`, and the
// `path` of what is wrong for bad input, the message starting with it. Made in JavaScript, so
// the wasm carries no message formatting.

export function codedError(error, code, path) {
  error.code = code;
  if (path !== undefined) error.path = path;
  return error;
}

/** Bad input: `path` (e.g. `action.part.id`) is not of its type. */
export function invalidError(path, problem) {
  return codedError(new TypeError(`${path}: ${problem}`), "invalid", path);
}

/** Bad input found by a step after reading it (`problem`), with what was thrown. */
export function unreadableError(path, problem, thrown) {
  return invalidError(path, `${problem} (${describe(thrown)})`);
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
