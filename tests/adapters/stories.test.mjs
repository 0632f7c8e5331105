// The failure stories of research/protocols.md (section 3), each as it happens to users of the
// libraries, and what the session does instead.
import assert from "node:assert/strict";
import { test } from "node:test";
import { convertToModelMessages, validateUIMessages } from "ai";
import { agUi, aiSdk, applyAll, core, needsV2 } from "./package.mjs";
import { aiSdkMessage } from "./peers.mjs";

const { sessionReducer } = core;
const sent = () => sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u1", text: "Go" });
const fromChunks = (state, chunks, options) => applyAll(state, chunks.map((chunk) => aiSdk.fromAiSdkChunk(chunk, options)));
const agUiRun = (state, events) => {
  const translate = agUi.createAgUiTranslator();
  return applyAll(state, events.map((event) => translate(event)));
};
const callsOf = (state) => state.messages.flatMap((message) => message.parts).filter((part) => part.type === "tool");
// A Web Storage in memory, as the storage functions accept one.
function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

const approvalTurn = [
  { type: "start", messageId: "a1" },
  { type: "tool-input-available", toolCallId: "c1", toolName: "delete_file", input: { path: "/scratch" } },
  { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1", reason: "Delete /scratch?" },
  { type: "finish", finishReason: "tool-calls" },
];

test("story: the stream is aborted while a call's input streams: no endless spinner (vercel/ai exp1)", needsV2, async () => {
  const chunks = [
    { type: "start", messageId: "a1" },
    { type: "tool-input-start", toolCallId: "c1", toolName: "write_file" },
    { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"path":"a.md","conte' },
  ];
  const { message } = await aiSdkMessage([...chunks, { type: "abort" }]);
  assert.equal(message.parts[0].state, "input-streaming", "ai leaves the call streaming for ever");
  // The server says abort, or the user presses Stop: either way the call gets an exit.
  for (const end of [(state) => fromChunks(state, [{ type: "abort" }]), (state) => sessionReducer(state, { type: "stop" })]) {
    const [call] = callsOf(end(fromChunks(sent(), chunks)));
    assert.equal(call.state, "cancelled");
    assert.equal(call.inputText, '{"path":"a.md","conte');
  }
});

test("story: a replayed stream after a reconnect doubles nothing (vercel/ai #14688, #18457; langgraphjs #2327)", needsV2, () => {
  const turn = [
    { type: "start", messageId: "a1" },
    { type: "reasoning-start", id: "r" },
    { type: "reasoning-delta", id: "r", delta: "Plan" },
    { type: "reasoning-end", id: "r" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Hel" },
    { type: "text-delta", id: "t", delta: "lo" },
    { type: "tool-input-available", toolCallId: "c1", toolName: "search", input: {} },
  ];
  const beforeDrop = fromChunks(sent(), turn.slice(0, 6));
  // The reconnect replays the whole message from its start.
  const resumed = sessionReducer(beforeDrop, { type: "continue" });
  const replayed = fromChunks(resumed, [...turn, { type: "finish" }], { replay: true });
  assert.deepEqual(replayed.messages.map((m) => m.id), ["u1", "a1"]);
  assert.deepEqual(replayed.messages[1].parts.map((part) => part.text ?? part.id), ["Plan", "Hello", "c1"]);
  // Without the option the replay appends onto what is held: the bug the option is for.
  const doubled = fromChunks(resumed, turn.slice(4, 6));
  assert.equal(doubled.messages[1].parts.at(-1).text, "HelHel");
});

test("story: AG-UI reconnects with a MESSAGES_SNAPSHOT: reconciled by id, nothing doubled (ag-ui #1926)", needsV2, () => {
  const streamed = agUiRun(sent(), [
    { type: "TEXT_MESSAGE_START", messageId: "m1" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hel" },
  ]);
  const reconnected = agUiRun(sessionReducer(streamed, { type: "continue" }), [
    { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u1", role: "user", content: "Go" }, { id: "m1", role: "assistant", content: "Hello" }] },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ]);
  assert.deepEqual(reconnected.messages.map((m) => [m.id, m.parts.map((part) => part.text).join("")]), [["u1", "Go"], ["m1", "Hello"]]);
  // The user's message is the same object: equal messages keep their identity.
  assert.equal(reconnected.messages[0], streamed.messages[0]);
});

// The SPEC decides that loading applies `stop`: a reload never shows a call as waiting.
// SPEC v3 reverses the v2 load rule this story first asserted (a reload cancelled the question,
// and the model was told "Cancelled by the user", which the user never did).
test("story: approval then reload: the question survives the reload, and its answer goes back in the next request (vercel/ai #4584, #10638)", needsV2, async () => {
  const asked = fromChunks(sent(), approvalTurn);
  assert.deepEqual([asked.status, callsOf(asked)[0].state], ["idle", "awaiting-confirmation"]);
  const storage = memoryStorage();
  core.saveSession("chat", asked, storage);
  const reloaded = core.loadSession("chat", storage);
  const [call] = callsOf(reloaded);
  assert.deepEqual([call.state, call.approval.id, call.prompt], ["awaiting-confirmation", "ap1", "Delete /scratch?"]);
  const approved = sessionReducer(reloaded, { type: "part", part: { type: "tool-approval-response", approvalId: "ap1", approved: true } });
  const model = await convertToModelMessages(await validateUIMessages({ messages: aiSdk.toAiSdkMessages(approved.messages) }));
  const response = model.flatMap((m) => (m.role === "tool" ? m.content : [])).find((c) => c.type === "tool-approval-response");
  assert.deepEqual([response.approvalId, response.approved], ["ap1", true]);
  assert.doesNotMatch(JSON.stringify(model), /Cancelled by the user/);
});

test("story: an approval answered after the run goes back in the next request (vercel/ai #9968, PR #16352)", needsV2, async () => {
  const asked = fromChunks(sent(), approvalTurn);
  const approved = sessionReducer(asked, { type: "part", part: { type: "tool-approval-response", approvalId: "ap1", approved: true } });
  assert.deepEqual(callsOf(approved)[0].approval, { id: "ap1", approved: true, details: { reason: "Delete /scratch?" } });
  const model = await convertToModelMessages(await validateUIMessages({ messages: aiSdk.toAiSdkMessages(approved.messages) }));
  const response = model.flatMap((m) => (m.role === "tool" ? m.content : [])).find((c) => c.type === "tool-approval-response");
  assert.deepEqual([response.approvalId, response.approved], ["ap1", true]);
});

test("story: the user sends while a call waits: it is cancelled and the model is told (assistant-ui #2757, vercel/ai #4584)", needsV2, async () => {
  const asked = fromChunks(sent(), approvalTurn);
  const movedOn = sessionReducer(asked, { type: "send", id: "u2", text: "Never mind, list it instead" });
  assert.equal(callsOf(movedOn)[0].state, "cancelled");
  // Every call has an answer: no MissingToolResultsError, and the model reads why.
  const model = await convertToModelMessages(await validateUIMessages({ messages: aiSdk.toAiSdkMessages(movedOn.messages) }));
  const result = model.flatMap((m) => (m.role === "tool" ? m.content : [])).find((c) => c.toolCallId === "c1");
  assert.match(JSON.stringify(result.output), /Cancelled by the user/);
  // Over AG-UI the interrupt the user walked away from is resumed as cancelled.
  const interrupted = agUiRun(sent(), [{ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "pick_contact" }] } }]);
  const sentAgain = sessionReducer(interrupted, { type: "send", id: "u2", text: "Skip it" });
  assert.deepEqual(agUi.toAgUiInput(sentAgain).resume, [{ interruptId: "i1", status: "cancelled" }]);
});

test("story: a resumed stream that starts with a text delta appends, where ai throws (vercel/ai #13160, #19321)", needsV2, async () => {
  const partial = fromChunks(sent(), [{ type: "start", messageId: "a1" }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hel" }]);
  const resumedChunks = [{ type: "text-delta", id: "t", delta: "lo" }, { type: "finish" }];
  const { errors } = await aiSdkMessage(resumedChunks, { id: "a1", role: "assistant", parts: [{ type: "text", text: "Hel" }] });
  assert.match(errors[0].message, /missing text part/);
  const resumed = fromChunks(sessionReducer(partial, { type: "continue" }), resumedChunks);
  assert.equal(resumed.messages[1].parts[0].text, "Hello");
  assert.equal(resumed.status, "idle");
});

test("story: RUN_FINISHED with an interrupt outcome keeps it answerable; a later plain RUN_FINISHED does not clear it (ag-ui #2701, assistant-ui #6500)", needsV2, () => {
  const interrupted = agUiRun(sent(), [
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "send_mail", parentMessageId: "m1" },
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    { type: "TOOL_CALL_START", toolCallId: "c2", toolCallName: "confirm_in_ui", parentMessageId: "m1" },
    { type: "TOOL_CALL_END", toolCallId: "c2" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "tool_approval", toolCallId: "c1", message: "Send it?" }] } },
  ]);
  assert.deepEqual(callsOf(interrupted).map((call) => call.state), ["awaiting-confirmation", "running"]);
  // Another run that only finishes changes neither the question nor the client-side call.
  const later = agUiRun(sessionReducer(interrupted, { type: "continue" }), [{ type: "RUN_FINISHED", threadId: "t", runId: "r2", outcome: { type: "success", pendingToolCallIds: ["c2"] } }]);
  assert.deepEqual(callsOf(later).map((call) => call.state), ["awaiting-confirmation", "running"]);
  // The client-side call is answered after the run finished (answers apply in any status).
  const answered = sessionReducer(later, { type: "part", part: { type: "tool-result", id: "c2", output: "confirmed" } });
  assert.equal(callsOf(answered)[1].state, "done");
  assert.deepEqual(agUi.toAgUiInput(answered).resume, [{ interruptId: "i1", status: "cancelled" }]);
});
