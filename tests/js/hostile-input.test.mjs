// Issue 10, item 1: values that throw while the package reads them, passed to every entry point
// thousands of times, in Node and in Chromium; afterwards a valid conversation must still give
// exactly the answer a fresh module gives. (Before the fix, about 511 such calls broke every later
// call: `null` results, then "memory access out of bounds".)
import assert from "node:assert/strict";
import { test } from "node:test";

import * as api from "../../pkg/index.js";
import { conversation, nestedForks, runHostile, runV3BadInputs } from "./hostile-input.mjs";
import { withPackagePage } from "./package-page.mjs";

const ROUNDS = 2000;

test("in Node: thousands of throwing getters and Proxies through every entry point, then the right answer", () => {
  const expected = conversation(api);
  const { calls, problems, answer } = runHostile(api, ROUNDS);
  assert.ok(calls >= 30000, `${calls} hostile calls`);
  assert.deepEqual(problems, []);
  assert.equal(answer, expected);
});

test("in Chromium: the same", async () => {
  const result = await withPackagePage((page) =>
    page.evaluate(async (rounds) => {
      const api = await import("/pkg/index.js");
      const { conversation, runHostile } = await import("/tests/js/hostile-input.mjs");
      const expected = conversation(api);
      return { expected, ...runHostile(api, rounds) };
    }, ROUNDS),
  );
  assert.deepEqual(result.problems, []);
  assert.equal(result.answer, result.expected);
  assert.equal(result.answer, conversation(api), "Chromium and Node agree");
});

// A getter may call the reducer while the package reads the value it belongs to: both calls get
// the answer they would get alone (the read under way is put aside, not overwritten).
test("a getter that calls the reducer in the middle of a read: both calls get their own answer", () => {
  const tool = (id) => ({ type: "tool", id, name: "search", input: {}, state: "running" });
  const state = (id) => ({
    messages: [
      { id: "u-1", role: "user", parts: [{ type: "text", text: "Find it" }] },
      { id, role: "assistant", parts: [tool("call-1"), tool("call-2")] },
    ],
    status: "streaming",
  });
  const result = { type: "part", part: { type: "tool-result", id: "call-2", output: 2 } };
  const inner = { type: "batch", actions: [{ type: "part", part: { type: "tool-result", id: "inner-call", output: 1 } }] };
  const innerState = { messages: [{ id: "a-9", role: "assistant", parts: [tool("inner-call")] }], status: "streaming" };
  let innerAnswer;
  const reentrant = state("a-1");
  Object.defineProperty(reentrant.messages[1], "id", {
    get() {
      innerAnswer = api.sessionReducer(innerState, inner);
      return "a-1";
    },
    enumerable: true,
  });
  const answer = api.sessionReducer(reentrant, result);
  assert.deepEqual(answer, api.sessionReducer(state("a-1"), result));
  assert.equal(answer.messages[1].parts[1].state, "done");
  assert.deepEqual(innerAnswer, api.sessionReducer(structuredClone(innerState), inner));
  assert.equal(innerAnswer.messages[0].parts[0].state, "done");
});

// The same while the package applies a step (apply.js reads `output` from the action as it
// writes it): the inner step makes its own copies, and the outer one's go on where they were.
test("a getter that calls the reducer in the middle of applying a step: both calls get their own answer", () => {
  const tool = (id) => ({ type: "tool", id, name: "search", input: {}, state: "running" });
  const state = () => ({
    messages: [
      { id: "u-1", role: "user", parts: [{ type: "text", text: "Find it" }] },
      { id: "a-1", role: "assistant", parts: [tool("call-1"), tool("call-2")] },
    ],
    status: "streaming",
  });
  const inner = { type: "part", part: { type: "tool-result", id: "call-1", output: 1 } };
  let innerAnswer;
  let reads = 0;
  const part = { type: "tool-result", id: "call-2" };
  Object.defineProperty(part, "output", {
    get() {
      // Read as the action is checked, then as the step writes it (then as the action is
      // remembered, for React's second call).
      if (++reads === 2) innerAnswer = api.sessionReducer(state(), inner);
      return 2;
    },
    enumerable: true,
  });
  const answer = api.sessionReducer(state(), { type: "part", part });
  assert.ok(innerAnswer !== undefined, "the getter ran while the step was applied");
  assert.deepEqual(answer, api.sessionReducer(state(), { type: "part", part: { type: "tool-result", id: "call-2", output: 2 } }));
  assert.deepEqual(innerAnswer.messages[1].parts.map((call) => call.state), ["done", "running"]);
  assert.deepEqual(answer.messages[1].parts.map((call) => call.state), ["running", "done"]);
});

// SPEC v3: the new fields' bad values, refused with their path; a long valid queue is not one.
const hasV3 = (() => {
  try {
    api.checkAction({ type: "unqueue", id: "q" });
    return true;
  } catch {
    return false;
  }
})();
const needsV3 = { skip: !hasV3 && "the package has no v3 actions" };

test("v3 in Node: bad forks, branches, queues and actions are refused with their path, and the module goes on", needsV3, () => {
  const expected = conversation(api);
  const { calls, problems, answer } = runV3BadInputs(api, 20);
  assert.ok(calls >= 600, `${calls} bad inputs`);
  assert.deepEqual(problems, []);
  assert.equal(answer, expected);
});

test("v3 in Chromium: the same", needsV3, async () => {
  const result = await withPackagePage((page) =>
    page.evaluate(async () => {
      const api = await import("/pkg/index.js");
      const { conversation, runV3BadInputs } = await import("/tests/js/hostile-input.mjs");
      const expected = conversation(api);
      return { expected, ...runV3BadInputs(api, 5) };
    }),
  );
  assert.deepEqual(result.problems, []);
  assert.equal(result.answer, result.expected);
});

test("v3: a queue of 100,000 and branches 64 deep are read, and a finish sends the whole queue as one turn", needsV3, () => {
  const queue = Array.from({ length: 100_000 }, (_, i) => ({ id: `q-${i}`, text: "later" }));
  const state = { messages: [{ id: "u-1", role: "user", parts: [{ type: "text", text: "q" }] }], status: "streaming", queue };
  const sent = api.sessionReducer(state, { type: "part", part: { type: "finish" } });
  assert.equal(sent.messages.length, 100_001);
  assert.deepEqual(sent.messages.at(-1), { id: "q-99999", role: "user", parts: [{ type: "text", text: "later" }] });
  assert.deepEqual([sent.status, "queue" in sent], ["streaming", false]);
  const deep = { messages: [{ id: "u-1", role: "user", parts: [] }, { id: "a-2", role: "assistant", parts: [] }], status: "idle", forks: nestedForks(64) };
  const edited = api.sessionReducer(deep, { type: "edit", messageId: "u-1", id: "e-1", text: "e" });
  assert.deepEqual(edited.messages.map((m) => m.id), ["e-1"]);
  assert.equal(api.sessionReducer(deep, { type: "switchBranch", after: "a-2", to: 0 }).forks.length, 2);
});
