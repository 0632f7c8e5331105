// chat-session-reducer/testing: the scripted endpoint answers in each protocol as a real server
// does (framing, headers, HTTP errors, dropped connections, aborts, pauses), what it answers reads
// back through the package's own readers and translators into the expected conversation, and
// recordResponse turns a response back into the script that made it.
import assert from "node:assert/strict";
import { mock, test } from "node:test";
import { agUi, aiSdk, chatStream, collect, core } from "./package.mjs";

const testing = await import(new URL("../../pkg/testing/index.js", import.meta.url).href);
const { drop, liveReply, mockEndpoint, raw, recordResponse, wait } = testing;

const textOf = (state) => state.messages.at(-1).parts.map((part) => part.text).join("");

// A reply saying "Hello, world" in each protocol, and how each is read and translated.
const hello = {
  actions: [
    { type: "part", part: { type: "message-start", messageId: "a1" } },
    { type: "part", part: { type: "text-delta", text: "Hello, " } },
    { type: "part", part: { type: "text-delta", text: "world" } },
    { type: "part", part: { type: "finish" } },
  ],
  "ai-sdk": [
    { type: "start", messageId: "a1" },
    { type: "text-start", id: "t1" },
    { type: "text-delta", id: "t1", delta: "Hello, " },
    { type: "text-delta", id: "t1", delta: "world" },
    { type: "text-end", id: "t1" },
    { type: "finish" },
  ],
  "ag-ui": [
    { type: "RUN_STARTED", threadId: "th", runId: "r1" },
    { type: "TEXT_MESSAGE_START", messageId: "a1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "a1", delta: "Hello, " },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "a1", delta: "world" },
    { type: "TEXT_MESSAGE_END", messageId: "a1" },
    { type: "RUN_FINISHED", threadId: "th", runId: "r1" },
  ],
  "chat-stream": [
    { type: "start", id: "a1", runId: "r1", sessionId: "s", sessionFile: "f" },
    { type: "delta", text: "Hello, " },
    { type: "delta", text: "world" },
    { type: "done", message: { id: "a1", role: "assistant", parts: [] } },
  ],
};

const protocols = {
  actions: { read: chatStream.readNdjson, translator: () => (frame) => [frame] },
  "ai-sdk": { read: aiSdk.readAiSdkStream, translator: () => (chunk) => aiSdk.fromAiSdkChunk(chunk) },
  "ag-ui": { read: agUi.readAgUiStream, translator: agUi.createAgUiTranslator },
  "chat-stream": { read: chatStream.readNdjson, translator: chatStream.createChatStreamTranslator },
};

// What a page shows after the response: the user's message, then the reply read and applied.
async function conversationAfter(protocol, response) {
  const { read, translator } = protocols[protocol];
  const translate = translator();
  let state = core.sessionReducer(undefined, { type: "send", id: "u1", text: "Hi" });
  for await (const frame of read(response)) state = core.sessionReducer(state, { type: "batch", actions: translate(frame) });
  return state;
}

for (const protocol of Object.keys(hello)) {
  test(`${protocol}: a scripted reply reads back, through the package's reader and translator, as the conversation it scripts`, async () => {
    const endpoint = mockEndpoint(protocol, [hello[protocol]]);
    const response = await endpoint.fetch("https://agent.test/chat", { method: "POST", body: JSON.stringify({ messages: [] }) });
    assert.equal(response.status, 200);
    const state = await conversationAfter(protocol, response);
    assert.equal(state.status, "idle");
    assert.equal(textOf(state), "Hello, world");
  });

  test(`${protocol}: recordResponse gives back the script that made the response`, async () => {
    const script = [...hello[protocol].slice(0, 2), drop()];
    const endpoint = mockEndpoint(protocol, [hello[protocol], script]);
    assert.deepEqual(await recordResponse(await endpoint.api({}, new AbortController().signal), protocol), hello[protocol]);
    assert.deepEqual(await recordResponse(await endpoint.api({}, new AbortController().signal), protocol), script);
  });
}

test("ai-sdk: the response has the AI SDK's stream headers and ends with [DONE]", async () => {
  const endpoint = mockEndpoint("ai-sdk", [[{ type: "start" }]]);
  const response = await endpoint.fetch("/api/chat");
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  assert.equal(response.headers.get("x-vercel-ai-ui-message-stream"), "v1");
  assert.equal(await response.text(), 'data: {"type":"start"}\n\ndata: [DONE]\n\n');
});

test("each frame arrives as a chunk of its own, and raw text unframed", async () => {
  const endpoint = mockEndpoint("actions", [[{ type: "part", part: { type: "finish" } }, raw('{"type":'), raw('"part"}\n')]]);
  const chunks = await collect((await endpoint.fetch("/x")).body);
  assert.deepEqual(chunks.map((chunk) => new TextDecoder().decode(chunk)), ['{"type":"part","part":{"type":"finish"}}\n', '{"type":', '"part"}\n']);
});

test("requests are recorded in order, with their JSON bodies parsed, headers and signal", async () => {
  const endpoint = mockEndpoint("actions", [[], []]);
  const controller = new AbortController();
  await endpoint.fetch(new URL("https://agent.test/chat"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ id: "chat-1" }),
    signal: controller.signal,
  });
  await endpoint.api({ messages: [1] }, controller.signal);
  assert.deepEqual(
    endpoint.requests.map(({ url, method, headers, body }) => ({ url, method, headers, body })),
    [
      { url: "https://agent.test/chat", method: "POST", headers: { "content-type": "application/json" }, body: { id: "chat-1" } },
      { url: "", method: "POST", headers: {}, body: { messages: [1] } },
    ],
  );
  assert.equal(endpoint.requests[0].signal, controller.signal);
});

