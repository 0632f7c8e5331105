// Real demo processes for tests/server/instances.test.mjs and proxy.test.mjs: `node www/server.mjs`
// on a free port (PORT=0, the port read from its first line), on the Redis and Postgres the test
// started, and clients of the package's own session controller whose requests the test routes
// (each client's api is `http://{client}.test/...`, its requests go where the test says: to either
// instance, or to the proxy in front of both).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ownerCookie } from "../../pkg/server/index.js";
import { createAgentSession } from "../../pkg/session/index.js";
import { startPostgres } from "./postgres-server.mjs";
import { startRedis } from "./redis-server.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const READY_WITHIN_MS = 20_000;
export const SECRET = "instances-test-secret-0123456789";
/** The demo's settings in these suites: paced at 1 ms a chunk, the test hooks on, a 4 s lease swept every half second. */
export const DEMO_ENV = { DEMO_PACE_MS: "1", DEMO_TEST_HOOKS: "1", DEMO_LEASE_MS: "4000", DEMO_CHECK_ABANDONED_MS: "500" };
const PARAGRAPH =
  "The lighthouse keeper counted the ships every night, writing each name in a ledger that " +
  "nobody had asked for and nobody would read. ";
/** The scripted agent's "long" reply, whole. */
export const LONG = `${PARAGRAPH.repeat(12)}The end.`;

/** Whether a suite whose Redis, Postgres or instances did not start fails (CI, REQUIRE_REDIS=1,
 *  REQUIRE_POSTGRES=1) rather than being skipped with a note. */
const REQUIRED = Boolean(process.env.CI && process.env.CI !== "0") || process.env.REQUIRE_REDIS === "1" || process.env.REQUIRE_POSTGRES === "1";

/**
 * A `test` of `file`'s suite on servers that may not have started: `started()` says whether they
 * did, `why()` the error if not; then it fails (required) or is skipped. `first` runs before each body.
 */
export function serversTest(file, { started, why, first }) {
  return (name, body) =>
    test(name, async (t) => {
      if (!started()) {
        if (REQUIRED) throw new Error(`${file}: the servers could not start (required: CI, REQUIRE_REDIS=1 or REQUIRE_POSTGRES=1): ${why()?.message}`);
        console.log(`${file}: the servers could not start, so this test is SKIPPED: ${why()?.message}`);
        return t.skip(`could not start: ${why()?.message}`);
      }
      await first?.();
      await body();
    });
}

/**
 * A Redis and a Postgres of the suite's own and two demo instances on them, A started first (so
 * the schema is made once): `{ redis, pg, A, B }`. What started is stopped when a later part fails.
 */
