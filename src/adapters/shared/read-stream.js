// Reading a streamed HTTP body as text lines, and the two framings the adapters read from it:
// server-sent events (the AI SDK's UI message stream, AG-UI) and NDJSON (seed 001's frames).

// A coded error, as the reducer's own: a message that starts with the path, and `code`/`path`.
export function streamError(code, path, detail, extra) {
  return Object.assign(new Error(`${path}: ${detail}`), { code, path }, extra);
}

// The body of a Response, a ReadableStream, or any async iterable of byte or string chunks.
function bodyOf(source) {
  if (source && typeof source === "object" && "body" in source && "ok" in source) {
    if (!source.ok) throw streamError("http", "response", `HTTP ${source.status}`, { status: source.status });
    return source.body;
  }
  return source;
}

async function* chunksOf(body) {
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
      // The consumer stopped early (break, an exception): cancel the request instead of leaving it open.
      reader.cancel().catch(() => {});
    }
  }
  if (typeof body[Symbol.asyncIterator] !== "function") {
    throw streamError("invalid", "source", "expected a Response, a ReadableStream or an async iterable");
  }
  yield* body;
}

// Lines without their terminators (\n, \r\n or \r, as both framings allow); the last line
// is yielded even without a terminator.
export async function* readLines(source) {
  const decoder = new TextDecoder();
  const terminator = /\r\n|\r|\n/g;
  let pending = "";
  for await (const chunk of chunksOf(bodyOf(source))) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    terminator.lastIndex = 0;
    for (let match; (match = terminator.exec(pending)); ) {
      // A \r that ends the chunk may be the first half of a \r\n: wait for the next chunk.
      if (match[0] === "\r" && terminator.lastIndex === pending.length) break;
      yield pending.slice(start, match.index);
      start = terminator.lastIndex;
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (pending.endsWith("\r")) yield pending.slice(0, -1);
  else if (pending) yield pending;
}

// The `data` of each server-sent event (its `data:` lines joined with \n), as the WHATWG
// event-stream parser dispatches them; comments and other fields are skipped.
export async function* readEventData(source) {
  let data = null;
  for await (const line of readLines(source)) {
    if (line === "") {
      if (data !== null) yield data;
      data = null;
    } else if (line.startsWith("data")) {
      const colon = line.indexOf(":");
      if (colon !== 4 && line.length !== 4) continue;
      const value = colon < 0 ? "" : line.slice(line[5] === " " ? 6 : 5);
      data = data === null ? value : `${data}\n${value}`;
    }
  }
  if (data !== null) yield data;
}

// JSON.parse with a coded error naming the item of the stream that is not JSON.
export function parseItem(text, index) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw streamError("invalid_json", `stream[${index}]`, `not JSON (${error.message})`);
  }
}

// The JSON value of each event's data, up to a `[DONE]` sentinel when `done` is given.
export async function* readJsonEvents(source, done) {
  let index = 0;
  for await (const data of readEventData(source)) {
    if (data === done) return;
    yield parseItem(data, index++);
  }
}
