// The SessionStores of chat-session-reducer/server (src/server/store/): declared once, in the
// server's index.d.ts (the one the package ships), and re-exported here for this folder.

export { createPgliteStore, createPostgresStore, SCHEMA_VERSION } from "../index.js";
export type { PgliteStoreOptions, PostgresStoreOptions } from "../index.js";
