// The demo's server: serves the built page (www/dist) and the scripted agent in three protocols,
// every run through chat-session-reducer/server, which folds it into the stored conversation
// (PGlite under DATA_DIR, www/.data by default; Postgres when DATABASE_URL is set; with REDIS_URL
// the runs on Redis, so several instances serve one conversation), keeps it
// going when the page's connection closes, and serves reconnects and Stop:
//   POST /api/chat/{actions|ai-sdk|ag-ui}          the protocol's body -> the run's stream
//   GET  /api/chat/{ai-sdk|actions}/{id}/stream    what the client lacks of the newest run, or 204
//   POST /api/chat/ag-ui/connect  RunAgentInput    the same for AG-UI
//   POST /api/chat/{protocol}/stop                 the run cut where the client stopped; 204
//   GET  /api/conversations, GET|DELETE /api/conversations/{id}   the owner's conversations
// Each browser gets an anonymous owner in a signed, HttpOnly cookie (DEMO_OWNER_SECRET, else a
// secret kept in the data directory, so every instance on it accepts the others' cookies). A
// restart (SIGTERM) stores the runs in flight as interrupted; a crash leaves that to the next start.
// With DEMO_TEST_HOOKS=1 (the end-to-end tests), POST /api/test/disconnect cuts every connection
// that follows a run, as a network failure would, and the runs go on; with { afterChunks: N },
// the next run's once it has sent N chunks; GET /api/test/chunks says which run started last, how
// many chunks it has written and whether it is held ({ run, chunks, held }). POST /api/test/hold
// { point } holds the next run that reaches that point of its script until POST /api/test/release
// { point } (./agent/holds.mjs); /api/test/hold { chunks: [N, …] } holds the next run's output at
// each of those chunk counts, /api/test/release { chunks: true } moves it on to the next, and
// /api/test/release {} releases every hold. POST /api/test/conversation { id, state } stores a
// conversation for the browser asking (a long thread whose older pages a test scrolls to).
// POST /api/test/saves { held: true } holds every save to the store until { held: false }: a store
// that is slow to answer, so an instance killed meanwhile never stored its run.
// PORT picks the port (0: any free one); the URL is printed once listening. DEMO_LEASE_MS sets the
// runs' lease on Redis (5,000 by default: a run whose instance died is stored interrupted within
// about twice that), DEMO_CHECK_ABANDONED_MS how often each instance looks for such runs.

import { randomBytes } from "node:crypto";
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createChatServer,
  createPgliteStore,
  createPostgresStore,
  createRedisControl,
  createRedisLeases,
  createRedisRunLog,
  ownerCookie,
  toNodeHandler,
} from "chat-session-reducer/server";
import { pickRun } from "./agent/scenarios.mjs";
import { createHolds } from "./agent/holds.mjs";
import { AGENT_DROPPED, createModelOutput } from "./agent/model-stream.mjs";
import { createAgentStream } from "./agent/stream.mjs";
import { createTestHooks } from "./agent/test-hooks.mjs";
import * as actions from "./agent/wire/actions.mjs";
import * as agUi from "./agent/wire/ag-ui.mjs";
import * as aiSdk from "./agent/wire/ai-sdk.mjs";

const WIRES = { actions, "ai-sdk": aiSdk, "ag-ui": agUi };
const TEST_HOOKS = process.env.DEMO_TEST_HOOKS === "1";
const hooks = TEST_HOOKS ? createTestHooks() : undefined;
const holds = TEST_HOOKS ? createHolds((line) => console.log(line)) : undefined;
// Where `run` may be held (agent.hold), under the test hooks only.
const holdsOf = (run, signal) => holds && ((point) => holds.at(point, run.name, signal));

const DIST = fileURLToPath(new URL("./dist/", import.meta.url));
const DATA_DIR = path.resolve(process.env.DATA_DIR ?? fileURLToPath(new URL("./.data/", import.meta.url)));
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

