// What a client needs of the AI SDK's UI message stream before its adapter is loaded (the hook
// reads it to name a response's protocol and to know that a run can be resumed); the protocol's
// descriptor (index.js) is this and the rest.
/** @type {import("chat-session-reducer/ai-sdk").ProtocolWire} */
export const aiSdkWire = Object.freeze({
  name: "ai-sdk",
  contentType: "text/event-stream",
  accept: "text/event-stream",
  // AI SDK 7's useChat({ resume: true }): GET {api}/{id}/stream.
  resume: ({ api, id }) => ({ url: `${api}/${encodeURIComponent(id)}/stream`, method: "GET" }),
});
