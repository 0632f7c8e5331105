// The adapters and the reducer against the libraries themselves: the same streams, as bytes,
// through `ai`'s readUIMessageStream and @ag-ui/client's HttpAgent on one side and through
// readAiSdkStream/readAgUiStream, the translators and sessionReducer on the other, compared on
// the research note's projection.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AbstractChat, DefaultChatTransport, convertToModelMessages, jsonSchema, lastAssistantMessageIsCompleteWithApprovalResponses, stepCountIs, streamText, tool, validateUIMessages } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { agUi, aiSdk, applyAll, collect, core, needsV2, needsV3 } from "./package.mjs";
import { agUiAgent, agUiResponse, aiSdkMessage, aiSdkResponse, projectAgUiMessages, projectSessionAsAgUi, projectSessionMessage, projectUiMessage } from "./peers.mjs";

const sent = () => core.sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u1", text: "Go" });

// ---- AI SDK

// The session after the chunks, read from an AI SDK server's bytes.
async function sessionAfterAiSdk(chunks, state = sent(), options) {
  const read = await collect(aiSdk.readAiSdkStream(aiSdkResponse(chunks)));
  return applyAll(state, read.map((chunk) => aiSdk.fromAiSdkChunk(chunk, options)));
}

async function assertSameAsAiSdk(chunks, { endedEarly = false } = {}) {
  const { message } = await aiSdkMessage(chunks);
  const state = await sessionAfterAiSdk(chunks);
  const ours = state.messages.at(-1);
  assert.equal(ours.role, "assistant");
  if (chunks[0]?.messageId) assert.equal(ours.id, message.id);
  assert.deepEqual(projectSessionMessage(ours), projectUiMessage(message, { endedEarly }));
  return state;
}

// A turn recorded from `ai`'s own server side: streamText over a scripted model, its UI message
// stream. With `request` (UIMessages, as a client sends them), the model gets them as
// convertToModelMessages makes them, and the stream continues the request's last message.
async function recordAiSdkTurn(steps, tools, request) {
  let step = 0;
  const model = new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream(steps[step++]) }) });
  const prompt = request ? { messages: await convertToModelMessages(await validateUIMessages({ messages: request })) } : { prompt: "Go" };
  const result = streamText({ model, ...prompt, tools, stopWhen: stepCountIs(steps.length) });
  return collect(result.toUIMessageStream({ sendReasoning: true, sendSources: true, generateMessageId: () => "a1", originalMessages: request }));
}
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const finish = (reason) => ({ type: "finish", finishReason: { unified: reason, raw: undefined }, usage });
const inputSchema = jsonSchema({ type: "object" });

const deleteFile = { delete_file: tool({ inputSchema, needsApproval: true, execute: async ({ path }) => `deleted ${path}` }) };

test("AI SDK: a recorded turn with reasoning, text and a call that asks for approval", needsV2, async () => {
  const chunks = await recordAiSdkTurn(
    [
      [
        { type: "stream-start", warnings: [] },
        { type: "reasoning-start", id: "r1" },
        { type: "reasoning-delta", id: "r1", delta: "The user wants it gone." },
        { type: "reasoning-end", id: "r1", providerMetadata: { anthropic: { signature: "sig" } } },
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: "Deleting " },
        { type: "text-delta", id: "t1", delta: "/scratch." },
        { type: "text-end", id: "t1" },
        { type: "tool-input-start", id: "c1", toolName: "delete_file" },
        { type: "tool-input-delta", id: "c1", delta: '{"path":' },
        { type: "tool-input-delta", id: "c1", delta: '"/scratch"}' },
        { type: "tool-input-end", id: "c1" },
        { type: "tool-call", toolCallId: "c1", toolName: "delete_file", input: '{"path":"/scratch"}' },
        finish("tool-calls"),
      ],
    ],
    deleteFile,
  );
  assert.ok(chunks.some((chunk) => chunk.type === "tool-approval-request"));
  const state = await assertSameAsAiSdk(chunks);
  assert.equal(state.status, "idle");
  assert.equal(state.messages[1].parts.at(-1).state, "awaiting-confirmation");
});

