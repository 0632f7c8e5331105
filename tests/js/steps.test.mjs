// SPEC v3 "Stream parts": step-start and step-reset, and the { type: "step" } part, through the
// built package (pkg/): targeting as text-delta, identity when nothing changes, a reset that takes
// the calls it removes out of the conversation (their ids free for the step's retry), a state with
// step parts read as any state, resumable unaffected, and bad input.
import assert from "node:assert/strict";
import { test } from "node:test";

import { resumable, sessionReducer } from "../../pkg/index.js";

const part = (part) => ({ type: "part", part });
const play = (actions, state = { messages: [], status: "idle" }) => actions.reduce(sessionReducer, state);
function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
const step = { type: "step" };

function assertInvalid(fn, path) {
  assert.throws(fn, (error) => error instanceof TypeError && error.code === "invalid" && error.path === path && error.message.startsWith(`${path}: `));
}

test("step-start adds a step part where a text delta would go, once", () => {
  const asked = deepFreeze(play([{ type: "send", id: "u-1", text: "Weather?" }]));
  const started = sessionReducer(asked, part({ type: "step-start" }));
  assert.deepEqual(started.messages[1], { id: "assistant-1", role: "assistant", parts: [step] });
  assert.equal(started.messages[0], asked.messages[0]);
  assert.equal(sessionReducer(deepFreeze(started), part({ type: "step-start" })), started, "already a step part last");
  assert.equal(sessionReducer(started, part({ type: "step-start", metadata: { ignored: true } })), started);
  const named = sessionReducer(asked, part({ type: "step-start", messageId: "a-7" }));
  assert.deepEqual(named.messages[1], { id: "a-7", role: "assistant", parts: [step] });
  assert.equal(sessionReducer(asked, part({ type: "step-start", messageId: "u-1" })), asked, "a user message's id");
  const texted = sessionReducer(started, part({ type: "text-delta", text: "Sunny" }));
  assert.deepEqual(texted.messages[1].parts, [step, { type: "text", text: "Sunny" }]);
});

test("step-reset removes what the step wrote, calls included, and their ids are free again", () => {
  const stepped = deepFreeze(
    play([
      { type: "send", id: "u-1", text: "Weather?" },
      part({ type: "text-delta", text: "Let me look." }),
      part({ type: "step-start" }),
      part({ type: "text-delta", text: "Checking" }),
      part({ type: "tool-call", id: "c-1", name: "weather", input: { city: "Lyon" } }),
      { type: "toolPhase", name: "weather", state: "awaiting-confirmation", prompt: "Share?" },
    ]),
  );
  const reset = sessionReducer(stepped, part({ type: "step-reset" }));
  assert.deepEqual(reset.messages[1].parts, [{ type: "text", text: "Let me look." }, step]);
  assert.equal(reset.messages[1].parts[0], stepped.messages[1].parts[0]);
  assert.equal(reset.messages[0], stepped.messages[0]);
  assert.equal(sessionReducer(reset, part({ type: "step-reset" })), reset, "nothing after the step part");
  assert.equal(sessionReducer(reset, part({ type: "tool-result", id: "c-1", output: 1 })), reset, "the call is gone");
  assert.equal(sessionReducer(reset, { type: "toolPhase", name: "weather", state: "running" }), reset);
  const retried = sessionReducer(reset, part({ type: "tool-call", id: "c-1", name: "weather", input: { city: "Paris" } }));
  assert.deepEqual(retried.messages[1].parts[2], { type: "tool", id: "c-1", name: "weather", input: { city: "Paris" }, state: "running" });
});

test("step-reset without a step part empties the message, and never creates one", () => {
  const replying = deepFreeze(play([{ type: "send", id: "u-1", text: "Hi" }, part({ type: "text-delta", text: "Hel" })]));
  assert.deepEqual(sessionReducer(replying, part({ type: "step-reset" })).messages[1].parts, []);
  const asked = deepFreeze(play([{ type: "send", id: "u-1", text: "Hi" }]));
  for (const reset of [{ type: "step-reset" }, { type: "step-reset", messageId: "nope" }, { type: "step-reset", messageId: "u-1" }]) {
    assert.equal(sessionReducer(asked, part(reset)), asked, JSON.stringify(reset));
  }
});

test("a state holding step parts is read as any state, and resumable keeps them", () => {
  const state = {
    messages: [
      { id: "u-1", role: "user", parts: [{ type: "text", text: "Go" }] },
      { id: "a-1", role: "assistant", parts: [step, { type: "tool", id: "c-1", name: "t", input: {}, state: "done", output: 1 }, step, { type: "text", text: "cut" }] },
    ],
    status: "error",
    error: { message: "lost" },
  };
  const kept = resumable(state.messages);
  assert.deepEqual(kept[1].parts, [step, state.messages[1].parts[1]]);
  const retried = sessionReducer(state, { type: "retry" });
  assert.deepEqual(retried.messages[1].parts, [step, state.messages[1].parts[1]]);
  assert.equal(retried.messages[1].parts[0], step);
});

test("bad step input names its path", () => {
  const replying = play([{ type: "send", id: "u-1", text: "Hi" }]);
  assertInvalid(() => sessionReducer(replying, part({ type: "step-start", messageId: 7 })), "action.part.messageId");
  assertInvalid(() => sessionReducer(replying, part({ type: "step-reset", messageId: null })), "action.part.messageId");
  assertInvalid(
    () => sessionReducer({ messages: [{ id: "a", role: "assistant", parts: [{ type: "steps" }] }], status: "idle" }, { type: "stop" }),
    "state.messages[0].parts[0].type",
  );
});
