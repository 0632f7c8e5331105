// The SessionStores of chat-session-reducer/server (src/server/store/); the interfaces are the
// server's (../index.d.ts), which carries these declarations for the package too.

import type { SessionStore } from "../index.js";

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

/**
 * The embedded store: PostgreSQL in WebAssembly (install `@electric-sql/pglite`), opened on first
 * use. Saves write the changed message rows only, in one transaction; a failure rejects with
 * `code: "store"` and writes nothing.
 */
export function createPgliteStore(options?: PgliteStoreOptions): SessionStore;

/** The store on a PostgreSQL server (install `pg`), the same schema and queries; connects on first use. */
export function createPostgresStore(options?: PostgresStoreOptions): SessionStore;

/** The schema version this release writes (chat_schema's row "chat-session-reducer"). */
export const SCHEMA_VERSION: number;
