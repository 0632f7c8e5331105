// SPEC v2 rows as JavaScript sees them through the built package (pkg/): data parts (replace and
// JSON Patch), metadata merging, snapshots and agent state, with identity (the same state when
// nothing changes, untouched objects shared), purity (frozen inputs) and bad input; batches;
// Redux's rules. The core's own rows are in tests/core_v2_data.rs.
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkAction, sessionReducer } from "../../pkg/index.js";

const part = (part, within) => (within === undefined ? { type: "part", part } : { type: "part", part, within });
const play = (actions, state = { messages: [], status: "idle" }) => actions.reduce(sessionReducer, state);
function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
const streamingReply = () =>
  deepFreeze(play([{ type: "send", id: "u-1", text: "Plan a trip" }, part({ type: "message-start", messageId: "a-1" }), part({ type: "text-delta", text: "Planning" })]));

function assertInvalid(fn, path) {
  assert.throws(fn, (error) => error instanceof TypeError && error.code === "invalid" && error.path === path && error.message.startsWith(`${path}: `));
}

test("a data part with an id is replaced or patched in place, sharing what the patch does not touch", () => {
  const start = streamingReply();
  const plan = { steps: [{ city: "Lyon" }], budget: { max: 500 } };
  const withPlan = sessionReducer(start, part({ type: "data", name: "plan", id: "p", data: plan }));
  assert.deepEqual(withPlan.messages[1].parts[1], { type: "data", name: "plan", id: "p", data: plan });
  assert.equal(withPlan.messages[1].parts[1].data, plan, "data is kept by reference");
  assert.equal(withPlan.messages[1].parts[0], start.messages[1].parts[0]);

  const patched = sessionReducer(
    deepFreeze(withPlan),
    part({ type: "data", name: "plan", id: "p", patch: [{ op: "add", path: "/steps/-", value: { city: "Nice" } }], metadata: { rev: 2 } }),
  );
  const data = patched.messages[1].parts[1].data;
  assert.deepEqual(data, { steps: [{ city: "Lyon" }, { city: "Nice" }], budget: { max: 500 } });
  assert.equal(data.budget, plan.budget, "an object off the patched path is shared");
  assert.equal(data.steps[0], plan.steps[0]);
  assert.deepEqual(patched.messages[1].parts[1].metadata, { rev: 2 });
  assert.equal(patched.messages[0], withPlan.messages[0]);

  // All or nothing: a failed test changes nothing, metadata included; so does an equal replacement.
  const failed = part({ type: "data", name: "plan", id: "p", patch: [{ op: "remove", path: "/budget" }, { op: "test", path: "/steps/0/city", value: "Paris" }], metadata: { rev: 3 } });
  assert.equal(sessionReducer(patched, failed), patched);
  assert.equal(sessionReducer(patched, part({ type: "data", name: "plan", id: "p", data: structuredClone(data) })), patched);
  const replaced = sessionReducer(patched, part({ type: "data", name: "plan", id: "p", data: null }));
  assert.equal(replaced.messages[1].parts[1].data, null);
});

test("metadata merges into the message or part the stream part builds or changes", () => {
  let state = streamingReply();
  state = sessionReducer(state, part({ type: "message-start", messageId: "a-1", metadata: { model: "m", usage: { input: 5 } } }));
  state = sessionReducer(state, part({ type: "message-metadata", messageId: "a-1", metadata: { usage: { output: 7 } } }));
  assert.deepEqual(state.messages[1].metadata, { model: "m", usage: { input: 5, output: 7 } });
  const before = deepFreeze(state);
  // The same values again: the same state (React bails out).
  assert.equal(sessionReducer(before, part({ type: "message-metadata", metadata: { usage: { output: 7 } } })), before);
  assert.equal(sessionReducer(before, part({ type: "message-start", messageId: "a-1", metadata: { model: "m" } })), before);
  // An empty text delta carrying metadata (AI SDK text-end citations) goes to the last text part.
  const cited = sessionReducer(before, part({ type: "text-delta", text: "", metadata: { citations: ["https://example.org"] } }));
  assert.deepEqual(cited.messages[1].parts, [{ type: "text", text: "Planning", metadata: { citations: ["https://example.org"] } }]);
  assert.equal(cited.messages[1].metadata, before.messages[1].metadata);
  // A text delta with metadata is not a plain delta: the text still arrives exactly.
  const more = sessionReducer(cited, part({ type: "text-delta", text: " \uD800done", metadata: { k: 1 } }));
  assert.equal(more.messages[1].parts[0].text, "Planning \uD800done");
  assert.deepEqual(more.messages[1].parts[0].metadata, { citations: ["https://example.org"], k: 1 });
});

