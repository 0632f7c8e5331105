// The worked example of the reference page (SPEC.md, "resumable"): a user message, a finished
// tool call, then a stream error. Shared by the Node and the bundled-browser consumers.
export const emptySession = { messages: [], status: "idle" };

export const seedActions = [
  { type: "send", id: "u-1", text: "Add two mugs to the cart" },
  { type: "part", part: { type: "message-start", messageId: "a-1" } },
  {
    type: "part",
    part: { type: "tool-call", messageId: "a-1", id: "call-1", name: "add_to_cart", input: { slug: "mug", qty: 2 } },
  },
  {
    type: "part",
    part: { type: "tool-result", id: "call-1", output: { content: [{ type: "text", text: "Added." }] } },
  },
  { type: "part", part: { type: "error", error: "Couldn't reach the assistant.", code: "network" } },
];