/** The owner cookie's secret: the environment's, else one made once and kept in the data directory. */
function ownerSecret() {
  if (process.env.DEMO_OWNER_SECRET) return process.env.DEMO_OWNER_SECRET;
  const file = path.join(DATA_DIR, "owner-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(32).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

mkdirSync(DATA_DIR, { recursive: true });
const baseStore = process.env.DATABASE_URL ? createPostgresStore({ connectionString: process.env.DATABASE_URL }) : createPgliteStore({ dataDir: path.join(DATA_DIR, "pglite") });
/** While saves are held (the test hooks), what releases them. @type {{ released: Promise<void>, release: () => void } | undefined} */
let savesHeld;
const store = TEST_HOOKS ? { ...baseStore, save: async (...args) => (await savesHeld?.released, baseStore.save(...args)) } : baseStore;
const authorize = ownerCookie({ secret: ownerSecret() });
// With REDIS_URL, several instances share the runs: the log, Stop routed to the run, leases.
const url = process.env.REDIS_URL;
const leaseMs = process.env.DEMO_LEASE_MS ? Number(process.env.DEMO_LEASE_MS) : undefined;
const shared = url ? { log: createRedisRunLog({ url }), leases: createRedisLeases({ url, leaseMs }) } : {};
// A control channel each: one chat server listens on it.
const controlOf = (protocol) => (url ? { control: createRedisControl({ url, channel: `chat-demo:control:${protocol}` }) } : {});

// The newest run of each conversation, for the server's log lines (a reconnect names its run).
const newestRun = new Map();

/** The scripted agent's run for the model input `messages`, as the model's stream. */
function agentRun(protocol, { id, messages, signal }) {
  const wire = WIRES[protocol];
  const run = pickRun(wire.messagesOf(protocol === "ag-ui" ? messages : { messages }));
  if (!run) throw new Error("the conversation has no user message to answer");
  // Outside the tests a record of its own, never held, so the log lines count its chunks too.
  const record = hooks?.startRun(run.name) ?? { name: run.name, chunks: 0, stops: [], pending: [] };
  newestRun.set(`${protocol}:${id}`, record);
  const output = createModelOutput(record);
  const writer = wire.createWire(output.res);
  const agent = createAgentStream(writer, signal, holdsOf(run, signal));
  void (async () => {
    try {
      await run.play(agent);
      await writer.end();
      console.log(`chat: ${protocol}: ${run.name}: finished after ${agent.frames} frames`);
    } catch (error) {
      if (!signal.aborted) {
        console.error(error);
        return output.res.destroy();
      }
      writer.abort();
      console.log(`chat: ${protocol}: ${run.name}: aborted by the client after ${agent.frames} frames`);
    }
  })();
  return output.stream;
}

const chats = Object.fromEntries(
  Object.keys(WIRES).map((protocol) => [
    protocol,
    createChatServer({
      protocol,
      api: `/api/chat/${protocol}`,
      conversations: "/api/conversations",
      store,
      authorize,
      ...shared,
      ...controlOf(protocol),
      checkAbandonedMs: process.env.DEMO_CHECK_ABANDONED_MS ? Number(process.env.DEMO_CHECK_ABANDONED_MS) : undefined,
      run: (context) => agentRun(protocol, context),
      onError: (error) => console.error(`chat: ${protocol}:`, error?.message ?? error),
      // The scenario's drop is the agent's connection failing mid-reply; anything else, a failure.
      errorMessage: (error) => (error?.message === AGENT_DROPPED ? "The connection to the agent broke before the reply was finished." : "The agent failed to answer. Try again."),
    }),
  ]),
);

/** The conversation a reconnect is about (in its path, or AG-UI's in its body). */
async function reconnectedId(protocol, request, action) {
  if (request.method === "GET") return decodeURIComponent(action.slice(0, -"/stream".length));
  return (await request.clone().json().catch(() => ({})))?.threadId;
}

async function chatRoute(request, protocol, action) {
  const chat = chats[protocol];
  const reconnect = (request.method === "GET" && action?.endsWith("/stream")) || (protocol === "ag-ui" && action === "connect");
  if (!reconnect) {
    const response = await chat.fetch(request);
    return action === undefined && hooks ? hooks.follow(response, hooks.takeCut()) : response;
  }
  const id = await reconnectedId(protocol, request, action);
  const response = await chat.fetch(request);
  const record = newestRun.get(`${protocol}:${id}`);
  if (response.status === 200 && record) console.log(`chat: ${protocol}: ${record.name}: reconnected after ${record.chunks} chunks`);
  return hooks ? hooks.follow(response) : response;
}

const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });

