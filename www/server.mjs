// The demo's server: serves the built page (www/dist) and the scripted agent, in three protocols:
//   POST /api/chat/actions  { messages: AgentMessage[] } -> NDJSON actions (this package's own)
//   POST /api/chat/ai-sdk   { messages: UIMessage[] }    -> the AI SDK UI message stream (SSE)
//   POST /api/chat/ag-ui    RunAgentInput                -> AG-UI events (SSE)
// The AI SDK and AG-UI runs outlive their connection (./agent/resumable.mjs), so a page that
// reloads or loses its connection mid-reply reconnects, and its reply goes on (a run that ended is
// replayed whole until the conversation's next run):
//   GET  /api/chat/ai-sdk/{id}/stream                    -> the active run replayed, or 204
//   POST /api/chat/ag-ui/connect   RunAgentInput (threadId) -> the active run replayed, or 204
//   POST /api/chat/{protocol}/stop the run's request body -> cancels the active run (Stop); 204
// With DEMO_TEST_HOOKS=1 (the end-to-end tests), POST /api/test/disconnect cuts every connection
// that follows a run, as a network failure would, and the runs go on; with { afterChunks: N },
// those of the next run, once it has written N chunks; GET /api/test/chunks says which run started
// last, how many chunks it has written and whether it is held ({ run, chunks, held }).
// POST /api/test/hold { point } holds the next run that reaches that point of its script until
// POST /api/test/release { point } (./agent/holds.mjs); /api/test/hold { chunks: [N, …] } stops
// the next resumable run's output at each of those chunk counts, and /api/test/release
// { chunks: true } moves it on to the next; /api/test/release {} releases every hold.
// Plain node:http on purpose: the page needs nothing a framework would add.
// PORT picks the port (0: any free one); the URL is printed once listening.

import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pickRun } from "./agent/scenarios.mjs";
import { createHolds } from "./agent/holds.mjs";
import { createRunRegistry } from "./agent/resumable.mjs";
import { createAgentStream } from "./agent/stream.mjs";
import * as actions from "./agent/wire/actions.mjs";
import * as agUi from "./agent/wire/ag-ui.mjs";
import * as aiSdk from "./agent/wire/ai-sdk.mjs";

const WIRES = { actions, "ai-sdk": aiSdk, "ag-ui": agUi };
// The conversation id a request of a resumable protocol carries.
const CONVERSATION_IDS = { "ai-sdk": (body) => body?.id, "ag-ui": (body) => body?.threadId };
const TEST_HOOKS = process.env.DEMO_TEST_HOOKS === "1";
const runs = createRunRegistry();
const holds = TEST_HOOKS ? createHolds((line) => console.log(line)) : undefined;
// Where `run` may be held (agent.hold), under the test hooks only.
const holdsOf = (run, signal) => holds && ((point) => holds.at(point, run.name, signal));

const DIST = fileURLToPath(new URL("./dist/", import.meta.url));
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const CONTENT_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
};

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function readJson(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "request body too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "request body is not JSON");
  }
}

function sendJson(res, status, body) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/** The key of the conversation a request of a resumable protocol is about, or undefined. */
function conversationKey(protocol, body) {
  const id = CONVERSATION_IDS[protocol]?.(body);
  return typeof id === "string" && id !== "" ? `${protocol}:${id}` : undefined;
}

async function chat(req, res, protocol) {
  const wire = WIRES[protocol];
  const body = await readJson(req);
  const messages = wire.messagesOf(body);
  if (messages === null) throw new HttpError(400, `not a ${protocol} request`);
  const run = pickRun(messages);
  if (!run) throw new HttpError(400, "the conversation has no user message to answer");
  const key = conversationKey(protocol, body);
  if (key !== undefined) return resumableChat(res, protocol, key, run);

  // The page aborting its fetch closes the response before it has finished.
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort(new Error("client went away"));
  });
  const writer = wire.createWire(res);
  const agent = createAgentStream(writer, abort.signal, holdsOf(run, abort.signal));
  try {
    await run.play(agent);
    await writer.end();
    console.log(`chat: ${protocol}: ${run.name}: finished after ${agent.frames} frames`);
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    writer.abort();
    console.log(`chat: ${protocol}: ${run.name}: aborted by the client after ${agent.frames} frames`);
  }
}

