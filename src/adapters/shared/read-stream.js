// Reading a streamed HTTP body as text lines, and the two framings the adapters read from it:
// server-sent events (the AI SDK's UI message stream, AG-UI) and NDJSON (seed 001's frames).

import { codedError } from "../../shared/coded-error.js";

// A coded error, as the reducer's own: a message that starts with the path, and `code`/`path`.
export function streamError(code, path, detail, extra) {
  return Object.assign(codedError(new Error(`${path}: ${detail}`), code, path), extra);
}

// The body of a Response, a ReadableStream, or any async iterable of byte or string chunks.
function bodyOf(source) {
  if (source && typeof source === "object" && "body" in source && "ok" in source) {
    if (!source.ok) throw streamError("http", "response", `HTTP ${source.status}`, { status: source.status });
    return source.body;
  }
  return source;
}

// What is left of a body after the protocol's end sentinel, read to its end and dropped: the
// request then ends as the server ends it. Cancelling it instead would abort a finished
// request on the server's side (its `req.signal` fires), as if the user had stopped the reply.
async function drain(reader) {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The connection broke after the reply was complete: nothing of the reply is lost.
  }
}

// `reading.ended` is set by the framing when the protocol's end sentinel came (see drain).
async function* chunksOf(body, reading) {
  if (body == null) return;
  if (typeof body.getReader === "function") {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      // After the end sentinel the rest is drained; otherwise the consumer stopped early (break,
      // an exception): cancel the request instead of leaving it open.
      if (reading.ended) void drain(reader);
      else reader.cancel().catch(() => {});
    }
  }
  if (typeof body[Symbol.asyncIterator] !== "function") {
    throw streamError("invalid", "source", "expected a Response, a ReadableStream or an async iterable");
  }
  yield* body;
}

// Text as it arrives, split into lines without their terminators (\n, \r\n or \r, as both
// framings allow). Synchronous, so a chunk's lines cost no promise each.
class LineSplitter {
  pending = "";
  // The complete lines of `text` (after what came before); the last, unterminated one is kept.
  push(text) {
    const buffer = this.pending + text;
    const lines = [];
    const terminator = /\r\n?|\n/g;
    let start = 0;
    for (let match; (match = terminator.exec(buffer)); start = terminator.lastIndex) {
      // A \r that ends the chunk may be the first half of a \r\n: wait for the next chunk.
      if (match[0] === "\r" && terminator.lastIndex === buffer.length) break;
      lines.push(buffer.slice(start, match.index));
    }
    this.pending = buffer.slice(start);
    return lines;
  }
  // The last line, terminated or not, at the end of the stream.
  end() {
    const { pending } = this;
    this.pending = "";
    if (pending.endsWith("\r")) return [pending.slice(0, -1)];
    return pending === "" ? [] : [pending];
  }
}

// The lines of a stream, a chunk's worth at a time.
async function* lineBatches(source, reading = { ended: false }) {
  const decoder = new TextDecoder();
  const splitter = new LineSplitter();
  for await (const chunk of chunksOf(bodyOf(source), reading)) {
    const lines = splitter.push(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    if (lines.length) yield lines;
  }
  const rest = splitter.push(decoder.decode());
  rest.push(...splitter.end());
  if (rest.length) yield rest;
}

// JSON.parse with a coded error naming the item of the stream that is not JSON.
export function parseItem(text, index) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw streamError("invalid_json", `stream[${index}]`, `not JSON (${error.message})`);
  }
}

// The JSON value of each server-sent event's data (its `data:` lines joined with \n, as the
// WHATWG event-stream parser dispatches them; comments and other fields skipped), up to a
// `done` sentinel when one is given.
export async function* readJsonEvents(source, done) {
  let data = null;
  let index = 0;
  const reading = { ended: false };
  try {
    for await (const lines of lineBatches(source, reading)) {
      for (const line of lines) {
        if (line === "") {
          if (data === null) continue;
          if (data === done) {
            reading.ended = true;
            return;
          }
          yield parseItem(data, index++);
          data = null;
        } else if (line.startsWith("data") && (line.length === 4 || line[4] === ":")) {
          const value = line.length === 4 ? "" : line.slice(line[5] === " " ? 6 : 5);
          data = data === null ? value : `${data}\n${value}`;
        }
      }
    }
  } catch (error) {
    // The connection broke after an event whose blank line never came (the server's last
    // words, often its error): it is given before the failure, when its data is whole JSON.
    const last = data === null || data === done || error?.code === "invalid_json" ? undefined : lastWords(data);
    if (last !== undefined) yield last;
    throw error;
  }
  if (data !== null && data !== done) yield parseItem(data, index);
}

// An event's data as JSON, or undefined when it is not (cut short by the break).
function lastWords(data) {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

// One JSON value per line; blank lines are skipped.
export async function* readJsonLines(source) {
  let index = 0;
  for await (const lines of lineBatches(source)) {
    for (const line of lines) if (line.trim() !== "") yield parseItem(line, index++);
  }
}
