// The baseline must be the SPEC's reducer, or the benchmark compares different work. These tests
// check it on rows of SPEC.md, then replay the workloads (smaller) and a mixed session through the
// baseline and the built package and require the same states.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";

import * as baseline from "./baseline.mjs";
import { batchedReply, conversation, replay, reply, toolInput, tools } from "./workloads.mjs";

const { sessionReducer, resumable } = baseline;
const EMPTY = { messages: [], status: "idle" };

const part = (part, within) => (within === undefined ? { type: "part", part } : { type: "part", part, within });
const play = (state, actions, reducer = sessionReducer) => actions.reduce(reducer, state);
const deepFreeze = (value) => {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    Object.values(value).forEach(deepFreeze);
  }
  return value;
};
const streaming = (...actions) => play(EMPTY, [{ type: "send", id: "u-1", text: "hi" }, ...actions]);
const lastParts = (state) => state.messages.at(-1).parts;

describe("baseline reducer follows SPEC.md", () => {
  it("plays the seed example: resumable keeps the user message and the finished call", () => {
    const state = streaming(
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "tool-call", messageId: "a-1", id: "call-1", name: "add_to_cart", input: { slug: "mug", qty: 2 } }),
      part({ type: "tool-result", id: "call-1", output: { content: [{ type: "text", text: "Added." }] } }),
      part({ type: "error", error: "Couldn't reach the assistant.", code: "network" }),
    );
    assert.equal(state.status, "error");
    assert.deepEqual(state.error, { message: "Couldn't reach the assistant.", code: "network" });
    assert.equal(resumable(state.messages).length, 2);
  });

  it("send appends a user message, streams and clears the error", () => {
    const failed = streaming(part({ type: "error", error: "down" }));
    assert.deepEqual(failed.error, { message: "down" });
    const next = sessionReducer(failed, { type: "send", id: "u-2", text: "again" });
    assert.deepEqual(next, {
      messages: [...failed.messages, { id: "u-2", role: "user", parts: [{ type: "text", text: "again" }] }],
      status: "streaming",
    });
  });

  it("ignores parts unless streaming, step-finish and unknown parts: the same object", () => {
    const idle = deepFreeze(play(streaming(part({ type: "text-delta", text: "a" })), [{ type: "stop" }]));
    assert.equal(sessionReducer(idle, part({ type: "text-delta", text: "late" })), idle);
    const live = deepFreeze(streaming());
    assert.equal(sessionReducer(live, part({ type: "step-finish" })), live);
    assert.equal(sessionReducer(live, part({ type: "data-weather", value: 1 })), live);
  });

  it("targets text: last assistant message, assistant-N, messageId, never a user message", () => {
    let state = streaming(part({ type: "text-delta", text: "Hel" }), part({ type: "text-delta", text: "lo" }));
    assert.deepEqual(state.messages[1], { id: "assistant-1", role: "assistant", parts: [{ type: "text", text: "Hello" }] });
    state = play(state, [
      part({ type: "tool-call", id: "c", name: "t", input: null }),
      part({ type: "text-delta", text: "after" }),
    ]);
    assert.deepEqual(lastParts(state).map((p) => p.type), ["text", "tool", "text"]);
    const frozen = deepFreeze(state);
    assert.equal(sessionReducer(frozen, part({ type: "text-delta", messageId: "u-1", text: "x" })), frozen);
    state = sessionReducer(frozen, part({ type: "reasoning", messageId: "a-9", text: "hmm", metadata: { s: 1 } }));
    assert.deepEqual(state.messages.at(-1), {
      id: "a-9", role: "assistant", parts: [{ type: "reasoning", text: "hmm", metadata: { s: 1 } }],
    });
  });

  it("ignores a replayed message-start and a call id already present anywhere", () => {
    const state = deepFreeze(streaming(
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "tool-call", id: "outer", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "inner", name: "t", input: {} }, "outer"),
    ));
    assert.equal(sessionReducer(state, part({ type: "message-start", messageId: "a-1" })), state);
    assert.equal(sessionReducer(state, part({ type: "tool-call", id: "inner", name: "t", input: {} })), state);
  });

  it("finishes calls: done with output, error, cancelled; prompt removed; closed calls stay closed", () => {
    let state = streaming(
      part({ type: "tool-call", id: "a", name: "t", input: 1 }),
      part({ type: "tool-call", id: "b", name: "t", input: 2 }),
      part({ type: "tool-call", id: "c", name: "t", input: 3 }),
      { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "ok?" },
      part({ type: "tool-result", id: "c", output: { ok: true } }),
      part({ type: "tool-error", id: "b", error: { message: "no", code: "cancelled" } }),
      part({ type: "tool-error", id: "a", error: { message: "boom" } }),
    );
    assert.deepEqual(lastParts(state), [
      { type: "tool", id: "a", name: "t", input: 1, state: "error", error: { message: "boom" } },
      { type: "tool", id: "b", name: "t", input: 2, state: "cancelled", error: { message: "no", code: "cancelled" } },
      { type: "tool", id: "c", name: "t", input: 3, state: "done", output: { ok: true } },
    ]);
    state = deepFreeze(state);
    assert.equal(sessionReducer(state, part({ type: "tool-result", id: "a", output: 0 })), state);
    assert.equal(sessionReducer(state, part({ type: "tool-error", id: "zz", error: { message: "?" } })), state);
  });

  it("finish idles; aborted or error cancel open calls and keep their prompt", () => {
    const live = streaming(
      part({ type: "tool-call", id: "a", name: "t", input: 1 }),
      { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "ok?" },
    );
    assert.equal(sessionReducer(live, part({ type: "finish" })).messages, live.messages);
    const aborted = sessionReducer(live, part({ type: "finish", reason: "aborted" }));
    assert.deepEqual(lastParts(aborted)[0], { type: "tool", id: "a", name: "t", input: 1, state: "cancelled", prompt: "ok?" });
    assert.equal(aborted.status, "idle");
    const failed = sessionReducer(live, part({ type: "error", error: "x", code: "rate_limited" }));
    assert.equal(lastParts(failed)[0].state, "cancelled");
  });

  it("applies parts within a call's sub-agent run, at any depth, ending only that run", () => {
    let state = streaming(
      part({ type: "tool-call", id: "outer", name: "delegate", input: {} }),
      part({ type: "text-delta", text: "nested" }, "outer"),
      part({ type: "tool-call", id: "inner", name: "delegate", input: {} }, "outer"),
      part({ type: "text-delta", text: "deep" }, "inner"),
      part({ type: "finish" }, "inner"),
    );
    const outer = lastParts(state)[0];
    assert.equal(state.status, "streaming");
    assert.equal(outer.agent.status, "streaming");
    assert.deepEqual(outer.agent.messages[0].parts[0], { type: "text", text: "nested" });
    const inner = outer.agent.messages[0].parts[1];
    assert.deepEqual(inner.agent, {
      messages: [{ id: "assistant-0", role: "assistant", parts: [{ type: "text", text: "deep" }] }],
      status: "idle",
    });
    state = deepFreeze(state);
    // The inner run is over; the call "nope" does not exist.
    assert.equal(sessionReducer(state, part({ type: "text-delta", text: "late" }, "inner")), state);
    assert.equal(sessionReducer(state, part({ type: "text-delta", text: "x" }, "nope")), state);
    // A finished call takes no more nested parts.
    const done = sessionReducer(state, part({ type: "tool-result", id: "inner", output: 1 }));
    assert.equal(sessionReducer(done, part({ type: "text-delta", text: "x" }, "inner")), done);
  });

  it("a call that leaves the open states stops the run still streaming behind it", () => {
    const state = streaming(
      part({ type: "tool-call", id: "outer", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "inner", name: "t", input: {} }, "outer"),
      part({ type: "tool-result", id: "outer", output: "done" }),
    );
    const outer = lastParts(state)[0];
    assert.equal(outer.state, "done");
    assert.equal(outer.agent.status, "idle");
    assert.equal(outer.agent.messages[0].parts[0].state, "cancelled");
  });

  it("toolPhase sets the newest open call by name, nested calls after their holder", () => {
    let state = streaming(
      part({ type: "tool-call", id: "old", name: "t", input: {} }),
      part({ type: "tool-call", id: "holder", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "nested", name: "t", input: {} }, "holder"),
    );
    state = sessionReducer(state, { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "Go?" });
    const [old, holder] = lastParts(state);
    assert.equal(old.state, "running");
    assert.deepEqual(holder.agent.messages[0].parts[0], {
      type: "tool", id: "nested", name: "t", input: {}, state: "awaiting-confirmation", prompt: "Go?",
    });
    state = deepFreeze(state);
    assert.equal(sessionReducer(state, { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "Go?" }), state);
    assert.equal(sessionReducer(state, { type: "toolPhase", name: "none", state: "running" }), state);
    const running = sessionReducer(state, { type: "toolPhase", name: "t", state: "running" });
    assert.equal("prompt" in lastParts(running)[1].agent.messages[0].parts[0], false);
  });

  it("stop cancels every open call, nested ones included, and idles nested runs", () => {
    const state = streaming(
      part({ type: "tool-call", id: "holder", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "nested", name: "t", input: {} }, "holder"),
      { type: "stop" },
    );
    const holder = lastParts(state)[0];
    assert.equal(state.status, "idle");
    assert.equal(holder.state, "cancelled");
    assert.equal(holder.agent.status, "idle");
    assert.equal(holder.agent.messages[0].parts[0].state, "cancelled");
    const frozen = deepFreeze(state);
    assert.equal(sessionReducer(frozen, { type: "stop" }), frozen);
  });

  it("retry resumes through the last finished call, or restarts the turn; reset empties", () => {
    const state = deepFreeze(streaming(
      part({ type: "text-delta", text: "a" }),
      part({ type: "tool-call", id: "done", name: "t", input: {} }),
      part({ type: "tool-result", id: "done", output: 1 }),
      part({ type: "tool-call", id: "open", name: "t", input: {} }),
      part({ type: "error", error: "x" }),
    ));
    const retried = sessionReducer(state, { type: "retry" });
    assert.equal(retried.status, "streaming");
    assert.equal("error" in retried, false);
    assert.deepEqual(lastParts(retried).map((p) => p.id ?? p.type), ["text", "done"]);
    const noCall = play(EMPTY, [{ type: "send", id: "u", text: "q" }, part({ type: "text-delta", text: "cut" }), { type: "retry" }]);
    assert.equal(noCall.messages.length, 1);
    const noUser = deepFreeze({ messages: [], status: "idle" });
    assert.equal(sessionReducer(noUser, { type: "retry" }), noUser);
    assert.deepEqual(sessionReducer(state, { type: "reset" }), EMPTY);
  });

  it("shares every message and part that did not change", () => {
    const before = deepFreeze(play(conversation(3), [
      { type: "send", id: "u", text: "q" },
      part({ type: "tool-call", id: "c", name: "t", input: {} }),
      part({ type: "text-delta", text: "a" }),
    ]));
    const after = sessionReducer(before, part({ type: "text-delta", text: "b" }));
    after.messages.slice(0, -1).forEach((message, i) => assert.equal(message, before.messages[i]));
    assert.equal(lastParts(after)[0], lastParts(before)[0]);
    assert.equal(lastParts(after)[1].text, "ab");
  });
});

