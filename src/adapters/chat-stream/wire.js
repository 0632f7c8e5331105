// What a client needs of the two NDJSON protocols before their adapter is loaded (the hook reads
// it to name a response's protocol); each protocol's descriptor (index.js, actions.js) is this
// and the rest. Neither can reconnect to a run: no `resume`.

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
});
