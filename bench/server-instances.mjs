// `npm run bench:server:instances`: chat-session-reducer/server on two instances (two child
// processes, bench/server-instance.mjs, each on node:http with the Redis run log, control and
// leases and the Postgres store; one Redis, one Postgres, started here as the tests start theirs)
// against a plain pass-through server on two processes, under the same load from this process
// over HTTP: BENCH_CONVERSATIONS (1,000) conversations at once, started over BENCH_RAMP_MS, each a
// reply of BENCH_CHUNKS (200) chunks. Two phases: "saturated", the model as fast as it is read
// (throughput), and "paced", a chunk every BENCH_PACE_MS (the latency each chunk gets; the memory
// per open run; a share of the conversations resumed, and a share stopped, on the other
// instance). Every text delta is the time the model made it, so the client tells each chunk's
// latency. Prints and writes bench/results/server-instances-<date>.json; asserts no time.
import { fork } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createClient } from "redis";
import { startPostgres } from "../tests/server/postgres-server.mjs";
import { startRedis } from "../tests/server/redis-server.mjs";

const PKG = fileURLToPath(new URL("../pkg/", import.meta.url));
const { toAiSdkMessages } = await import(`${PKG}ai-sdk/index.js`);
const { sessionReducer } = await import(`${PKG}index.js`);

const env = (name, fallback) => Number(process.env[name] ?? fallback);
const CONVERSATIONS = env("BENCH_CONVERSATIONS", 1000);
const CHUNKS = env("BENCH_CHUNKS", 200);
const PACE_MS = env("BENCH_PACE_MS", 250);
const RAMP_MS = env("BENCH_RAMP_MS", 2000);
const RESUME_SHARE = env("BENCH_RESUME_SHARE", 0.1);
const STOP_SHARE = env("BENCH_STOP_SHARE", 0.05);
const WARM_UP = 10;
// The frame at which a resumed conversation's client drops and reconnects, or stops, on the other instance.
const CUT_AT = Math.floor(CHUNKS / 2);
// Every conversation has this many frames when the memory of the open runs is taken.
const OPEN_AT = Math.min(40, CUT_AT - 1);
const WORKER = fileURLToPath(new URL("./server-instance.mjs", import.meta.url));

/** What conversation `i` does: most read their reply on the instance they sent to; a share resume or stop on the other. */
const roleOf = (i) => (i % 100 < RESUME_SHARE * 100 ? "resume" : i % 100 >= 100 - STOP_SHARE * 100 ? "stop" : "plain");

const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const now = () => performance.timeOrigin + performance.now();

/** An HTTP request to an instance; resolves with the response (its body unread). */
function send(port, method, path, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, agent, headers: body === undefined ? headers : { "content-type": "application/json", ...headers } }, resolve);
    req.on("error", reject);
    req.end(body);
  });
}

async function readAll(res) {
  let text = "";
  res.setEncoding("utf8");
  for await (const piece of res) text += piece;
  return text;
}

/** The AI SDK client's body of a send: the whole conversation, the new message last. */
function chatBody(id) {
  const sent = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: `u-${id}`, text: "Go" });
  return JSON.stringify({ id, messages: toAiSdkMessages(sent.messages), trigger: "submit-message" });
}

/**
 * Reads an SSE response frame by frame into `conversation` (its frames, its text, the latency of
 * each text delta into `latencies` when given); `onFrame(frames)` may return "drop" to close the
 * connection there. Resolves "end" at the protocol's end, "drop" when dropped.
 */
function readFrames(res, conversation, latencies, onFrame) {
  return new Promise((resolve, reject) => {
    let buffer = "";
    res.setEncoding("utf8");
    res.on("data", (piece) => {
      buffer += piece;
      let end;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const event = buffer.slice(6, end);
        buffer = buffer.slice(end + 2);
        if (event === "[DONE]") return resolve("end");
        const frame = JSON.parse(event);
        conversation.frames++;
        if (frame.type === "text-delta") {
          conversation.text += frame.delta;
          if (latencies) latencies.push(now() - Number(frame.delta));
        }
        if (onFrame?.(conversation.frames) === "drop") {
          res.destroy();
          return resolve("drop");
        }
      }
    });
    res.on("end", () => resolve("end"));
    res.on("error", reject);
  });
}

