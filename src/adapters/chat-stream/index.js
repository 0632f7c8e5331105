// chat-session-reducer/chat-stream: the NDJSON ChatStreamEvent frames of a chat turn, and this
// package's own NDJSON of actions (actions.js).
import { readJsonLines } from "../shared/read-stream.js";
import { jsonLine, jsonTextLine } from "../shared/write-frame.js";
import { createChatStreamTranslator } from "./translator.js";
import { chatStreamWire } from "./wire.js";

export { createChatStreamTranslator };
export { actionsProtocol } from "./actions.js";

/** One JSON value per line; blank lines are skipped (see index.d.ts). */
export function readNdjson(source) {
  return readJsonLines(source);
}

/** The protocol as useAgentSession and chat-session-reducer/testing speak it (index.d.ts). */
export const chatStreamProtocol = Object.freeze({
  ...chatStreamWire,
  headers: Object.freeze({ "content-type": chatStreamWire.contentType }),
  // The conversation's id, and what started the run (`trigger`, `messageId`, as the AI SDK's body
  // says it): what chat-session-reducer/server reads to tell an edit from a stale view.
  body: ({ session, chatId, startedBy }) => ({ id: chatId, messages: session.messages, ...startedBy }),
  read: readNdjson,
  translator: createChatStreamTranslator,
  severalRuns: false,
  write: jsonLine,
  writeJson: jsonTextLine,
  // What chat-session-reducer/server appends when the model's stream fails, and when the user stops.
  failedFrame: (message) => ({ type: "error", message }),
  stoppedFrame: Object.freeze({ type: "error", message: "Stopped by the user." }),
  end: "",
});
