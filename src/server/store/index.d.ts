// The SessionStores of chat-session-reducer/server (src/server/store/); src/server/index.d.ts
// carries the same declarations for the package.

import type { SessionState } from "chat-session-reducer";

/** A conversation as the store keeps it. */
export interface StoredConversation<State extends SessionState = SessionState> {
  readonly id: string;
  readonly owner: string;
  /** Equal, as JSON, to the state saved last. */
  readonly state: State;
  /** `meta.title` once given, else the first user message's text cut to 80 characters, else "New conversation". */
  readonly title: string;
  readonly status: SessionState["status"];
  /** When it was saved last (the database's clock), ISO 8601. */
  readonly updatedAt: string;
}

/** A conversation as a thread list shows it. */
export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  readonly status: SessionState["status"];
  readonly updatedAt: string;
}

/**
 * Where the server keeps conversations, keyed by (owner, id): another owner's conversation is not
 * found. Bad arguments reject with `code: "invalid"` and `path`; a database failure with
 * `code: "store"` (the driver's error as `cause`), and nothing of that save is written.
 */
export interface SessionStore {
  load(owner: string, id: string): Promise<StoredConversation | undefined>;
  /**
   * One transaction: the conversation row, then only the messages that left the path or changed
   * since `previous` (the state this store last saved or loaded for it; compared by object
   * identity, then id). Without `previous`, or after a failed save, every message is written.
   * Saves of one conversation land in the order they were made.
   */
  save(owner: string, id: string, state: SessionState, previous?: SessionState, meta?: { title?: string }): Promise<void>;
  /** Most recently saved first; `limit` defaults to 100. */
  list(owner: string, options?: { limit?: number }): Promise<ConversationSummary[]>;
  /** Whether there was such a conversation. */
  delete(owner: string, id: string): Promise<boolean>;
  /** The conversations stored with status "streaming", of every owner (a restart interrupted their runs). */
  streaming(): Promise<Array<{ owner: string; id: string }>>;
  /** Waits for the saves in flight, then closes the database the store opened (one passed in stays open). */
  close(): Promise<void>;
}

export interface PgliteStoreOptions {
  /** The data directory; in memory when absent. */
  dataDir?: string;
  /** An open PGlite (`@electric-sql/pglite`) to use instead; the app closes it. */
  pglite?: unknown;
}

export interface PostgresStoreOptions {
  /** `postgresql://user:password@host:port/database`; pg's PGHOST, PGUSER… variables when absent. */
  connectionString?: string;
  /** A `pg` Pool to use instead; the app ends it. */
  pool?: unknown;
  /** The pool's size when the store makes it. Default 10. */
  max?: number;
}

/** The embedded store: PostgreSQL in WebAssembly (install `@electric-sql/pglite`). Opened on first use. */
export function createPgliteStore(options?: PgliteStoreOptions): SessionStore;

/** The store on a PostgreSQL server (install `pg`). Connects on first use. */
export function createPostgresStore(options?: PostgresStoreOptions): SessionStore;

/** The schema version this release writes (chat_schema's row "chat-session-reducer"). */
export const SCHEMA_VERSION: number;