test("metadata merges into a call through its whole life, and a part that is ignored merges nothing", () => {
  let state = streamingReply();
  for (const each of [
    { type: "tool-input-delta", id: "c-1", name: "book", text: '{"city":', metadata: { "ai-sdk": { title: "Book" } } },
    { type: "tool-input-delta", id: "c-1", text: '"Lyon"}', metadata: { chunks: 2 } },
    { type: "tool-input-end", id: "c-1", metadata: { chunks: 3 } },
    { type: "tool-result", id: "c-1", output: "booked", metadata: { "ag-ui": { messageId: "t-1" } } },
  ]) {
    state = sessionReducer(state, part(each));
  }
  const call = state.messages[1].parts[1];
  assert.equal(call.state, "done");
  assert.deepEqual(call.metadata, { "ai-sdk": { title: "Book" }, chunks: 3, "ag-ui": { messageId: "t-1" } });
  const done = deepFreeze(state);
  assert.equal(sessionReducer(done, part({ type: "tool-error", id: "c-1", error: { message: "late" }, metadata: { x: 1 } })), done);
  assert.equal(sessionReducer(done, part({ type: "tool-result", id: "nope", output: 1, metadata: { x: 1 } })), done);
  const called = sessionReducer(done, part({ type: "tool-call", id: "c-2", name: "pay", input: {}, metadata: { m: 1 } }));
  assert.deepEqual(called.messages[1].parts[2].metadata, { m: 1 });
  // Reasoning streamed in deltas, its signature arriving at the end on an empty delta.
  let reasoning = sessionReducer(called, part({ type: "reasoning-delta", text: "Thinking" }));
  reasoning = sessionReducer(reasoning, part({ type: "reasoning-delta", text: "", metadata: { signature: "sig" } }));
  assert.deepEqual(reasoning.messages[1].parts.at(-1), { type: "reasoning", text: "Thinking", metadata: { signature: "sig" } });
});

test("a snapshot keeps every message and part equal to the held one, and changes nothing when all are", () => {
  const state = deepFreeze(
    play(
      [part({ type: "tool-call", id: "c-1", name: "search", input: { q: "Lyon" } }), part({ type: "text-delta", text: " found" })],
      streamingReply(),
    ),
  );
  const copy = JSON.parse(JSON.stringify(state.messages));
  assert.equal(sessionReducer(state, part({ type: "snapshot", messages: copy })), state);
  assert.equal(sessionReducer(state, part({ type: "snapshot", messages: copy, exact: true })), state);

  const edited = JSON.parse(JSON.stringify(state.messages));
  edited[1].parts[2].text = " found it";
  edited.push({ id: "a-2", role: "assistant", parts: [{ type: "text", text: "Next" }], metadata: { k: 1 } });
  const next = sessionReducer(state, part({ type: "snapshot", messages: deepFreeze(edited) }));
  assert.equal(next.messages[0], state.messages[0]);
  assert.notEqual(next.messages[1], state.messages[1]);
  assert.equal(next.messages[1].parts[0], state.messages[1].parts[0]);
  assert.equal(next.messages[1].parts[1], state.messages[1].parts[1]);
  assert.equal(next.messages[1].parts[2].text, " found it");
  assert.equal(next.messages[2], edited[2]);
  // The snapshot's calls are the conversation's: a result for c-1 lands.
  const done = sessionReducer(next, part({ type: "tool-result", id: "c-1", output: 1 }));
  assert.equal(done.messages[1].parts[1].state, "done");
});

test("agent-state: a snapshot, or a JSON Patch applied all or nothing, within a sub-agent's run too", () => {
  let state = streamingReply();
  state = sessionReducer(state, part({ type: "agent-state", patch: [{ op: "add", path: "/todo", value: [] }] }));
  assert.deepEqual(state.agentState, { todo: [] }, "a missing agentState is patched as {}");
  const shared = { a: 1 };
  state = deepFreeze(sessionReducer(state, part({ type: "agent-state", snapshot: { todo: ["pack"], shared } })));
  const tested = part({ type: "agent-state", patch: [{ op: "test", path: "/todo/0", value: "pack" }] });
  assert.equal(sessionReducer(state, tested), state, "passing tests only: the same state");
  const failing = part({ type: "agent-state", patch: [{ op: "remove", path: "/todo/0" }, { op: "test", path: "/todo", value: ["x"] }] });
  assert.equal(sessionReducer(state, failing), state);
  const patched = sessionReducer(state, part({ type: "agent-state", patch: [{ op: "replace", path: "/todo/0", value: "book" }] }));
  assert.deepEqual(patched.agentState, { todo: ["book"], shared });
  assert.equal(patched.agentState.shared, shared);
  assert.equal(patched.messages, state.messages);

  const nested = play(
    [part({ type: "tool-call", id: "d-1", name: "delegate", input: {} }), part({ type: "agent-state", snapshot: { depth: 1 } }, "d-1")],
    streamingReply(),
  );
  assert.deepEqual(nested.messages[1].parts[1].agent, { messages: [], status: "streaming", agentState: { depth: 1 } });
  assert.equal(nested.agentState, undefined);
});