/** Starts the two instances of `variant`; resolves with their processes and ports. */
async function startInstances(variant, pace, services) {
  const start = () =>
    new Promise((resolve, reject) => {
      const child = fork(WORKER, [], {
        execArgv: ["--expose-gc"],
        env: { ...process.env, BENCH_VARIANT: variant, BENCH_CHUNKS: String(CHUNKS), BENCH_PACE_MS: String(pace), REDIS_URL: services.redis.url, DATABASE_URL: services.postgres.connectionString },
      });
      child.once("message", (message) => resolve({ child, port: message.port }));
      child.once("exit", (code) => reject(new Error(`an instance exited (${code}) before it was ready`)));
    });
  return Promise.all([start(), start()]);
}

/** Sends `type` to an instance and resolves with its answer (`answer`, the same type unless given). */
function ask({ child }, type, answer = type) {
  return new Promise((resolve) => {
    const listener = (message) => {
      if (message.type !== answer) return;
      child.off("message", listener);
      resolve(message);
    };
    child.on("message", listener);
    child.send({ type });
  });
}

async function stopInstances(instances) {
  await Promise.all(instances.map(async (instance) => {
    const exited = new Promise((resolve) => instance.child.once("exit", resolve));
    await ask(instance, "close", "closed");
    await exited;
  }));
}

/** Redis INFO as numbers by field; `commandstats` as { command: calls }. */
async function redisInfo(client) {
  const text = await client.sendCommand(["INFO", "everything"]);
  const fields = {};
  const calls = {};
  for (const line of String(text).split("\r\n")) {
    const stat = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
    if (stat) calls[stat[1].toUpperCase()] = Number(stat[2]);
    else if (/^\w+:[\d.]+$/.test(line)) fields[line.split(":")[0]] = Number(line.split(":")[1]);
  }
  return { fields, calls };
}

const PG_STATS = ["xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted", "tup_updated", "tup_deleted"];
async function pgStats(client) {
  await client.query("select pg_stat_clear_snapshot()");
  const { rows } = await client.query(`select ${PG_STATS.join(", ")} from pg_stat_database where datname = current_database()`);
  return Object.fromEntries(PG_STATS.map((name) => [name, Number(rows[0][name])]));
}

/** The CPU ms of the Postgres server listening on `port`: its postmaster's process group, and the backends it reaped. */
function pgCpuMs(port) {
  const stats = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      stats.push({ pid, cmdline: readFileSync(`/proc/${pid}/cmdline`, "utf8"), stat: readFileSync(`/proc/${pid}/stat`, "utf8") });
    } catch {}
  }
  const postmaster = stats.find(({ cmdline }) => cmdline.includes(`\0-p\0${port}\0`));
  if (postmaster === undefined) return NaN;
  let ticks = 0;
  for (const { pid, stat } of stats) {
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[2] !== postmaster.pid) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
    // The backends that exited (pg.Pool closes idle ones) count in their postmaster's children's time.
    if (pid === postmaster.pid) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks * 10;
}

const delta = (after, before) => Object.fromEntries(Object.keys(after).map((key) => [key, after[key] - (before[key] ?? 0)]));

function percentiles(values) {
  const sorted = Float64Array.from(values).sort();
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { count: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1] };
}

/** One conversation's client: sends on `home`, reads its reply there; a resumed one reconnects on `away`, a stopped one stops there. */
async function converse(i, ports, round, record) {
  const id = `${round}-${i}`;
  const role = record.roles ? roleOf(i) : "plain";
  const home = ports[i % 2];
  const away = ports[(i + 1) % 2];
  const conversation = { id, role, frames: 0, text: "", startedAt: now() };
  const latencies = role === "plain" && roleOf(i) === "plain" ? record.latencies : undefined;
  const res = await send(home, "POST", "/api/chat", {}, chatBody(id));
  record.firstByte.push(now() - conversation.startedAt);
  if (res.statusCode !== 200) throw new Error(`${id}: POST /api/chat answered ${res.statusCode}: ${await readAll(res)}`);
  const runId = res.headers["chat-run-id"];
  const onFrame = (frames) => {
    if (frames === OPEN_AT) record.open();
    if (frames !== CUT_AT) return;
    if (role === "resume") return "drop";
    if (role === "stop") {
      conversation.stoppedText = conversation.text;
      const asked = now();
      conversation.stopping = send(away, "POST", "/api/chat/stop", { "chat-run-id": runId, "chat-run-offset": String(frames) }, JSON.stringify({ id })).then(async (stopped) => {
        await readAll(stopped);
        if (stopped.statusCode !== 204) throw new Error(`${id}: stop answered ${stopped.statusCode}`);
        record.stops.push(now() - asked);
      }).catch((error) => record.failures.push(error.message));
    }
  };
  const how = await readFrames(res, conversation, latencies, onFrame);
  if (how === "drop") {
    const asked = now();
    const resumed = await send(away, "GET", `/api/chat/${id}/stream`, { "chat-run-id": runId, "chat-run-offset": String(conversation.frames) });
    if (resumed.statusCode !== 200) throw new Error(`${id}: resume answered ${resumed.statusCode}`);
    let first = true;
    await readFrames(resumed, conversation, undefined, () => void (first && (record.resumes.push(now() - asked), (first = false))));
  }
  await conversation.stopping;
  record.frames += conversation.frames;
  return conversation;
}