describe("baseline reducer follows the v2 rows of SPEC.md", () => {
  const call = (id, name = "t", extra = {}) => part({ type: "tool-call", id, name, input: {}, ...extra });
  const callsOf = (state) => lastParts(state).filter((p) => p.type === "tool");

  it("send cancels open calls when not streaming, nothing while streaming; agentState stays", () => {
    const live = streaming(call("a"), call("holder", "delegate"), call("inner", "t", {}), part({ type: "finish" }));
    const withState = play(live, [{ type: "continue" }, part({ type: "agent-state", snapshot: { n: 1 } }), part({ type: "finish" })]);
    const sent = sessionReducer(deepFreeze(withState), { type: "send", id: "u-2", text: "next" });
    assert.deepEqual(sent.messages[1].parts.map((p) => p.state), ["cancelled", "cancelled", "cancelled"]);
    assert.deepEqual(sent.agentState, { n: 1 });
    // (v3: a send while streaming is queued, and cancels nothing.)
    const running = deepFreeze(streaming(call("a")));
    const queued = sessionReducer(running, { type: "send", id: "u-2", text: "queued" });
    assert.equal(queued.messages, running.messages);
  });

  it("continue streams and clears the error; already streaming: the same object", () => {
    const failed = streaming(part({ type: "error", error: "down" }));
    assert.deepEqual(sessionReducer(failed, { type: "continue" }), { messages: failed.messages, status: "streaming" });
    const live = deepFreeze(streaming());
    assert.equal(sessionReducer(live, { type: "continue" }), live);
  });

  it("batch applies in order as one action, skips unknown types, and gives the same object for no change", () => {
    const live = deepFreeze(streaming());
    const batched = sessionReducer(live, { type: "batch", actions: [
      part({ type: "text-delta", text: "a" }),
      { type: "batch", actions: [part({ type: "text-delta", text: "b" }), { type: "@@redux/INIT.x" }] },
    ] });
    assert.deepEqual(lastParts(batched), [{ type: "text", text: "ab" }]);
    assert.equal(sessionReducer(live, { type: "batch", actions: [part({ type: "step-finish" }), { type: "continue" }] }), live);
  });

  it("Redux: an undefined state is the empty session; an unknown string type returns the state", () => {
    assert.deepEqual(sessionReducer(undefined, { type: "@@redux/INIT.a.b" }), EMPTY);
    assert.deepEqual(sessionReducer(undefined, { type: "send", id: "u", text: "x" }).status, "streaming");
    const live = deepFreeze(streaming());
    assert.equal(sessionReducer(live, { type: "todos/added" }), live);
  });

  it("streams a call's input, parses it once at the end, and takes a tool-call for it", () => {
    let state = streaming(
      part({ type: "tool-input-delta", id: "a", name: "t", text: '{"q":' }),
      part({ type: "tool-input-delta", id: "a", text: " 1}" }),
      part({ type: "tool-input-delta", id: "b", text: "ignored: no name, no call" }),
    );
    assert.deepEqual(callsOf(state), [{ type: "tool", id: "a", name: "t", input: null, inputText: '{"q": 1}', state: "input-streaming" }]);
    state = deepFreeze(state);
    assert.equal(sessionReducer(state, part({ type: "tool-input-delta", id: "a", name: "t", text: "" })), state);
    assert.deepEqual(callsOf(sessionReducer(state, part({ type: "tool-input-end", id: "a" })))[0],
      { type: "tool", id: "a", name: "t", input: { q: 1 }, inputText: '{"q": 1}', state: "running" });
    assert.deepEqual(callsOf(sessionReducer(state, part({ type: "tool-call", id: "a", name: "t2", input: [2] })))[0],
      { type: "tool", id: "a", name: "t2", input: [2], inputText: '{"q": 1}', state: "running" });
    const blank = streaming(part({ type: "tool-input-delta", id: "c", name: "t", text: " \n" }), part({ type: "tool-input-end", id: "c" }));
    assert.deepEqual(callsOf(blank)[0].input, {});
    const broken = streaming(part({ type: "tool-input-delta", id: "c", name: "t", text: "{" }), part({ type: "tool-input-end", id: "c" }));
    assert.deepEqual(callsOf(broken)[0], {
      type: "tool", id: "c", name: "t", input: null, inputText: "{", state: "error",
      error: { message: "The tool input is not valid JSON", code: "invalid_input" },
    });
  });

  it("toolPhase and approval requests by name never pick a call whose input is streaming; stop cancels it", () => {
    const state = deepFreeze(streaming(call("a"), part({ type: "tool-input-delta", id: "b", name: "t", text: "{" })));
    const asked = sessionReducer(state, { type: "toolPhase", name: "t", state: "awaiting-confirmation" });
    assert.deepEqual(callsOf(asked).map((p) => p.state), ["awaiting-confirmation", "input-streaming"]);
    const requested = sessionReducer(state, part({ type: "tool-approval-request", name: "t" }));
    assert.deepEqual(callsOf(requested).map((p) => p.state), ["awaiting-confirmation", "input-streaming"]);
    assert.equal(sessionReducer(state, part({ type: "tool-approval-request", id: "b" })), state);
    assert.deepEqual(callsOf(sessionReducer(state, { type: "stop" })).map((p) => p.state), ["cancelled", "cancelled"]);
  });

  it("a preliminary result sets the output and keeps the call open; the final one finishes it", () => {
    const state = streaming(call("a"), part({ type: "tool-result", id: "a", output: 1, preliminary: true }));
    assert.deepEqual(callsOf(state)[0], { type: "tool", id: "a", name: "t", input: {}, state: "running", output: 1 });
    assert.equal(callsOf(sessionReducer(state, part({ type: "tool-result", id: "a", output: 2 })))[0].state, "done");
  });

  it("reasoning-delta appends to a last reasoning part; reasoning always adds one", () => {
    const state = streaming(
      part({ type: "reasoning-delta", text: "a" }),
      part({ type: "reasoning-delta", text: "b" }),
      part({ type: "reasoning", text: "signed" }),
      part({ type: "text-delta", text: "t" }),
      part({ type: "reasoning-delta", text: "c" }),
    );
    assert.deepEqual(lastParts(state).map((p) => p.text), ["ab", "signed", "t", "c"]);
  });

  it("approval requests and answers: by call id or approval id; approve, edit, answer or deny", () => {
    const asked = deepFreeze(streaming(
      call("a"), call("b"),
      part({ type: "tool-approval-request", id: "a", approvalId: "p-a", prompt: "Run?", details: { why: 1 } }),
      part({ type: "tool-approval-request", id: "b", automatic: true }),
      part({ type: "finish" }),
    ));
    assert.deepEqual(callsOf(asked)[0], {
      type: "tool", id: "a", name: "t", input: {}, state: "awaiting-confirmation", prompt: "Run?",
      approval: { id: "p-a", details: { why: 1 } },
    });
    assert.deepEqual(callsOf(asked)[1].approval, { id: "b", automatic: true });
    // Answers land after the run finished.
    const approved = sessionReducer(asked, part({ type: "tool-approval-response", approvalId: "p-a", approved: true, input: { edited: true } }));
    assert.deepEqual(callsOf(approved)[0], {
      type: "tool", id: "a", name: "t", input: { edited: true }, state: "running",
      approval: { id: "p-a", details: { why: 1 }, approved: true },
    });
    const answered = sessionReducer(asked, part({ type: "tool-approval-response", id: "a", approved: true, output: "yes" }));
    assert.deepEqual([callsOf(answered)[0].state, callsOf(answered)[0].output], ["done", "yes"]);
    const denied = sessionReducer(asked, part({ type: "tool-approval-response", id: "b", approved: false }));
    assert.deepEqual(callsOf(denied)[1], {
      type: "tool", id: "b", name: "t", input: {}, state: "error",
      approval: { id: "b", automatic: true, approved: false }, error: { message: "Denied by the user", code: "denied" },
    });
    assert.equal(resumable(denied.messages).at(-1).parts.at(-1).id, "b");
    assert.equal(sessionReducer(asked, part({ type: "tool-approval-response", approvalId: "zz", approved: true })), asked);
    // Requests follow the v1 rule: ignored unless the run is streaming.
    assert.equal(sessionReducer(asked, part({ type: "tool-approval-request", id: "a", prompt: "?" })), asked);
  });

  it("answers apply in any status, also within a finished nested run; other parts do not", () => {
    const finished = deepFreeze(streaming(
      call("holder", "delegate"), call("inner", "t"), part({ type: "tool-call", id: "deep", name: "t", input: 1 }, "holder"),
      part({ type: "finish" }, "holder"), part({ type: "finish" }),
    ));
    const answered = sessionReducer(finished, part({ type: "tool-result", id: "deep", output: 1 }, "holder"));
    assert.equal(lastParts(answered)[0].agent.messages[0].parts[0].state, "done");
    assert.equal(callsOf(sessionReducer(finished, part({ type: "tool-error", id: "inner", error: { message: "x" } })))[1].state, "error");
    assert.equal(sessionReducer(finished, part({ type: "text-delta", text: "late" })), finished);
    assert.equal(sessionReducer(finished, part({ type: "text-delta", text: "late" }, "holder")), finished);
  });

  it("data parts: replaced or patched by name and id, appended without id; a patch with nothing to patch is ignored", () => {
    let state = streaming(
      part({ type: "data", name: "weather", id: "w", data: { temp: 1, unit: { c: true } } }),
      part({ type: "data", name: "source", data: "a" }),
      part({ type: "data", name: "source", data: "b" }),
    );
    assert.deepEqual(lastParts(state).map((p) => p.data), [{ temp: 1, unit: { c: true } }, "a", "b"]);
    state = deepFreeze(state);
    const patched = sessionReducer(state, part({ type: "data", name: "weather", id: "w", patch: [{ op: "replace", path: "/temp", value: 2 }] }));
    assert.deepEqual(lastParts(patched)[0].data, { temp: 2, unit: { c: true } });
    assert.equal(lastParts(patched)[0].data.unit, lastParts(state)[0].data.unit);
    assert.equal(sessionReducer(state, part({ type: "data", name: "weather", id: "w", patch: [{ op: "remove", path: "/none" }] })), state);
    assert.equal(sessionReducer(state, part({ type: "data", name: "weather", id: "new", patch: [] })), state);
    assert.equal(sessionReducer(state, part({ type: "data", messageId: "a-new", name: "x", id: "y", patch: [] })), state);
    const replaced = sessionReducer(state, part({ type: "data", name: "weather", id: "w", data: null }));
    assert.equal(lastParts(replaced)[0].data, null);
  });

  it("metadata merges key by key into what a part builds or changes; other values replace", () => {
    let state = streaming(
      part({ type: "message-start", messageId: "a-1", metadata: { usage: { in: 1 }, tags: [1] } }),
      part({ type: "message-start", messageId: "a-1", metadata: { usage: { out: 2 }, tags: [2] } }),
      part({ type: "text-delta", text: "hi", metadata: { a: 1 } }),
      part({ type: "text-delta", text: "", metadata: { b: 2 } }),
      part({ type: "message-metadata", metadata: { model: "m" } }),
    );
    assert.deepEqual(state.messages[1], {
      id: "a-1", role: "assistant", metadata: { usage: { in: 1, out: 2 }, tags: [2], model: "m" },
      parts: [{ type: "text", text: "hi", metadata: { a: 1, b: 2 } }],
    });
    state = deepFreeze(state);
    assert.equal(sessionReducer(state, part({ type: "message-metadata", metadata: { model: "m" } })), state);
    assert.equal(sessionReducer(state, part({ type: "text-delta", text: "" })), state);
    // Targeted as a text-delta: never a user message.
    assert.equal(sessionReducer(state, part({ type: "message-start", messageId: "u-1", metadata: { x: 1 } })), state);
    const added = sessionReducer(state, part({ type: "tool-call", id: "a", name: "t", input: {} }));
    const empty = sessionReducer(added, part({ type: "text-delta", text: "", metadata: { c: 3 } }));
    assert.deepEqual(lastParts(empty).at(-1), { type: "text", text: "", metadata: { c: 3 } });
  });

  it("snapshot reconciles by id, keeps what is equal, and is ignored when a call id would repeat", () => {
    const state = deepFreeze(streaming(
      part({ type: "message-start", messageId: "a-1" }), part({ type: "text-delta", text: "x" }), call("a"),
    ));
    const [user, reply] = state.messages;
    assert.equal(sessionReducer(state, part({ type: "snapshot", messages: [JSON.parse(JSON.stringify(reply))] })), state);
    const changed = sessionReducer(state, part({ type: "snapshot", messages: [
      { ...JSON.parse(JSON.stringify(reply)), parts: [{ type: "text", text: "x" }, { type: "text", text: "new" }] },
      { id: "a-2", role: "assistant", parts: [] },
    ] }));
    assert.equal(changed.messages[0], user);
    assert.equal(changed.messages[1].parts[0], reply.parts[0]);
    assert.deepEqual(changed.messages.map((m) => m.id), ["u-1", "a-1", "a-2"]);
    const exact = sessionReducer(state, part({ type: "snapshot", exact: true, messages: [JSON.parse(JSON.stringify(reply))] }));
    assert.deepEqual(exact.messages, [reply]);
    assert.equal(exact.messages[0], reply);
    const twice = { id: "a-3", role: "assistant", parts: [{ type: "tool", id: "a", name: "t", input: {}, state: "done" }] };
    assert.equal(sessionReducer(state, part({ type: "snapshot", messages: [twice] })), state);
  });

  it("agent-state: a snapshot replaces, a patch applies all or nothing, tests alone change nothing", () => {
    let state = streaming(part({ type: "agent-state", patch: [{ op: "add", path: "/steps", value: [] }] }));
    assert.deepEqual(state.agentState, { steps: [] });
    state = play(state, [
      part({ type: "agent-state", patch: [{ op: "add", path: "/steps/-", value: "a" }, { op: "add", path: "/steps/0", value: "b" }] }),
      part({ type: "agent-state", patch: [{ op: "copy", from: "/steps", path: "/copy" }, { op: "move", from: "/copy/0", path: "/a~1b" }] }),
    ]);
    assert.deepEqual(state.agentState, { steps: ["b", "a"], copy: ["a"], "a/b": "b" });
    state = deepFreeze(state);
    assert.equal(sessionReducer(state, part({ type: "agent-state", patch: [{ op: "test", path: "/steps/1", value: "a" }] })), state);
    assert.equal(sessionReducer(state, part({ type: "agent-state", patch: [
      { op: "remove", path: "/copy" }, { op: "test", path: "/steps", value: [] },
    ] })), state);
    const nulled = sessionReducer(state, part({ type: "agent-state", snapshot: null }));
    assert.equal(nulled.agentState, null);
    const nested = streaming(call("h", "delegate"), part({ type: "agent-state", snapshot: { n: 1 } }, "h"));
    assert.deepEqual(lastParts(nested)[0].agent, { messages: [], status: "streaming", agentState: { n: 1 } });
  });
});