test("AI SDK: the approval goes back in the request built by toAiSdkMessages; ai's server runs the call and the reply continues the message", needsV2, async () => {
  const first = await recordAiSdkTurn(
    [[{ type: "stream-start", warnings: [] }, { type: "tool-call", toolCallId: "c1", toolName: "delete_file", input: '{"path":"/scratch"}' }, finish("tool-calls")]],
    deleteFile,
  );
  const asked = await sessionAfterAiSdk(first);
  const callOf = (state) => state.messages[1].parts.find((part) => part.type === "tool"); // after the step part
  const approvalId = callOf(asked).approval.id;
  let state = core.sessionReducer(asked, { type: "part", part: { type: "tool-approval-response", approvalId, approved: true } });
  state = core.sessionReducer(state, { type: "continue" });
  const request = aiSdk.toAiSdkMessages(state.messages);
  const second = await recordAiSdkTurn(
    [[{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Done." }, { type: "text-end", id: "t" }, finish("stop")]],
    deleteFile,
    request,
  );
  assert.ok(second.some((chunk) => chunk.type === "tool-output-available" && chunk.output === "deleted /scratch"), "ai ran the approved call");
  const { message } = await aiSdkMessage(second, request.at(-1));
  state = await sessionAfterAiSdk(second, state);
  assert.deepEqual(state.messages.map((m) => m.id), ["u1", "a1"]);
  assert.deepEqual(projectSessionMessage(state.messages[1]), projectUiMessage(message));
  assert.deepEqual([callOf(state).state, callOf(state).output], ["done", "deleted /scratch"]);
});

// ---- A denial, through ai's own chat (AbstractChat, as useChat runs it) and through the session
// (as useAgentSession runs it), against one streamText server: each request's model messages.

/** A streamText server over a model that asks to delete what the user names and then tells
 *  the denial or the result; `requests` logs the model messages each request gave. */
function deletingServer() {
  const requests = [];
  const say = (text) => [{ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: text }, { type: "text-end", id: "t" }, finish("stop")];
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const last = prompt.at(-1);
      const result = last.role === "tool" ? last.content.find((part) => part.type === "tool-result") : undefined;
      const text = last.role === "user" ? last.content.map((part) => part.text ?? "").join("") : "";
      const steps = result
        ? say(result.output.type === "execution-denied" ? "Denied: kept it." : `Told: ${result.output.type}.`)
        : text.startsWith("Delete ")
          ? [{ type: "stream-start", warnings: [] }, { type: "tool-call", toolCallId: `c${requests.length}`, toolName: "delete_file", input: JSON.stringify({ path: text.slice(7) }) }, finish("tool-calls")]
          : say(`You said: ${text}`);
      return { stream: convertArrayToReadableStream(steps) };
    },
  });
  let approvals = 0;
  async function respond(body) {
    const { messages } = JSON.parse(body);
    const modelMessages = await convertToModelMessages(await validateUIMessages({ messages, tools: deleteFile }), { tools: deleteFile });
    requests.push(modelMessages);
    const result = streamText({ model, messages: modelMessages, tools: deleteFile, stopWhen: stepCountIs(3), _internal: { generateId: () => `ap${++approvals}` } });
    return result.toUIMessageStreamResponse({ originalMessages: messages, generateMessageId: () => `a${requests.length}` });
  }
  return { requests, respond };
}

class ChatState {
  status = "ready";
  error = undefined;
  messages = [];
  pushMessage = (message) => (this.messages = [...this.messages, message]);
  popMessage = () => (this.messages = this.messages.slice(0, -1));
  replaceMessage = (index, message) => (this.messages = this.messages.with(index, message));
  snapshot = (thing) => structuredClone(thing);
}

class Chat extends AbstractChat {
  constructor(init) {
    super({ ...init, state: new ChatState() });
  }
}