/** The conversation as the instance that did not run it reads it (from Postgres): its status and last reply's text. */
async function storedOf(port, id) {
  const res = await send(port, "GET", `/api/conversations/${id}`);
  const body = await readAll(res);
  if (res.statusCode !== 200) return { status: `${res.statusCode}`, text: "" };
  const { state } = JSON.parse(body);
  return { status: state.status, text: state.messages.at(-1).parts.map((part) => part.text ?? "").join("") };
}

/** How many stored conversations are the client's (the text it showed, idle), waited for up to 10 s in all after the runs. */
async function checkStored(conversations, ports) {
  const checked = { equal: 0, differing: [] };
  const deadline = Date.now() + 10_000;
  for (const [i, conversation] of conversations.entries()) {
    if (conversation === undefined) continue;
    const expected = conversation.stoppedText ?? conversation.text;
    let stored = await storedOf(ports[(i + 1) % 2], conversation.id);
    while (!(stored.status === "idle" && stored.text === expected) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await storedOf(ports[(i + 1) % 2], conversation.id);
    }
    if (stored.status === "idle" && stored.text === expected) checked.equal++;
    else checked.differing.push(`${conversation.id} (${conversation.role}) stored ${stored.status}, ${stored.text.length} characters where the client has ${expected.length}`);
  }
  return checked;
}

const mb = (bytes) => bytes / 1024 / 1024;

