// What a client needs of AG-UI over server-sent events before its adapter is loaded (the hook
// reads it to name a response's protocol and to know that a run can be resumed); the protocol's
// descriptor (index.js) is this and the rest.
/** @type {import("chat-session-reducer/ag-ui").ProtocolWire} */
export const agUiWire = Object.freeze({
  name: "ag-ui",
  contentType: "text/event-stream",
  accept: "text/event-stream",
  // AG-UI leaves connecting to the server; this is CopilotKit's shape: POST {api}/connect with
  // the RunAgentInput of the thread.
  resume: ({ api, body }) => ({ url: `${api}/connect`, method: "POST", body: body() }),
});
