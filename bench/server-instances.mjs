// `npm run bench:server` (second part; alone: `npm run bench:server-instances`): 1,000 concurrent
// conversations across two instances of chat-session-reducer/server (two createChatServer in this
// process, each with its own Redis connections and its own Postgres pool, requests alternating)
// on a Redis and a PostgreSQL the bench starts (tests/server/redis-server.mjs, postgres-server.mjs),
// each conversation's mock model streaming 200 AI SDK chunks (one every BENCH_PACE_MS, 20); against the same model streams
// written to a Response without the server (the plain pass-through). It prints throughput, the
// per-chunk latency (the model handing a chunk over -> the client reading it) p50/p99, Redis
// commands (INFO commandstats) and Postgres transactions (pg_stat_database) per chunk, and the
// memory per open run (every run held at its 100th chunk). Figures only; nothing is asserted.
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import pg from "pg";
import { startPostgres } from "../tests/server/postgres-server.mjs";
import { startRedis } from "../tests/server/redis-server.mjs";

const PKG = fileURLToPath(new URL("../pkg/", import.meta.url));
if (!existsSync(`${PKG}server/index.js`)) {
  console.error(`${PKG} has no server subpath: run npm run build first.`);
  process.exit(1);
}
const { createChatServer, createPostgresStore, createRedisControl, createRedisLeases, createRedisRunLog } = await import(`${PKG}server/index.js`);

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 1_000);
const CHUNKS = 200;
const HOLD_AT = 100;
// A model's pace: a chunk every PACE_MS per conversation (50 a second, a fast model's tokens).
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 20);

/** 200 chunks: start, text-start, 196 deltas, text-end, finish. */
const chunksOf = (reply) => [
  { type: "start", messageId: reply },
  { type: "text-start", id: "t" },
  ...Array.from({ length: CHUNKS - 4 }, (_, i) => ({ type: "text-delta", id: "t", delta: `w${i % 97} ` })),
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: "stop" },
];

/** A model stream that records when it hands each chunk over, and waits at `HOLD_AT` for `gate`. */
function modelStream(chunks, handed, gate, reached) {
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next === HOLD_AT) {
        reached();
        await gate;
      }
      if (next === chunks.length) return controller.close();
      if (PACE_MS > 0) await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      handed.push(performance.now());
      controller.enqueue(chunks[next++]);
    },
  });
}