async function testRoute(request, pathname) {
  const body = request.method === "POST" ? await request.json().catch(() => ({})) : {};
  if (pathname === "/api/test/disconnect") {
    if (Number.isInteger(body.afterChunks)) {
      hooks.disconnectNextAt(body.afterChunks);
      return json(200, { armed: body.afterChunks });
    }
    return json(200, { cut: hooks.disconnectAll() });
  }
  if (pathname === "/api/test/chunks") return json(200, hooks.latestRun());
  // A conversation stored for the browser asking (its owner cookie), as long as a test needs.
  if (pathname === "/api/test/conversation") {
    const who = await authorize(request);
    const owner = typeof who === "string" ? who : who?.owner;
    if (owner === undefined) return json(401, { error: "no owner" });
    await store.save(owner, body.id, body.state);
    return new Response(JSON.stringify({ stored: body.id }), { headers: { "content-type": "application/json", ...(typeof who === "object" ? who.headers : {}) } });
  }
  if (pathname === "/api/test/hold") {
    if (Array.isArray(body.chunks)) hooks.holdNextAt(body.chunks);
    else holds.hold(body.point);
    return json(200, { held: body.point ?? body.chunks });
  }
  if (pathname === "/api/test/release") {
    if (body.chunks === true) hooks.releaseLatest();
    else if (body.point !== undefined) holds.release(body.point);
    else {
      holds.release();
      hooks.releaseAll();
    }
    return json(200, { released: body.point ?? body.chunks ?? "all" });
  }
  if (pathname === "/api/test/saves") {
    if (body.held && savesHeld === undefined) {
      let release = () => {};
      const released = new Promise((resolve) => (release = () => resolve(undefined)));
      savesHeld = { released, release };
    } else if (!body.held) {
      savesHeld?.release();
      savesHeld = undefined;
    }
    return json(200, { held: savesHeld !== undefined });
  }
  return json(404, { error: "not found" });
}

/** The API: chat routes by protocol, the conversations, the test hooks. */
async function api(request) {
  const { pathname } = new URL(request.url);
  const [, protocol, action] = pathname.match(/^\/api\/chat\/([\w-]+)(?:\/(.+))?$/) ?? [];
  if (protocol !== undefined && Object.hasOwn(WIRES, protocol)) return chatRoute(request, protocol, action);
  if (pathname === "/api/conversations" || pathname.startsWith("/api/conversations/")) return chats["ai-sdk"].fetch(request);
  if (TEST_HOOKS && pathname.startsWith("/api/test/")) return testRoute(request, pathname);
  return json(404, { error: "not found" });
}

async function serveStatic(req, res, pathname) {
  const relative = pathname === "/" ? "index.html" : decodeURIComponent(pathname).replace(/^\/+/, "");
  const file = path.join(DIST, relative);
  const info = file.startsWith(DIST) ? await stat(file).catch(() => null) : null;
  if (!info?.isFile()) {
    res.writeHead(404, { "content-type": "application/json; charset=utf-8" }).end('{"error":"not found"}');
    return;
  }
  res.writeHead(200, {
    "content-type": CONTENT_TYPES[path.extname(file)] ?? "application/octet-stream",
    "content-length": info.size,
    // Vite fingerprints everything under assets/; index.html must always be fresh.
    "cache-control": relative.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache",
  });
  if (req.method === "HEAD") return res.end();
  createReadStream(file).pipe(res);
}

const apiHandler = toNodeHandler(api);
const server = http.createServer((req, res) => {
  const { pathname } = new URL(req.url, "http://localhost");
  if (pathname.startsWith("/api/")) return apiHandler(req, res);
  if (req.method === "GET" || req.method === "HEAD") {
    serveStatic(req, res, pathname).catch((error) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500).end();
    });
    return;
  }
  res.writeHead(405, { "content-type": "application/json; charset=utf-8" }).end('{"error":"method not allowed"}');
});

// A restart (SIGTERM, Ctrl-C) ends the runs in flight as interrupted, saved, before the process goes.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, async () => {
    server.close();
    await Promise.all(Object.values(chats).map((chat) => chat.close()));
    await store.close();
    process.exit(0);
  });
}

const port = Number(process.env.PORT ?? 3000);
server.listen(port, () => {
  console.log(`Chat demo: http://localhost:${server.address().port}/`);
});
