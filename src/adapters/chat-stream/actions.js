// The "actions" protocol: this package's own NDJSON, one SessionAction a line. The agent may
// only stream parts and tool phases; send, stop, retry and reset are the user's.
import { invalid } from "../../shared/coded-error.js";
import { readJsonLines } from "../shared/read-stream.js";
import { jsonLine, jsonTextLine } from "../shared/write-frame.js";
import { actionsWire } from "./wire.js";

const AGENT_ACTION_TYPES = new Set(["part", "toolPhase"]);

function agentAction(frame) {
  const type = frame !== null && typeof frame === "object" ? frame.type : undefined;
  if (!AGENT_ACTION_TYPES.has(type)) throw invalid("frame.type", 'a "part" or "toolPhase" action');
  return [frame];
}

/** The protocol as useAgentSession and chat-session-reducer/testing speak it (index.d.ts). */
export const actionsProtocol = Object.freeze({
  ...actionsWire,
  headers: Object.freeze({ "content-type": actionsWire.contentType }),
  // The conversation's id, and what started the run (`trigger`, `messageId`, as the AI SDK's body
  // says it): what chat-session-reducer/server reads to tell an edit from a stale view.
  body: ({ session, chatId, startedBy }) => ({ id: chatId, messages: session.messages, ...startedBy }),
  read: readJsonLines,
  translator: () => agentAction,
  severalRuns: false,
  write: jsonLine,
  writeJson: jsonTextLine,
  // What chat-session-reducer/server appends when the model's stream fails, and when the user stops.
  failedFrame: (message) => ({ type: "part", part: { type: "error", error: message } }),
  stoppedFrame: Object.freeze({ type: "part", part: { type: "finish", reason: "aborted" } }),
  end: "",
});
