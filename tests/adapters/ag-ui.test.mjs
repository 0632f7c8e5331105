// chat-session-reducer/ag-ui without the reducer: what each of the 31 AG-UI 1.0 events becomes,
// the translator's memory (chunk lanes, sub-agents), the message conversions, and the request
// built by toAgUiInput as @ag-ui/core's schema accepts it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EventType } from "@ag-ui/core";
import { RunAgentInputSchema, UserMessageSchema } from "@ag-ui/core/schemas";
import { agUi, partsOf } from "./package.mjs";

const { createAgUiTranslator, fromAgUiMessages, toAgUiInput } = agUi;

// The parts for a list of events through one translator, one list per event.
function run(events) {
  const translate = createAgUiTranslator();
  return events.map((event) => translate(event));
}
const partsFor = (events) => run(events).map(partsOf);
const interrupt = { id: "i1", reason: "pick_contact", message: "Which one?" };

// [events, the parts of the last event]: one row per event type, after what it needs first.
const rows = [
  [[{ type: "RUN_STARTED", threadId: "t", runId: "r" }], []],
  [[{ type: "RUN_FINISHED", threadId: "t", runId: "r" }], [{ type: "finish", reason: "stop" }]],
  [[{ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success", pendingToolCallIds: ["c1"] } }], [{ type: "finish", reason: "stop" }]],
  [[{ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "cancelled" } }], [{ type: "finish", reason: "aborted" }]],
  [
    [{ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "interrupt", interrupts: [interrupt] } }],
    [
      { type: "tool-call", id: "i1", name: "pick_contact", input: {} },
      { type: "tool-approval-request", approvalId: "i1", details: interrupt, prompt: "Which one?", id: "i1" },
      { type: "finish", reason: "stop" },
    ],
  ],
  [
    [{ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "interrupt", interrupts: [{ id: "i2", reason: "tool_approval", toolCallId: "c1" }] } }],
    [{ type: "tool-approval-request", approvalId: "i2", details: { id: "i2", reason: "tool_approval", toolCallId: "c1" }, id: "c1" }, { type: "finish", reason: "stop" }],
  ],
  [[{ type: "RUN_ERROR", message: "Quota", code: "rate_limited" }], [{ type: "error", error: "Quota", code: "rate_limited" }]],
  [[{ type: "RUN_ERROR", message: "Boom", code: "E_INTERNAL" }], [{ type: "error", error: "Boom" }]],
  [[{ type: "STEP_STARTED", stepName: "s" }], []],
  [[{ type: "STEP_FINISHED", stepName: "s" }], [{ type: "step-finish" }]],
  [[{ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", metadata: { k: 1 } }], [{ type: "message-start", messageId: "m1", metadata: { k: 1 } }]],
  [[{ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" }], [{ type: "text-delta", messageId: "m1", text: "Hi" }]],
  [
    [{ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi", metadata: { k: 2 } }],
    [{ type: "text-delta", messageId: "m1", text: "Hi" }, { type: "message-metadata", messageId: "m1", metadata: { k: 2 } }],
  ],
  [[{ type: "TEXT_MESSAGE_END", messageId: "m1" }], []],
  [[{ type: "TEXT_MESSAGE_END", messageId: "m1", metadata: { usage: 1 } }], [{ type: "message-metadata", messageId: "m1", metadata: { usage: 1 } }]],
  [
    [
      { type: "TEXT_MESSAGE_START", messageId: "u9", role: "user" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "u9", delta: "Hello" },
      { type: "TEXT_MESSAGE_END", messageId: "u9" },
    ],
    [{ type: "snapshot", messages: [{ id: "u9", role: "user", parts: [{ type: "text", text: "Hello" }] }] }],
  ],
  [[{ type: "TEXT_MESSAGE_START", messageId: "s1", role: "system" }, { type: "TEXT_MESSAGE_CONTENT", messageId: "s1", delta: "rules" }], []],
  [[{ type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "Yo" }], [{ type: "message-start", messageId: "m2" }, { type: "text-delta", messageId: "m2", text: "Yo" }]],
  [[{ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search", parentMessageId: "m1" }], [{ type: "tool-input-delta", messageId: "m1", id: "c1", name: "search", text: "" }]],
  [[{ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" }], [{ type: "tool-input-delta", messageId: "c1", id: "c1", name: "search", text: "" }]],
  [[{ type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q"' }], [{ type: "tool-input-delta", id: "c1", text: '{"q"' }]],
  [[{ type: "TOOL_CALL_END", toolCallId: "c1" }], [{ type: "tool-input-end", id: "c1" }]],
  [
    [{ type: "TOOL_CALL_CHUNK", toolCallId: "c2", toolCallName: "f", parentMessageId: "m1", delta: "{}" }],
    [{ type: "tool-input-delta", messageId: "m1", id: "c2", name: "f", text: "" }, { type: "tool-input-delta", id: "c2", text: "{}" }],
  ],
  [
    [{ type: "TOOL_CALL_RESULT", messageId: "t1", toolCallId: "c1", content: "42", role: "tool" }],
    [{ type: "tool-result", id: "c1", output: "42", metadata: { "ag-ui": { toolMessageId: "t1" } } }],
  ],
  [[{ type: "REASONING_START", messageId: "r1" }], []],
  [[{ type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" }], [{ type: "reasoning", messageId: "r1", text: "" }]],
  [[{ type: "REASONING_MESSAGE_CONTENT", messageId: "r1", delta: "hmm" }], [{ type: "reasoning-delta", messageId: "r1", text: "hmm" }]],
  [[{ type: "REASONING_MESSAGE_END", messageId: "r1" }], []],
  [[{ type: "REASONING_MESSAGE_CHUNK", messageId: "r2", delta: "so" }], [{ type: "reasoning", messageId: "r2", text: "" }, { type: "reasoning-delta", messageId: "r2", text: "so" }]],
  [[{ type: "REASONING_END", messageId: "r1" }], []],
  [
    [{ type: "REASONING_MESSAGE_START", messageId: "r1" }, { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "r1", encryptedValue: "enc" }],
    [{ type: "message-metadata", messageId: "r1", metadata: { "ag-ui": { encryptedValue: "enc" } } }],
  ],
  // A message this run did not write: nothing to attach it to, and no empty message made up.
  [[{ type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "old", encryptedValue: "enc" }], []],
  [
    [{ type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c1", encryptedValue: "enc" }],
    [{ type: "tool-input-delta", id: "c1", text: "", metadata: { "ag-ui": { encryptedValue: "enc" } } }],
  ],
  [[{ type: "STATE_SNAPSHOT", snapshot: { todo: [] } }], [{ type: "agent-state", snapshot: { todo: [] } }]],
  [[{ type: "STATE_DELTA", delta: [{ op: "add", path: "/todo/-", value: 1 }] }], [{ type: "agent-state", patch: [{ op: "add", path: "/todo/-", value: 1 }] }]],
  [[{ type: "STATE_DELTA", delta: [{ op: "jump", path: "/x" }] }], []],
  // An operation of an unknown op goes, the rest applies; a malformed one drops the whole patch.
  [[{ type: "STATE_DELTA", delta: [{ op: "jump", path: "/x" }, { op: "remove", path: "/y" }] }], [{ type: "agent-state", patch: [{ op: "remove", path: "/y" }] }]],
  [[{ type: "STATE_DELTA", delta: [{ op: "move", path: "a", from: "/b" }, { op: "remove", path: "/y" }] }], []],
  [
    [{ type: "MESSAGES_SNAPSHOT", messages: [{ id: "u1", role: "user", content: "Hi" }] }],
    [{ type: "snapshot", messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }], exact: true }],
  ],
  [
    [{ type: "ACTIVITY_SNAPSHOT", messageId: "p1", activityType: "plan", content: { steps: [] } }],
    [{ type: "snapshot", messages: [{ id: "p1", role: "assistant", parts: [{ type: "data", name: "plan", id: "p1", data: { steps: [] } }] }] }],
  ],
  [
    [{ type: "ACTIVITY_SNAPSHOT", messageId: "p1", activityType: "plan", content: { a: 1 } }, { type: "ACTIVITY_SNAPSHOT", messageId: "p1", activityType: "plan", content: { a: 2 }, replace: false }],
    [],
  ],
  [
    [{ type: "ACTIVITY_DELTA", messageId: "p1", activityType: "plan", patch: [{ op: "replace", path: "/a", value: 3 }] }],
    [{ type: "data", messageId: "p1", name: "plan", id: "p1", patch: [{ op: "replace", path: "/a", value: 3 }] }],
  ],
  // Found by fuzzing: a path that is not a JSON Pointer made an action the reducer rejects.
  [[{ type: "ACTIVITY_DELTA", messageId: "p1", activityType: "plan", patch: [{ op: "move", path: "a", from: "/b" }] }], []],
  [[{ type: "ACTIVITY_DELTA", messageId: "p1", activityType: "plan", patch: [{ op: "copy", path: "/a", from: "b" }] }], []],
  [[{ type: "RAW", event: {} }], []],
  [[{ type: "CUSTOM", name: "x", value: 1 }], []],
  [[{ type: "SUBAGENT_STARTED", subagentRunId: "sa", name: "research", parentToolCallId: "c1" }], []],
  [
    [{ type: "SUBAGENT_STARTED", subagentRunId: "sa", name: "research", description: "Dig" }],
    [{ type: "tool-call", id: "sa", name: "research", input: { description: "Dig" } }],
  ],
  [
    [{ type: "SUBAGENT_STARTED", subagentRunId: "sa", name: "research", parentToolCallId: "c1" }, { type: "SUBAGENT_FINISHED", subagentRunId: "sa", result: 1 }],
    [{ type: "finish", reason: "stop" }],
  ],
  [
    [{ type: "SUBAGENT_STARTED", subagentRunId: "sa", name: "research" }, { type: "SUBAGENT_ERROR", subagentRunId: "sa", message: "Lost" }],
    [{ type: "error", error: "Lost" }, { type: "tool-error", id: "sa", error: { message: "Lost" } }],
  ],

  // The retired THINKING_* events of pre-1.0 servers, as @ag-ui/client translates them.
  [[{ type: "THINKING_START", title: "Working" }], []],
  [[{ type: "RUN_STARTED", threadId: "t", runId: "r" }, { type: "THINKING_TEXT_MESSAGE_START" }], [{ type: "reasoning", messageId: "r-thinking-1", text: "" }]],
  [[{ type: "THINKING_TEXT_MESSAGE_START" }, { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "Hm" }], [{ type: "reasoning-delta", messageId: "run-thinking-1", text: "Hm" }]],
  [[{ type: "THINKING_TEXT_MESSAGE_START" }, { type: "THINKING_TEXT_MESSAGE_END" }, { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "lost" }], []],
  [[{ type: "THINKING_END" }], []],
];

test("the rows cover all 31 AG-UI 1.0 event types and the 5 retired THINKING_* ones", () => {
  const covered = new Set(rows.flatMap(([events]) => events.map((event) => event.type)));
  const thinking = ["THINKING_START", "THINKING_END", "THINKING_TEXT_MESSAGE_START", "THINKING_TEXT_MESSAGE_CONTENT", "THINKING_TEXT_MESSAGE_END"];
  assert.deepEqual([...covered].sort(), [...Object.values(EventType), ...thinking].sort());
});

for (const [events, parts] of rows) {
  test(`createAgUiTranslator: ${events.map((event) => JSON.stringify(event)).join(", ")}`, () => {
    assert.deepEqual(partsFor(events).at(-1), parts);
  });
}

test("a sub-agent's events go within its parent call; one without gets its own call, answered when it finishes", () => {
  const actions = run([
    { type: "SUBAGENT_STARTED", subagentRunId: "sa", name: "research", parentToolCallId: "c1" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "n1", delta: "nested", subagentRunId: "sa" },
    { type: "SUBAGENT_STARTED", subagentRunId: "sb", name: "sum", parentSubagentRunId: "sa" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "n2", delta: "deeper", subagentRunId: "sb" },
    { type: "SUBAGENT_FINISHED", subagentRunId: "sb", result: "ok" },
    { type: "SUBAGENT_FINISHED", subagentRunId: "sa", outcome: { type: "suspended", interruptIds: ["i9"] } },
  ]);
  assert.deepEqual(actions[1], [{ type: "part", part: { type: "text-delta", messageId: "n1", text: "nested" }, within: "c1" }]);
  assert.deepEqual(actions[2], [{ type: "part", part: { type: "tool-call", id: "sb", name: "sum", input: {} }, within: "c1" }]);
  assert.deepEqual(actions[3][0].within, "sb");
  assert.deepEqual(actions[4], [
    { type: "part", part: { type: "finish", reason: "stop" }, within: "sb" },
    { type: "part", part: { type: "tool-result", id: "sb", output: "ok" }, within: "c1" },
  ]);
  // Suspended: its run ends; its open calls (the interrupts) stay open.
  assert.deepEqual(actions[5], [{ type: "part", part: { type: "finish", reason: "stop" }, within: "c1" }]);
});

test("chunk lanes: an id-less chunk continues the open entity; another event closes it", () => {
  const parts = partsFor([
    { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "f", delta: '{"a":' },
    { type: "TOOL_CALL_CHUNK", delta: "1}" },
    { type: "STEP_FINISHED", stepName: "s" },
    { type: "TOOL_CALL_CHUNK", delta: "lost" },
    { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "a" },
    { type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "b" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ]);
  assert.deepEqual(parts[1], [{ type: "tool-input-delta", id: "c1", text: "1}" }]);
  assert.deepEqual(parts[2], [{ type: "tool-input-end", id: "c1" }, { type: "step-finish" }]);
  assert.deepEqual(parts[3], []);
  assert.deepEqual(parts[5], [{ type: "message-start", messageId: "m2" }, { type: "text-delta", messageId: "m2", text: "b" }]);
  assert.deepEqual(parts[6], [{ type: "finish", reason: "stop" }]);
});

test("RUN_FINISHED's usage goes to the run's last assistant message", () => {
  const parts = partsFor([
    { type: "TEXT_MESSAGE_START", messageId: "m1" },
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r", usage: [{ inputTokens: 3 }] },
  ]);
  assert.deepEqual(parts[2][0], { type: "message-metadata", messageId: "m1", metadata: { "ag-ui": { usage: [{ inputTokens: 3 }] } } });
});

test("createAgUiTranslator never throws: values that are not events give []", () => {
  const translate = createAgUiTranslator();
  for (const value of [undefined, null, 0, "RUN_FINISHED", [], { type: "hasOwnProperty" }, { type: "TOOL_CALL_START" }, { type: "TEXT_MESSAGE_CHUNK" }, { type: "MESSAGES_SNAPSHOT", messages: [1, null, { id: 2 }] }]) {
    assert.ok(Array.isArray(translate(value)));
  }
});

const agUiThread = [
  { id: "sys", role: "system", content: "Be brief" },
  { id: "u1", role: "user", content: [{ type: "text", text: "Look at " }, { type: "image", source: { type: "url", value: "https://i" } }] },
  { id: "r1", role: "reasoning", content: "Thinking", encryptedValue: "enc" },
  {
    id: "m1",
    role: "assistant",
    content: "Checking",
    toolCalls: [
      { id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } },
      { id: "c2", type: "function", function: { name: "fetch", arguments: "{bad" } },
      { id: "c3", type: "function", function: { name: "wait", arguments: "" } },
    ],
  },
  { id: "t1", role: "tool", toolCallId: "c1", content: "found" },
  { id: "t2", role: "tool", toolCallId: "c3", content: "", error: "Timed out" },
  { id: "act", role: "activity", activityType: "plan", content: { steps: ["a"] } },
];

test("fromAgUiMessages: tool messages folded into their calls, reasoning and activities as assistant messages", () => {
  const messages = fromAgUiMessages(agUiThread);
  assert.deepEqual(messages.map((m) => m.id), ["u1", "r1", "m1", "act"]);
  assert.deepEqual(messages[0].parts, [{ type: "text", text: "Look at " }, { type: "data", name: "image", data: { source: { type: "url", value: "https://i" } } }]);
  assert.deepEqual(messages[1], { id: "r1", role: "assistant", parts: [{ type: "reasoning", text: "Thinking" }], metadata: { "ag-ui": { encryptedValue: "enc" } } });
  assert.deepEqual(messages[2].parts, [
    { type: "text", text: "Checking" },
    { type: "tool", id: "c1", name: "search", input: { q: "x" }, inputText: '{"q":"x"}', state: "done", output: "found", metadata: { "ag-ui": { toolMessageId: "t1" } } },
    { type: "tool", id: "c2", name: "fetch", input: null, inputText: "{bad", state: "error", error: { message: "The tool input is not valid JSON", code: "invalid_input" } },
    { type: "tool", id: "c3", name: "wait", input: {}, inputText: "", state: "error", error: { message: "Timed out" }, metadata: { "ag-ui": { toolMessageId: "t2" } } },
  ]);
  assert.deepEqual(messages[3].parts, [{ type: "data", name: "plan", id: "act", data: { steps: ["a"] } }]);
});

test("fromAgUiMessages: duplicate message and call ids are kept once; non-messages skipped", () => {
  const messages = fromAgUiMessages([
    { id: "m", role: "assistant", toolCalls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] },
    { id: "m", role: "user", content: "dup" },
    { id: "m2", role: "assistant", toolCalls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] },
    null,
    "x",
    { role: "user", content: "no id" },
  ]);
  assert.deepEqual(messages.map((m) => [m.id, m.parts.length]), [["m", 1], ["m2", 0]]);
});

test("toAgUiInput: RunAgentInputSchema accepts the messages; a thread comes back as it went in", () => {
  const state = { messages: fromAgUiMessages(agUiThread), status: "idle" };
  const { messages, resume } = toAgUiInput(state);
  assert.deepEqual(resume, []);
  RunAgentInputSchema.parse({ threadId: "t", runId: "r", messages, tools: [], context: [], resume });
  const byId = Object.fromEntries(messages.map((m) => [m.id, m]));
  assert.deepEqual(byId.m1.toolCalls.map((c) => c.function.arguments), ['{"q":"x"}', "{bad", "{}"]);
  assert.deepEqual(byId.t1, { id: "t1", role: "tool", toolCallId: "c1", content: "found" });
  assert.deepEqual(byId.t2, { id: "t2", role: "tool", toolCallId: "c3", content: "", error: "Timed out" });
  assert.deepEqual(byId.r1, { id: "r1", role: "reasoning", content: "Thinking", encryptedValue: "enc" });
  assert.deepEqual(byId.act, { id: "act", role: "activity", activityType: "plan", content: { steps: ["a"] } });
  assert.deepEqual(byId.u1.content, [{ type: "text", text: "Look at " }, { type: "image", source: { type: "url", value: "https://i" } }]);
  // Tool messages follow their assistant message, as providers require.
  assert.deepEqual(messages.map((m) => m.id), ["u1", "r1", "m1", "t1", "c2-result", "t2", "act"]);
  // And back again: the same session messages.
  assert.deepEqual(fromAgUiMessages(messages).map((m) => m.id), state.messages.map((m) => m.id));
});

// A user's attachments as the session holds them (SPEC v3 `send` with `parts`).
const attachments = [
  { type: "text", text: "What do these say?" },
  { type: "data", name: "file", data: { mediaType: "image/png", url: "data:image/png;base64,iVBORw==", filename: "dot.png" } },
  { type: "data", name: "file", id: "f2", data: { mediaType: "application/pdf", url: "https://files.example/report.pdf", filename: "report.pdf" } },
  { type: "data", name: "file", data: { mediaType: "audio/mpeg", url: "data:audio/mpeg;base64,SUQz" } },
  { type: "data", name: "file", data: { mediaType: "text/plain", url: "data:text/plain,Hello%20there" } },
];

test("toAgUiInput: a user's file parts are AG-UI media parts (base64 inline for a data: URL, else the URL) that UserMessageSchema accepts", () => {
  const { messages } = toAgUiInput({ messages: [{ id: "u1", role: "user", parts: attachments }], status: "idle" });
  assert.deepEqual(messages[0].content, [
    { type: "text", text: "What do these say?" },
    { type: "image", source: { type: "data", value: "iVBORw==", mimeType: "image/png" }, metadata: { filename: "dot.png" } },
    { type: "document", id: "f2", source: { type: "url", value: "https://files.example/report.pdf", mimeType: "application/pdf" }, metadata: { filename: "report.pdf" } },
    { type: "audio", source: { type: "data", value: "SUQz", mimeType: "audio/mpeg" } },
    // Not base64: sent as the URL it is, so it comes back unchanged.
    { type: "document", source: { type: "url", value: "data:text/plain,Hello%20there", mimeType: "text/plain" } },
  ]);
  assert.equal(UserMessageSchema.safeParse(messages[0]).success, true);
  RunAgentInputSchema.parse({ threadId: "t", runId: "r", messages, tools: [], context: [], resume: [] });
  // And back: the same parts, so a server reading the body stores what the client holds.
  assert.deepEqual(fromAgUiMessages(messages)[0].parts, attachments);
});

test("toAgUiInput: a user message of text alone stays a plain string; app data parts are not sent", () => {
  const parts = [{ type: "text", text: "Hi " }, { type: "data", name: "weather", data: { city: "Paris" } }, { type: "text", text: "there" }];
  const { messages } = toAgUiInput({ messages: [{ id: "u1", role: "user", parts }], status: "idle" });
  assert.equal(messages[0].content, "Hi there");
});

test("fromAgUiMessages: an AG-UI client's media parts are file parts when they write back as they came, else data parts kept whole", () => {
  const content = [
    { type: "image", source: { mimeType: "image/jpeg", type: "data", value: "/9j/" } },
    { type: "video", id: "v", source: { type: "url", value: "https://v.example/a.mp4", mimeType: "video/mp4" }, metadata: { filename: "a.mp4" } },
    // No media type, a provider's handle, metadata of its own, a data: URL given as a URL, a type
    // the media type does not make: each would come back otherwise, so each is a data part.
    { type: "image", source: { type: "url", value: "https://i" } },
    { type: "document", source: { type: "file", value: "file-abc", provider: "openai", mimeType: "application/pdf" } },
    { type: "image", source: { type: "data", value: "AA==", mimeType: "image/png" }, metadata: { filename: "a.png", alt: "A dot" } },
    { type: "image", source: { type: "url", value: "data:image/png;base64,AA==", mimeType: "image/png" } },
    { type: "image", source: { type: "data", value: "JVBE", mimeType: "application/pdf" } },
  ];
  const [message] = fromAgUiMessages([{ id: "u1", role: "user", content }]);
  assert.deepEqual(message.parts.slice(0, 2), [
    { type: "data", name: "file", data: { mediaType: "image/jpeg", url: "data:image/jpeg;base64,/9j/" } },
    { type: "data", name: "file", id: "v", data: { mediaType: "video/mp4", url: "https://v.example/a.mp4", filename: "a.mp4" } },
  ]);
  assert.deepEqual(message.parts.slice(2).map((part) => part.name), ["image", "document", "image", "image", "image"]);
  const [back] = toAgUiInput({ messages: [message], status: "idle" }).messages;
  assert.deepEqual(back.content.slice(2), content.slice(2));
  assert.equal(UserMessageSchema.safeParse(back).success, true);
});

const asked = (id, fields) => ({
  type: "tool",
  id,
  name: "pick_contact",
  input: {},
  state: "awaiting-confirmation",
  approval: { id, details: { id, reason: "pick_contact", message: "Which?" } },
  ...fields,
});

test("toAgUiInput: resume answers every open interrupt of the last run, from the call's state", () => {
  const messages = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Email Ann" }] },
    {
      id: "m1",
      role: "assistant",
      parts: [
        { type: "text", text: "Need input" },
        { type: "tool", id: "c1", name: "send_mail", input: {}, state: "running", approval: { id: "i2", approved: true, details: { id: "i2", reason: "tool_approval", toolCallId: "c1" } } },
        asked("i1", { state: "done", output: { contact: "Ann" }, approval: { id: "i1", approved: true, details: { id: "i1", reason: "pick_contact" } } }),
        asked("i3"),
        asked("i4", { state: "error", error: { message: "no", code: "denied" }, approval: { id: "i4", approved: false, reason: "no", details: { id: "i4", reason: "pick_contact" } } }),
      ],
    },
  ];
  const { messages: input, resume } = toAgUiInput({ messages, status: "idle" });
  assert.deepEqual(resume, [
    { interruptId: "i2", status: "resolved", payload: { approved: true } },
    { interruptId: "i1", status: "resolved", payload: { contact: "Ann" } },
    { interruptId: "i3", status: "cancelled" },
    { interruptId: "i4", status: "resolved", payload: { approved: false, reason: "no" } },
  ]);
  // Run-level interrupts are not calls the server made: they are answered through resume only.
  assert.deepEqual(input.find((m) => m.id === "m1").toolCalls.map((c) => c.id), ["c1"]);
  RunAgentInputSchema.parse({ threadId: "t", runId: "r", messages: input, tools: [], context: [], resume });
});

test("toAgUiInput: interrupts already followed by a later run's content are not resumed again; interruptIds picks them explicitly", () => {
  const messages = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Go" }] },
    { id: "m1", role: "assistant", parts: [asked("i1", { state: "done", output: 1, approval: { id: "i1", approved: true, details: { id: "i1", reason: "pick_contact" } } })] },
    { id: "m2", role: "assistant", parts: [{ type: "text", text: "Thanks, done." }] },
  ];
  assert.deepEqual(toAgUiInput({ messages, status: "idle" }).resume, []);
  assert.deepEqual(toAgUiInput({ messages, status: "idle" }, { interruptIds: ["i1", "gone"] }).resume, [
    { interruptId: "i1", status: "resolved", payload: 1 },
    { interruptId: "gone", status: "cancelled" },
  ]);
});

test("toAgUiInput: interrupts the user moved on from (send cancelled them) are resumed as cancelled", () => {
  const messages = [
    { id: "m1", role: "assistant", parts: [asked("i1", { state: "cancelled", error: { message: "Cancelled by the user", code: "cancelled" } })] },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Never mind" }] },
  ];
  assert.deepEqual(toAgUiInput({ messages, status: "streaming" }).resume, [{ interruptId: "i1", status: "cancelled" }]);
});

test("several runs in one stream: a RUN_STARTED after a finished or failed run continues; a RUN_ERROR after a finished run lands", () => {
  const actions = run([
    { type: "RUN_STARTED", threadId: "t", runId: "r1" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r1" },
    { type: "RUN_STARTED", threadId: "t", runId: "r2" },
    { type: "RUN_ERROR", message: "Boom" },
    { type: "RUN_STARTED", threadId: "t", runId: "r3" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r3" },
    { type: "RUN_ERROR", message: "Late" },
  ]);
  assert.deepEqual(actions[0], []);
  assert.deepEqual(actions[2], [{ type: "continue" }]);
  assert.deepEqual(actions[4], [{ type: "continue" }]);
  assert.deepEqual(actions[6], [{ type: "continue" }, { type: "part", part: { type: "error", error: "Late" } }]);
});

// [events, the error the run ends with]: the streams AG-UI says must fail.
const failures = [
  [[{ type: "TEXT_MESSAGE_START", messageId: "m1" }, { type: "RUN_FINISHED" }], "Cannot send 'RUN_FINISHED' while text messages are still active: m1"],
  [[{ type: "REASONING_MESSAGE_START", messageId: "r1" }, { type: "RUN_FINISHED" }], "Cannot send 'RUN_FINISHED' while reasoning messages are still active: r1"],
  [[{ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f" }, { type: "RUN_FINISHED" }], "Cannot send 'RUN_FINISHED' while tool calls are still active: c1"],
  [[{ type: "SUBAGENT_STARTED", subagentRunId: "sa", name: "n" }, { type: "RUN_FINISHED" }], "Cannot send 'RUN_FINISHED' while subagents are still active: sa"],
  [[{ type: "RUN_FINISHED", outcome: [{ type: "interrupt", interrupts: [interrupt] }] }], "RUN_FINISHED.outcome: expected object, received array"],
  [[{ type: "RUN_FINISHED", outcome: "interrupt" }], "RUN_FINISHED.outcome: expected object, received string"],
  [[{ type: "RUN_FINISHED", outcome: { type: "interrupt", interrupts: [interrupt, { ...interrupt, message: "Which other?" }] } }], "RUN_FINISHED.outcome: two interrupts carrying the id 'i1'"],
  [
    [{ type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "search", delta: "{" }, { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "delete", delta: "}" }],
    "TOOL_CALL_CHUNK: toolCallName 'delete' does not match the open stream's toolCallName 'search'",
  ],
  [
    [{ type: "TEXT_MESSAGE_CHUNK", messageId: "m1", role: "user", delta: "a" }, { type: "TEXT_MESSAGE_CHUNK", role: "assistant", delta: "b" }],
    "TEXT_MESSAGE_CHUNK: role 'assistant' does not match the open stream's role 'user'",
  ],
  [
    [
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "delete" },
    ],
    "TOOL_CALL_START: tool call 'c1' already exists with name 'search', not 'delete'",
  ],
  [
    [{ type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "f", subagentRunId: "s1" }, { type: "TOOL_CALL_END", toolCallId: "c1", subagentRunId: "s2" }],
    "Cannot send 'TOOL_CALL_END': subagentRunId 's2' does not match the tool call 'c1' opener's subagent 's1'",
  ],
  [
    [{ type: "TEXT_MESSAGE_START", messageId: "m1" }, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", subagentRunId: "s1" }],
    "Cannot send 'TEXT_MESSAGE_CONTENT': subagentRunId 's1' does not match the message 'm1' opener's subagent '(the parent agent)'",
  ],
];

for (const [events, message] of failures) {
  test(`the run fails: ${message}`, () => {
    const translate = createAgUiTranslator();
    const actions = events.map((event) => translate(event));
    assert.deepEqual(actions.at(-1).at(-1), { type: "part", part: { type: "error", error: message } });
    // What arrived before stays as it was given; the rest of the stream is ignored.
    assert.ok(actions.slice(0, -1).every((list) => list.every((action) => action.part?.type !== "error")));
    assert.deepEqual(translate({ type: "TEXT_MESSAGE_CONTENT", messageId: "m9", delta: "after" }), []);
    assert.deepEqual(translate({ type: "RUN_STARTED", threadId: "t", runId: "r2" }), []);
  });
}

test("an event without subagentRunId belongs to its opener's sub-agent", () => {
  const actions = run([
    { type: "SUBAGENT_STARTED", subagentRunId: "sa", name: "research", parentToolCallId: "c1" },
    { type: "TEXT_MESSAGE_START", messageId: "n1", subagentRunId: "sa" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "n1", delta: "nested" },
    { type: "TEXT_MESSAGE_END", messageId: "n1" },
  ]);
  assert.deepEqual(actions[2], [{ type: "part", part: { type: "text-delta", messageId: "n1", text: "nested" }, within: "c1" }]);
});

test("RUN_STARTED.input.messages the session does not hold are added, once, when the app says what it holds", () => {
  const input = { messages: [{ id: "u1", role: "user", content: "Hi" }, { id: "s1", role: "system", content: "x" }, { id: "m0", role: "assistant", content: "Earlier" }] };
  const held = [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }];
  const translate = createAgUiTranslator({ messages: held });
  assert.deepEqual(translate({ type: "RUN_STARTED", threadId: "t", runId: "r1", input }), [
    { type: "part", part: { type: "snapshot", messages: [{ id: "m0", role: "assistant", parts: [{ type: "text", text: "Earlier" }] }] } },
  ]);
  translate({ type: "RUN_FINISHED", threadId: "t", runId: "r1" });
  assert.deepEqual(translate({ type: "RUN_STARTED", threadId: "t", runId: "r2", input }), [{ type: "continue" }]);
  // Without the held messages, the translator cannot tell: nothing is added.
  assert.deepEqual(createAgUiTranslator()({ type: "RUN_STARTED", threadId: "t", runId: "r1", input }), []);
});

test("ACTIVITY_SNAPSHOT with replace: false leaves a message of its id as it is, one the session held included", () => {
  const event = { type: "ACTIVITY_SNAPSHOT", messageId: "m1", activityType: "plan", content: { a: 1 }, replace: false };
  assert.deepEqual(createAgUiTranslator({ messages: [{ id: "m1", role: "assistant", parts: [] }] })(event), []);
  assert.deepEqual(partsFor([{ type: "TEXT_MESSAGE_START", messageId: "m1" }, event]).at(-1), []);
  assert.equal(partsFor([event])[0][0].type, "snapshot");
});
