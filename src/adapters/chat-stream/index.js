// chat-session-reducer/chat-stream: the NDJSON ChatStreamEvent frames of a chat turn.
import { readJsonLines } from "../shared/read-stream.js";

export { createChatStreamTranslator } from "./translator.js";

/** One JSON value per line; blank lines are skipped (see index.d.ts). */
export function readNdjson(source) {
  return readJsonLines(source);
}
