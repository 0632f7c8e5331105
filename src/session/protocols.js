// The wire protocols the hook speaks (src/adapters/protocols.js): their names, content types and
// resume requests from the start, each descriptor once its adapter is loaded.

import { PROTOCOLS } from "../adapters/protocols.js";
import { invalid } from "../shared/coded-error.js";

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
