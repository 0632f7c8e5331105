// The adapters' `replay` option: a reconnect that replays a run from its start (AI SDK 7's
// `GET {api}/{id}/stream`, an AG-UI connect to an active run) must end where the run would have
// ended had the connection never dropped, wherever it dropped: nothing doubled (vercel/ai
// #14688), nothing landing in another turn's message (vercel/ai #18107).
import assert from "node:assert/strict";
import { test } from "node:test";
import { agUi, aiSdk, applyAll, core, needsV3 } from "./package.mjs";

const { sessionReducer } = core;
const sent = (state, id, text) => sessionReducer(state, { type: "send", id, text });
const fresh = () => sent({ messages: [], status: "idle" }, "u1", "Go");

const aiSdkRun = (state, chunks, options) => applyAll(state, chunks.map((chunk) => aiSdk.fromAiSdkChunk(chunk, options)));
function agUiRun(state, events, options) {
  const translate = agUi.createAgUiTranslator(options);
  return applyAll(state, events.map((event) => translate(event)));
}

// What a reconnect starts from: the session as the drop left it (still streaming), or as a reload
// restores it (the load rule stops it, and the hook's `continue` sets it streaming again).
const afterDrop = (state) => state;
const afterReload = (state) => sessionReducer(sessionReducer(undefined, { type: "load", state }), { type: "continue" });

/** Every cut point, both ways of coming back: the replay ends as the uninterrupted run. */
function assertEveryCutConverges(run, start, frames) {
  const whole = run(start, frames);
  assert.equal(whole.status, "idle");
  for (let cut = 0; cut <= frames.length; cut += 1) {
    for (const [how, comeBack] of [["drop", afterDrop], ["reload", afterReload]]) {
      const partial = run(start, frames.slice(0, cut));
      const replayed = run(comeBack(partial), frames, { replay: true });
      assert.deepEqual(replayed, whole, `${how} after ${cut} of ${frames.length} frames`);
    }
  }
  return whole;
}

const aiSdkTurn = (messageId, text) => [
  { type: "start", messageId },
  { type: "start-step" },
  { type: "reasoning-start", id: "r" },
  { type: "reasoning-delta", id: "r", delta: "Plan it." },
  { type: "reasoning-end", id: "r" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: "Looking " },
  { type: "text-delta", id: "t1", delta: "it up." },
  { type: "text-end", id: "t1" },
  { type: "tool-input-start", toolCallId: `${messageId}-c1`, toolName: "search" },
  { type: "tool-input-delta", toolCallId: `${messageId}-c1`, inputTextDelta: '{"q":' },
  { type: "tool-input-delta", toolCallId: `${messageId}-c1`, inputTextDelta: '"rust"}' },
  { type: "tool-input-available", toolCallId: `${messageId}-c1`, toolName: "search", input: { q: "rust" } },
  { type: "tool-output-available", toolCallId: `${messageId}-c1`, output: { hits: 3 } },
  { type: "finish-step" },
  { type: "start-step" },
  { type: "text-start", id: "t2" },
  { type: "text-delta", id: "t2", delta: text },
  { type: "text-end", id: "t2" },
  { type: "finish-step" },
  { type: "finish", finishReason: "stop" },
];

test("ai-sdk replay: a reconnect at any chunk, after a drop or a reload, ends as the uninterrupted run (no doubled parts: vercel/ai #14688)", needsV3, () => {
  const whole = assertEveryCutConverges(aiSdkRun, fresh(), aiSdkTurn("a1", "Found 3."));
  assert.deepEqual(whole.messages[1].parts.map((part) => part.type), ["step", "reasoning", "text", "tool", "step", "text"]);
});

test("ai-sdk replay: the replayed message never adopts another turn's (vercel/ai #18107)", needsV3, () => {
  const firstTurn = aiSdkRun(fresh(), aiSdkTurn("a1", "First."));
  const asked = sent(firstTurn, "u2", "Again");
  // Dropped before the second reply's `start` arrived: the last assistant message is a1.
  const replayed = aiSdkRun(afterReload(asked), aiSdkTurn("a2", "Second."), { replay: true });
  assert.deepEqual(replayed.messages.map((message) => message.id), ["u1", "a1", "u2", "a2"]);
  // The earlier turn is untouched: the very same object.
  assert.equal(replayed.messages[1], firstTurn.messages[1]);
  assertEveryCutConverges(aiSdkRun, asked, aiSdkTurn("a2", "Second."));
});

test("ai-sdk replay: without the option the same replay doubles what was held (what the option is for)", needsV3, () => {
  const chunks = aiSdkTurn("a1", "Found 3.");
  const partial = aiSdkRun(fresh(), chunks.slice(0, 8));
  const doubled = aiSdkRun(partial, chunks);
  assert.notDeepEqual(doubled, aiSdkRun(fresh(), chunks));
  const texts = doubled.messages[1].parts.filter((part) => part.type === "text" || part.type === "reasoning").map((part) => part.text);
  assert.deepEqual(texts, ["Plan it.", "Looking it up.", "Plan it.", "Looking it up.", "Found 3."]);
});

