import type { SessionStore } from "chat-session-reducer";

export interface IndexedDBStoreOptions {
  /** The database's name; default `"chat-session-reducer"`. */
  database?: string;
  /** Default `globalThis.indexedDB` (pass `fake-indexeddb`'s in tests). */
  indexedDB?: IDBFactory;
  /** Default `globalThis.IDBKeyRange`, of the same implementation as `indexedDB`. */
  IDBKeyRange?: typeof IDBKeyRange;
}
/** A session store in IndexedDB for the storage helpers and `useAgentSession`'s `storage`: each message a record,
 *  a save writes only the messages and fields changed since this store last read or wrote the key, in one
 *  transaction. The same store for the same database (so it may be called in a render). Opens the database on
 *  first use; where there is no IndexedDB, each call rejects (`unavailable`). */
export function indexedDBStore(options?: IndexedDBStoreOptions): SessionStore;
