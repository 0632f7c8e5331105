// `npm run bench:server`: what chat-session-reducer/server adds per chunk (its fold into the stored
// state, its run log, its throttled saves) against the same AI SDK chunks written to a Response
// body without it, and against the same stream written so and folded by the AI SDK's own
// readUIMessageStream (a tee, as an app persisting its replies does). Shapes: one run of 20,000
// text deltas; 1,000 conversations of 100 deltas started together in one process; and, the
// server against the plain pass-through only (the peers build the reply alone, whatever came
// before it), 100 such conversations each into a stored history of 200 turns.
// Every side's client reads the response body to its end; the server's stored reply and
// readUIMessageStream's last message are checked outside the timed region. It prints figures and
// asserts no time. BENCH_RUNS (default 3) sets the timed runs after one warm-up.
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { createUIMessageStreamResponse, readUIMessageStream } from "ai";
import { median } from "./median.mjs";
import { modelStream, passThrough } from "./server-parts.mjs";

const PKG = fileURLToPath(new URL("../pkg/", import.meta.url));
if (!existsSync(`${PKG}server/index.js`)) {
  console.error(`${PKG} has no server subpath: run npm run build first.`);
  process.exit(1);
}
if (typeof globalThis.gc !== "function") {
  console.error("run with node --expose-gc (npm run bench:server does)");
  process.exit(1);
}
const { createChatServer } = await import(`${PKG}server/index.js`);
const { toAiSdkMessages } = await import(`${PKG}ai-sdk/index.js`);
const { sessionReducer } = await import(`${PKG}index.js`);
const { memoryStore } = await import("../tests/server/helpers.mjs");

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SHAPES = [
  { name: "1 run x 20,000 deltas", conversations: 1, deltas: 20_000, turns: 0, peers: true },
  { name: "1,000 runs x 100 deltas", conversations: 1_000, deltas: 100, turns: 0, peers: true },
  { name: "100 runs x 100 deltas, 200 turns before", conversations: 100, deltas: 100, turns: 200, peers: false },
];

/** A stored conversation of `turns` finished turns (a question, an answer of about 400 characters). */
function historyOf(turns) {
  const messages = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ id: `h${turn}u`, role: "user", parts: [{ type: "text", text: `Question ${turn}: `.padEnd(60, "q") }] });
    messages.push({ id: `h${turn}a`, role: "assistant", parts: [{ type: "text", text: `Answer ${turn}: `.padEnd(400, "a") }] });
  }
  return { messages, status: "idle" };
}

/** One reply's UI message chunks: start, a text of `deltas` deltas of 4 characters, finish. */
function chunksOf(deltas, reply) {
  const words = Array.from({ length: deltas }, (_, i) => `w${i % 97} `.padEnd(4, " ").slice(0, 4));
  return {
    text: words.join(""),
    chunks: [
      { type: "start", messageId: reply },
      { type: "text-start", id: "t" },
      ...words.map((delta) => ({ type: "text-delta", id: "t", delta })),
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: "stop" },
    ],
  };
}

/** The client side of every variant: the response body read to its end. */
async function drain(response) {
  const reader = response.body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

/** A store that keeps nothing: what the server costs without a database. `load` gives `history` for any conversation. */
const noopStore = (history) => ({
  async load(owner, id) {
    return history === undefined ? undefined : { id, owner, state: history, title: "", status: history.status, updatedAt: new Date(0).toISOString() };
  },
  async save() {},
  async list() {
    return [];
  },
  async delete() {
    return false;
  },
  async streaming() {
    return [];
  },
  async close() {},
});

/** The tests' memory store (JSON text in and out), `history` stored first for every conversation. */
async function seededMemoryStore(history, ids) {
  const store = memoryStore();
  if (history !== undefined) for (const id of ids) await store.save("owner", id, history);
  return store;
}

/** Counts a store's saves. */
function counted(store) {
  const counting = Object.create(store);
  counting.saves = 0;
  counting.save = (...args) => (counting.saves++, store.save(...args));
  return counting;
}

/** The AI SDK client's body of a send: the whole conversation, the new message last. */
function chatRequest(id, history) {
  const sent = sessionReducer(history ?? { messages: [], status: "idle" }, { type: "send", id: `u-${id}`, text: "Go" });
  return new Request("http://app.test/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, messages: toAiSdkMessages(sent.messages), trigger: "submit-message" }),
  });
}

/**
 * The variants. Each `prepare(replies, history)` gives `{ run(), check() }`: run() answers every
 * conversation at once and resolves when every client has read its body (and, for the server,
 * its last save is written); check() (untimed) says the fold built the right reply.
 */
