// One instance of bench/server-instances.mjs, a child process (fork, with --expose-gc): on node:http
// on a free port, either chat-session-reducer/server on the shared Redis (run log, control, leases)
// and Postgres (a counting pg Pool), or the plain pass-through of the same model's chunks. Its mock
// model streams `BENCH_CHUNKS` chunks a run, each text delta the time it was made (ms since the
// epoch, performance.timeOrigin + now), so the client tells each chunk's latency; `BENCH_PACE_MS`
// apart, or as fast as they are read (0). It answers its parent's IPC messages: memory (after a
// full collection), counts (CPU, Postgres statements and transactions, model chunks), close.
import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { passThrough } from "./server-parts.mjs";

const PKG = fileURLToPath(new URL("../pkg/", import.meta.url));
const { createChatServer, createPostgresStore, createRedisControl, createRedisLeases, createRedisRunLog, toNodeHandler } = await import(`${PKG}server/index.js`);

const VARIANT = process.env.BENCH_VARIANT;
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 200);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 0);
const POOL_MAX = Number(process.env.BENCH_POOL_MAX ?? 10);
// The server's own default (250 ms) unless set.
const SAVE_EVERY_MS = process.env.BENCH_SAVE_EVERY_MS === undefined ? undefined : Number(process.env.BENCH_SAVE_EVERY_MS);

const counts = { statements: 0, transactions: 0, modelChunks: 0, runs: 0, errors: 0 };
const stamp = () => (performance.timeOrigin + performance.now()).toFixed(3);

/** The mock model's chunks of one reply, each delta made when it is asked for. */
function* replyChunks(messageId) {
  const deltas = CHUNKS - 4;
  yield { type: "start", messageId };
  yield { type: "text-start", id: "t" };
  for (let i = 0; i < deltas; i++) yield { type: "text-delta", id: "t", delta: `${stamp()} ` };
  yield { type: "text-end", id: "t" };
  yield { type: "finish", finishReason: "stop" };
}

/**
 * The model's stream, one chunk a pull: unpaced, as fast as it is read (as bench/server.mjs's);
 * paced, chunk n not before the run's start + n * PACE_MS (a late read gets it at once), until
 * `signal` aborts.
 */
function model(id, signal) {
  counts.runs++;
  // The warm-up's runs are not paced.
  const pace = id.startsWith("warm") ? 0 : PACE_MS;
  const messageId = `a-${id}`;
  const chunks = replyChunks(messageId);
  const start = performance.now();
  let n = 0;
  return new ReadableStream({
    async pull(controller) {
      const wait = start + n++ * pace - performance.now();
      if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => {});
      const next = signal?.aborted ? { done: true } : chunks.next();
      if (next.done) controller.close();
      else (counts.modelChunks++, controller.enqueue(next.value));
    },
  });
}

/** A pg Pool whose connections count the statements they run (and the transactions begun). */
function countingPool() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_MAX });
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    const query = client.query.bind(client);
    client.query = (...args) => {
      counts.statements++;
      if (typeof args[0] === "string" && args[0] === "begin") counts.transactions++;
      return query(...args);
    };
  });
  return pool;
}

function serverHandler() {
  const url = process.env.REDIS_URL;
  const onError = (error) => (counts.errors++, counts.errors <= 2 && console.error(`instance ${process.pid}:`, error));
  const pool = countingPool();
  const log = createRedisRunLog({ url, onError });
  const control = createRedisControl({ url, onError });
  const leases = createRedisLeases({ url, onError });
  const chat = createChatServer({
    protocol: "ai-sdk",
    store: createPostgresStore({ pool }),
    log,
    control,
    leases,
    onError,
    saveEveryMs: SAVE_EVERY_MS,
    authorize: () => "owner",
    run: ({ id, signal }) => model(id, signal),
  });
  return {
    ready: control.ready,
    handler: toNodeHandler(chat.fetch),
    close: async () => {
      await chat.close();
      await Promise.all([control.close(), leases.close(), log.close()]);
      await pool.end();
    },
  };
}

function passHandler() {
  const handle = async (request) => {
    const { id } = await request.json();
    return passThrough(model(id, request.signal));
  };
  return { ready: Promise.resolve(), handler: toNodeHandler(handle), close: async () => {} };
}

const instance = VARIANT === "server" ? serverHandler() : passHandler();
const http = createServer(instance.handler);
http.keepAliveTimeout = 60_000;
await instance.ready;
await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));

function memory() {
  gc();
  gc();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external, arrayBuffers };
}

process.on("message", async (message) => {
  if (message.type === "memory") process.send({ type: "memory", ...memory() });
  if (message.type === "counts") {
    const cpu = process.cpuUsage();
    process.send({ type: "counts", ...counts, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
  if (message.type === "close") {
    http.closeAllConnections();
    http.close();
    await instance.close();
    process.send({ type: "closed" });
    process.disconnect();
  }
});
process.send({ type: "ready", port: /** @type {import("node:net").AddressInfo} */ (http.address()).port });
