// chat-session-reducer/server: the server half of a chat on the same reducer as its client. Each
// run of the model is folded, frame by frame, with the protocol's adapter and sessionReducer into
// the conversation's stored state, so what is stored is what the user saw; resume and stop are
// routes of their own, and conversations are stored in PGlite or Postgres (index.d.ts).

export { createChatServer } from "./chat-server.js";
export { RUN_HEADERS } from "../session/run.js";
export { createMemoryRunLog } from "./run-log.js";
export { createRedisControl, createRedisLeases, createRedisRunLog } from "./redis/index.js";
export { toNodeHandler } from "./node.js";
export { ownerCookie } from "./owner.js";
export { INTERRUPTED } from "./recover.js";
export { SCHEMA_VERSION, createPgliteStore, createPostgresStore } from "./store/index.js";