const VARIANTS = [
  {
    name: "plain pass-through",
    prepare: (replies) => ({
      run: () => Promise.all(replies.map(({ chunks }) => drain(passThrough(modelStream(chunks))))),
      check: () => {},
    }),
  },
  {
    name: "ai createUIMessageStreamResponse",
    peer: true,
    prepare: (replies) => ({
      run: () => Promise.all(replies.map(({ chunks }) => drain(createUIMessageStreamResponse({ stream: modelStream(chunks) })))),
      check: () => {},
    }),
  },
  {
    name: "plain + ai readUIMessageStream (tee)",
    peer: true,
    prepare: (replies) => {
      const last = [];
      return {
        run: () =>
          Promise.all(
            replies.map(async ({ chunks }, i) => {
              const [toClient, toFold] = modelStream(chunks).tee();
              const fold = (async () => {
                for await (const message of readUIMessageStream({ stream: toFold })) last[i] = message;
              })();
              await Promise.all([drain(passThrough(toClient)), fold]);
            }),
          ),
        check: () => replies.forEach(({ text }, i) => expectText(last[i].parts.map((part) => part.text ?? "").join(""), text)),
      };
    },
  },
  ...[
    ["server, no-op store", async (history) => noopStore(history)],
    ["server, tests' memory store", seededMemoryStore],
  ].map(([name, makeStore]) => ({
    name,
    prepare: async (replies, history) => {
      const store = counted(await makeStore(history, replies.map(({ id }) => id)));
      const byId = new Map(replies.map((reply) => [reply.id, reply]));
      const server = createChatServer({
        protocol: "ai-sdk",
        store,
        authorize: () => "owner",
        onError: (error) => {
          throw error;
        },
        run: ({ id }) => modelStream(byId.get(id).chunks),
      });
      return {
        server,
        store,
        run: async () => {
          await Promise.all(replies.map(async ({ id }) => drain(await server.fetch(chatRequest(id, history)))));
          await server.idle();
        },
        // The conversation as the server answers its thread list's read (the store's when it keeps one).
        check: async () => {
          for (const { id, text } of replies) {
            const { state } = await (await server.fetch(new Request(`http://app.test/api/conversations/${id}`))).json();
            expectText(state.messages.at(-1).parts.map((part) => part.text ?? "").join(""), text);
            if (state.status !== "idle") throw new Error(`${id} stored ${state.status}`);
          }
        },
      };
    },
  })),
];

function expectText(actual, expected) {
  if (actual !== expected) throw new Error(`a fold built a different reply (${actual.length} characters, ${expected.length} expected)`);
}

const mb = (bytes) => bytes / 1024 / 1024;

/** One timed run of `variant` on `shape`: wall and CPU ms, the heap's peak (sampled) and what stays after a collection. */
async function measure(variant, shape, round) {
  const replies = Array.from({ length: shape.conversations }, (_, i) => ({ id: `c${round}-${i}`, ...chunksOf(shape.deltas, `a${round}-${i}`) }));
  const prepared = await variant.prepare(replies, shape.turns > 0 ? historyOf(shape.turns) : undefined);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = heapBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await prepared.run();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  gc();
  // What the variant still holds while its server (and so its run log) is alive.
  const kept = process.memoryUsage().heapUsed - heapBefore;
  await prepared.check();
  const saves = prepared.store?.saves;
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, peakMb: mb(peak - heapBefore), keptMb: mb(kept), saves };
}

console.log(`machine: ${cpus()[0].model.trim()}, ${cpus().length} cores; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
console.log(`${RUNS} timed runs after 1 warm-up per variant and shape, medians; the chunks of a reply are start, text-start, the deltas, text-end, finish.`);
const rows = [];
for (const shape of SHAPES) {
  const chunks = shape.conversations * (shape.deltas + 4);
  const variants = VARIANTS.filter((variant) => shape.peers || !variant.peer);
  const results = new Map(variants.map((variant) => [variant, []]));
  // Rounds alternate the variants, so a slow spell of the machine falls on all of them.
  for (let round = 0; round <= RUNS; round++) {
    for (const variant of variants) {
      const result = await measure(variant, shape, round);
      if (round > 0) results.get(variant).push(result);
    }
  }
  const base = results.get(VARIANTS[0]);
  const baseMs = median(base.map((r) => r.ms));
  const baseCpu = median(base.map((r) => r.cpuMs));
  for (const variant of variants) {
    const list = results.get(variant);
    const ms = median(list.map((r) => r.ms));
    const cpuMs = median(list.map((r) => r.cpuMs));
    const perChunk = (value) => ((value * 1000) / chunks).toFixed(1);
    rows.push({
      shape: shape.name,
      variant: variant.name,
      ms: ms.toFixed(0),
      "µs/chunk": perChunk(ms),
      "+µs/chunk": perChunk(ms - baseMs),
      "cpu ms": cpuMs.toFixed(0),
      "cpu µs/chunk": perChunk(cpuMs),
      "+cpu µs/chunk": perChunk(cpuMs - baseCpu),
      "heap peak MB": median(list.map((r) => r.peakMb)).toFixed(1),
      "kept MB": median(list.map((r) => r.keptMb)).toFixed(1),
      saves: list[0].saves ?? "",
    });
  }
}
console.table(rows);
console.log("ms: wall time, all conversations; +: over the plain pass-through; heap peak: sampled every 2 ms over the heap before;");
console.log("kept: after a full collection while the server (its run log keeps an ended run 10 minutes) is alive; saves: the store's, all conversations.");
