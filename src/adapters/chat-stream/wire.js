// What a client needs of the two NDJSON protocols before their adapter is loaded (the hook reads
// it to name a response's protocol, and for this package's own whether a run can be resumed);
// each protocol's descriptor (index.js, actions.js) is this and the rest. Seed 001's chat-stream
// has no reconnect: no `resume`.

/** The NDJSON ChatStreamEvent frames of a chat turn (seed 001). */
export const chatStreamWire = Object.freeze({
  name: "chat-stream",
  contentType: "application/x-ndjson",
  accept: "application/x-ndjson",
});

/** This package's own NDJSON: one SessionAction a line ("part" or "toolPhase"). */
export const actionsWire = Object.freeze({
  name: "actions",
  contentType: "application/x-ndjson",
  accept: "application/x-ndjson",
  // As the AI SDK's: GET {api}/{id}/stream (chat-session-reducer/server serves it).
  resume: ({ api, id }) => ({ url: `${api}/${encodeURIComponent(id)}/stream`, method: "GET" }),
});