export async function startTwoDemos() {
  const [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
  const env = { ...DEMO_ENV, REDIS_URL: redis.url, DATABASE_URL: pg.connectionString };
  let A;
  try {
    A = await startDemo("A", env);
    return { redis, pg, A, B: await startDemo("B", env) };
  } catch (error) {
    await A?.stop();
    await Promise.all([redis.stop(), pg.stop()]);
    throw error;
  }
}

/** The demo's test hooks on `demo` (its own port): POST /api/test/{path} with `body`, the JSON answer. */
export const hooks = (demo, path, body) => post(demo, `/api/test/${path}`, body).then((response) => response.json());
/** Which run started last on `demo`, how many chunks it wrote, whether it is held. */
export const latestRun = (demo) => original(`${demo.base}/api/test/chunks`).then((response) => response.json());
/** Whether the client's run ended (finished, stopped or failed). */
export const settled = (client) => client.status() === "idle" || client.status() === "error";

/**
 * One demo instance: `node www/server.mjs` with `env`. `output()` is what it printed, `kill(signal)`
 * ends it (SIGKILL: a crash), `restart()` starts it again (another port, the same env).
 */
export async function startDemo(name, env) {
  const dataDir = mkdtempSync(join(tmpdir(), `chat-demo-${name}-`));
  let child;
  let output = "";
  const demo = {
    name,
    base: "",
    output: () => output,
    alive: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    async start() {
      child = spawn(process.execPath, ["www/server.mjs"], {
        cwd: ROOT,
        env: { ...process.env, PORT: "0", DATA_DIR: dataDir, DEMO_OWNER_SECRET: SECRET, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const from = output.length;
      const listening = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`demo ${name} did not listen within ${READY_WITHIN_MS} ms: ${output}`)), READY_WITHIN_MS);
        child.once("exit", (code) => reject(new Error(`demo ${name} exited (${code}): ${output}`)));
        child.stdout.on("data", (chunk) => {
          output += chunk;
          const port = output.slice(from).match(/Chat demo: http:\/\/localhost:(\d+)\//)?.[1];
          if (port) {
            clearTimeout(timer);
            resolve(Number(port));
          }
        });
      });
      child.stderr.on("data", (chunk) => (output += chunk));
      demo.base = `http://127.0.0.1:${await listening}`;
    },
    /** Ends the process; resolves once it exited. */
    async kill(signal = "SIGKILL") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      await exited;
    },
    async restart() {
      await demo.kill();
      await demo.start();
    },
    /** Resolves once the instance printed a line matching `pattern` (bounded). */
    async printed(pattern, what = String(pattern)) {
      await until(() => pattern.test(output), `${name} to print ${what}`, 15_000);
    },
    async stop() {
      await demo.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  process.once("exit", () => child?.exitCode === null && child.kill("SIGKILL"));
  await demo.start();
  return demo;
}

/** Resolves once `check()` holds, polling every 10 ms; fails after `withinMs`. */
export async function until(check, what, withinMs = 20_000) {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A new owner's cookie (the demo's ownerCookie on the shared secret): `{ owner, cookie }`. */
export async function newOwner() {
  const { owner, headers } = await ownerCookie({ secret: SECRET })(new Request("http://x.test/"));
  return { owner, cookie: headers["set-cookie"].split(";")[0] };
}

const original = globalThis.fetch;
/** The clients by their api's host. */
const clients = new Map();
globalThis.fetch = (url, init) => {
  const target = new URL(String(url));
  const client = clients.get(target.host);
  return client === undefined ? original(url, init) : client.forward(target, init);
};

/** What a request of the client is: "chat", "stream" (a reconnect), "stop", or another. */
function kindOf(target, init) {
  if (target.pathname.endsWith("/stop")) return "stop";
  if (target.pathname.endsWith("/stream")) return "stream";
  return (init?.method ?? "GET") === "POST" ? "chat" : "other";
}

/**
 * A client of the demo's ai-sdk endpoint (the package's session controller, resuming): `route(kind)`
 * picks where each of its requests goes (a demo instance, or the proxy: `{ name, base }`); `cut()`
 * breaks every response it is reading (a network failure); `requests` lists where each went (the
 * instance that answered, which the proxy names in x-chat-instance).
 */
export async function demoClient(name, { id = name, route, as }) {
  const { owner, cookie } = as ?? (await newOwner());
  const open = new Set();
  const requests = [];
  clients.set(`${name}.test`, {
    async forward(target, init) {
      const kind = kindOf(target, init);
      const demo = route(kind);
      const request = { kind, on: demo.name, turn: handle.turn };
      requests.push(request);
      // Requests not answered yet, per instance: a test kills one only when it has none.
      demo.opening = (demo.opening ?? 0) + 1;
      const response = await original(`${demo.base}${target.pathname}${target.search}`, { ...init, headers: { ...init?.headers, cookie } }).finally(() => (demo.opening -= 1));
      request.on = response.headers.get("x-chat-instance") ?? demo.name;
      request.status = response.status;
      request.offset = new Headers(init?.headers).get("chat-run-offset");
      if (response.body === null) return response;
      let cut;
      const entry = { cut: () => cut?.() };
      const body = response.body.pipeThrough(
        new TransformStream({
          start: (controller) => (cut = () => controller.error(new TypeError("network error"))),
          flush: () => void open.delete(entry),
        }),
      );
      open.add(entry);
      return new Response(body, { status: response.status, headers: response.headers });
    },
  });
  const api = `http://${name}.test/api/chat/ai-sdk`;
  const session = createAgentSession({ protocol: "ai-sdk", api, stopApi: `${api}/stop`, resume: true, throttle: 0, id, reconnect: { delayMs: 50, budgetMs: 30_000 } });
  const unsubscribe = session.subscribe(() => {});
  const handle = {
    /** The test's turn number, recorded with each request. */
    turn: undefined,
    session,
    owner,
    cookie,
    id,
    requests,
    cut() {
      for (const entry of open) entry.cut();
      open.clear();
    },
    /** The conversation as `demo` (an instance or the proxy) serves it (GET /api/conversations/{id}), or undefined. */
    async stored(demo) {
      // An instance being killed answers nothing: undefined, as for a conversation it does not have.
      const response = await original(`${demo.base}/api/conversations/${encodeURIComponent(id)}`, { headers: { cookie } }).catch(() => undefined);
      return response?.status === 200 ? (await response.json()).state : undefined;
    },
    shown: () => session.getSnapshot().state,
    status: () => session.getSnapshot().status,
    /** The text of the reply shown: the last message's, when it is the assistant's (else ""). */
    reply: () => {
      const last = session.getSnapshot().state.messages.at(-1);
      if (last?.role !== "assistant") return "";
      return last.parts
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join("");
    },
    done() {
      unsubscribe();
      clients.delete(`${name}.test`);
    },
  };
  return handle;
}

/** A client whose every request goes through `door` (the proxy, nginx: `{ name, base }`); `stored()` reads through it too. */
export async function doorClient(name, door) {
  const client = await demoClient(name, { route: () => door });
  return { ...client, stored: () => client.stored(door) };
}

/** Resolves once the conversation read at `where` (an instance; a door client's own when not given) is no longer streaming and equals what the client shows; asserts so. */
export async function storedAsShown(client, where) {
  await until(async () => {
    const stored = await client.stored(where);
    return stored !== undefined && stored.status !== "streaming" && JSON.stringify(stored) === JSON.stringify(client.shown());
  }, "the stored conversation to equal the client's").catch(() => {});
  assert.deepEqual(await client.stored(where), client.shown());
}

/** POSTs `body` (JSON) to `demo`'s `path` with `cookie`; the Response. */
export function post(demo, path, body, cookie) {
  return original(`${demo.base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
}
