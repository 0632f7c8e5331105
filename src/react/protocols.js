// The wire protocols the hook speaks. Each says how to read a response into frames, how to turn
// a frame into session actions (a fresh translator per run: some protocols carry state across
// frames), and what to send by default.
//
//   actions      this package's own NDJSON: one SessionAction a line ("part" or "toolPhase")

import { readNdjson } from "./ndjson.js";

/** The agent may only stream parts and tool phases; send, stop, retry and reset are the user's. */
const AGENT_ACTION_TYPES = new Set(["part", "toolPhase"]);

const PROTOCOLS = {
  actions: {
    accept: "application/x-ndjson",
    read: readNdjson,
    translator: () => (frame) => {
      const type = frame !== null && typeof frame === "object" ? frame.type : undefined;
      if (!AGENT_ACTION_TYPES.has(type)) {
        throw Object.assign(new TypeError('frame: expected a "part" or "toolPhase" action'), { code: "invalid", path: "frame.type" });
      }
      return [frame];
    },
    body: ({ session }) => ({ messages: session.messages }),
  },
};

export const PROTOCOL_NAMES = Object.keys(PROTOCOLS);

export function protocolNamed(name) {
  const protocol = Object.hasOwn(PROTOCOLS, name) ? PROTOCOLS[name] : undefined;
  if (protocol === undefined) {
    throw Object.assign(new TypeError(`options.protocol: expected one of ${PROTOCOL_NAMES.join(", ")}`), {
      code: "invalid",
      path: "options.protocol",
    });
  }
  return protocol;
}
