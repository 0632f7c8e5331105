// chat-session-reducer/ai-sdk: the Vercel AI SDK 7 UI message stream in, UIMessages out.
import { readJsonEvents } from "../shared/read-stream.js";
import { jsonEvent, jsonTextEvent } from "../shared/write-frame.js";
import { fromAiSdkChunk } from "./from-chunk.js";
import { toAiSdkMessages } from "./to-messages.js";
import { aiSdkWire } from "./wire.js";

export { fromAiSdkChunk, toAiSdkMessages };

/**
 * The chunks of a UI message stream (SSE, `data: <json>` events up to `data: [DONE]`), from a
 * fetch Response, its body, or any async iterable of bytes or strings.
 */
export function readAiSdkStream(source) {
  return readJsonEvents(source, "[DONE]");
}

/** The protocol as useAgentSession, its resume and chat-session-reducer/testing speak it (index.d.ts). */
export const aiSdkProtocol = Object.freeze({
  ...aiSdkWire,
  // The headers of the AI SDK's createUIMessageStreamResponse.
  headers: Object.freeze({
    "content-type": aiSdkWire.contentType,
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-vercel-ai-ui-message-stream": "v1",
    "x-accel-buffering": "no",
  }),
  // useChat's body: a server written for it may read `trigger` (a regenerate) and `messageId`.
  body: ({ session, chatId, startedBy }) => ({ id: chatId, messages: toAiSdkMessages(session.messages), ...startedBy }),
  read: readAiSdkStream,
  // Transient data parts reach the app's onData and never the session; a replay starts each message over.
  translator: (options) => (chunk) => fromAiSdkChunk(chunk, options),
  severalRuns: false,
  write: jsonEvent,
  writeJson: jsonTextEvent,
  // What chat-session-reducer/server appends when the model's stream fails, and when the user stops.
  failedFrame: (message) => ({ type: "error", errorText: message }),
  stoppedFrame: Object.freeze({ type: "abort" }),
  end: "data: [DONE]\n\n",
});