const agUiEvents = (runId, reply) => [
  { type: "RUN_STARTED", threadId: "t", runId },
  { type: "REASONING_MESSAGE_START", messageId: `${runId}-r`, role: "reasoning" },
  { type: "REASONING_MESSAGE_CONTENT", messageId: `${runId}-r`, delta: "Plan it." },
  { type: "REASONING_MESSAGE_END", messageId: `${runId}-r` },
  { type: "TEXT_MESSAGE_START", messageId: `${runId}-m1`, role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: `${runId}-m1`, delta: "Looking " },
  { type: "TEXT_MESSAGE_CONTENT", messageId: `${runId}-m1`, delta: "it up." },
  { type: "TEXT_MESSAGE_END", messageId: `${runId}-m1` },
  { type: "TOOL_CALL_START", toolCallId: `${runId}-c1`, toolCallName: "search", parentMessageId: `${runId}-m1` },
  { type: "TOOL_CALL_ARGS", toolCallId: `${runId}-c1`, delta: '{"q":' },
  { type: "TOOL_CALL_ARGS", toolCallId: `${runId}-c1`, delta: '"rust"}' },
  { type: "TOOL_CALL_END", toolCallId: `${runId}-c1` },
  { type: "TOOL_CALL_RESULT", messageId: `${runId}-tm1`, toolCallId: `${runId}-c1`, content: "3 hits", role: "tool" },
  // A call without a parent message: a message of its own, keyed by the call id.
  { type: "TOOL_CALL_START", toolCallId: `${runId}-c2`, toolCallName: "delegate_to_researcher" },
  { type: "TOOL_CALL_ARGS", toolCallId: `${runId}-c2`, delta: "{}" },
  { type: "TOOL_CALL_END", toolCallId: `${runId}-c2` },
  { type: "SUBAGENT_STARTED", subagentRunId: `${runId}-sub`, name: "researcher", parentToolCallId: `${runId}-c2` },
  { type: "TEXT_MESSAGE_START", messageId: `${runId}-sm`, role: "assistant", subagentRunId: `${runId}-sub` },
  { type: "TEXT_MESSAGE_CONTENT", messageId: `${runId}-sm`, delta: "Nested.", subagentRunId: `${runId}-sub` },
  { type: "TEXT_MESSAGE_END", messageId: `${runId}-sm`, subagentRunId: `${runId}-sub` },
  { type: "SUBAGENT_FINISHED", subagentRunId: `${runId}-sub` },
  { type: "TOOL_CALL_RESULT", messageId: `${runId}-tm2`, toolCallId: `${runId}-c2`, content: "done", role: "tool" },
  { type: "STATE_SNAPSHOT", snapshot: { step: 2 } },
  { type: "TEXT_MESSAGE_START", messageId: `${runId}-m2`, role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: `${runId}-m2`, delta: reply },
  { type: "TEXT_MESSAGE_END", messageId: `${runId}-m2` },
  { type: "RUN_FINISHED", threadId: "t", runId },
];

test("ag-ui replay: a reconnect at any event, after a drop or a reload, ends as the uninterrupted run", needsV3, () => {
  const whole = assertEveryCutConverges(agUiRun, fresh(), agUiEvents("r1", "Found 3."));
  assert.deepEqual(whole.messages.map((message) => message.id), ["u1", "r1-r", "r1-m1", "r1-c2", "r1-m2"]);
  assert.equal(whole.messages[3].parts[0].agent.messages[0].parts[0].text, "Nested.");
});

test("ag-ui replay: an earlier turn's messages stay as they were, the same objects", needsV3, () => {
  const firstTurn = agUiRun(fresh(), agUiEvents("r1", "First."));
  const asked = sent(firstTurn, "u2", "Again");
  const whole = assertEveryCutConverges(agUiRun, asked, agUiEvents("r2", "Second."));
  const replayed = agUiRun(afterReload(agUiRun(asked, agUiEvents("r2", "Second.").slice(0, 9))), agUiEvents("r2", "Second."), { replay: true });
  assert.deepEqual(replayed, whole);
  for (let index = 0; index < firstTurn.messages.length; index += 1) assert.equal(replayed.messages[index], firstTurn.messages[index]);
});

test("ag-ui replay: a MESSAGES_SNAPSHOT holding the partial reply, then the run's events from its start: nothing doubled", needsV3, () => {
  const events = agUiEvents("r1", "Found 3.");
  const whole = agUiRun(fresh(), events);
  for (const cut of [6, 9, 13, 25]) {
    const partial = agUiRun(fresh(), events.slice(0, cut));
    // The server's view of the thread so far, as AG-UI messages (what a connect snapshot holds).
    const snapshot = { type: "MESSAGES_SNAPSHOT", messages: [
      { id: "u1", role: "user", content: "Go" },
      { id: "r1-r", role: "reasoning", content: "Plan it." },
      { id: "r1-m1", role: "assistant", content: "Looking it up." },
    ] };
    const replayed = agUiRun(afterReload(partial), [events[0], snapshot, ...events.slice(1)], { replay: true });
    assert.deepEqual(replayed.messages, whole.messages, `cut after ${cut}`);
  }
});

test("ag-ui replay: a connect that replays a finished run, then the active one, in one stream", needsV3, () => {
  const first = agUiEvents("r1", "First.");
  const second = agUiEvents("r2", "Second.");
  const whole = agUiRun(sent(agUiRun(fresh(), first), "u2", "Again"), second);
  // The server replays the thread's runs; the second run's input names the user message it answers.
  const secondStart = { ...second[0], input: { messages: [{ id: "u2", role: "user", content: "Again" }] } };
  const partial = agUiRun(sent(agUiRun(fresh(), first), "u2", "Again"), second.slice(0, 7));
  const replayed = agUiRun(afterReload(partial), [...first, secondStart, ...second.slice(1)], { replay: true, messages: partial.messages });
  assert.deepEqual(replayed.messages, whole.messages);
  assert.equal(replayed.status, "idle");
});
