// Random shapes through the translators: they never throw, and every action they return is one
// the reducer accepts (checkAction) and applies without throwing. Seeded, so a failure repeats;
// FUZZ_SEED picks another sequence, FUZZ_COUNT a longer one (`npm run fuzz:adapters`, which
// `npm run fuzz` runs after the differential fuzz: 100,000 objects per protocol). A new
// translator every STREAM objects: each is one stream. The draws come from the differential
// fuzz's generator (tests/fuzz/generate.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { EventType } from "@ag-ui/core";
import { createRandom } from "../fuzz/generate.mjs";
import { agUi, aiSdk, byteStream, chatStream, collect, core, needsV2 } from "./package.mjs";

const seed = Number(process.env.FUZZ_SEED ?? 20261130);
const count = Number(process.env.FUZZ_COUNT ?? 3000);
const STREAM = 40;

function shapes(random) {
  const { below, chance, pick } = random;
  // Ids from a small pool, so that random events meet the calls and messages others made.
  const id = () => pick(["c1", "c2", "m1", "m2", "i1", "sa", "__proto__", ""]);
  function value(depth = 0) {
    switch (below(depth > 2 ? 6 : 9)) {
      case 0: return undefined;
      case 1: return null;
      case 2: return chance(0.5);
      case 3: return below(100) - 50;
      case 4: return id();
      case 5: return pick(["", "{", '{"a":1}', "text", "\ud800"]);
      case 6: return Array.from({ length: below(3) }, () => value(depth + 1));
      case 7: return { op: pick(["add", "replace", "move", "copy", "nope"]), path: pick(["/a", "", "a"]), from: pick(["/b", "b", undefined]), value: value(depth + 1) };
      default: return Object.fromEntries(Array.from({ length: below(3) }, () => [pick(["a", "type", "id", "x"]), value(depth + 1)]));
    }
  }
  // An object of that type with random values in the fields the protocols use.
  function shaped(type, fields) {
    const object = { type };
    // Rarely attributed to a sub-agent: a stream whose events disagree on it fails at once.
    for (const field of fields) if (chance(field === "subagentRunId" ? 0.1 : 0.8)) object[field] = chance(0.6) && field.toLowerCase().endsWith("id") ? id() : value();
    return object;
  }
  return { value, shaped };
}

const aiSdkTypes = ["start", "text-start", "text-delta", "text-end", "reasoning-start", "reasoning-delta", "reasoning-end", "custom", "error", "tool-input-start", "tool-input-delta", "tool-input-available", "tool-input-error", "tool-approval-request", "tool-approval-response", "tool-output-available", "tool-output-error", "tool-output-denied", "source-url", "source-document", "file", "reasoning-file", "data-x", "steering-message", "start-step", "finish-step", "reset-step", "finish", "abort", "message-metadata", "future"];
const aiSdkFields = ["messageId", "messageMetadata", "id", "delta", "providerMetadata", "citations", "errorText", "toolCallId", "toolName", "input", "inputTextDelta", "approvalId", "approved", "reason", "isAutomatic", "output", "preliminary", "sourceId", "url", "title", "mediaType", "data", "transient", "finishReason", "dynamic", "providerExecuted"];
const agUiTypes = [...Object.values(EventType), "THINKING_START", "THINKING_TEXT_MESSAGE_START", "THINKING_TEXT_MESSAGE_CONTENT", "THINKING_TEXT_MESSAGE_END", "THINKING_END"];
const agUiFields = ["runId", "input", "messageId", "role", "delta", "toolCallId", "toolCallName", "parentMessageId", "content", "snapshot", "messages", "patch", "activityType", "replace", "outcome", "usage", "message", "code", "subagentRunId", "parentToolCallId", "parentSubagentRunId", "name", "subtype", "entityId", "encryptedValue", "metadata", "result"];
const chatStreamTypes = ["start", "delta", "tool", "thinking", "plan", "state", "queue", "compaction", "retry", "done", "error", "future"];
const chatStreamFields = ["id", "text", "messageId", "part", "phase", "message", "code", "state"];

