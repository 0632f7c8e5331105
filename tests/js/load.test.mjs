// SPEC v3 "Actions": load, and the v3 load rule, through the built package (pkg/): the state given
// comes back itself when nothing needs stopping (a call waiting on the user stays answerable, the
// queue stays); one stored while streaming is stopped; an open call whose sub-agent run still
// streams is cancelled; the state is read and checked as any state (paths under `action.state`).
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkAction, sessionReducer } from "../../pkg/index.js";

const part = (part) => ({ type: "part", part });
function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
const current = () => deepFreeze(sessionReducer(undefined, { type: "send", id: "x", text: "another conversation" }));

const asked = { id: "u-1", role: "user", parts: [{ type: "text", text: "Book the flight" }] };
const approval = { type: "tool", id: "c-1", name: "book", input: { flight: "AF1" }, state: "awaiting-confirmation", prompt: "Book?", approval: { id: "ap-1" } };
const stored = (status, extra = {}) =>
  deepFreeze({ messages: [asked, { id: "a-1", role: "assistant", parts: [{ type: "text", text: "Shall I?" }, approval] }], status, ...extra });

function assertInvalid(fn, path) {
  assert.throws(fn, (error) => error instanceof TypeError && error.code === "invalid" && error.path === path && error.message.startsWith(`${path}: `));
}

test("load gives back the very state given when nothing needs stopping, and its question stays answerable", () => {
  const given = stored("idle", { queue: [{ id: "q-1", text: "and a hotel" }] });
  const loaded = sessionReducer(current(), { type: "load", state: given });
  assert.equal(loaded, given);
  const approved = sessionReducer(loaded, part({ type: "tool-approval-response", approvalId: "ap-1", approved: true }));
  assert.equal(approved.messages[1].parts[1].state, "running");
  assert.equal(approved.messages[0], given.messages[0]);
  assert.equal(sessionReducer(given, { type: "load", state: given }), given, "loading the state itself");
});

test("a state stored while streaming is loaded with stop applied, sharing what stop does not touch", () => {
  const given = stored("streaming", { queue: [{ id: "q-1", text: "later" }] });
  const loaded = sessionReducer(current(), { type: "load", state: given });
  assert.equal(loaded.status, "idle");
  assert.equal(loaded.messages[1].parts[1].state, "cancelled");
  assert.equal(loaded.messages[1].parts[1].prompt, "Book?", "cancelling changes nothing else");
  assert.equal(loaded.messages[0], given.messages[0]);
  assert.equal(loaded.messages[1].parts[0], given.messages[1].parts[0]);
  assert.equal(loaded.queue, given.queue, "the queue is kept");
});

test("an open call whose sub-agent run still streams is cancelled, and a call waiting on the user is not", () => {
  const researcher = {
    type: "tool", id: "c-2", name: "research", input: {}, state: "running",
    agent: { messages: [{ id: "s-1", role: "assistant", parts: [{ type: "tool", id: "c-3", name: "fetch", input: {}, state: "running" }] }], status: "streaming" },
  };
  const given = deepFreeze({ messages: [asked, { id: "a-1", role: "assistant", parts: [approval, researcher] }], status: "idle" });
  const loaded = sessionReducer(current(), { type: "load", state: given });
  assert.equal(loaded.messages[1].parts[0], approval);
  assert.equal(loaded.messages[1].parts[1].state, "cancelled");
  assert.equal(loaded.messages[1].parts[1].agent.status, "idle");
  assert.equal(loaded.messages[1].parts[1].agent.messages[0].parts[0].state, "cancelled");
});

test("a load in a batch switches the base of the actions after it", () => {
  const given = stored("idle");
  const after = sessionReducer(current(), {
    type: "batch",
    actions: [{ type: "send", id: "lost", text: "goes with the old state" }, { type: "load", state: given }, { type: "send", id: "u-2", text: "Yes" }],
  });
  assert.deepEqual(after.messages.map((message) => message.id), ["u-1", "a-1", "u-2"]);
  assert.equal(after.messages[1].parts[1].state, "cancelled", "a send when not streaming cancels what waits");
  assert.equal(after.messages[0], given.messages[0]);
});

test("the state of a load is checked as any state, its paths under action.state", () => {
  assertInvalid(() => sessionReducer(current(), { type: "load" }), "action.state");
  assertInvalid(() => sessionReducer(current(), { type: "load", state: { messages: [], status: "done" } }), "action.state.status");
  assertInvalid(() => sessionReducer(current(), { type: "load", state: { messages: [asked], status: "error" } }), "action.state.error");
  assertInvalid(() => sessionReducer(current(), { type: "load", state: { messages: [], status: "idle", queue: [] } }), "action.state.queue");
  assertInvalid(
    () => sessionReducer(current(), { type: "load", state: { messages: [{ id: "u", role: "user", parts: [{ type: "text", text: 1 }] }], status: "idle" } }),
    "action.state.messages[0].parts[0].text",
  );
  assertInvalid(() => checkAction({ type: "load", state: [] }), "action.state");
  const given = stored("idle");
  assert.equal(checkAction({ type: "load", state: given }).state, given);
});

test("the state a load replaces is checked as any state is", () => {
  assertInvalid(() => sessionReducer({ messages: "none", status: "idle" }, { type: "load", state: stored("idle") }), "state.messages");
  const given = stored("idle");
  assert.equal(sessionReducer(undefined, { type: "load", state: given }), given, "Redux's first state");
});