describe("baseline reducer follows the v3 rows of SPEC.md", () => {
  const call = (id, name = "t") => part({ type: "tool-call", id, name, input: {} });
  const text = (t, messageId) => part(messageId === undefined ? { type: "text-delta", text: t } : { type: "text-delta", text: t, messageId });
  const user = (id, t) => ({ id, role: "user", parts: [{ type: "text", text: t }] });
  // u-1 "hi", a-1 "one"; u-2 "more", a-2 "two" with an open call: idle.
  const twoTurns = () => deepFreeze(play(EMPTY, [
    { type: "send", id: "u-1", text: "hi" }, part({ type: "message-start", messageId: "a-1" }), text("one"), part({ type: "finish" }),
    { type: "send", id: "u-2", text: "more" }, part({ type: "message-start", messageId: "a-2" }), text("two"), call("c1"), part({ type: "finish" }),
  ]));
  const depth = (forks = []) => Math.max(0, ...forks.map((fork) =>
    1 + Math.max(0, ...fork.alternatives.map((branch) => (branch === null ? 0 : depth(branch.forks))))));

  it("edit sets the tail aside as a branch (open calls cancelled) and appends the new user message", () => {
    const state = twoTurns();
    const edited = sessionReducer(state, { type: "edit", messageId: "u-2", id: "u-2b", text: "other" });
    assert.deepEqual(edited.messages, [state.messages[0], state.messages[1], user("u-2b", "other")]);
    assert.equal(edited.messages[1], state.messages[1]);
    assert.equal(edited.status, "streaming");
    const [fork] = edited.forks;
    assert.deepEqual([edited.forks.length, fork.after, fork.active, fork.alternatives.length, fork.alternatives[1]], [1, "a-1", 1, 2, null]);
    const [kept] = fork.alternatives;
    assert.equal(kept.messages[0], state.messages[2]);
    assert.equal(kept.messages[1].parts.at(-1).state, "cancelled");
    assert.equal("forks" in kept, false);
    // The first message: after null. Unknown ids and assistant messages: ignored.
    assert.equal(sessionReducer(state, { type: "edit", messageId: "u-1", id: "x", text: "y" }).forks[0].after, null);
    assert.equal(sessionReducer(state, { type: "edit", messageId: "a-1", id: "x", text: "y" }), state);
    assert.equal(sessionReducer(state, { type: "edit", messageId: "nope", id: "x", text: "y" }), state);
  });

  it("edit again at the same place appends an alternative; an earlier edit takes the later fork into its branch", () => {
    const once = sessionReducer(twoTurns(), { type: "edit", messageId: "u-2", id: "u-3", text: "b" });
    const twice = deepFreeze(sessionReducer(once, { type: "edit", messageId: "u-3", id: "u-4", text: "c" }));
    const [fork] = twice.forks;
    assert.deepEqual([fork.active, fork.alternatives.length, fork.alternatives[2]], [2, 3, null]);
    assert.equal(fork.alternatives[0], once.forks[0].alternatives[0]);
    assert.deepEqual(fork.alternatives[1].messages, [user("u-3", "b")]);
    const earlier = sessionReducer(twice, { type: "edit", messageId: "u-1", id: "u-0", text: "start over" });
    assert.deepEqual(earlier.messages, [user("u-0", "start over")]);
    assert.deepEqual(earlier.forks.map((f) => f.after), [null]);
    assert.deepEqual(earlier.forks[0].alternatives[0].forks, [fork]);
    assert.equal(earlier.forks[0].alternatives[0].forks[0], fork);
    assert.equal(depth(earlier.forks), 2);
  });

  it("regenerate: the last user message, or the one before a reply; no user message or an id that is not a reply: ignored", () => {
    const state = twoTurns();
    const again = sessionReducer(state, { type: "regenerate" });
    assert.deepEqual(again.messages, state.messages.slice(0, 3));
    assert.deepEqual([again.forks[0].after, again.forks[0].active, again.status], ["u-2", 1, "streaming"]);
    assert.deepEqual(again.forks[0].alternatives[0].messages.map((m) => m.id), ["a-2"]);
    const first = sessionReducer(state, { type: "regenerate", messageId: "a-1" });
    assert.deepEqual(first.messages, state.messages.slice(0, 1));
    assert.deepEqual(first.forks[0].alternatives[0].messages.map((m) => m.id), ["a-1", "u-2", "a-2"]);
    assert.equal(sessionReducer(state, { type: "regenerate", messageId: "u-2" }), state);
    assert.equal(sessionReducer(state, { type: "regenerate", messageId: "zz" }), state);
    const noUser = deepFreeze({ messages: [{ id: "a", role: "assistant", parts: [] }], status: "idle" });
    assert.equal(sessionReducer(noUser, { type: "regenerate" }), noUser);
    assert.equal(sessionReducer(noUser, { type: "regenerate", messageId: "a" }), noUser);
  });

  it("regenerate with nothing after the user message is retry without cutting: no fork", () => {
    const live = deepFreeze(streaming());
    assert.equal(sessionReducer(live, { type: "regenerate" }), live);
    const failed = deepFreeze(streaming(part({ type: "error", error: "down" })));
    const again = sessionReducer(failed, { type: "regenerate" });
    assert.deepEqual(again, { messages: failed.messages, status: "streaming" });
    assert.equal(again.messages, failed.messages);
  });

  it("switchBranch swaps the live tail and a stored one, objects as they were stored, and back", () => {
    const state = twoTurns();
    const edited = play(state, [
      { type: "edit", messageId: "u-2", id: "u-3", text: "b" },
      part({ type: "message-start", messageId: "a-3" }), text("three"), call("c3"), part({ type: "finish" }),
    ]);
    deepFreeze(edited);
    const back = sessionReducer(edited, { type: "switchBranch", after: "a-1", to: 0 });
    assert.equal(back.status, "idle");
    assert.deepEqual(back.messages.map((m) => m.id), ["u-1", "a-1", "u-2", "a-2"]);
    back.messages.forEach((m, i) => assert.equal(m, edited.forks[0].alternatives[0].messages[i - 2] ?? edited.messages[i]));
    const [fork] = back.forks;
    assert.deepEqual([fork.active, fork.alternatives[0]], [0, null]);
    // The tail left behind: its open call cancelled.
    assert.equal(fork.alternatives[1].messages[0], edited.messages[2]);
    assert.equal(fork.alternatives[1].messages[1].parts.at(-1).state, "cancelled");
    const forth = sessionReducer(deepFreeze(back), { type: "switchBranch", after: "a-1", to: 1 });
    forth.messages.forEach((m, i) => assert.equal(m, i < 2 ? edited.messages[i] : fork.alternatives[1].messages[i - 2]));
    forth.forks[0].alternatives[0].messages.forEach((m, i) => assert.equal(m, edited.forks[0].alternatives[0].messages[i]));
    // Ignored: the active one, out of range, an unknown fork, while streaming.
    for (const action of [
      { type: "switchBranch", after: "a-1", to: 1 },
      { type: "switchBranch", after: "a-1", to: 2 },
      { type: "switchBranch", after: "a-1", to: -1 },
      { type: "switchBranch", after: null, to: 0 },
      { type: "switchBranch", after: "u-1", to: 0 },
    ]) assert.equal(sessionReducer(edited, action), edited, JSON.stringify(action));
    const live = deepFreeze(sessionReducer(edited, { type: "continue" }));
    assert.equal(sessionReducer(live, { type: "switchBranch", after: "a-1", to: 0 }), live);
    const failed = deepFreeze(sessionReducer(live, part({ type: "error", error: "x" })));
    assert.equal("error" in sessionReducer(failed, { type: "switchBranch", after: "a-1", to: 0 }), false);
  });

  it("switchBranch brings the forks inside a branch back to forks, in path order", () => {
    const nested = play(twoTurns(), [
      { type: "edit", messageId: "u-2", id: "u-3", text: "b" }, part({ type: "finish" }),
      { type: "edit", messageId: "u-1", id: "u-0", text: "a" }, part({ type: "finish" }),
    ]);
    assert.deepEqual(nested.forks.map((f) => f.after), [null]);
    const back = sessionReducer(deepFreeze(nested), { type: "switchBranch", after: null, to: 0 });
    assert.deepEqual(back.forks.map((f) => f.after), [null, "a-1"]);
    assert.equal(back.forks[1], nested.forks[0].alternatives[0].forks[0]);
    assert.deepEqual(back.messages.map((m) => m.id), ["u-1", "a-1", "u-3"]);
    assert.deepEqual(back.forks[0].alternatives[1].messages.map((m) => m.id), ["u-0"]);
  });

  it("branches nest at most 64 deep: the forks whose branches would be at depth 65 are dropped", () => {
    const turns = 66;
    let state = { messages: [], status: "idle" };
    for (let i = 0; i < turns; i++) {
      state = play(state, [{ type: "send", id: `u${i}`, text: "q" }, part({ type: "message-start", messageId: `a${i}` }), part({ type: "finish" })]);
    }
    for (let i = turns - 1; i >= 2; i--) state = play(state, [{ type: "edit", messageId: `u${i}`, id: `e${i}`, text: "e" }, part({ type: "finish" })]);
    assert.equal(depth(state.forks), 64);
    const deepest = (forks) => {
      let at = forks;
      for (let level = 1; level < 64; level++) at = at[0].alternatives[0].forks;
      return at;
    };
    assert.equal(deepest(state.forks).length, 1);
    const deeper = sessionReducer(deepFreeze(state), { type: "edit", messageId: "u1", id: "e1", text: "e" });
    assert.equal(depth(deeper.forks), 64);
    // The fork that was at the bottom is gone; the one above it keeps its other alternative.
    const bottom = deepest(deeper.forks)[0];
    assert.equal(bottom.after, "a63");
    assert.equal("forks" in bottom.alternatives[0], false);
    // A switch brings a level up again: nothing is dropped.
    const up = sessionReducer(sessionReducer(deeper, part({ type: "finish" })), { type: "switchBranch", after: "a0", to: 0 });
    assert.equal(depth(up.forks), 63);
  });

  it("a send while streaming is queued, parts and metadata kept; finish sends the queue as one turn", () => {
    const live = deepFreeze(streaming(text("a")));
    const file = { type: "data", name: "file", data: { mediaType: "image/png", url: "data:,", filename: "a.png" } };
    const queued = play(live, [
      { type: "send", id: "q-1", text: "one", parts: [file], metadata: { at: 1 } },
      { type: "send", id: "q-2", text: "two" },
    ]);
    assert.equal(queued.messages, live.messages);
    assert.equal(queued.status, "streaming");
    assert.deepEqual(queued.queue, [{ id: "q-1", text: "one", parts: [file], metadata: { at: 1 } }, { id: "q-2", text: "two" }]);
    const sent = sessionReducer(deepFreeze(queued), part({ type: "finish" }));
    assert.deepEqual(sent.messages.slice(2), [
      { id: "q-1", role: "user", parts: [{ type: "text", text: "one" }, file], metadata: { at: 1 } },
      user("q-2", "two"),
    ]);
    assert.equal(sent.messages[2].parts[1], file);
    assert.deepEqual([sent.status, "queue" in sent], ["streaming", false]);
    // An aborted finish, stop, error, retry and continue keep the queue.
    for (const action of [part({ type: "finish", reason: "aborted" }), { type: "stop" }, part({ type: "error", error: "x" })]) {
      const ended = sessionReducer(queued, action);
      assert.equal(ended.queue, queued.queue, JSON.stringify(action));
      assert.equal(sessionReducer(ended, { type: "retry" }).queue, queued.queue);
      assert.equal(sessionReducer(ended, { type: "continue" }).queue, queued.queue);
    }
  });

  it("finish with an open call: the queue waits for the next finish without one, or the user's send", () => {
    const waiting = deepFreeze(play(EMPTY, [
      { type: "send", id: "u-1", text: "hi" }, call("c1"), part({ type: "tool-approval-request", id: "c1" }),
      { type: "send", id: "q-1", text: "later" }, part({ type: "finish" }),
    ]));
    assert.deepEqual([waiting.status, waiting.queue.length, waiting.messages.length], ["idle", 1, 2]);
    const answered = sessionReducer(waiting, part({ type: "tool-approval-response", id: "c1", approved: true, output: "ok" }));
    const ran = play(answered, [{ type: "continue" }, part({ type: "finish" })]);
    assert.deepEqual([ran.status, "queue" in ran, ran.messages.at(-1).id], ["streaming", false, "q-1"]);
    const sent = sessionReducer(waiting, { type: "send", id: "u-2", text: "now" });
    assert.deepEqual(sent.messages.slice(2).map((m) => m.id), ["q-1", "u-2"]);
    assert.equal(sent.messages[1].parts[0].state, "cancelled");
    assert.equal("queue" in sent, false);
  });

  it("unqueue removes the first with that id, the last one removes the queue; reset removes queue and forks", () => {
    const queued = deepFreeze(streaming({ type: "send", id: "q", text: "1" }, { type: "send", id: "q", text: "2" }, { type: "send", id: "r", text: "3" }));
    const once = sessionReducer(queued, { type: "unqueue", id: "q" });
    assert.deepEqual(once.queue.map((q) => q.text), ["2", "3"]);
    assert.equal(once.queue[0], queued.queue[1]);
    assert.equal(sessionReducer(queued, { type: "unqueue", id: "zz" }), queued);
    const none = play(queued, [{ type: "unqueue", id: "q" }, { type: "unqueue", id: "q" }, { type: "unqueue", id: "r" }]);
    assert.equal("queue" in none, false);
    assert.equal(sessionReducer(deepFreeze(none), { type: "unqueue", id: "r" }), none);
    assert.deepEqual(sessionReducer(queued, { type: "reset" }), EMPTY);
    const idleWithForks = deepFreeze(sessionReducer(sessionReducer(twoTurns(), { type: "regenerate" }), { type: "stop" }));
    assert.deepEqual(sessionReducer(idleWithForks, { type: "reset" }), EMPTY);
  });

  it("send with parts and metadata; absent fields stay absent", () => {
    const source = { type: "data", name: "source", data: { url: "https://x" } };
    const sent = sessionReducer(EMPTY, { type: "send", id: "u", text: "see", parts: [source, { type: "text", text: "more" }], metadata: null });
    assert.deepEqual(sent.messages, [{ id: "u", role: "user", parts: [{ type: "text", text: "see" }, source, { type: "text", text: "more" }], metadata: null }]);
    assert.deepEqual(Object.keys(sessionReducer(EMPTY, { type: "send", id: "u", text: "x" }).messages[0]), ["id", "role", "parts"]);
  });

  it("load: the given object when nothing needs stopping; streaming: stop applied; a call whose nested run streams: cancelled", () => {
    const waiting = deepFreeze(play(EMPTY, [{ type: "send", id: "u-1", text: "hi" }, call("c1"), part({ type: "finish" })]));
    const copy = JSON.parse(JSON.stringify(waiting));
    assert.equal(sessionReducer(EMPTY, { type: "load", state: copy }), copy);
    assert.equal(sessionReducer(EMPTY, { type: "load", state: copy }).messages[1].parts[0].state, "running");
    const live = deepFreeze(streaming(call("c1"), { type: "send", id: "q", text: "q" }));
    assert.deepEqual(sessionReducer(EMPTY, { type: "load", state: live }), { ...sessionReducer(live, { type: "stop" }), queue: live.queue });
    const delegating = deepFreeze(play(EMPTY, [
      { type: "send", id: "u-1", text: "hi" }, call("ask"), call("d", "delegate"), call("inner"),
      part({ type: "text-delta", text: "sub" }, "d"), part({ type: "finish" }),
    ]));
    const loaded = sessionReducer(EMPTY, { type: "load", state: delegating });
    const [ask, d] = loaded.messages[1].parts;
    assert.equal(ask, delegating.messages[1].parts[0]);
    assert.deepEqual([ask.state, d.state, d.agent.status], ["running", "cancelled", "idle"]);
  });

  it("step-start adds one step part; step-reset removes what followed the last one, never creating a message", () => {
    let state = streaming(part({ type: "step-start" }), part({ type: "step-start" }), text("a"), part({ type: "step-start" }), text("b"), call("c"));
    assert.deepEqual(lastParts(state).map((p) => p.type), ["step", "text", "step", "text", "tool"]);
    state = deepFreeze(state);
    const reset = sessionReducer(state, part({ type: "step-reset" }));
    assert.deepEqual(lastParts(reset), [{ type: "step" }, { type: "text", text: "a" }, { type: "step" }]);
    assert.equal(lastParts(reset)[1], lastParts(state)[1]);
    assert.equal(sessionReducer(deepFreeze(reset), part({ type: "step-reset" })), reset);
    assert.equal(sessionReducer(deepFreeze(reset), part({ type: "step-start" })), reset);
    const noStep = sessionReducer(streaming(text("x")), part({ type: "step-reset" }));
    assert.deepEqual(lastParts(noStep), []);
    const onlyUser = deepFreeze(streaming());
    assert.equal(sessionReducer(onlyUser, part({ type: "step-reset" })), onlyUser);
    assert.equal(sessionReducer(state, part({ type: "step-reset", messageId: "zz" })), state);
    assert.equal(sessionReducer(state, part({ type: "step-reset", messageId: "u-1" })), state);
    assert.deepEqual(lastParts(sessionReducer(onlyUser, part({ type: "step-start", messageId: "a-9" }))), [{ type: "step" }]);
    const idle = deepFreeze(sessionReducer(state, { type: "stop" }));
    assert.equal(sessionReducer(idle, part({ type: "step-start" })), idle);
  });

  it("retry and an exact snapshot drop the forks whose message they cut; other actions keep the forks array", () => {
    const regenerated = deepFreeze(play(twoTurns(), [{ type: "regenerate", messageId: "a-1" }, text("x"), call("c9"), part({ type: "error", error: "e" })]));
    assert.deepEqual(regenerated.forks.map((f) => f.after), ["u-1"]);
    for (const action of [text("y"), { type: "send", id: "q", text: "q" }, { type: "stop" }, { type: "continue" }, { type: "toolPhase", name: "t", state: "running" }]) {
      assert.equal(sessionReducer(regenerated, action).forks, regenerated.forks, JSON.stringify(action));
    }
    const edited = deepFreeze(play(twoTurns(), [{ type: "edit", messageId: "u-2", id: "u-3", text: "b" }, text("partial")]));
    const retried = sessionReducer(edited, { type: "retry" });
    assert.equal(retried.forks, edited.forks);
    const wholeTurn = play(twoTurns(), [{ type: "edit", messageId: "u-1", id: "u-0", text: "b" }, part({ type: "finish" }), { type: "switchBranch", after: null, to: 0 }]);
    const cut = sessionReducer(deepFreeze({ ...wholeTurn, forks: [...wholeTurn.forks, { after: "a-2", active: 0, alternatives: [null, { messages: [] }] }] }), { type: "retry" });
    assert.deepEqual(cut.forks.map((f) => f.after), [null]);
    const exact = sessionReducer(deepFreeze({ ...regenerated, status: "streaming" }),
      part({ type: "snapshot", exact: true, messages: [JSON.parse(JSON.stringify(regenerated.messages[1]))] }));
    assert.equal("forks" in exact, false);
  });
});

