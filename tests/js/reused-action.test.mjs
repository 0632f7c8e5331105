// Issue 10, item 4: the reducer remembers the last action applied to a state, so that React's
// second call with the same state and action (Strict Mode) gets the very same object. An action
// object that is reused and changed in between (a pooled object, a Redux app reusing a frame)
// must get the answer for what it holds now, exactly as a fresh object would.
import assert from "node:assert/strict";
import { test } from "node:test";

import { sessionReducer } from "../../pkg/index.js";

const part = (part) => ({ type: "part", part });
const play = (actions, state = { messages: [], status: "idle" }) => actions.reduce(sessionReducer, state);
const streaming = () => play([{ type: "send", id: "u-1", text: "hi" }, part({ type: "text-delta", text: "Hello" })]);
const fresh = (action) => ({ ...action, ...(action.part ? { part: { ...action.part } } : {}) });

// [what, the action, how it is changed before the second dispatch]
const reused = [
  // The JavaScript shortcut for a plain delta.
  ["text-delta, its text changed", part({ type: "text-delta", text: " world" }), (action) => (action.part.text = " there")],
  ["text-delta, a messageId added", part({ type: "text-delta", text: "!" }), (action) => (action.part.messageId = "other")],
  ["text-delta, `within` added", part({ type: "text-delta", text: "!" }), (action) => (action.within = "call-1")],
  ["text-delta, its part replaced", part({ type: "text-delta", text: "!" }), (action) => (action.part = { type: "finish" })],
  // The module's path.
  ["tool-call, its id changed", part({ type: "tool-call", id: "call-1", name: "t", input: {} }), (action) => (action.part.id = "call-2")],
  ["send, its text changed", { type: "send", id: "u-2", text: "more" }, (action) => (action.text = "less")],
  ["a type changed", { type: "stop" }, (action) => (action.type = "reset")],
];

for (const [what, action, change] of reused) {
  test(`a reused action changed in between gets the answer for what it holds now: ${what}`, () => {
    const state = streaming();
    const first = sessionReducer(state, action);
    assert.equal(sessionReducer(state, action), first, "unchanged, the same object (Strict Mode)");
    change(action);
    const second = sessionReducer(state, action);
    assert.equal(sessionReducer(state, action), second, "and then the same object again");
    assert.deepEqual(second, sessionReducer(state, fresh(action)), "as a fresh object holding the same");
    assert.notDeepEqual(second, first);
  });
}

// Strict Mode's second call gets the same object whatever the action holds (NaN is not equal to
// itself by ===).
test("the same action again gives the same object, a NaN payload included", () => {
  const state = streaming();
  const action = part({ type: "tool-call", id: "call-1", name: "t", input: NaN });
  assert.equal(sessionReducer(state, action), sessionReducer(state, action));
});
