// The declarations of the storage exports (src/index.js): the build appends them to the package's
// index.d.ts, after the entry's own (src/index.d.ts), which declare the types used here.

/** Any object with the Web Storage methods: `sessionStorage` (the default), `localStorage`, or the app's own. */
export interface SessionStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
/** What is stored with a session besides its state. */
export interface SaveSessionOptions {
  /** The conversation's id (the hook's `id`), kept in the envelope; `storedSessionId` reads it back. */
  id?: string;
}
/** Stores `state` under `key`. Throws a coded `Error`: `invalid`, `unavailable` or `quota`; `state` is never changed. */
export function saveSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, state: SessionState<Tools, Data>, storage?: SessionStorageLike, options?: SaveSessionOptions): void;
/** The session stored under `key`, or `null` when nothing is stored. Loaded as the `load` action loads a state:
 *  stored while `streaming`, with `stop` applied; stored after the run ended, as it was (a call waiting on the user
 *  stays open and answerable). Reads every version of the envelope. Throws a coded `Error`: `unavailable`,
 *  `corrupt` (with the `path` of what is wrong) or `version`; the stored entry is kept. The tool and data maps
 *  are the caller's word for what was stored. */
export function loadSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage?: SessionStorageLike): SessionState<Tools, Data> | null;
/** Removes the session stored under `key`. Throws a coded `Error`: `unavailable`. */
export function clearSession(key: string, storage?: SessionStorageLike): void;
/** For `useReducer(sessionReducer, key, restoreSession)`: the stored session (loaded as `loadSession` loads it), or a new empty one.
 *  Never throws; a failure is reported with `console.warn`, except where there is no storage at all (server
 *  rendering), where it quietly returns a new empty session. */
export function restoreSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage?: SessionStorageLike): SessionState<Tools, Data>;
/** For an effect after each change: saves `state` and returns the failure instead of throwing. Skips the state
 *  `restoreSession` returned for this key. */
export function persistSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, state: SessionState<Tools, Data>, storage?: SessionStorageLike, options?: SaveSessionOptions): SessionReducerError | undefined;
/** The conversation id stored with the session under `key` (`SaveSessionOptions.id`), or undefined when there is
 *  none, nothing is stored, or it cannot be read. Never throws. */
export function storedSessionId(key: string, storage?: SessionStorageLike): string | undefined;
/** The status the session `restoreSession` last read under `key` had when it was stored, before the load rule
 *  (`"streaming"`: the page was left while a reply streamed), or `undefined` when it read none. Never throws. */
export function restoredStatus(key: string, storage?: SessionStorageLike): SessionState["status"] | undefined;
