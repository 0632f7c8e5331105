// The coded errors the package's JavaScript throws (SPEC "Bad input"): real Error objects with a
// machine-readable `code`, and for bad input the `path` of what is wrong, the message starting
// with it. One module for every subpath (each bundles its own copy) and the core's reader.

/** `error` with its `code`, and the `path` of what is wrong when there is one. */
export function codedError(error, code, path) {
  error.code = code;
  if (path !== undefined) error.path = path;
  return error;
}

/** Bad input at `path`, described by `problem`: a TypeError with `code: "invalid"` and `path`. */
export function invalidInput(path, problem) {
  return codedError(new TypeError(`${path}: ${problem}`), "invalid", path);
}

/** Bad input at `path`, which is not what was `expected` (`options.api: expected a string`). */
export function invalid(path, expected) {
  return invalidInput(path, `expected ${expected}`);
}
