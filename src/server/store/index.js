// The SessionStores of chat-session-reducer/server (the lead's src/server/index.js re-exports them).

export { createPgliteStore } from "./pglite.js";
export { createPostgresStore } from "./postgres.js";
export { SCHEMA_VERSION } from "./schema.js";