// docs/decisions.md: a `within` part that would change nothing does not create the run. And what
// the module remembers of a state (its Rust session) agrees with the state: the next action
// gives what it gives on a copy the module reads afresh.
test("a within part whose JSON operation changes nothing creates no run, and the module stays in step", () => {
  const start = deepFreeze(play([part({ type: "tool-call", id: "d-1", name: "delegate", input: {} })], streamingReply()));
  const within = (value) => part(value, "d-1");
  for (const noop of [
    { type: "agent-state", patch: [{ op: "remove", path: "/missing" }] },
    { type: "agent-state", patch: [] },
    { type: "agent-state", patch: [{ op: "test", path: "", value: {} }] },
    { type: "snapshot", messages: [] },
    { type: "snapshot", messages: [], exact: true },
    { type: "data", name: "plan", id: "p", patch: [{ op: "add", path: "/a", value: 1 }] },
  ]) {
    assert.equal(sessionReducer(start, within(noop)), start, JSON.stringify(noop));
    const batch = { type: "batch", actions: [within(noop), within({ type: "text-delta", text: "Hi" })] };
    const next = sessionReducer(start, batch);
    assert.deepEqual(next.messages[1].parts[1].agent, { messages: [{ id: "assistant-0", role: "assistant", parts: [{ type: "text", text: "Hi" }] }], status: "streaming" });
    const stop = { type: "stop" };
    assert.deepEqual(sessionReducer(next, stop), sessionReducer(structuredClone(next), stop), JSON.stringify(noop));
  }
  const created = sessionReducer(start, within({ type: "agent-state", patch: [{ op: "add", path: "/step", value: 1 }] }));
  assert.deepEqual(created.messages[1].parts[1].agent, { messages: [], status: "streaming", agentState: { step: 1 } });

  // An agentState the module made from a patch is one the next action knows of.
  const idle = play([{ type: "continue" }, part({ type: "agent-state", patch: [{ op: "add", path: "/step", value: 1 }] }), { type: "stop" }]);
  assert.deepEqual(idle, { messages: [], status: "idle", agentState: { step: 1 } });
  assert.deepEqual(sessionReducer(idle, { type: "reset" }), { messages: [], status: "idle" });
  // The same from a later action of a (nested) batch.
  const batched = play([
    { type: "continue" },
    { type: "batch", actions: [part({ type: "step-finish" }), { type: "batch", actions: [part({ type: "agent-state", patch: [{ op: "add", path: "/step", value: 2 }] })] }] },
    { type: "stop" },
  ]);
  assert.deepEqual(batched, { messages: [], status: "idle", agentState: { step: 2 } });
  assert.deepEqual(sessionReducer(batched, { type: "reset" }), { messages: [], status: "idle" });
});

test("agent-state: a patch copying the whole value puts a copy of it, never the value itself, inside it", () => {
  const state = play([
    { type: "continue" },
    part({ type: "agent-state", patch: [{ op: "add", path: "/n", value: 1 }, { op: "copy", from: "", path: "/b" }] }),
  ]);
  assert.doesNotThrow(() => JSON.stringify(state));
  assert.deepEqual(state.agentState, { n: 1, b: { n: 1 } });
});

test("bad v2 input throws a coded TypeError naming the path, and changes nothing", () => {
  const state = streamingReply();
  const cases = [
    [part({ type: "data", name: "n" }), "action.part"],
    [part({ type: "data", name: "n", data: 1, patch: [], id: "i" }), "action.part"],
    [part({ type: "data", name: "n", patch: [] }), "action.part.id"],
    [part({ type: "data", name: 5, data: 1 }), "action.part.name"],
    [part({ type: "data", name: "n", id: "i", patch: [{ op: "add", path: "/a" }] }), "action.part.patch[0].value"],
    [part({ type: "agent-state" }), "action.part"],
    [part({ type: "agent-state", snapshot: {}, patch: [] }), "action.part"],
    [part({ type: "agent-state", patch: { op: "add" } }), "action.part.patch"],
    [part({ type: "message-metadata" }), "action.part.metadata"],
    [part({ type: "snapshot", messages: [{ id: "x", role: "robot", parts: [] }] }), "action.part.messages[0].role"],
    [part({ type: "snapshot", messages: [], exact: "yes" }), "action.part.exact"],
    [{ type: "batch", actions: [part({ type: "text-delta", text: "ok" }), { type: "send", id: 1, text: "x" }] }, "action.actions[1].id"],
    [{ type: "batch", actions: [{ type: "batch", actions: [{ type: 3 }] }] }, "action.actions[0].actions[0].type"],
    [{ type: "batch", actions: {} }, "action.actions"],
  ];
  for (const [action, path] of cases) {
    assertInvalid(() => sessionReducer(state, deepFreeze(action)), path);
    assertInvalid(() => checkAction(action), path);
  }
  const after = sessionReducer(state, part({ type: "text-delta", text: "!" }));
  assert.equal(after.messages[1].parts[0].text, "Planning!", "the module keeps working");
});

