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
