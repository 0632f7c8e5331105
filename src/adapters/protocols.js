// The wire protocols the package speaks, by name: what a client (the hook, the test kit) holds
// before any adapter is loaded. Each adapter folder declares its protocol once: its `wire` (name,
// content type, `accept`, the resume request), bundled here, and its descriptor (the wire, the
// request body, the stream reader, the translator, `severalRuns`, how a server writes it), which
// its subpath exports and `load` imports when the protocol is first used: an app loads only the
// adapter it speaks (a literal specifier each, so bundlers split each into a chunk of its own).
//
//   actions      this package's own NDJSON: one SessionAction a line ("part" or "toolPhase")
//   ai-sdk       the Vercel AI SDK UI message stream (server-sent events, up to [DONE])
//   ag-ui        AG-UI events over server-sent events; the body is a RunAgentInput
//   chat-stream  the NDJSON ChatStreamEvent frames of a chat turn (seed 001)
import { agUiWire } from "./ag-ui/wire.js";
import { aiSdkWire } from "./ai-sdk/wire.js";
import { actionsWire, chatStreamWire } from "./chat-stream/wire.js";

export const PROTOCOLS = {
  actions: { wire: actionsWire, load: async () => (await import("chat-session-reducer/chat-stream")).actionsProtocol },
  "ai-sdk": { wire: aiSdkWire, load: async () => (await import("chat-session-reducer/ai-sdk")).aiSdkProtocol },
  "ag-ui": { wire: agUiWire, load: async () => (await import("chat-session-reducer/ag-ui")).agUiProtocol },
  "chat-stream": { wire: chatStreamWire, load: async () => (await import("chat-session-reducer/chat-stream")).chatStreamProtocol },
};
