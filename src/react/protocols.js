// The wire protocols the hook speaks, by name. Each adapter folder declares its protocol once:
// its `wire` (name, content type, `accept`, the resume request), which the hook holds from the
// start, and its descriptor (the wire, the request body, the stream reader, the translator,
// `severalRuns`), which its subpath exports and the hook imports when the protocol is first
// used: an app loads only the adapter it speaks (bundlers split each into a chunk of its own).
//
//   actions      this package's own NDJSON: one SessionAction a line ("part" or "toolPhase")
//   ai-sdk       the Vercel AI SDK UI message stream (server-sent events, up to [DONE])
//   ag-ui        AG-UI events over server-sent events; the body is a RunAgentInput
//   chat-stream  the NDJSON ChatStreamEvent frames of a chat turn (seed 001)

import { agUiWire } from "../adapters/ag-ui/wire.js";
import { aiSdkWire } from "../adapters/ai-sdk/wire.js";
import { actionsWire, chatStreamWire } from "../adapters/chat-stream/wire.js";
import { invalid } from "../shared/coded-error.js";

// Each protocol's wire and the import of its descriptor (a literal specifier, for bundlers).
const PROTOCOLS = {
  actions: { wire: actionsWire, load: async () => (await import("chat-session-reducer/chat-stream")).actionsProtocol },
  "ai-sdk": { wire: aiSdkWire, load: async () => (await import("chat-session-reducer/ai-sdk")).aiSdkProtocol },
  "ag-ui": { wire: agUiWire, load: async () => (await import("chat-session-reducer/ag-ui")).agUiProtocol },
  "chat-stream": { wire: chatStreamWire, load: async () => (await import("chat-session-reducer/chat-stream")).chatStreamProtocol },
};

/** @type {import("chat-session-reducer/ai-sdk").ProtocolWire[]} */
const wires = Object.values(PROTOCOLS).map(({ wire }) => wire);

/** The media type of each protocol's responses, by name (run.js reads a response's headers by it). */
export const CONTENT_TYPES = Object.fromEntries(wires.map((wire) => [wire.name, wire.contentType]));

// How each protocol that can reconnect to a run the server is still producing asks for it
// (resume.js): `{ url, method, body? }` from `{ api, id, body: () => the run's request body }`.
// The server answers 204 when no run is active, else replays the run from its start.
/** @type {Record<string, NonNullable<import("chat-session-reducer/ai-sdk").ProtocolWire["resume"]>>} */
export const RESUME_REQUESTS = {};
for (const { name, resume } of wires) if (resume) RESUME_REQUESTS[name] = resume;

/** Throws a coded TypeError when `name` is not a protocol the hook speaks. */
export function checkProtocolName(name) {
  if (!Object.hasOwn(PROTOCOLS, name)) throw invalid("options.protocol", `one of ${Object.keys(PROTOCOLS).join(", ")}`);
}

const loading = new Map();

/** The protocol's descriptor, once its adapter is loaded (a failed load is tried again next time). */
export function loadProtocol(name) {
  if (!loading.has(name)) {
    const loaded = PROTOCOLS[name].load();
    loading.set(name, loaded);
    loaded.catch(() => loading.delete(name));
  }
  return loading.get(name);
}
