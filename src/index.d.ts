// The entry's own declarations: the build appends them to wasm-bindgen's, which declare the
// types used here, in the package's index.d.ts.

/**
 * The next session state. Returns `state` itself when the action changes nothing; otherwise
 * a new state that shares every untouched message, part and nested object with `state`.
 * `undefined` is the empty session, and an action whose `type` is a string this version does
 * not know returns `state` (as Redux requires of a reducer). Throws a `TypeError` with
 * `code: "invalid"` and `path` when `state` or `action` is not of its type; nothing is
 * changed then.
 */
export function sessionReducer(state: SessionState | undefined, action: SessionAction): SessionState;
