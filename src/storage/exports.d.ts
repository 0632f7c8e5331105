// The declarations of the storage exports (src/index.js): the build appends them to the package's
// index.d.ts, after wasm-bindgen's, which declare the types used here.

/** Any object with the Web Storage methods: `sessionStorage` (the default), `localStorage`, or the app's own. */
export interface SessionStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
/** Stores `state` under `key`. Throws a coded `Error`: `invalid`, `unavailable` or `quota`; `state` is never changed. */
export function saveSession(key: string, state: SessionState, storage?: SessionStorageLike): void;
/** The session stored under `key`, or `null` when nothing is stored. Loaded as the `load` action loads a state:
 *  stored while `streaming`, with `stop` applied; stored after the run ended, as it was (a call waiting on the user
 *  stays open and answerable). Reads every version of the envelope. Throws a coded `Error`: `unavailable`,
 *  `corrupt` (with the `path` of what is wrong) or `version`; the stored entry is kept. */
export function loadSession(key: string, storage?: SessionStorageLike): SessionState | null;
/** Removes the session stored under `key`. Throws a coded `Error`: `unavailable`. */
export function clearSession(key: string, storage?: SessionStorageLike): void;
/** For `useReducer(sessionReducer, key, restoreSession)`: the stored session (loaded as `loadSession` loads it), or a new empty one.
 *  Never throws; a failure is reported with `console.warn`, except where there is no storage at all (server
 *  rendering), where it quietly returns a new empty session. */
export function restoreSession(key: string, storage?: SessionStorageLike): SessionState;
/** For an effect after each change: saves `state` and returns the failure instead of throwing. Skips the state
 *  `restoreSession` returned for this key. */
export function persistSession(key: string, state: SessionState, storage?: SessionStorageLike): SessionReducerError | undefined;
/** The status the session `restoreSession` last read under `key` had when it was stored, before the load rule
 *  (`"streaming"`: the page was left while a reply streamed), or `undefined` when it read none. Never throws. */
export function restoredStatus(key: string, storage?: SessionStorageLike): SessionState["status"] | undefined;
