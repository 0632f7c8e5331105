// chat-session-reducer/ai-sdk: the Vercel AI SDK 7 UI message stream in, UIMessages out.
import { readJsonEvents } from "../shared/read-stream.js";

export { fromAiSdkChunk } from "./from-chunk.js";
export { toAiSdkMessages } from "./to-messages.js";

/**
 * The chunks of a UI message stream (SSE, `data: <json>` events up to `data: [DONE]`), from a
 * fetch Response, its body, or any async iterable of bytes or strings.
 */
export function readAiSdkStream(source) {
  return readJsonEvents(source, "[DONE]");
}