// A run that goes on when its connection closes: only Stop (POST .../stop) cancels it.
async function resumableChat(res, protocol, key, run) {
  const recorded = runs.start(key);
  recorded.name = run.name;
  const writer = WIRES[protocol].createWire(recorded.res);
  runs.follow(recorded, res);
  const agent = createAgentStream(writer, recorded.signal, holdsOf(run, recorded.signal));
  try {
    await run.play(agent);
    await writer.end();
    console.log(`chat: ${protocol}: ${run.name}: finished after ${agent.frames} frames`);
  } catch (error) {
    if (!recorded.signal.aborted) throw error;
    writer.abort();
    console.log(`chat: ${protocol}: ${run.name}: aborted by the client after ${agent.frames} frames`);
  }
}

// A reconnect: the conversation's active run from its first byte, then live; 204 when none.
function reconnect(res, protocol, key) {
  const active = key === undefined ? undefined : runs.active(key);
  if (active === undefined) {
    res.writeHead(204).end();
    return;
  }
  console.log(`chat: ${protocol}: ${active.name}: reconnected after ${active.chunks.length} chunks`);
  runs.follow(active, res);
}

async function testDisconnect(req, res) {
  const { afterChunks } = await readJson(req).catch(() => ({}));
  if (Number.isInteger(afterChunks)) {
    runs.disconnectNextAt(afterChunks);
    return sendJson(res, 200, { armed: afterChunks });
  }
  sendJson(res, 200, { cut: runs.disconnectAll() });
}

async function testHold(req, res) {
  const { point, chunks } = await readJson(req);
  if (Array.isArray(chunks)) runs.holdNextAt(chunks);
  else holds.hold(point);
  sendJson(res, 200, { held: point ?? chunks });
}

async function testRelease(req, res) {
  const { point, chunks } = await readJson(req);
  if (chunks === true) runs.releaseLatest();
  else if (point !== undefined) holds.release(point);
  else {
    holds.release();
    runs.releaseAll();
  }
  sendJson(res, 200, { released: point ?? chunks ?? "all" });
}

async function stop(req, res, protocol) {
  const key = conversationKey(protocol, await readJson(req));
  if (key !== undefined) runs.active(key)?.cancel();
  res.writeHead(204).end();
}

async function serveStatic(req, res, pathname) {
  const relative = pathname === "/" ? "index.html" : decodeURIComponent(pathname).replace(/^\/+/, "");
  const file = path.join(DIST, relative);
  if (!file.startsWith(DIST)) throw new HttpError(404, "not found");
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new HttpError(404, "not found");
  res.writeHead(200, {
    "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
    "content-length": info.size,
    // Vite fingerprints everything under assets/; index.html must always be fresh.
    "cache-control": relative.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache",
  });
  if (req.method === "HEAD") return res.end();
  createReadStream(file).pipe(res);
}

async function route(req, res) {
  const { pathname } = new URL(req.url, "http://localhost");
  const [, protocol, action] = pathname.match(/^\/api\/chat\/([\w-]+)(?:\/(.+))?$/) ?? [];
  if (protocol !== undefined && Object.hasOwn(WIRES, protocol)) {
    if (action === undefined && req.method === "POST") return chat(req, res, protocol);
    if (action === "stop" && req.method === "POST") return stop(req, res, protocol);
    const streamOf = protocol === "ai-sdk" && req.method === "GET" ? action?.match(/^([^/]+)\/stream$/)?.[1] : undefined;
    if (streamOf !== undefined) return reconnect(res, protocol, conversationKey(protocol, { id: decodeURIComponent(streamOf) }));
    if (protocol === "ag-ui" && action === "connect" && req.method === "POST") return reconnect(res, protocol, conversationKey(protocol, await readJson(req)));
  }
  if (TEST_HOOKS && pathname === "/api/test/disconnect" && req.method === "POST") return testDisconnect(req, res);
  if (TEST_HOOKS && pathname === "/api/test/chunks" && req.method === "GET") return sendJson(res, 200, runs.latestRun());
  if (TEST_HOOKS && pathname === "/api/test/hold" && req.method === "POST") return testHold(req, res);
  if (TEST_HOOKS && pathname === "/api/test/release" && req.method === "POST") return testRelease(req, res);
  if (pathname.startsWith("/api/")) throw new HttpError(404, "not found");
  if (req.method === "GET" || req.method === "HEAD") return serveStatic(req, res, pathname);
  throw new HttpError(405, "method not allowed");
}

const server = http.createServer((req, res) => {
  route(req, res).catch((error) => {
    if (!(error instanceof HttpError)) console.error(error);
    if (res.headersSent) return res.destroy();
    sendJson(res, error.status ?? 500, { error: error instanceof HttpError ? error.message : "internal error" });
  });
});

const port = Number(process.env.PORT ?? 3000);
server.listen(port, () => {
  console.log(`Chat demo: http://localhost:${server.address().port}/`);
});
