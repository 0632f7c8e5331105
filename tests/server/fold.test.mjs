// The stored conversation is what the user saw: our own client (chat-session-reducer/session, with
// resume and stopApi) against chat-session-reducer/server, for each protocol and every ending of a
// run (finished, stopped by the user while the model goes on, the connection dropped and resumed,
// the model's stream failing, a question left waiting); the stored state equals the client's,
// byte for byte as JSON.
import { test } from "node:test";
import assert from "node:assert/strict";
import { INTERRUPTED, createChatServer } from "../../pkg/server/index.js";
import { createAgentSession } from "../../pkg/session/index.js";
import { dropAfter, memoryStore, routeFetch, scriptedRun, until } from "./helpers.mjs";

// Each protocol's frames for a reply "Hi there friend." and for a question the user must answer.
const SCRIPTS = {
  "ai-sdk": {
    opening: (reply) => [{ type: "start", messageId: reply }, { type: "text-start", id: "t" }],
    word: (reply, text) => ({ type: "text-delta", id: "t", delta: text }),
    closing: () => [{ type: "text-end", id: "t" }, { type: "finish", finishReason: "stop" }],
    question: () => [
      { type: "text-end", id: "t" },
      { type: "tool-input-available", toolCallId: "call-1", toolName: "book", input: { table: 4 } },
      { type: "tool-approval-request", approvalId: "ap-1", toolCallId: "call-1" },
      { type: "finish", finishReason: "tool-calls" },
    ],
  },
  "ag-ui": {
    opening: (reply) => [{ type: "RUN_STARTED", threadId: "c1", runId: "r1" }, { type: "TEXT_MESSAGE_START", messageId: reply, role: "assistant" }],
    word: (reply, text) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: reply, delta: text }),
    closing: (reply) => [{ type: "TEXT_MESSAGE_END", messageId: reply }, { type: "RUN_FINISHED", threadId: "c1", runId: "r1" }],
    question: (reply) => [
      { type: "TEXT_MESSAGE_END", messageId: reply },
      { type: "TOOL_CALL_START", toolCallId: "call-1", toolCallName: "pickDate", parentMessageId: reply },
      { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '{"month":"May"}' },
      { type: "TOOL_CALL_END", toolCallId: "call-1" },
      { type: "RUN_FINISHED", threadId: "c1", runId: "r1" },
    ],
  },
  actions: {
    opening: (reply) => [{ type: "part", part: { type: "message-start", messageId: reply } }],
    word: (reply, text) => ({ type: "part", part: { type: "text-delta", text } }),
    closing: () => [{ type: "part", part: { type: "finish", reason: "stop" } }],
    question: () => [
      { type: "part", part: { type: "tool-call", id: "call-1", name: "book", input: { table: 4 } } },
      { type: "part", part: { type: "tool-approval-request", id: "call-1", approvalId: "ap-1" } },
      { type: "part", part: { type: "finish", reason: "tool-calls" } },
    ],
  },
};
const WORDS = ["Hi ", "there ", "friend."];

/**
 * A server of `protocol` on a store in memory, fetch routed to it (the first `cutAfter` chunks of
 * the first chat response pass, then its connection drops), and our client on it.
 */
function setUp(protocol, { cutAfter } = {}) {
  const store = memoryStore();
  const models = [];
  const errors = [];
  const server = createChatServer({
    protocol,
    store,
    authorize: () => "owner-1",
    onError: (error) => errors.push(error),
    run: scriptedRun(models),
  });
  let cut = cutAfter;
  const undo = routeFetch(async (request) => {
    const response = await server.fetch(request);
    if (cut === undefined || request.method !== "POST" || new URL(request.url).pathname !== "/api/chat") return response;
    const after = cut;
    cut = undefined;
    return dropAfter(response, after);
  });
  const client = createAgentSession({ protocol, api: "/api/chat", stopApi: "/api/chat/stop", resume: true, throttle: 0, id: "c1" });
  const unsubscribe = client.subscribe(() => {});
  const stored = async () => (await store.load("owner-1", "c1"))?.state;
  const done = () => {
    unsubscribe();
    undo();
  };
  return { server, client, models, stored, errors, done };
}


/** The stored state, once the server is idle and its saves are written, as JSON. */
async function storedJson(setup) {
  await setup.server.idle();
  return JSON.stringify(await setup.stored());
}

const shown = (setup) => JSON.stringify(setup.client.getSnapshot().state);
const replyText = (setup) =>
  (setup.client.getSnapshot().state.messages[1]?.parts ?? [])
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");