test("an HTTP reply answers with its status and body, and is recorded as such", async () => {
  const endpoint = mockEndpoint("ai-sdk", [{ status: 500, body: { error: "boom" } }, { status: 429, body: "slow down" }]);
  const first = await endpoint.fetch("/api/chat");
  assert.equal(first.status, 500);
  assert.deepEqual(await recordResponse(first, "ai-sdk"), { status: 500, body: { error: "boom" } });
  const second = await endpoint.fetch("/api/chat");
  assert.equal(second.headers.get("content-type"), "text/plain");
  assert.equal(await second.text(), "slow down");
});

test("a dropped connection delivers what was sent before it, then fails as fetch fails", async () => {
  const endpoint = mockEndpoint("chat-stream", [[...hello["chat-stream"].slice(0, 2), drop()]]);
  const frames = [];
  await assert.rejects(
    async () => {
      for await (const frame of chatStream.readNdjson(await endpoint.fetch("/x"))) frames.push(frame);
    },
    (error) => error instanceof TypeError && error.message === "network error",
  );
  assert.deepEqual(frames, hello["chat-stream"].slice(0, 2));
});

test("an abort errors the body with the signal's reason; an aborted signal rejects the request", async () => {
  const reply = liveReply();
  const endpoint = mockEndpoint("actions", [reply, []]);
  const controller = new AbortController();
  const response = await endpoint.api({}, controller.signal);
  const reader = response.body.getReader();
  reply.write({ type: "part", part: { type: "message-start", messageId: "a1" } });
  assert.equal((await reader.read()).done, false);
  const pending = reader.read();
  controller.abort();
  await assert.rejects(pending, { name: "AbortError" });
  await assert.rejects(endpoint.api({}, controller.signal), { name: "AbortError" });
});

test("a live reply streams what the test writes, including frames written before the request", async () => {
  const reply = liveReply();
  reply.write(hello.actions[0]);
  const endpoint = mockEndpoint("actions", [reply]);
  const response = await endpoint.fetch("/x");
  const reading = conversationAfter("actions", response);
  for (const frame of hello.actions.slice(1)) reply.write(frame);
  reply.end();
  assert.equal(textOf(await reading), "Hello, world");
  assert.throws(() => reply.write(hello.actions[0]), /already ended/);
});

test("waits and the delay between frames are timers, so fake timers drive them", async (t) => {
  mock.timers.enable({ apis: ["setTimeout"] });
  t.after(() => mock.timers.reset());
  const endpoint = mockEndpoint("actions", [[hello.actions[0], wait(1000), hello.actions[1], hello.actions[2]]], { delay: 50 });
  const reader = (await endpoint.fetch("/x")).body.getReader();
  await reader.read();
  let second = false;
  const next = reader.read().then((result) => (second = !result.done));
  const flush = () => new Promise(setImmediate);
  await flush();
  mock.timers.tick(999);
  await flush();
  assert.equal(second, false, "the frame after wait(1000) came early");
  mock.timers.tick(1);
  await flush();
  mock.timers.tick(49);
  await flush();
  assert.equal(second, false, "the frame came before the 50 ms delay");
  mock.timers.tick(1);
  await next;
  assert.equal(second, true);
});

test("a function reply is made from the request", async () => {
  const endpoint = mockEndpoint("actions", [(request) => [{ type: "part", part: { type: "text-delta", text: request.body.question } }]]);
  const frames = await collect(chatStream.readNdjson(await endpoint.api({ question: "why?" }, new AbortController().signal)));
  assert.deepEqual(frames, [{ type: "part", part: { type: "text-delta", text: "why?" } }]);
});

test("replies may be one function, called for every request with its index", async () => {
  const endpoint = mockEndpoint("actions", (request, index) => (index === 0 ? [] : { status: 503, body: { error: request.body.why } }));
  assert.equal((await endpoint.api({}, new AbortController().signal)).status, 200);
  const refused = await endpoint.api({ why: "busy" }, new AbortController().signal);
  assert.deepEqual([refused.status, await refused.json()], [503, { error: "busy" }]);
});

test("a request past the script rejects, saying so", async () => {
  const endpoint = mockEndpoint("actions", [[]]);
  await endpoint.fetch("/x");
  await assert.rejects(endpoint.fetch("/x"), /request 2 has no scripted reply \(the script has 1\)/);
});

test("a malformed script or protocol is a TypeError naming what is wrong", () => {
  assert.throws(() => mockEndpoint("sse", []), { code: "invalid", path: "protocol" });
  assert.throws(() => mockEndpoint("actions", [[{ type: "part" }, { pause: 5 }]]), { code: "invalid", path: "replies[0][1]" });
  assert.throws(() => mockEndpoint("actions", ["hello"]), { code: "invalid", path: "replies[0]" });
  assert.throws(() => mockEndpoint("actions", [[wait(-1)]]), { code: "invalid", path: "replies[0][0]" });
});

test("recordResponse with timing keeps the pauses between frames as waits", async () => {
  const reply = liveReply();
  const endpoint = mockEndpoint("actions", [reply]);
  const recording = recordResponse(await endpoint.fetch("/x"), "actions", { timing: true });
  reply.write(hello.actions[0]);
  await new Promise((resolve) => setTimeout(resolve, 30));
  reply.write(hello.actions[1]);
  reply.end();
  const steps = await recording;
  assert.equal(steps.length, 3);
  assert.ok(steps[1].wait >= 20, `expected a wait of about 30 ms, got ${JSON.stringify(steps[1])}`);
  assert.deepEqual([steps[0], steps[2]], hello.actions.slice(0, 2));
});