const settled = async (done) => {
  for (let tries = 0; !done(); tries++) {
    assert.ok(tries < 200, "the chat settles");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

// The user's words to the chat: send "Delete /tmp/b", deny the call, then send "Thanks".
async function denialWithUseChat() {
  const server = deletingServer();
  const transport = new DefaultChatTransport({ api: "http://agent.test/chat", fetch: async (_, init) => server.respond(init.body) });
  let ids = 0;
  const chat = new Chat({ id: "chat", transport, generateId: () => `u${++ids}`, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  await chat.sendMessage({ text: "Delete /tmp/b" });
  const asked = chat.messages.at(-1).parts.find((part) => part.state === "approval-requested");
  await chat.addToolApprovalResponse({ id: asked.approval.id, approved: false });
  await settled(() => server.requests.length === 2 && chat.status === "ready");
  await chat.sendMessage({ text: "Thanks" });
  return { requests: server.requests, messages: chat.messages };
}

async function denialWithSession() {
  const server = deletingServer();
  const run = async (state) => {
    const response = await server.respond(JSON.stringify({ messages: aiSdk.toAiSdkMessages(state.messages) }));
    const read = await collect(aiSdk.readAiSdkStream(response));
    return applyAll(state, read.map((chunk) => aiSdk.fromAiSdkChunk(chunk)));
  };
  let state = await run(core.sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u1", text: "Delete /tmp/b" }));
  const asked = state.messages.at(-1).parts.find((part) => part.state === "awaiting-confirmation");
  state = core.sessionReducer(state, { type: "part", part: { type: "tool-approval-response", id: asked.id, approved: false } });
  state = await run(core.sessionReducer(state, { type: "continue" }));
  state = await run(core.sessionReducer(state, { type: "send", id: "u2", text: "Thanks" }));
  return { requests: server.requests, messages: state.messages };
}

test("AI SDK: a denial sends the model what useChat's sends: execution-denied while it is new, then as ai keeps it", needsV3, async () => {
  const [useChat, ours] = await Promise.all([denialWithUseChat(), denialWithSession()]);
  assert.equal(ours.requests.length, 3);
  assert.deepEqual(ours.requests, useChat.requests);
  // The request right after the denial tells the model it was denied (not a tool failure).
  const denied = ours.requests[1].at(-1).content.find((part) => part.type === "tool-result");
  assert.equal(denied.output.type, "execution-denied");
  assert.equal(ours.messages[1].parts.findLast((part) => part.type === "text").text, "Denied: kept it.");
  assert.deepEqual(projectSessionMessage(ours.messages[1]), projectUiMessage(useChat.messages[1]));
});

test("AI SDK: a recorded multi-step turn: sources, a streaming tool's preliminary outputs, its result, then text", needsV2, async () => {
  const chunks = await recordAiSdkTurn(
    [
      [
        { type: "stream-start", warnings: [] },
        { type: "source", sourceType: "url", id: "s1", url: "https://example.com", title: "Example" },
        { type: "tool-input-start", id: "c1", toolName: "search" },
        { type: "tool-input-delta", id: "c1", delta: '{"q":"mugs"}' },
        { type: "tool-input-end", id: "c1" },
        { type: "tool-call", toolCallId: "c1", toolName: "search", input: '{"q":"mugs"}' },
        finish("tool-calls"),
      ],
      [
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t2" },
        { type: "text-delta", id: "t2", delta: "Found 2 mugs." },
        { type: "text-end", id: "t2" },
        finish("stop"),
      ],
    ],
    {
      search: tool({
        inputSchema,
        async *execute() {
          yield { status: "searching" };
          yield { status: "done", hits: 2 };
        },
      }),
    },
  );
  assert.ok(chunks.some((chunk) => chunk.type === "tool-output-available" && chunk.preliminary));
  await assertSameAsAiSdk(chunks);
});

// A long, tool-heavy turn as a server streams it: many steps, each with text deltas, a call
// whose input arrives in pieces, and its result.
function toolHeavyTurn(steps, deltasPerStep) {
  const chunks = [{ type: "start", messageId: "a1" }];
  for (let step = 0; step < steps; step++) {
    chunks.push({ type: "start-step" }, { type: "text-start", id: `t${step}` });
    for (let i = 0; i < deltasPerStep; i++) chunks.push({ type: "text-delta", id: `t${step}`, delta: `w${i} ` });
    chunks.push({ type: "text-end", id: `t${step}` });
    const id = `call-${step}`;
    chunks.push({ type: "tool-input-start", toolCallId: id, toolName: "lookup" });
    for (const piece of ['{"ite', 'm":', String(step), "}"]) chunks.push({ type: "tool-input-delta", toolCallId: id, inputTextDelta: piece });
    chunks.push({ type: "tool-input-available", toolCallId: id, toolName: "lookup", input: { item: step } });
    chunks.push({ type: "tool-output-available", toolCallId: id, output: { price: step * 2 } }, { type: "finish-step" });
  }
  chunks.push({ type: "finish", finishReason: "stop" });
  return chunks;
}

test("AI SDK: a long, tool-heavy turn (40 steps, 2,000 text deltas, 160 input deltas)", needsV2, async () => {
  await assertSameAsAiSdk(toolHeavyTurn(40, 50));
});

test("AI SDK: data parts (replaced by id, transient ones not kept), sources, files, custom parts", needsV2, async () => {
  await assertSameAsAiSdk([
    { type: "start", messageId: "a1" },
    { type: "data-weather", id: "w1", data: { status: "loading" } },
    { type: "data-progress", data: 0.5, transient: true },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Sunny." },
    { type: "text-end", id: "t" },
    { type: "data-weather", id: "w1", data: { status: "done", temp: 21 } },
    { type: "data-log", data: "no id: appended" },
    { type: "source-url", sourceId: "s1", url: "https://met.no", title: "MET" },
    { type: "source-document", sourceId: "d1", mediaType: "application/pdf", title: "Report", filename: "r.pdf" },
    { type: "file", url: "data:image/png;base64,AA==", mediaType: "image/png" },
    { type: "custom", kind: "openai.compaction" },
    { type: "finish", finishReason: "stop" },
  ]);
});

test("AI SDK: input errors, output errors, an approval answered in the stream, a denial", needsV2, async () => {
  await assertSameAsAiSdk([
    { type: "start", messageId: "a1" },
    { type: "tool-input-error", toolCallId: "c1", toolName: "parse", input: "{bad", errorText: "Invalid JSON" },
    { type: "tool-input-available", toolCallId: "c2", toolName: "fetch", input: { url: "x" } },
    { type: "tool-output-error", toolCallId: "c2", errorText: "404" },
    { type: "tool-input-available", toolCallId: "c3", toolName: "rm", input: {} },
    { type: "tool-approval-request", approvalId: "ap3", toolCallId: "c3" },
    { type: "tool-approval-response", approvalId: "ap3", approved: true, providerExecuted: true },
    { type: "tool-input-available", toolCallId: "c4", toolName: "rm", input: { all: true } },
    { type: "tool-approval-request", approvalId: "ap4", toolCallId: "c4" },
    { type: "tool-approval-response", approvalId: "ap4", approved: false },
    { type: "tool-output-denied", toolCallId: "c4" },
    { type: "finish", finishReason: "stop" },
  ]);
});

test("AI SDK: a stream aborted while a call's input streams, and one failing after a call", needsV2, async () => {
  const aborted = await assertSameAsAiSdk(
    [
      { type: "start", messageId: "a1" },
      { type: "tool-input-start", toolCallId: "c1", toolName: "write_file" },
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"path":"a.md","conte' },
      { type: "abort", reason: "user" },
    ],
    { endedEarly: true },
  );
  assert.equal(aborted.status, "idle");
  const failed = await assertSameAsAiSdk(
    [{ type: "start", messageId: "a1" }, { type: "tool-input-available", toolCallId: "c1", toolName: "search", input: {} }, { type: "error", errorText: "Overloaded" }],
    { endedEarly: true },
  );
  assert.deepEqual([failed.status, failed.error], ["error", { message: "Overloaded" }]);
});

// Steps (SPEC v3): the model messages convertToModelMessages makes of the request built by
// toAiSdkMessages are those it makes of readUIMessageStream's own message, one per step.
async function assertSameModelMessages(chunks) {
  const { message } = await aiSdkMessage(chunks);
  const state = await assertSameAsAiSdk(chunks);
  const request = { id: "u1", role: "user", parts: [{ type: "text", text: "Go" }] };
  const expected = await convertToModelMessages(await validateUIMessages({ messages: [request, message] }));
  const actual = await convertToModelMessages(await validateUIMessages({ messages: aiSdk.toAiSdkMessages(state.messages) }));
  assert.deepEqual(actual, expected);
  return { state, model: actual };
}

const lookup = (id, step) => [
  { type: "tool-input-available", toolCallId: id, toolName: "lookup", input: { step } },
  { type: "tool-output-available", toolCallId: id, output: { price: step } },
];

test("AI SDK steps: a reply in two steps is two assistant model messages, as with ai's own message", needsV3, async () => {
  const { state, model } = await assertSameModelMessages([
    { type: "start", messageId: "a1" },
    { type: "start-step" }, { type: "text-start", id: "t1" }, { type: "text-delta", id: "t1", delta: "Looking." }, { type: "text-end", id: "t1" },
    ...lookup("c1", 1), { type: "finish-step" },
    { type: "start-step" }, { type: "text-start", id: "t2" }, { type: "text-delta", id: "t2", delta: "It costs 1." }, { type: "text-end", id: "t2" },
    { type: "finish-step" }, { type: "finish", finishReason: "stop" },
  ]);
  assert.deepEqual(state.messages[1].parts.map((part) => part.type), ["step", "text", "tool", "step", "text"]);
  assert.deepEqual(model.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
});

test("AI SDK steps: reset-step removes what the step gave, a call included, as ai does", needsV3, async () => {
  const { state } = await assertSameModelMessages([
    { type: "start", messageId: "a1" },
    { type: "start-step" }, ...lookup("c1", 1), { type: "finish-step" },
    { type: "start-step" }, { type: "text-start", id: "t2" }, { type: "text-delta", id: "t2", delta: "It co" },
    { type: "tool-input-available", toolCallId: "c2", toolName: "lookup", input: { step: 2 } },
    { type: "reset-step" },
    { type: "start-step" }, { type: "text-start", id: "t3" }, { type: "text-delta", id: "t3", delta: "It costs 1." }, { type: "text-end", id: "t3" },
    { type: "finish-step" }, { type: "finish", finishReason: "stop" },
  ]);
  assert.deepEqual(state.messages[1].parts.map((part) => part.id ?? part.text ?? part.type), ["step", "c1", "step", "It costs 1."]);
});

// ---- AG-UI

const user = { id: "u1", role: "user", content: "Go" };
const run = (events) => [{ type: "RUN_STARTED", threadId: "thread-1", runId: "run-1" }, ...events];
const finished = (outcome) => ({ type: "RUN_FINISHED", threadId: "thread-1", runId: "run-1", ...(outcome && { outcome }) });

async function sessionAfterAgUi(events, state = sent(), options) {
  const translate = agUi.createAgUiTranslator(options);
  const read = await collect(agUi.readAgUiStream(agUiResponse(events)));
  return applyAll(state, read.map((event) => translate(event)));
}

async function assertSameAsAgUi(events, { project = (messages) => messages, options } = {}) {
  const { agent, error } = await agUiAgent(events, { messages: [user] });
  assert.equal(error, undefined);
  const state = await sessionAfterAgUi(events, sent(), options);
  assert.deepEqual(project(projectSessionAsAgUi(state.messages)), projectAgUiMessages(agent.messages));
  assert.deepEqual(state.agentState ?? {}, agent.state ?? {});
  return { state, agent };
}

test("AG-UI: text, reasoning, a call whose arguments stream in pieces, its result, a follow-up message", needsV2, async () => {
  const { state } = await assertSameAsAgUi(
    run([
      { type: "REASONING_START", messageId: "r1" },
      { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r1", delta: "Search first." },
      { type: "REASONING_MESSAGE_END", messageId: "r1" },
      { type: "REASONING_END", messageId: "r1" },
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Looking" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: " it up." },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search", parentMessageId: "m1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q":' },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '"mugs"}' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_RESULT", messageId: "t1", toolCallId: "c1", content: "2 hits", role: "tool" },
      { type: "TOOL_CALL_START", toolCallId: "c2", toolCallName: "price" },
      { type: "TOOL_CALL_END", toolCallId: "c2" },
      { type: "TEXT_MESSAGE_START", messageId: "m2", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta: "Two mugs." },
      { type: "TEXT_MESSAGE_END", messageId: "m2" },
      finished(),
    ]),
  );
  assert.deepEqual(state.messages[2].parts[1].input, { q: "mugs" });
});

test("AG-UI: *_CHUNK events, expanded as @ag-ui/client's transformChunks expands them", needsV2, async () => {
  await assertSameAsAgUi(
    run([
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", role: "assistant", delta: "Hel" },
      { type: "TEXT_MESSAGE_CHUNK", delta: "lo" },
      { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "f", parentMessageId: "m1", delta: '{"a"' },
      { type: "TOOL_CALL_CHUNK", delta: ":1}" },
      { type: "REASONING_MESSAGE_CHUNK", messageId: "r1", delta: "hm" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "Bye" },
      finished(),
    ]),
  );
});

test("AG-UI: shared state (snapshot, deltas) and activities (snapshot, delta)", needsV2, async () => {
  await assertSameAsAgUi(
    run([
      { type: "STATE_SNAPSHOT", snapshot: { todos: ["a"], done: 0 } },
      { type: "STATE_DELTA", delta: [{ op: "add", path: "/todos/-", value: "b" }, { op: "replace", path: "/done", value: 1 }] },
      { type: "ACTIVITY_SNAPSHOT", messageId: "p1", activityType: "plan", content: { steps: ["search"], current: 0 } },
      { type: "ACTIVITY_DELTA", messageId: "p1", activityType: "plan", patch: [{ op: "replace", path: "/current", value: 1 }] },
      finished(),
    ]),
  );
});

test("AG-UI: MESSAGES_SNAPSHOT is the conversation: a streamed message replaced, one added, those it omits gone", needsV2, async () => {
  const { state } = await assertSameAsAgUi(
    run([
      { type: "TEXT_MESSAGE_START", messageId: "m1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Draft" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "TEXT_MESSAGE_START", messageId: "m0" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m0", delta: "Retracted" },
      { type: "TEXT_MESSAGE_END", messageId: "m0" },
      {
        type: "MESSAGES_SNAPSHOT",
        messages: [
          { id: "m1", role: "assistant", content: "Final", toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
          { id: "t1", role: "tool", toolCallId: "c1", content: "ok" },
          { id: "m2", role: "assistant", content: "More" },
        ],
      },
      finished(),
    ]),
  );
  assert.deepEqual(state.messages.map((message) => message.id), ["m1", "m2"]);
});

const reasoned = [
  { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" },
  { type: "REASONING_MESSAGE_CONTENT", messageId: "r1", delta: "Streamed thought" },
  { type: "REASONING_MESSAGE_END", messageId: "r1" },
];

test("AG-UI: a snapshot's reasoning replaces the streamed copy, one per turn", needsV2, async () => {
  const snapshot = { type: "MESSAGES_SNAPSHOT", messages: [user, { id: "r2", role: "reasoning", content: "Final thought" }, { id: "m1", role: "assistant", content: "Hi" }] };
  const { state } = await assertSameAsAgUi(run([...reasoned, snapshot, finished()]));
  assert.deepEqual(state.messages.map((message) => message.id), ["u1", "r2", "m1"]);
});

// A decision: the snapshot is exact, so reasoning it leaves out goes too, where @ag-ui/client
// keeps the held reasoning messages when the snapshot carries none (the reducer's snapshot keeps
// none of the messages it leaves out).
test("AG-UI: a snapshot without reasoning drops the streamed reasoning, where @ag-ui/client keeps it", needsV2, async () => {
  const events = run([...reasoned, { type: "MESSAGES_SNAPSHOT", messages: [user, { id: "m1", role: "assistant", content: "Hi" }] }, finished()]);
  const { agent } = await agUiAgent(events, { messages: [user] });
  assert.deepEqual(agent.messages.map((message) => message.id), ["u1", "r1", "m1"]);
  const state = await sessionAfterAgUi(events);
  assert.deepEqual(state.messages.map((message) => message.id), ["u1", "m1"]);
});

test("AG-UI: several runs in one stream: the second run's messages land, and a RUN_ERROR after a finished run fails it", needsV2, async () => {
  const text = (messageId, delta) => [
    { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId, delta },
    { type: "TEXT_MESSAGE_END", messageId },
  ];
  const again = { type: "RUN_STARTED", threadId: "thread-1", runId: "run-2" };
  const second = { type: "RUN_FINISHED", threadId: "thread-1", runId: "run-2" };
  const { state } = await assertSameAsAgUi(run([...text("m1", "first run"), finished(), again, ...text("m2", "second run"), second]));
  assert.deepEqual([state.status, state.messages.map((message) => message.id)], ["idle", ["u1", "m1", "m2"]]);

  const late = run([...text("m1", "delivered"), finished(), { type: "RUN_ERROR", message: "The transport failed" }]);
  const { state: failed } = await assertSameAsAgUi(late);
  assert.deepEqual([failed.status, failed.error], ["error", { message: "The transport failed" }]);

  const restarted = await assertSameAsAgUi(run([{ type: "RUN_ERROR", message: "First failed" }, again, ...text("m2", "second run"), second]));
  assert.equal(restarted.state.status, "idle");
});

test("AG-UI: RUN_STARTED.input.messages the session does not hold are added before the run's events, never twice", needsV2, async () => {
  const input = { threadId: "thread-1", runId: "run-1", messages: [{ id: "u1", role: "user", content: "Changed" }, { id: "m0", role: "assistant", content: "Earlier" }], tools: [], context: [], state: {}, forwardedProps: {} };
  const events = [
    { type: "RUN_STARTED", threadId: "thread-1", runId: "run-1", input },
    { type: "TEXT_MESSAGE_START", messageId: "m1" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Now" },
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    finished(),
    { type: "RUN_STARTED", threadId: "thread-1", runId: "run-2", input },
    { type: "RUN_FINISHED", threadId: "thread-1", runId: "run-2" },
  ];
  const { state } = await assertSameAsAgUi(events, { options: { messages: sent().messages } });
  assert.deepEqual(state.messages.map((message) => message.id), ["u1", "m0", "m1"]);
  assert.equal(state.messages[0].parts[0].text, "Go");
});

// [what, events, what both errors say]: streams the protocol says must fail. The package ends
// the run with an error part and keeps what arrived; the client rejects the stream.
const mustFail = [
  ["an open text message at RUN_FINISHED", [{ type: "TEXT_MESSAGE_START", messageId: "m1" }, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Never closed" }], "while text messages are still active: m1"],
  ["an active sub-agent at RUN_FINISHED", [{ type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "research" }], "while subagents are still active: s1"],
  ["a TOOL_CALL_CHUNK renaming its call", [{ type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "search", delta: '{"q":' }, { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "delete", delta: '"x"}' }], "does not match the open stream's toolCallName 'search'"],
  [
    "an event attributed to another sub-agent",
    [{ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "lookup", subagentRunId: "s1" }, { type: "TOOL_CALL_END", toolCallId: "c1", subagentRunId: "s2" }],
    "subagentRunId 's2' does not match the tool call 'c1' opener's subagent 's1'",
  ],
];

for (const [what, events, says] of mustFail) {
  test(`AG-UI: ${what} fails the run, saying so, and keeps what arrived`, needsV2, async () => {
    const stream = run([...events, finished()]);
    const { error } = await agUiAgent(stream, { messages: [user] });
    assert.ok(error.message.includes(says), error.message);
    const state = await sessionAfterAgUi(stream);
    assert.equal(state.status, "error");
    assert.ok(state.error.message.includes(says), state.error.message);
    const kept = await sessionAfterAgUi(run(events));
    assert.deepEqual(state.messages.map((message) => message.id), kept.messages.map((message) => message.id));
  });
}

test("AG-UI: a RUN_FINISHED outcome that is not an object fails the run instead of losing its interrupt", needsV2, async () => {
  const stream = run([finished([{ type: "interrupt", interrupts: [{ id: "i1", reason: "approval" }] }])]);
  const { error } = await agUiAgent(stream, { messages: [user] });
  assert.match(error.message, /expected object, received array/);
  const state = await sessionAfterAgUi(stream);
  assert.deepEqual(state.error, { message: "RUN_FINISHED.outcome: expected object, received array" });
});

// Decisions the draft protocol makes where @ag-ui/client 1.0 does not yet: two interrupts of one
// id (one answer would cover two questions) and a call renamed by a repeated TOOL_CALL_START (an
// approval could show one tool and run another) fail the run.
test("AG-UI: two interrupts of one id, or a TOOL_CALL_START renaming a call, fail the run", needsV2, async () => {
  const twice = run([finished({ type: "interrupt", interrupts: [{ id: "i1", reason: "approval", message: "First?" }, { id: "i1", reason: "approval", message: "Second?" }] })]);
  const { agent } = await agUiAgent(twice, { messages: [user] });
  assert.deepEqual(agent.pendingInterrupts.map((interrupt) => interrupt.id), ["i1", "i1"]);
  assert.deepEqual((await sessionAfterAgUi(twice)).error, { message: "RUN_FINISHED.outcome: two interrupts carrying the id 'i1'" });

  const renamed = run([
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "delete" },
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    finished(),
  ]);
  const client = await agUiAgent(renamed, { messages: [user] });
  assert.equal(client.agent.messages[1].toolCalls[0].function.name, "delete");
  const state = await sessionAfterAgUi(renamed);
  assert.deepEqual([state.status, state.messages[1].parts[0].name], ["error", "search"]);
});

test("AG-UI: a STATE_DELTA operation of an unknown op is dropped and the rest applies; THINKING_* events are reasoning", needsV2, async () => {
  await assertSameAsAgUi(
    run([
      { type: "STATE_SNAPSHOT", snapshot: { count: 1 } },
      { type: "STATE_DELTA", delta: [{ op: "increment", path: "/count", value: 1 }, { op: "replace", path: "/count", value: 5 }] },
      finished(),
    ]),
  );
  const thinking = [{ type: "THINKING_START" }, { type: "THINKING_TEXT_MESSAGE_START" }, { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "Let me check." }, { type: "THINKING_TEXT_MESSAGE_END" }, { type: "THINKING_END" }];
  const text = [{ type: "TEXT_MESSAGE_START", messageId: "m1" }, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Checked." }, { type: "TEXT_MESSAGE_END", messageId: "m1" }];
  // The client makes up a random id for the reasoning message; the package one from the run's.
  const withoutIds = (messages) => messages.map(({ id, ...message }) => message);
  const { agent, error } = await agUiAgent(run([...thinking, ...text, finished()]), { messages: [user] });
  assert.equal(error, undefined);
  const state = await sessionAfterAgUi(run([...thinking, ...text, finished()]));
  assert.deepEqual(withoutIds(projectSessionAsAgUi(state.messages)), withoutIds(projectAgUiMessages(agent.messages)));
  assert.equal(state.messages[1].id, "run-1-thinking-1");
});

test("AG-UI: ACTIVITY_SNAPSHOT replaces a message of its id, unless replace is false", needsV2, async () => {
  await assertSameAsAgUi(
    run([
      { type: "TEXT_MESSAGE_START", messageId: "m1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Planning" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "ACTIVITY_SNAPSHOT", messageId: "m1", activityType: "plan", content: { steps: 1 } },
      { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "web_search", content: { found: 1 } },
      { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "file_search", content: { found: 9 }, replace: false },
      { type: "ACTIVITY_SNAPSHOT", messageId: "a2", activityType: "web_search", content: { found: 1 } },
      { type: "ACTIVITY_SNAPSHOT", messageId: "a2", activityType: "file_search", content: { found: 2 } },
      finished(),
    ]),
  );
});

test("AG-UI: a long, tool-heavy run (3,000 text deltas, 30 calls with streamed arguments and results)", needsV2, async () => {
  const events = [];
  for (let step = 0; step < 30; step++) {
    const messageId = `m${step}`;
    events.push({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
    for (let i = 0; i < 100; i++) events.push({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: `t${i} ` });
    events.push({ type: "TEXT_MESSAGE_END", messageId });
    const toolCallId = `c${step}`;
    events.push({ type: "TOOL_CALL_START", toolCallId, toolCallName: "lookup", parentMessageId: messageId });
    for (const delta of ['{"n"', ":", String(step), "}"]) events.push({ type: "TOOL_CALL_ARGS", toolCallId, delta });
    events.push({ type: "TOOL_CALL_END", toolCallId }, { type: "TOOL_CALL_RESULT", messageId: `t${step}`, toolCallId, content: `r${step}` });
  }
  await assertSameAsAgUi(run([...events, finished()]));
});

test("AG-UI: an interrupt outcome: the same interrupts pending, and the resume built for them lets the next run start", needsV2, async () => {
  const interrupts = [
    { id: "i1", reason: "tool_approval", message: "Delete /scratch?", toolCallId: "c1" },
    { id: "i2", reason: "pick_contact", message: "Which Ann?" },
  ];
  const events = run([
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "delete_file", parentMessageId: "m1" },
    { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"path":"/scratch"}' },
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    finished({ type: "interrupt", interrupts }),
  ]);
  // The session holds the run-level interrupt as a call of its own; AG-UI only as pending.
  const withoutQuestions = (messages) =>
    messages.map(({ calls, ...message }) => {
      const kept = (calls ?? []).filter((call) => call.id !== "i2");
      return kept.length ? { ...message, calls: kept } : message;
    });
  const { state, agent } = await assertSameAsAgUi(events, { project: withoutQuestions });
  assert.deepEqual(agent.pendingInterrupts.map((i) => i.id), ["i1", "i2"]);
  const asked = state.messages.flatMap((m) => m.parts).filter((part) => part.state === "awaiting-confirmation");
  assert.deepEqual(asked.map((part) => part.approval.id), ["i1", "i2"]);

  let answered = core.sessionReducer(state, { type: "part", part: { type: "tool-approval-response", approvalId: "i1", approved: true } });
  answered = core.sessionReducer(answered, { type: "part", part: { type: "tool-approval-response", id: "i2", approved: true, output: { contact: "Ann B." } } });
  const { messages, resume } = agUi.toAgUiInput(answered);
  assert.deepEqual(resume, [
    { interruptId: "i1", status: "resolved", payload: { approved: true } },
    { interruptId: "i2", status: "resolved", payload: { contact: "Ann B." } },
  ]);
  // The client refuses a run that leaves an interrupt unanswered; this one starts.
  const next = run([{ type: "TOOL_CALL_RESULT", messageId: "t1", toolCallId: "c1", content: "deleted" }, finished()]);
  const resumed = await agUiAgent(next, { messages: agent.messages, resume, pendingInterrupts: agent.pendingInterrupts });
  assert.equal(resumed.error, undefined);
  const refused = await agUiAgent(next, { messages: agent.messages, resume: [], pendingInterrupts: agent.pendingInterrupts });
  assert.match(refused.error.message, /pending interrupt/);
  assert.ok(messages.some((m) => m.role === "assistant" && m.toolCalls?.some((c) => c.id === "c1")));
});

test("AG-UI: RUN_ERROR fails the run and leaves no call open", needsV2, async () => {
  const events = run([
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
    { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q":' },
    { type: "RUN_ERROR", message: "Model overloaded", code: "rate_limited" },
  ]);
  const state = await sessionAfterAgUi(events);
  assert.deepEqual(state.error, { message: "Model overloaded", code: "rate_limited" });
  assert.equal(state.messages[1].parts[0].state, "cancelled");
});