test("a state holding v2 values is read and checked like any other", () => {
  const literal = {
    messages: [
      { id: "a-1", role: "assistant", metadata: { m: 1 }, parts: [{ type: "text", text: "x", metadata: null }, { type: "data", name: "n", data: [1] }] },
    ],
    status: "streaming",
    agentState: { s: 1 },
  };
  const next = sessionReducer(literal, part({ type: "data", name: "n", data: [2] }));
  assert.deepEqual(next.messages[0].parts[2], { type: "data", name: "n", data: [2] });
  assert.equal(next.agentState, literal.agentState);
  assertInvalid(() => sessionReducer({ ...literal, messages: [{ ...literal.messages[0], parts: [{ type: "data", name: "n" }] }] }, { type: "stop" }), "state.messages[0].parts[0].data");
});

test("a batch is one action: in order, checked whole first, the same state when nothing changed", () => {
  const state = streamingReply();
  const deltas = Array.from({ length: 16 }, (_, index) => part({ type: "text-delta", text: `${index},` }));
  const batched = sessionReducer(state, { type: "batch", actions: deltas });
  assert.deepEqual(batched, play(deltas, state));
  assert.equal(batched.messages[0], state.messages[0]);

  const mixed = [
    part({ type: "message-start", messageId: "a-2", metadata: { step: 2 } }),
    part({ type: "data", name: "source", id: "s", data: { url: "u" } }),
    { type: "@@redux/INIT" },
    { type: "batch", actions: [part({ type: "agent-state", snapshot: 1 }), part({ type: "text-delta", text: "x" })] },
    part({ type: "data", name: "source", id: "s", patch: [{ op: "replace", path: "/url", value: "v" }] }),
    part({ type: "finish" }),
  ];
  const one = sessionReducer(state, { type: "batch", actions: mixed });
  assert.deepEqual(one, play([mixed[0], mixed[1], mixed[3].actions[0], mixed[3].actions[1], mixed[4], mixed[5]], state));
  assert.deepEqual(one.messages[2].parts[0].data, { url: "v" });
  assert.equal(sessionReducer(state, { type: "batch", actions: [] }), state);
  assert.equal(sessionReducer(state, { type: "batch", actions: [part({ type: "step-finish" }), { type: "custom" }] }), state);
  // A bad action anywhere: nothing is applied (the state is frozen, and the answer is an error).
  assertInvalid(() => sessionReducer(state, { type: "batch", actions: [...deltas, part({ type: "tool-call", id: 1 })] }), "action.actions[16].part.id");
});

test("a batch can hold a call's whole streamed input: its end parses the text its earlier actions built", () => {
  const state = sessionReducer(streamingReply(), {
    type: "batch",
    actions: [
      part({ type: "tool-input-delta", id: "c-1", name: "book", text: '{"city":' }),
      part({ type: "tool-input-delta", id: "c-1", text: ' "Lyon"}' }),
      part({ type: "tool-input-end", id: "c-1" }),
      part({ type: "tool-input-delta", id: "c-2", name: "book", text: "{" }),
      part({ type: "tool-input-end", id: "c-2" }),
    ],
  });
  const [, first, second] = state.messages[1].parts;
  assert.deepEqual([first.state, first.input], ["running", { city: "Lyon" }]);
  assert.deepEqual([second.state, second.input, second.error.code], ["error", null, "invalid_input"]);
});

test("Redux: undefined is the empty session and an unknown action type returns the state", () => {
  const initial = sessionReducer(undefined, { type: "@@redux/INITx.y.z" });
  assert.deepEqual(initial, { messages: [], status: "idle" });
  assert.equal(sessionReducer(undefined, { type: "@@redux/PROBE_UNKNOWN_ACTION" }), initial);
  const state = streamingReply();
  assert.equal(sessionReducer(state, { type: "todos/added", payload: 1 }), state);
  assert.equal(sessionReducer(undefined, { type: "send", id: "u", text: "hi" }).messages.length, 1);
  assertInvalid(() => sessionReducer(state, { type: 1 }), "action.type");
  assertInvalid(() => checkAction({ type: "todos/added" }), "action.type");
});