// The differential check: the same workloads, smaller, through the package and the baseline.
const PACKAGE = fileURLToPath(new URL("../pkg/index.js", import.meta.url));

describe("the package and the baseline reach the same states", () => {
  const load = async () => {
    assert.ok(existsSync(PACKAGE), `${PACKAGE} is missing: run npm run build first`);
    return import(PACKAGE);
  };
  const json = (state) => JSON.parse(JSON.stringify(state));

  const workloads = [
    reply({ turns: 20, deltas: 500 }),
    tools({ turns: 50, rounds: 30 }),
    toolInput({ turns: 20, deltas: 400 }),
    batchedReply({ turns: 20, deltas: 500 }),
  ];
  for (const workload of workloads) {
    it(`on ${workload.name}`, async () => {
      const pkg = await load();
      const expected = replay(sessionReducer, workload.initial(), workload.actions).state;
      const actual = replay(pkg.sessionReducer, workload.initial(), workload.actions).state;
      assert.deepEqual(json(actual), json(expected));
    });
  }

  it("on a v3 session (branches, the queue, load, steps), state by state, no-ops included", async (t) => {
    const pkg = await load();
    try {
      pkg.checkAction({ type: "unqueue", id: "q" });
    } catch {
      t.skip("the package has no v3 actions");
      return;
    }
    const file = { type: "data", name: "file", data: { mediaType: "image/png", url: "data:,", filename: "a.png" } };
    const actions = [
      { type: "send", id: "u-1", text: "Plan a trip", parts: [file], metadata: { lang: "en" } },
      part({ type: "step-start", messageId: "a-1" }),
      part({ type: "step-start" }),
      part({ type: "text-delta", text: "Sure" }),
      part({ type: "tool-call", id: "c1", name: "search", input: {} }),
      { type: "send", id: "q-1", text: "and hotels" },
      { type: "send", id: "q-2", text: "cheap ones", metadata: 1 },
      { type: "unqueue", id: "q-1" },
      { type: "unqueue", id: "zz" },
      part({ type: "step-reset" }),
      part({ type: "step-reset" }),
      part({ type: "text-delta", text: "Again" }),
      part({ type: "finish" }),
      part({ type: "text-delta", text: "reply" }),
      { type: "switchBranch", after: "u-1", to: 0 },
      { type: "regenerate", messageId: "a-1" },
      { type: "switchBranch", after: "u-1", to: 0 },
      part({ type: "text-delta", text: "second" }),
      part({ type: "tool-call", id: "c2", name: "ask", input: {} }),
      part({ type: "finish" }),
      { type: "switchBranch", after: "u-1", to: 0 },
      { type: "switchBranch", after: "u-1", to: 1 },
      { type: "switchBranch", after: "u-1", to: 1.0 },
      { type: "switchBranch", after: "u-1", to: 5 },
      { type: "edit", messageId: "u-1", id: "u-1b", text: "Plan a cheap trip" },
      { type: "edit", messageId: "nope", id: "x", text: "y" },
      { type: "edit", messageId: "a-1", id: "x", text: "y" },
      part({ type: "text-delta", text: "cheap" }),
      { type: "send", id: "q-3", text: "queued" },
      part({ type: "finish", reason: "aborted" }),
      { type: "retry" },
      part({ type: "finish" }),
      { type: "stop" },
      { type: "switchBranch", after: null, to: 0 },
      { type: "switchBranch", after: null, to: 1 },
      { type: "load", state: { messages: [{ id: "u", role: "user", parts: [] }], status: "streaming", queue: [{ id: "q", text: "t" }] } },
      { type: "load", state: { messages: [], status: "idle" } },
      { type: "reset" },
      { type: "regenerate" },
    ];
    let expected = EMPTY;
    let actual = { messages: [], status: "idle" };
    for (const [step, action] of actions.entries()) {
      const nextExpected = sessionReducer(expected, action);
      const nextActual = pkg.sessionReducer(actual, action);
      const where = `after action ${step}: ${JSON.stringify(action)}`;
      assert.deepEqual(json(nextActual), json(nextExpected), where);
      assert.equal(Object.is(nextActual, actual), Object.is(nextExpected, expected), `same object ${where}`);
      [expected, actual] = [nextExpected, nextActual];
    }
  });

  it("on a mixed session, state by state, no-ops included", async () => {
    const pkg = await load();
    const actions = [
      { type: "retry" },
      { type: "send", id: "u-1", text: "Plan a trip" },
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "reasoning", messageId: "a-1", text: "think", metadata: { sig: "x" } }),
      part({ type: "text-delta", messageId: "a-1", text: "Sure. " }),
      part({ type: "text-delta", messageId: "u-1", text: "ignored" }),
      part({ type: "tool-call", messageId: "a-1", id: "d", name: "delegate", input: { to: "planner" } }),
      part({ type: "text-delta", text: "sub " }, "d"),
      part({ type: "tool-call", id: "w", name: "weather", input: { city: "Oslo" } }, "d"),
      part({ type: "tool-call", id: "w", name: "weather", input: {} }),
      { type: "toolPhase", name: "weather", state: "awaiting-confirmation", prompt: "Check?" },
      { type: "toolPhase", name: "weather", state: "awaiting-confirmation", prompt: "Check?" },
      part({ type: "tool-call", id: "d2", name: "delegate", input: {} }, "d"),
      part({ type: "tool-call", id: "w2", name: "weather", input: {} }, "d2"),
      { type: "toolPhase", name: "weather", state: "running" },
      part({ type: "tool-result", id: "w", output: { content: [{ type: "text", text: "sunny" }] } }),
      part({ type: "step-finish" }, "d"),
      part({ type: "finish" }, "d2"),
      part({ type: "text-delta", text: "late" }, "d2"),
      part({ type: "tool-error", id: "d2", error: { message: "stopped", code: "cancelled" } }),
      part({ type: "tool-call", id: "x", name: "book", input: [1, "two", null] }),
      part({ type: "tool-error", id: "x", error: { message: "full" } }),
      part({ type: "tool-call", id: "y", name: "book", input: {} }),
      part({ type: "text-delta", text: "partial" }),
      part({ type: "error", error: "lost", code: "network" }),
      part({ type: "text-delta", text: "after error" }),
      { type: "retry" },
      part({ type: "tool-call", id: "z", name: "book", input: {} }),
      part({ type: "tool-call", id: "q", name: "delegate", input: {} }),
      part({ type: "text-delta", text: "q run" }, "q"),
      part({ type: "finish", reason: "aborted" }),
      { type: "send", id: "u-2", text: "again" },
      part({ type: "text-delta", text: "😀 ünïcode" }),
      part({ type: "tool-call", id: "h", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "h1", name: "ask", input: {} }, "h"),
      { type: "stop" },
      { type: "stop" },
      { type: "reset" },
    ];
    let expected = EMPTY;
    let actual = { messages: [], status: "idle" };
    for (const [step, action] of actions.entries()) {
      const nextExpected = sessionReducer(expected, action);
      const nextActual = pkg.sessionReducer(actual, action);
      const where = `after action ${step}: ${JSON.stringify(action)}`;
      assert.deepEqual(json(nextActual), json(nextExpected), where);
      assert.equal(Object.is(nextActual, actual), Object.is(nextExpected, expected), `same object ${where}`);
      [expected, actual] = [nextExpected, nextActual];
    }
  });
});
