// The declarations of the storage exports (src/main/index.js): the build appends them to the package's
// index.d.ts, after the entry's own (src/main/index.d.ts), which declare the types used here.

/** Any object with the Web Storage methods: `sessionStorage` (the default), `localStorage`, or the app's own. */
export interface SessionStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
/** A stored envelope: `{ format: "chat-session-reducer", version, rev?, id?, state }`. */
export interface StoredEnvelope {
  format: "chat-session-reducer";
  version: number;
  /** +1 per write. */
  rev?: number;
  /** The conversation id. */
  id?: string;
  state: unknown;
  /** While a reply streams: where its run started (`SaveSessionOptions.runStart`, as what it shares with `state`). */
  run?: unknown;
}
/** An asynchronous storage (`indexedDBStore()` of `chat-session-reducer/indexeddb`, or the app's own): with it
 *  every storage helper returns a promise. `write` may store only what changed since its last `read` or `write`
 *  of `key` (unchanged messages are the same objects); a rejection is coded `quota` when it is a
 *  `QuotaExceededError`, else `unavailable`. */
export interface SessionStore {
  read(key: string): Promise<StoredEnvelope | null>;
  /** `run`, while a reply streams: keep it, and give it back with the entry (a resume after a reload needs it). */
  write(key: string, entry: { state: SessionState; id?: string; run?: unknown }): Promise<void>;
  remove(key: string): Promise<void>;
}
/** A stored session as loaded, with the conversation `id` it was saved with and its revision (`rev`, +1 per
 *  write; 0 for an entry stored without one). */
export interface SessionEntry<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> {
  state: SessionState<Tools, Data>;
  id: string | undefined;
  rev: number;
  /** Present when the session was stored while a reply streamed (the page was left mid-reply): its `state`
   *  is loaded with `stop` applied, and the hook's `resume` reconnects to the run instead. */
  wasStreaming?: true;
  /** With `wasStreaming`, when it was saved with it: the session the streaming run started from
   *  (`SaveSessionOptions.runStart`), which a resume puts back before the server's replay of the run. */
  runStart?: SessionState<Tools, Data>;
}
/** What is stored with a session besides its state. */
export interface SaveSessionOptions {
  /** The conversation's id (the hook's `id`), kept in the envelope; `storedSessionId` reads it back. */
  id?: string;
  /** The revision this caller last read or wrote (a Web Storage entry): a newer one stored is not
   *  overwritten, the save fails with `code: "conflict"` and the stored `rev` (useAgentSession's `tabs`). */
  rev?: number;
  /** While `state` streams: the session its run started from (the request's), stored with it (what it shares
   *  with `state`, once) so that a resume after a reload rebuilds the run exactly (`SessionEntry.runStart`).
   *  Ignored when `state` does not stream. */
  runStart?: SessionState<ToolMap, DataMap>;
}
// Each helper's overload for a session store comes first: a helper passed as a callback (useReducer's
// initializer) is typed by its last overload, the Web Storage one. The tool and data maps of what is read are
// the caller's word for what was stored.
/** Stores `state` under `key`, serialising only the messages changed since the last save under `key` (a
 *  session store writes only those). Throws a coded `Error`: `invalid`, `unavailable` or `quota`; `state` is never
 *  changed. With a session store, a promise that rejects so. */
export function saveSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, state: SessionState<Tools, Data>, storage: SessionStore, options?: SaveSessionOptions): Promise<void>;
export function saveSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, state: SessionState<Tools, Data>, storage?: SessionStorageLike, options?: SaveSessionOptions): void;
/** The session stored under `key`, or `null` when nothing is stored. Loaded as the `load` action loads a state:
 *  stored while `streaming`, with `stop` applied; stored after the run ended, as it was (a call waiting on the user
 *  stays open and answerable). Reads every version of the envelope. Throws a coded `Error`: `unavailable`,
 *  `corrupt` (with the `path` of what is wrong) or `version`; the stored entry is kept. With a session store, a
 *  promise. */
export function loadSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage: SessionStore): Promise<SessionState<Tools, Data> | null>;
export function loadSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage?: SessionStorageLike): SessionState<Tools, Data> | null;
/** As `loadSession`, with the stored `id` and `rev`. */
export function loadSessionEntry<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage: SessionStore): Promise<SessionEntry<Tools, Data> | null>;
export function loadSessionEntry<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage?: SessionStorageLike): SessionEntry<Tools, Data> | null;
/** Removes the session stored under `key`. Throws a coded `Error`: `unavailable`. With a session store, a promise. */
export function clearSession(key: string, storage: SessionStore): Promise<void>;
export function clearSession(key: string, storage?: SessionStorageLike): void;
/** For `useReducer(sessionReducer, key, restoreSession)`: the stored session (loaded as `loadSession` loads it), or a new empty one.
 *  Never throws; a failure is reported with `console.warn`, except where there is no storage at all (server
 *  rendering), where it quietly returns a new empty session. With a session store, a promise that never rejects. */
export function restoreSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage: SessionStore): Promise<SessionState<Tools, Data>>;
export function restoreSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage?: SessionStorageLike): SessionState<Tools, Data>;
/** As `restoreSession`, with the stored `id` and `rev` (`id` undefined, `rev` 0 for a new session). */
export function restoreSessionEntry<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage: SessionStore): Promise<SessionEntry<Tools, Data>>;
export function restoreSessionEntry<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, storage?: SessionStorageLike): SessionEntry<Tools, Data>;
/** For an effect after each change: saves `state` and returns the failure instead of throwing. Skips the state
 *  `restoreSession` returned for this key. With a session store, a promise of the failure that never rejects. */
export function persistSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, state: SessionState<Tools, Data>, storage: SessionStore, options?: SaveSessionOptions): Promise<SessionReducerError | undefined>;
export function persistSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(key: string, state: SessionState<Tools, Data>, storage?: SessionStorageLike, options?: SaveSessionOptions): SessionReducerError | undefined;
/** The conversation id stored with the session under `key` (`SaveSessionOptions.id`, the `id` of
 *  `loadSessionEntry`), or undefined when there is none, nothing is stored, or it cannot be read. Never throws;
 *  with a session store, a promise that never rejects. */
export function storedSessionId(key: string, storage: SessionStore): Promise<string | undefined>;
export function storedSessionId(key: string, storage?: SessionStorageLike): string | undefined;
