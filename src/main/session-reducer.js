// The package's `sessionReducer`, apart from the glue it calls, so that the crate's wasm tests
// (tests/wasm_support) run this same function against their own build of the module.
import { readAction, readStrings } from "../wasm/read.js";
import { emptyState, sessionOf, shortcut } from "../wasm/facts.js";

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer").SessionAction} SessionAction */

/**
 * The module's export behind `sessionReducer` (src/wasm/mod.rs): the next state for `action`,
 * given the id of the Rust session behind `state` (-1: none) and the action as `readAction` and
 * `readStrings` encoded it.
 * @callback ReduceInWasm
 * @param {SessionState} state
 * @param {SessionAction} action
 * @param {number} session
 * @param {Int32Array} codes
 * @param {Uint8Array} strings
 * @returns {SessionState}
 */

/** @type {ReduceInWasm} */
let reduceInWasm;

/**
 * Makes `sessionReducer` call `reduce`: the package's entry binds the glue's export once the
 * module is instantiated, the crate's wasm tests their build's.
 * @param {ReduceInWasm} reduce
 */
export function bindSessionReducer(reduce) {
  reduceInWasm = reduce;
}

/**
 * The next session state (src/main/index.d.ts). An action that needs no Rust work (a text delta that
 * only appends, the same action again) is answered here, without a call into the module. Any
 * other is read here too (a bad one throws here), and the module gets what it would otherwise
 * call back for: the session id and the action's encoding. The session is looked up after the
 * read, which may run a getter of the caller's that calls the reducer.
 * @param {SessionState | undefined} given
 * @param {SessionAction} action
 * @returns {SessionState}
 */
export function sessionReducer(given, action) {
  const state = given === undefined ? emptyState() : given;
  const next = shortcut(state, action);
  if (next !== undefined) return next;
  const codes = readAction(action, false);
  const strings = readStrings();
  return reduceInWasm(state, action, sessionOf(state), codes, strings);
}