/** One variant in one phase: the instances started, warmed up, loaded, measured and stopped. */
async function runVariant(variant, phase, services) {
  const instances = await startInstances(variant, phase.pace, services);
  const ports = instances.map(({ port }) => port);
  const record = { latencies: [], firstByte: [], resumes: [], stops: [], failures: [], frames: 0, roles: variant === "server" && phase.roles, open: () => {} };
  await Promise.all(Array.from({ length: WARM_UP }, (_, i) => converse(i, ports, `warm-${phase.name}-${variant}`, { ...record, latencies: [], roles: false })));
  record.firstByte = [];
  record.frames = 0;
  const idle = await Promise.all(instances.map((instance) => ask(instance, "memory")));
  const redisBefore = await redisInfo(services.redisClient);
  await services.redisClient.sendCommand(["CONFIG", "RESETSTAT"]);
  const countsBefore = await Promise.all(instances.map((instance) => ask(instance, "counts")));
  const pgCpuBefore = pgCpuMs(services.pgPort);
  const pgBefore = await pgStats(services.pgClient);
  const load = [loadavg()[0]];
  let reached = 0;
  let openSample;
  record.open = () => {
    if (!phase.roles || ++reached !== CONVERSATIONS) return;
    openSample = Promise.all([Promise.all(instances.map((instance) => ask(instance, "memory"))), redisInfo(services.redisClient)]);
  };
  const cpuBefore = process.cpuUsage();
  const started = now();
  // A conversation not ended a minute after the paced replies would have is given up (counted as a failure).
  const giveUpMs = RAMP_MS + CHUNKS * phase.pace + 60_000;
  let giveUp;
  const givenUp = new Promise((resolve) => (giveUp = setTimeout(resolve, giveUpMs, "given up")));
  const conversations = await Promise.all(
    Array.from({ length: CONVERSATIONS }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (RAMP_MS * i) / CONVERSATIONS));
      const answered = converse(i, ports, `${phase.name}-${variant}`, record).catch((error) => error);
      const result = await Promise.race([answered, givenUp]);
      if (result instanceof Error || result === "given up") record.failures.push(result === "given up" ? `${i}: not ended within ${giveUpMs} ms` : result.message);
      return result instanceof Error || result === "given up" ? undefined : result;
    }),
  );
  clearTimeout(giveUp);
  const wallMs = now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  load.push(loadavg()[0]);
  const countsAfter = await Promise.all(instances.map((instance) => ask(instance, "counts")));
  const redisAfter = await redisInfo(services.redisClient);
  const pgCpu = pgCpuMs(services.pgPort) - pgCpuBefore;
  // After the counts: the check's reads are not the load's.
  const checked = variant === "server" ? await checkStored(conversations, ports) : undefined;
  const [openMemory, openRedis] = (await openSample) ?? [];
  await stopInstances(instances);
  const pg = delta(await pgStats(services.pgClient), pgBefore);
  const workers = countsAfter.map((after, n) => delta(after, countsBefore[n]));
  const sum = (key) => workers.reduce((total, counts) => total + counts[key], 0);
  const chunks = record.frames;
  return {
    variant,
    phase: phase.name,
    paceMs: phase.pace,
    conversations: CONVERSATIONS,
    chunks,
    wallMs,
    chunksPerSecond: (chunks * 1000) / wallMs,
    runsPerSecond: (CONVERSATIONS * 1000) / wallMs,
    loadAverage: load,
    latencyMs: percentiles(record.latencies),
    firstByteMs: percentiles(record.firstByte),
    resumeFirstFrameMs: record.resumes.length ? percentiles(record.resumes) : undefined,
    stopAnsweredMs: record.stops.length ? percentiles(record.stops) : undefined,
    storedChecked: checked,
    failures: { count: record.failures.length, first: record.failures.slice(0, 5) },
    cpuMsPerChunk: { instances: sum("cpuMs") / chunks, client: (cpu.user + cpu.system) / 1000 / chunks, redis: ((redisAfter.fields.used_cpu_sys + redisAfter.fields.used_cpu_user - redisBefore.fields.used_cpu_sys - redisBefore.fields.used_cpu_user) * 1000) / chunks, postgres: pgCpu / chunks },
    redisCallsPerChunk: Object.fromEntries(Object.entries(redisAfter.calls).filter(([command]) => !["INFO", "CONFIG"].includes(command)).map(([command, calls]) => [command, calls / chunks])),
    redisCalls: redisAfter.calls,
    postgres: { statements: sum("statements"), transactions: sum("transactions"), statementsPerChunk: sum("statements") / chunks, transactionsPerChunk: sum("transactions") / chunks, transactionsPerRun: sum("transactions") / CONVERSATIONS, pgStatDatabase: pg },
    errors: sum("errors"),
    memory: openMemory && {
      idle: idle.map(({ rss, heapUsed, external }) => ({ rssMb: mb(rss), heapMb: mb(heapUsed), externalMb: mb(external) })),
      open: openMemory.map(({ rss, heapUsed, external }) => ({ rssMb: mb(rss), heapMb: mb(heapUsed), externalMb: mb(external) })),
      perOpenRunKb: {
        heap: (openMemory.reduce((t, m, n) => t + m.heapUsed - idle[n].heapUsed, 0) / CONVERSATIONS / 1024),
        rss: (openMemory.reduce((t, m, n) => t + m.rss - idle[n].rss, 0) / CONVERSATIONS / 1024),
        external: (openMemory.reduce((t, m, n) => t + m.external - idle[n].external, 0) / CONVERSATIONS / 1024),
        redisUsedMemory: ((openRedis.fields.used_memory - redisBefore.fields.used_memory) / CONVERSATIONS / 1024),
      },
      redisClientsOpen: openRedis.fields.connected_clients,
    },
  };
}

