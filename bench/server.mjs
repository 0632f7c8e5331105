// `npm run bench:server`: what chat-session-reducer/server adds per chunk (its fold into the stored
// state, its run log, its throttled saves) against the same AI SDK chunks written to a Response
// body without it, and against the same stream written so and folded by the AI SDK's own
// readUIMessageStream (a tee, as an app persisting its replies does). Two shapes: one run of
// 20,000 text deltas, and 1,000 conversations of 100 deltas started together in one process.
// Every side's client reads the response body to its end; the server's stored reply and
// readUIMessageStream's last message are checked outside the timed region. It prints figures and
// asserts no time. BENCH_RUNS (default 3) sets the timed runs after one warm-up.
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { createUIMessageStreamResponse, readUIMessageStream } from "ai";
import { median } from "./median.mjs";

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
const { memoryStore } = await import("../tests/server/helpers.mjs");

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SHAPES = [
  { name: "1 run x 20,000 deltas", conversations: 1, deltas: 20_000 },
  { name: "1,000 runs x 100 deltas", conversations: 1_000, deltas: 100 },
];

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

/** The model's stream as streamText(...).toUIMessageStream() hands it over: a ReadableStream of chunk objects. */
const modelStream = (chunks) => {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
};

/** The plain pass-through: each chunk of `stream` written to a Response body as the AI SDK's SSE bytes, one read per write. */
function passThrough(stream) {
  const encoder = new TextEncoder();
  const reader = stream.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      } else controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
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

const noopStore = () => ({
  saves: 0,
  async load() {
    return undefined;
  },
  async save() {
    this.saves++;
  },
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

const userMessage = (id) => ({ id: `u-${id}`, role: "user", parts: [{ type: "text", text: "Go" }] });
const chatRequest = (id) =>
  new Request("http://app.test/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, messages: [userMessage(id)], trigger: "submit-message" }),
  });

/**
 * The variants. Each `prepare(replies)` gives `{ run(), check() }`: run() answers every
 * conversation at once and resolves when every client has read its body (and, for the server,
 * its last save is written); check() (untimed) says the fold built the right reply.
 */
const VARIANTS = [
  {
    name: "plain pass-through (no fold)",
    prepare: (replies) => ({
      run: () => Promise.all(replies.map(({ chunks }) => drain(passThrough(modelStream(chunks))))),
      check: () => {},
    }),
  },
  {
    name: "ai createUIMessageStreamResponse (no fold)",
    prepare: (replies) => ({
      run: () => Promise.all(replies.map(({ chunks }) => drain(createUIMessageStreamResponse({ stream: modelStream(chunks) })))),
      check: () => {},
    }),
  },
  {
    name: "plain pass-through + ai readUIMessageStream (tee)",
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
    ["chat-session-reducer/server, no-op store", noopStore],
    ["chat-session-reducer/server, tests' memory store", memoryStore],
  ].map(([name, makeStore]) => ({
    name,
    prepare: (replies) => {
      const store = makeStore();
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
          await Promise.all(replies.map(async ({ id }) => drain(await server.fetch(chatRequest(id)))));
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
  const prepared = variant.prepare(replies);
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
  const results = new Map(VARIANTS.map((variant) => [variant, []]));
  // Rounds alternate the variants, so a slow spell of the machine falls on all of them.
  for (let round = 0; round <= RUNS; round++) {
    for (const variant of VARIANTS) {
      const result = await measure(variant, shape, round);
      if (round > 0) results.get(variant).push(result);
    }
  }
  const base = median(results.get(VARIANTS[0]).map((r) => r.ms));
  for (const variant of VARIANTS) {
    const list = results.get(variant);
    const ms = median(list.map((r) => r.ms));
    rows.push({
      shape: shape.name,
      variant: variant.name,
      "ms total": ms.toFixed(1),
      "cpu ms": median(list.map((r) => r.cpuMs)).toFixed(0),
      "µs / chunk": ((ms * 1000) / chunks).toFixed(2),
      "µs / chunk over pass-through": (((ms - base) * 1000) / chunks).toFixed(2),
      "heap peak MB": median(list.map((r) => r.peakMb)).toFixed(1),
      "heap kept MB": median(list.map((r) => r.keptMb)).toFixed(1),
      saves: list[0].saves ?? "",
    });
  }
}
console.table(rows);
