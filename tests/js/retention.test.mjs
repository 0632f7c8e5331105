// A streaming reply makes a state per delta; the package must not keep the earlier ones alive
// (each holds its own copy of the message list, and a long conversation's are large), while still
// answering React's immediate repeat of a step (Strict Mode) with the same object.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

import { sessionReducer } from "../../pkg/index.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc");
// WeakRef targets stay alive until the current job ends.
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

const part = (part) => ({ type: "part", part });
const delta = (text) => part({ type: "text-delta", text });

test("the states a streamed reply left behind are collected; the last step still repeats identically", async () => {
  let state = [
    { type: "send", id: "u-1", text: "Tell me" },
    part({ type: "message-start", messageId: "a-1" }),
    delta("Once"),
  ].reduce(sessionReducer, { messages: [], status: "idle" });
  const left = [];
  for (const word of [" upon", " a", " time"]) {
    left.push(new WeakRef(state));
    state = sessionReducer(state, delta(word));
  }
  const last = delta(" there");
  const next = sessionReducer(state, last);
  assert.equal(sessionReducer(state, last), next, "Strict Mode's repeat of the last step");
  assert.equal(next.messages[1].parts[0].text, "Once upon a time there");

  await nextTask();
  collectGarbage();
  assert.equal(left[0].deref(), undefined, "a state three deltas back is collected");
  assert.equal(left[1].deref(), undefined, "a state two deltas back is collected");
});

// React Strict Mode calls the reducer twice per step, and devtools replay from earlier states:
// the states a plain delta makes are remembered two at a time (facts.js), and neither
// pattern may change an answer, only its cost.
test("a streamed reply under Strict Mode, with steps replayed from earlier states: same objects, right texts, old states collected", async () => {
  const start = [
    { type: "send", id: "u-1", text: "Tell me" },
    part({ type: "message-start", messageId: "a-1" }),
  ].reduce(sessionReducer, { messages: [], status: "idle" });
  const states = [start];
  const words = [];
  const left = [];
  for (let step = 0; step < 12; step++) {
    const word = ` w${step}`;
    const state = states.at(-1);
    const action = delta(word);
    const next = sessionReducer(state, action);
    assert.equal(sessionReducer(state, action), next, `Strict Mode's repeat of step ${step}`);
    words.push(word);
    assert.equal(next.messages[1].parts[0].text, words.join(""));
    assert.equal(next.messages[0], start.messages[0], "the user's message is shared");
    if (step % 3 === 2) {
      // A replay from two states back: its own answer, and the stream goes on unchanged.
      const replayed = sessionReducer(states.at(-2), delta(" again"));
      assert.equal(replayed.messages[1].parts[0].text, `${words.slice(0, -2).join("")} again`);
    }
    states.push(next);
    // Made by streaming and Strict Mode's repeats only (the replays start from states[1] and [4]).
    if (step === 3) left.push(new WeakRef(states[2]), new WeakRef(states[3]));
  }
  states.splice(0, states.length - 2);

  await nextTask();
  collectGarbage();
  assert.deepEqual(left.map((state) => state.deref()), [undefined, undefined], "states left behind by the stream are collected");
});

// An app that switches conversations (a sidebar of chats) lets the old one go: the package's memo
// of recent states must not keep it alive for the life of the page, however the conversation in
// use goes on (a streamed reply, whose states replace each other in the memo, included).
test("a conversation the app let go of is collected once a hundred more reducer calls have been made", async () => {
  let old = [
    { type: "send", id: "u-1", text: "Find it" },
    part({ type: "message-start", messageId: "a-1" }),
    part({ type: "tool-call", id: "call-1", name: "search", input: { query: "it" } }),
    part({ type: "tool-result", id: "call-1", output: { found: true } }),
    delta("Found it."),
  ].reduce(sessionReducer, { messages: [], status: "idle" });
  const left = new WeakRef(old);
  old = undefined;

  let current = [
    { type: "send", id: "u-1", text: "Tell me" },
    part({ type: "message-start", messageId: "a-1" }),
  ].reduce(sessionReducer, { messages: [], status: "idle" });
  for (let step = 0; step < 100; step++) current = sessionReducer(current, delta(` w${step}`));

  await nextTask();
  collectGarbage();
  assert.equal(left.deref(), undefined, "the conversation let go of is collected");
  assert.equal(current.messages[1].parts[0].text, Array.from({ length: 100 }, (_, step) => ` w${step}`).join(""));
});