for (const protocol of Object.keys(SCRIPTS)) {
  const script = SCRIPTS[protocol];

  test(`${protocol}: a finished run is stored as the client shows it`, async () => {
    const setup = setUp(protocol);
    setup.client.send("Hello");
    await until(() => setup.models.length === 1, "the run");
    for (const frame of script.opening("a1")) setup.models[0].push(frame);
    for (const word of WORDS) setup.models[0].push(script.word("a1", word));
    for (const frame of script.closing("a1")) setup.models[0].push(frame);
    setup.models[0].end();
    await until(() => setup.client.getSnapshot().status === "idle", "the end");
    assert.equal(replyText(setup), "Hi there friend.");
    assert.equal(await storedJson(setup), shown(setup));
    setup.done();
  });

  test(`${protocol}: Stop mid-reply stores the reply the user saw, not what the model wrote after it`, async () => {
    const setup = setUp(protocol);
    setup.client.send("Hello");
    await until(() => setup.models.length === 1, "the run");
    const model = setup.models[0];
    for (const frame of script.opening("a1")) model.push(frame);
    model.push(script.word("a1", WORDS[0]));
    model.push(script.word("a1", WORDS[1]));
    await until(() => replyText(setup) === "Hi there ", "two words shown");
    setup.client.stop();
    // The model writes on before the stop reaches it: none of it may be stored.
    model.push(script.word("a1", WORDS[2]));
    await until(() => model.signal.aborted, "the model aborted");
    assert.equal(replyText(setup), "Hi there ");
    assert.equal(await storedJson(setup), shown(setup));
    setup.done();
  });

  test(`${protocol}: a connection dropped mid-reply resumes from where it was, and the store agrees`, async () => {
    const setup = setUp(protocol, { cutAfter: 2 });
    setup.client.send("Hello");
    await until(() => setup.models.length === 1, "the run");
    const model = setup.models[0];
    for (const frame of script.opening("a1")) model.push(frame);
    for (const word of WORDS) model.push(script.word("a1", word));
    for (const frame of script.closing("a1")) model.push(frame);
    model.end();
    await until(() => setup.client.getSnapshot().status === "idle", "the end");
    assert.equal(replyText(setup), "Hi there friend.", "nothing lost, nothing doubled");
    assert.equal(model.signal.aborted, false, "a dropped connection does not stop the model");
    assert.equal(await storedJson(setup), shown(setup));
    setup.done();
  });

  test(`${protocol}: the model's stream failing is stored as the error the client shows`, async () => {
    const setup = setUp(protocol);
    setup.client.send("Hello");
    await until(() => setup.models.length === 1, "the run");
    const model = setup.models[0];
    for (const frame of script.opening("a1")) model.push(frame);
    model.push(script.word("a1", WORDS[0]));
    model.fail(new Error("provider overloaded"));
    await until(() => setup.client.getSnapshot().status === "error", "the error");
    assert.equal(await storedJson(setup), shown(setup));
    assert.equal(setup.errors.length, 1, "the app's onError heard of it");
    assert.doesNotMatch(shown(setup), /provider overloaded/, "the server's error is not shown to the user");
    setup.done();
  });

  test(`${protocol}: a graceful shutdown mid-reply ends the run as interrupted, for the client and the store alike`, async () => {
    const setup = setUp(protocol);
    setup.client.send("Hello");
    await until(() => setup.models.length === 1, "the run");
    for (const frame of script.opening("a1")) setup.models[0].push(frame);
    setup.models[0].push(script.word("a1", WORDS[0]));
    await until(() => replyText(setup) === "Hi ", "a word shown");
    await setup.server.close();
    await until(() => setup.client.getSnapshot().status === "error", "the client's end");
    assert.equal(setup.client.getSnapshot().state.error.message, INTERRUPTED);
    assert.equal(await storedJson(setup), shown(setup));
    assert.equal(setup.models[0].signal.aborted, true, "the model is stopped");
    setup.done();
  });

  test(`${protocol}: a question left waiting is stored open, as the client shows it`, async () => {
    const setup = setUp(protocol);
    setup.client.send("Book a table");
    await until(() => setup.models.length === 1, "the run");
    const model = setup.models[0];
    for (const frame of script.opening("a1")) model.push(frame);
    model.push(script.word("a1", "Let me check."));
    for (const frame of script.question("a1")) model.push(frame);
    model.end();
    await until(() => setup.client.getSnapshot().status === "idle", "the end");
    const stored = await storedJson(setup);
    assert.equal(stored, shown(setup));
    assert.match(stored, /"call-1"/);
    setup.done();
  });
}