function summary(result) {
  const f = (value, digits = 1) => (value === undefined || Number.isNaN(value) ? "" : value.toFixed(digits));
  return {
    phase: result.phase,
    variant: result.variant,
    "wall s": f(result.wallMs / 1000),
    "chunks/s": f(result.chunksPerSecond, 0),
    "runs/s": f(result.runsPerSecond),
    "p50 ms": f(result.latencyMs.p50),
    "p99 ms": f(result.latencyMs.p99),
    "1st byte p99": f(result.firstByteMs.p99),
    "cpu µs/chunk inst+redis+pg": `${f(result.cpuMsPerChunk.instances * 1000, 0)}+${f(result.cpuMsPerChunk.redis * 1000, 0)}+${f(result.cpuMsPerChunk.postgres * 1000, 0)}`,
    "redis/chunk": f(Object.values(result.redisCallsPerChunk).reduce((a, b) => a + b, 0), 2),
    "pg stmt/chunk": f(result.postgres.statementsPerChunk, 3),
    failed: result.failures.count + result.errors,
    "heap kB/open run": f(result.memory?.perOpenRunKb.heap),
    load: result.loadAverage.map((value) => value.toFixed(1)).join("→"),
  };
}

const redis = await startRedis();
const postgres = await startPostgres();
const redisClient = createClient({ url: redis.url });
await redisClient.connect();
const pgClient = new pg.Client({ connectionString: postgres.connectionString });
pgClient.on("error", (error) => console.error("bench's own Postgres connection:", error.message));
await pgClient.connect();
const services = { redis, postgres, redisClient, pgClient, pgPort: new URL(postgres.connectionString).port };
const machine = `${cpus()[0].model.trim()}, ${cpus().length} cores; Node ${process.version}; ${(await redisClient.sendCommand(["INFO", "server"])).match(/redis_version:(\S+)/)[1]} Redis; ${(await pgClient.query("show server_version")).rows[0].server_version} Postgres`;
console.log(`machine: ${machine}; load average ${loadavg().map((value) => value.toFixed(1)).join(" ")}`);
console.log(`${CONVERSATIONS} conversations at once (started over ${RAMP_MS} ms) across two instances, ${CHUNKS} chunks a reply; paced: a chunk every ${PACE_MS} ms, ${RESUME_SHARE * 100} % resumed and ${STOP_SHARE * 100} % stopped on the other instance at frame ${CUT_AT}`);

const PHASES = [
  { name: "saturated", pace: 0, roles: false },
  { name: "paced", pace: PACE_MS, roles: true },
].filter(({ name }) => (process.env.BENCH_PHASES ?? "saturated,paced").split(",").includes(name));
const results = [];
try {
  for (const phase of PHASES) {
    for (const variant of ["pass", "server"]) {
      const result = await runVariant(variant, phase, services);
      results.push(result);
      console.log(JSON.stringify(summary(result)));
    }
  }
} finally {
  agent.destroy();
  await redisClient.quit().catch(() => {});
  await pgClient.end().catch(() => {});
  await redis.stop();
  await postgres.stop();
}
console.table(results.map(summary));
for (const result of results.filter(({ variant }) => variant === "server")) {
  const base = results.find(({ variant, phase }) => variant === "pass" && phase === result.phase);
  console.log(`${result.phase}: the server adds ${(result.latencyMs.p50 - base.latencyMs.p50).toFixed(1)} ms at p50 and ${(result.latencyMs.p99 - base.latencyMs.p99).toFixed(1)} ms at p99 a chunk; Redis calls a chunk ${JSON.stringify(Object.fromEntries(Object.entries(result.redisCallsPerChunk).map(([command, calls]) => [command, Number(calls.toFixed(3))])))}`);
  const ms = (stats) => (stats ? `p50 ${stats.p50.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms (${stats.count})` : "none");
  if (result.phase === "paced") console.log(`  resumed on the other instance, its first frame: ${ms(result.resumeFirstFrameMs)}; a stop there answered: ${ms(result.stopAnsweredMs)}`);
  console.log(`  stored equal to the client's: ${result.storedChecked.equal}, differing ${result.storedChecked.differing.length} ${result.storedChecked.differing.slice(0, 3).join("; ")}; failed requests ${result.failures.count} ${result.failures.first.join("; ")}; instance errors ${result.errors}; memory a run open: ${JSON.stringify(result.memory?.perOpenRunKb)} kB`);
}
const date = new Date().toISOString().slice(0, 10);
const out = fileURLToPath(new URL(`./results/server-instances-${date}.json`, import.meta.url));
mkdirSync(fileURLToPath(new URL("./results/", import.meta.url)), { recursive: true });
writeFileSync(out, `${JSON.stringify({ date, machine, settings: { CONVERSATIONS, CHUNKS, PACE_MS, RAMP_MS, RESUME_SHARE, STOP_SHARE, CUT_AT }, results }, null, 2)}\n`);
console.log(`written: ${out}`);
