// The web handlers on Node's http server (and Express, whose req and res are Node's): the
// IncomingMessage becomes a Request whose signal aborts when the client goes away, and the
// Response is written back as it streams.

import { Readable } from "node:stream";

/** A Request from Node's IncomingMessage; its signal aborts when the connection closes early. */
function requestOf(req, res) {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const host = req.headers.host ?? "localhost";
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  // `duplex` (a streamed request body) is Node's and the fetch standard's, not yet in the DOM types.
  return new Request(new URL(req.originalUrl ?? req.url, `http://${host}`), /** @type {RequestInit} */ ({
    method: req.method,
    headers: /** @type {[string, string][]} */ (Object.entries(req.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.map((one) => [name, one]) : value === undefined ? [] : [[name, value]]))),
    body: hasBody ? /** @type {any} */ (Readable.toWeb(req)) : undefined,
    duplex: hasBody ? "half" : undefined,
    signal: controller.signal,
  }));
}

/** Writes `response` to `res`, chunk by chunk; a connection that closes cancels its body. */
async function write(response, res) {
  const headers = {};
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    headers[name] = value;
  }
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (response.body === null) return res.end();
  // A stream's headers go at once: the client learns the run started before its first frame.
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on("close", () => reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/**
 * A Node `(req, res)` listener (Express middleware too: `next` for what `handler` does not
 * serve is not needed, every path it is mounted on is its) from a web handler such as
 * `createChatServer(...).fetch`.
 * @param {(request: Request) => Promise<Response>} handler
 */
export function toNodeHandler(handler) {
  return (req, res) => {
    handler(requestOf(req, res))
      .then((response) => write(response, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end('{"error":"the server failed"}');
        else res.destroy();
      });
  };
}
