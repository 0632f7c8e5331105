// chat-session-reducer/chat-stream: the NDJSON ChatStreamEvent frames of a chat turn.
import { parseItem, readLines } from "../shared/read-stream.js";

export { createChatStreamTranslator } from "./translator.js";

/** One JSON value per line; blank lines are skipped (see index.d.ts). */
export async function* readNdjson(source) {
  let index = 0;
  for await (const line of readLines(source)) {
    if (line.trim() === "") continue;
    yield parseItem(line, index++);
  }
}
