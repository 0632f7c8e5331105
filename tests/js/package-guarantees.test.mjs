// Guarantees of the built package that a random differential against bench/baseline.mjs once
// found broken, in the corners between its JavaScript fast paths and the Rust path: identity on
// retry, Strict Mode's double call however many states came since, coded errors for a state
// changed in place, and prompts compared exactly.
import assert from "node:assert/strict";
import { test } from "node:test";

import { resumable, sessionReducer } from "../../pkg/index.js";

const EMPTY = { messages: [], status: "idle" };
const part = (part) => ({ type: "part", part });
const play = (actions, state = EMPTY) => actions.reduce(sessionReducer, state);

// SPEC "Purity and identity": every message that did not change is the very same object.
// Retry drops the messages after the one holding the last finished call; when that call is the
// last part of its message, the message itself is unchanged and must not come back as a copy.
test("retry keeps the message holding the last finished call when none of its parts go", () => {
  const state = play([
    { type: "send", id: "u-1", text: "hi" },
    part({ type: "tool-call", id: "call-1", name: "t", input: {} }),
    part({ type: "tool-result", id: "call-1", output: {} }),
    part({ type: "message-start", messageId: "a-2" }), // the next step, cut short
    part({ type: "error", error: "Couldn't reach the assistant.", code: "network" }),
  ]);
  const retried = sessionReducer(state, { type: "retry" });
  assert.equal(retried.messages.length, 2);
  assert.deepEqual(retried.messages[1], state.messages[1]);
  assert.equal(retried.messages[1], state.messages[1], "the unchanged message is the same object");
  assert.equal(retried.messages[1].parts, state.messages[1].parts);
});

// docs/architecture.md: "the same state and action again (React Strict Mode calls a reducer
// twice) give the same object"; "Answers never depend on what is remembered, only the cost."
// Even when the state is the oldest of the states src/wasm/facts.js remembers.
test("Strict Mode: the same state and action twice give the same object, however many states came since", () => {
  for (let since = 0; since < 40; since++) {
    const state = play([{ type: "send", id: "u-1", text: "hi" }]);
    let other = EMPTY;
    for (let i = 0; i < since; i++) other = sessionReducer(other, { type: "send", id: `o-${i}`, text: "x" });
    for (const action of [part({ type: "message-start", messageId: "a-1" }), part({ type: "text-delta", text: "x" })]) {
      const first = sessionReducer(state, action);
      const second = sessionReducer(state, action);
      assert.equal(second, first, `${since} states made since, ${action.part.type}`);
    }
  }
});

// docs/decisions.md: a state changed in place "is not read again; when the change makes an
// action impossible to apply, the reducer throws code: "invalid" with path: "state"", on the Rust
// path (a tool-call) and on the JavaScript shortcut for plain text deltas alike.
test("a state changed in place so that a plain text delta cannot apply: a coded error, as for other actions", () => {
  const streamed = () =>
    play([{ type: "send", id: "u-1", text: "hi" }, part({ type: "text-delta", text: "a" })]);
  const actions = [
    part({ type: "tool-call", id: "call-1", name: "t", input: 1 }), // the Rust path: coded today
    part({ type: "text-delta", text: "b" }),
    part({ type: "text-delta", messageId: "assistant-1", text: "b" }),
  ];
  for (const action of actions) {
    const state = streamed();
    state.messages.pop(); // the caller changes the state in place
    assert.throws(
      () => sessionReducer(state, action),
      (error) => error instanceof TypeError && error.code === "invalid" && error.path === "state",
      `${action.part.type} ${action.part.messageId ?? ""}`,
    );
  }
});

// SPEC toolPhase: sets the call's `prompt`; "any JavaScript string ... round-trips unchanged";
// a new prompt that differs from the current one only in a lone surrogate (or U+FFFD) is a change.
test("toolPhase sets a prompt that differs from the current one only in a lone surrogate", () => {
  const asked = play([
    { type: "send", id: "u-1", text: "hi" },
    part({ type: "tool-call", id: "call-1", name: "delete", input: {} }),
    { type: "toolPhase", name: "delete", state: "awaiting-confirmation", prompt: "Delete \uD800?" },
  ]);
  const prompt = "Delete \uFFFD?";
  const next = sessionReducer(asked, { type: "toolPhase", name: "delete", state: "awaiting-confirmation", prompt });
  assert.notEqual(next, asked);
  assert.equal(next.messages[1].parts[0].prompt, prompt);
});

// Issue 10, item 5. docs/decisions.md: extra fields on objects are kept. A message parsed from
// JSON may hold an own `__proto__` field, as data; copying it must keep it so, not make it the
// copy's prototype (as Object.assign would).
test("resumable and retry keep a message's own __proto__ field, as data, when they cut the message", () => {
  const messages = JSON.parse(`[
    { "id": "u-1", "role": "user", "parts": [{ "type": "text", "text": "hi" }] },
    { "id": "a-1", "role": "assistant", "__proto__": { "from": "server" }, "parts": [
      { "type": "tool", "id": "call-1", "name": "t", "input": {}, "state": "done", "output": 1 },
      { "type": "text", "text": "cut by Retry" }
    ] }
  ]`);
  const failed = { messages, status: "error", error: { message: "Network down" } };
  for (const cut of [resumable(messages)[1], sessionReducer(failed, { type: "retry" }).messages[1]]) {
    assert.notEqual(cut, messages[1]);
    assert.equal(cut.parts.length, 1);
    assert.ok(Object.hasOwn(cut, "__proto__"), "an own field");
    assert.equal(Object.getPrototypeOf(cut), Object.prototype);
    assert.equal(JSON.stringify(cut), JSON.stringify({ ...messages[1], parts: messages[1].parts.slice(0, 1) }));
  }
});

// docs/decisions.md: ids are compared exactly, lone surrogates included. Rust gets U+FFFD for a
// lone surrogate, so the module gives such an id an escaped form (U+FFFF and the code units in
// hex); the escaped forms must not collide with each other or with any other id.
test("call ids that differ only in a lone surrogate, U+FFFD or an escaped-looking U+FFFF prefix are distinct", () => {
  const ids = ["\uD800", "\uDC00", "\uFFFD", "\uFFFFd800", "\uFFFF", "a\uD83D\uDE00", "a\uD83D", "\uD800\uFFFD"];
  let state = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "hi" });
  for (const id of ids) state = sessionReducer(state, part({ type: "tool-call", id, name: "t", input: {} }));
  for (const id of ids) state = sessionReducer(state, part({ type: "tool-result", id, output: id }));
  const calls = state.messages[1].parts;
  assert.deepEqual(calls.map((call) => call.id), ids, "each is a new call");
  assert.deepEqual(calls.map((call) => call.output), ids, "each result found its own call");
});
