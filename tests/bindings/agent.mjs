// The chat endpoint of the binding consumers, as Vite dev-server middleware the test drives: each
// POST /api/chat is held as a reply the test writes (package NDJSON actions), so no scenario
// depends on how fast a reply ends.

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

// A request the test answers: its `messages`; `parts` writes stream parts as the package's NDJSON
// (one write, so they may arrive in one chunk), `sse` AI SDK chunks as server-sent events (a
// string as it is: "[DONE]"), `end` finishes, `fail` answers with an HTTP error instead; `closed`
// settles once the connection is closed (by the end, or by the page: a stop, a reload).
function heldReply(messages, response) {
  const closed = new Promise((resolve) => response.on("close", resolve));
  const start = (headers) => {
    if (!response.headersSent) response.writeHead(200, headers);
  };
  return {
    messages,
    closed,
    parts(...parts) {
      start({ "content-type": "application/x-ndjson" });
      response.write(parts.map((part) => JSON.stringify({ type: "part", part }) + "\n").join(""));
    },
    sse(...chunks) {
      start({ "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" });
      response.write(chunks.map((chunk) => `data: ${typeof chunk === "string" ? chunk : JSON.stringify(chunk)}\n\n`).join(""));
    },
    end() {
      response.end();
    },
    fail(status, error) {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify({ error }));
    },
  };
}

/** The agent: `plugin` for Vite, `nextReply()` the next request not yet taken (awaiting it). */
export function heldAgent() {
  const arrived = [];
  const takers = [];
  const plugin = {
    name: "held-agent",
    configureServer(server) {
      server.middlewares.use("/api/chat", async (request, response) => {
        const reply = heldReply((await readJson(request)).messages, response);
        if (takers.length > 0) takers.shift()(reply);
        else arrived.push(reply);
      });
    },
  };
  return {
    plugin,
    nextReply: () => (arrived.length > 0 ? Promise.resolve(arrived.shift()) : new Promise((resolve) => takers.push(resolve))),
    /** Requests that arrived and no test took. */
    untaken: () => arrived.length,
  };
}
