// `npm run bench:adapters`: a 20,000-delta reply through each adapter and the reducer, against
// the same reply through the peer library's own client code, and what translating alone costs.
// It prints figures; it asserts no time. BENCH_RUNS (default 7) sets the timed runs.
//
//   AI SDK   chunk objects -> fromAiSdkChunk + sessionReducer, against ai's readUIMessageStream
//   AG-UI    SSE bytes -> readAgUiStream + translator + sessionReducer, against @ag-ui/client's
//            HttpAgent over the same bytes (its parser and defaultApplyEvents)
//   chat     NDJSON bytes -> readNdjson + translator + sessionReducer (its client is not
//            published, so there is no peer to run)
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { readUIMessageStream } from "ai";
import { HttpAgent } from "@ag-ui/client";
import { EventEncoder } from "@ag-ui/encoder";

const PKG = fileURLToPath(new URL("../pkg/", import.meta.url));
if (!existsSync(`${PKG}ai-sdk/index.js`)) {
  console.error(`${PKG} has no adapters: run npm run build first.`);
  process.exit(1);
}
const { checkAction, sessionReducer } = await import(`${PKG}index.js`);
const { fromAiSdkChunk } = await import(`${PKG}ai-sdk/index.js`);
const { createAgUiTranslator, readAgUiStream } = await import(`${PKG}ag-ui/index.js`);
const { createChatStreamTranslator, readNdjson } = await import(`${PKG}chat-stream/index.js`);

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const WARM_UP_RUNS = 1;
const DELTAS = 20_000;
const words = Array.from({ length: DELTAS }, (_, i) => `w${i % 97} `);
const expectedText = words.join("");

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const sent = () => sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u1", text: "Go" });
const apply = (state, actions) => actions.reduce(sessionReducer, state);
// SPEC v2's batch: what an app dispatches once per animation frame (here, per 100 items).
let hasBatch = true;
try {
  checkAction({ type: "batch", actions: [] });
} catch {
  hasBatch = false;
}
function applyPerFrame(state, perItem) {
  for (let i = 0; i < perItem.length; i += 100) state = sessionReducer(state, { type: "batch", actions: perItem.slice(i, i + 100).flat() });
  return state;
}
const replyText = (state) => state.messages.at(-1).parts.map((part) => part.text).join("");

// Median milliseconds of `run`; `textOf` (untimed) gives the reply its result holds.
async function time(run, textOf = (text) => text) {
  const times = [];
  for (let i = 0; i < WARM_UP_RUNS + RUNS; i++) {
    globalThis.gc?.();
    const start = performance.now();
    const result = await run();
    const elapsed = performance.now() - start;
    const text = textOf(result);
    if (text !== expectedText) throw new Error(`a run built a different reply (${text.length} characters)`);
    if (i >= WARM_UP_RUNS) times.push(elapsed);
  }
  return median(times);
}
const objectStream = (items) => new ReadableStream({ start(c) { for (const item of items) c.enqueue(item); c.close(); } });
async function* bytesOf(text) {
  // As a network delivers it: pieces of 16 KB.
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += 16_384) yield bytes.subarray(i, i + 16_384);
}

// Each protocol: the reply as it arrives (chunk objects or bytes), how to read it into protocol
// objects, how to make a translator, and the peer library's client code.
const aiSdkChunks = [
  { type: "start", messageId: "a1" },
  { type: "text-start", id: "t" },
  ...words.map((delta) => ({ type: "text-delta", id: "t", delta })),
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: "stop" },
];
const encoder = new EventEncoder();
const agUiSse = [
  { type: "RUN_STARTED", threadId: "t", runId: "r" },
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
  ...words.map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta })),
  { type: "TEXT_MESSAGE_END", messageId: "m1" },
  { type: "RUN_FINISHED", threadId: "t", runId: "r" },
].map((event) => encoder.encodeSSE(event)).join("");
const chatNdjson = [
  { type: "start", id: "a1", runId: "r", sessionId: "s" },
  ...words.map((text) => ({ type: "delta", text })),
  { type: "done", runId: "r", sessionId: "s", message: { id: "a1", role: "assistant", parts: [] } },
].map((frame) => JSON.stringify(frame)).join("\n");

const protocols = [
  {
    name: "AI SDK 7 (chunk objects)",
    read: async () => aiSdkChunks,
    translator: () => (chunk) => fromAiSdkChunk(chunk),
    peer: async () => {
      let last;
      for await (const message of readUIMessageStream({ stream: objectStream(aiSdkChunks) })) last = message;
      return last.parts.map((part) => part.text).join("");
    },
  },
  {
    name: "AG-UI 1.0 (SSE bytes)",
    read: () => collect(readAgUiStream(bytesOf(agUiSse))),
    translator: createAgUiTranslator,
    peer: async () => {
      const fetch = async () => new Response(ReadableStream.from(bytesOf(agUiSse)), { headers: { "content-type": "text/event-stream" } });
      const agent = new HttpAgent({ url: "http://agent.test/", fetch });
      await agent.runAgent();
      return agent.messages.find((message) => message.id === "m1").content;
    },
  },
  {
    name: "chat-stream (NDJSON bytes)",
    read: () => collect(readNdjson(bytesOf(chatNdjson))),
    translator: createChatStreamTranslator,
  },
];

async function collect(iterable) {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
}
const textOf = (batches) => batches.flat().map(({ part }) => (part.type === "text-delta" ? part.text : "")).join("");

async function measure({ read, translator, peer }) {
  const items = await read();
  const translated = items.map(translator());
  return {
    read: await time(async () => (await read()).map(translator()), textOf),
    translate: await time(() => items.map(translator()), textOf),
    apply: await time(() => translated.reduce(apply, sent()), replyText),
    perFrame: hasBatch ? await time(() => applyPerFrame(sent(), translated), replyText) : undefined,
    total: await time(async () => (await read()).map(translator()).reduce(apply, sent()), replyText),
    peer: peer ? await time(peer) : undefined,
  };
}

const ms = (value) => (value === undefined ? "-" : `${value.toFixed(1)} ms`);
const widths = [28, 11, 11, 15, 16, 12, 14];
const row = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join("  ").trimEnd();
console.log(`chat-session-reducer adapters benchmark, ${new Date().toISOString().slice(0, 10)}`);
console.log(`machine: ${cpus()[0].model.trim()}, ${cpus().length} cores; Node ${process.version}; ${RUNS} runs after ${WARM_UP_RUNS} warm-up, medians`);
console.log(`a ${DELTAS.toLocaleString("en")}-delta reply (${expectedText.length.toLocaleString("en")} characters)`);
console.log();
console.log(row(["protocol", "translate", "reducer", "reducer, batch", "read+translate", "end to end", "peer library"]));
for (const protocol of protocols) {
  const figures = await measure(protocol);
  console.log(row([protocol.name, ms(figures.translate), ms(figures.apply), ms(figures.perFrame), ms(figures.read), ms(figures.total), ms(figures.peer)]));
}
console.log();
console.log("translate: protocol objects to actions; reducer: applying those actions one by one; reducer, batch:");
console.log("one batch action per 100 items (an app dispatching once per animation frame), when the reducer has batch;");
console.log("read+translate: from what arrives (bytes: the SSE or NDJSON reader) to actions; end to end: to the state.");