const encoder = new TextEncoder();
/** The plain pass-through: each chunk written as the AI SDK's SSE bytes. */
function passThrough(stream) {
  const reader = stream.getReader();
  return new Response(
    new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        } else controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

/** Reads an SSE body, recording when each frame arrived. */
async function readFrames(response, arrived) {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of response.body) {
    text += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = text.indexOf("\n\n")) !== -1) {
      const event = text.slice(0, end);
      text = text.slice(end + 2);
      if (event !== "data: [DONE]") arrived.push(performance.now());
    }
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** Runs every conversation through `respond(i, stream)`; the figures. */
async function measure(respond) {
  let released;
  const gate = new Promise((resolve) => (released = resolve));
  let holding = 0;
  let allHeld;
  const held = new Promise((resolve) => (allHeld = resolve));
  const reached = () => ++holding === CONVERSATIONS && allHeld();
  const runs = Array.from({ length: CONVERSATIONS }, () => ({ handed: [], arrived: [] }));
  globalThis.gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  const reading = runs.map(async (run, i) => {
    const response = await respond(i, modelStream(chunksOf(`a${i}`), run.handed, gate, reached));
    await readFrames(response, run.arrived);
  });
  await held;
  // Let the clients read what was handed over before measuring.
  await new Promise((resolve) => setTimeout(resolve, 500));
  globalThis.gc?.();
  const open = process.memoryUsage();
  const heldMs = performance.now() - started;
  const resumed = performance.now();
  released();
  await Promise.all(reading);
  const wallMs = heldMs - 500 + (performance.now() - resumed);
  const latencies = [];
  for (const run of runs) for (let i = 0; i < run.arrived.length; i++) if (i !== HOLD_AT) latencies.push(run.arrived[i] - run.handed[i]);
  latencies.sort((a, b) => a - b);
  return {
    wallMs,
    chunksPerSecond: (CONVERSATIONS * CHUNKS) / (wallMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    heapPerRunKb: (open.heapUsed - before.heapUsed) / CONVERSATIONS / 1024,
    rssPerRunKb: (open.rss - before.rss) / CONVERSATIONS / 1024,
  };
}

async function redisCalls(client) {
  const info = await client.info("commandstats");
  const calls = {};
  for (const [, name, count] of info.matchAll(/cmdstat_(\w+(?:\|\w+)?):calls=(\d+)/g)) calls[name] = Number(count);
  return calls;
}

async function pgTransactions(pool) {
  const { rows } = await pool.query("select xact_commit::int as commits from pg_stat_database where datname = 'postgres'");
  return rows[0].commits;
}

const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
try {
  const instance = () =>
    createChatServer({
      protocol: "ai-sdk",
      store: createPostgresStore({ connectionString: postgres.connectionString, max: 10 }),
      log: createRedisRunLog({ url: redis.url }),
      control: createRedisControl({ url: redis.url }),
      leases: createRedisLeases({ url: redis.url }),
      authorize: () => "bench",
      run: ({ body }) => streams.get(body.id),
      onError: (error) => console.error("bench:", error),
    });
  const streams = new Map();
  const instances = [instance(), instance()];
  const body = (i) => JSON.stringify({ id: `c${i}-${Date.now()}`, messages: [{ id: `u${i}`, role: "user", parts: [{ type: "text", text: `Question ${i}` }] }] });
  const viaServer = (i, stream) => {
    const text = body(i);
    streams.set(JSON.parse(text).id, stream);
    return instances[i % 2].fetch(new Request("http://bench.test/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: text }));
  };
  const stats = createClient({ url: redis.url });
  await stats.connect();
  const pool = new pg.Pool({ connectionString: postgres.connectionString, max: 1 });
  // A warm-up: connections, the schema, the code paths.
  await measure(viaServer);
  await Promise.all(instances.map((server) => server.idle()));

  const plain = await measure((i, stream) => passThrough(stream));
  const redisBefore = await redisCalls(stats);
  const pgBefore = await pgTransactions(pool);
  const served = await measure(viaServer);
  await Promise.all(instances.map((server) => server.idle()));
  const redisAfter = await redisCalls(stats);
  const pgAfter = await pgTransactions(pool);
  const chunks = CONVERSATIONS * CHUNKS;
  const byCommand = Object.entries(redisAfter)
    .map(([name, count]) => [name, count - (redisBefore[name] ?? 0)])
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  const redisTotal = byCommand.reduce((sum, [, count]) => sum + count, 0);

  console.log(`machine: ${cpus()[0].model.trim()}, ${cpus().length} cores; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
  console.log(`${CONVERSATIONS} concurrent conversations x ${CHUNKS} chunks, two instances in one process on one Redis and one Postgres (a pool of 10 each); a chunk every ${PACE_MS} ms per conversation; one run after a warm-up.`);
  const row = (name, r) => console.log(`${name.padEnd(22)} ${r.wallMs.toFixed(0).padStart(7)} ms  ${r.chunksPerSecond.toFixed(0).padStart(7)} chunks/s  latency p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms  open run: heap ${r.heapPerRunKb.toFixed(1)} KB, rss ${r.rssPerRunKb.toFixed(1)} KB`);
  row("plain pass-through", plain);
  row("server, 2 instances", served);
  console.log(`added per chunk: p50 +${(served.p50 - plain.p50).toFixed(1)} ms, p99 +${(served.p99 - plain.p99).toFixed(1)} ms`);
  console.log(`Redis: ${(redisTotal / chunks).toFixed(2)} commands per chunk (${byCommand.map(([name, count]) => `${name} ${count}`).join(", ")})`);
  console.log(`Postgres: ${((pgAfter - pgBefore) / chunks).toFixed(3)} transactions per chunk (${pgAfter - pgBefore} for ${chunks} chunks)`);
  await stats.quit();
  await pool.end();
  await Promise.all(instances.map((server) => server.close()));
} finally {
  await Promise.all([redis.stop(), postgres.stop()]);
}
process.exit(0);
