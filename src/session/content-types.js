// The media type of each wire protocol's responses, by the protocol's name: what the hook sends
// as `accept` and reads a response's headers by (protocols.js, run.js), and what
// chat-session-reducer/testing answers with. Its own module, so the testing subpath bundles it
// without the hook.
export const CONTENT_TYPES = {
  actions: "application/x-ndjson",
  "ai-sdk": "text/event-stream",
  "ag-ui": "text/event-stream",
  "chat-stream": "application/x-ndjson",
};