// Streams of random objects for one protocol, some with the shapes its nested fields take.
function* randomStream(random, types, fields) {
  const { chance, pick } = random;
  const { value, shaped } = shapes(random);
  for (let i = 0; i < count; i++) {
    const object = chance(0.05) ? value() : shaped(pick(types), fields);
    if (object?.type === "RUN_FINISHED" && chance(0.5)) object.outcome = { type: "interrupt", interrupts: [{ id: pick(["i1", "i2"]), reason: "r", toolCallId: chance(0.5) ? "c1" : undefined }] };
    if (object?.type === "tool" && chance(0.7)) object.part = shaped(pick(["tool-Bash", "tool-Thinking"]), ["toolCallId", "state", "input", "output", "result", "errorText"]);
    const messages = () => [shaped("x", ["id", "role", "content", "toolCalls", "toolCallId"])].map((m) => ({ ...m, role: pick(["user", "assistant", "tool", "reasoning", "activity"]) }));
    if (object?.type === "MESSAGES_SNAPSHOT" && chance(0.7)) object.messages = messages();
    if (object?.type === "RUN_STARTED" && chance(0.5)) object.input = { messages: messages() };
    if (object?.type === "RUN_FINISHED" && chance(0.1)) object.outcome = pick([[], "interrupt", null, { type: "interrupt", interrupts: [{ id: "i1", reason: "r" }, { id: "i1", reason: "r" }] }]);
    yield object;
  }
}

const protocols = [
  ["ai-sdk", () => (chunk) => aiSdk.fromAiSdkChunk(chunk, { replay: chunk?.type === "start" }), aiSdkTypes, aiSdkFields],
  ["ag-ui", (random) => agUi.createAgUiTranslator(random.chance(0.5) ? { messages: [{ id: "m1", role: "user", parts: [] }] } : undefined), agUiTypes, agUiFields],
  ["chat-stream", () => chatStream.createChatStreamTranslator(), chatStreamTypes, chatStreamFields],
];

for (const [name, create, types, fields] of protocols) {
  test(`fuzz ${name}: random shapes never throw and give a list of part actions (or continue)`, () => {
    const random = createRandom(seed);
    let translate;
    let step = 0;
    for (const object of randomStream(random, types, fields)) {
      if (step++ % STREAM === 0) translate = create(random);
      const actions = translate(object);
      assert.ok(Array.isArray(actions));
      for (const action of actions) assert.ok(action.type === "part" || action.type === "continue", action.type);
    }
  });

  test(`fuzz ${name}: every action passes checkAction and the reducer applies it`, needsV2, () => {
    const random = createRandom(seed + 1);
    let translate;
    let state = core.sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u0", text: "Go" });
    let step = 0;
    for (const object of randomStream(random, types, fields)) {
      if (step % STREAM === 0) translate = create(random);
      const actions = translate(object);
      for (const action of actions) core.checkAction(action);
      state = core.sessionReducer(state, { type: "batch", actions });
      // Keep the run streaming now and then, so parts keep applying after a finish or an error.
      if (++step % 50 === 0) state = core.sessionReducer(state, { type: "continue" });
    }
  });
}

test("fuzz readers: random bytes give values or a coded invalid_json error, nothing else", async () => {
  const random = createRandom(seed + 2);
  const alphabet = ['{"a":1}', "data: ", "[DONE]", "\n", "\r", "\r\n", ":", "{", "x", "\u00e9", " "];
  for (let i = 0; i < 200; i++) {
    const pieces = Array.from({ length: 1 + random.below(12) }, () => random.pick(alphabet));
    for (const read of [aiSdk.readAiSdkStream, agUi.readAgUiStream, chatStream.readNdjson]) {
      try {
        await collect(read(byteStream([...pieces])));
      } catch (error) {
        assert.equal(error.code, "invalid_json", error.message);
      }
    }
  }
});
