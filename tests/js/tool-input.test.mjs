// A call's streamed input through the built package: it is parsed once, by JSON.parse, at
// tool-input-end (never per delta, never again when React calls the reducer twice), and the
// accumulated text is never copied across into the module.
import assert from "node:assert/strict";
import { test } from "node:test";

import { sessionReducer } from "../../pkg/index.js";

const part = (part) => ({ type: "part", part });
const play = (actions, state) => actions.reduce(sessionReducer, state);

// Counts the calls to JSON.parse made while `run` runs.
function countParses(run) {
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = (...args) => {
    parses++;
    return parse(...args);
  };
  try {
    return { result: run(), parses };
  } finally {
    JSON.parse = parse;
  }
}

test("the input is parsed once, at tool-input-end, whatever the number of deltas", () => {
  const started = play(
    [{ type: "send", id: "u-1", text: "Write" }, part({ type: "tool-input-delta", id: "c-1", name: "write", text: "[" })],
    { messages: [], status: "idle" },
  );
  const deltas = [];
  for (let i = 0; i < 500; i++) deltas.push(part({ type: "tool-input-delta", id: "c-1", text: i === 0 ? "0" : ",0" }));
  deltas.push(part({ type: "tool-input-delta", id: "c-1", text: "]" }));
  const streamed = countParses(() => play(deltas, started));
  assert.equal(streamed.parses, 0, "no delta parses the input");
  assert.equal(streamed.result.messages[1].parts[0].inputText.length, 1 + 500 * 2);

  const end = part({ type: "tool-input-end", id: "c-1" });
  const ended = countParses(() => sessionReducer(streamed.result, end));
  assert.equal(ended.parses, 1);
  const call = ended.result.messages[1].parts[0];
  assert.equal(call.state, "running");
  assert.deepEqual(call.input, Array(500).fill(0));
  // React Strict Mode calls the reducer twice with the same arguments: the same state, no parse.
  const again = countParses(() => sessionReducer(streamed.result, end));
  assert.equal(again.result, ended.result);
  assert.equal(again.parses, 0);
});

test("a state restored from JSON streams and parses its input the same way", () => {
  const stored = JSON.parse(
    JSON.stringify({
      messages: [
        { id: "a-1", role: "assistant", parts: [{ type: "tool", id: "c-1", name: "f", input: null, inputText: '{"a":', state: "input-streaming" }] },
      ],
      status: "streaming",
    }),
  );
  const state = play([part({ type: "tool-input-delta", id: "c-1", text: " [1]}" }), part({ type: "tool-input-end", id: "c-1" })], stored);
  assert.deepEqual(state.messages[0].parts[0].input, { a: [1] });
  assert.equal(stored.messages[0].parts[0].state, "input-streaming", "the given state is not mutated");
});

test("a batch that ends many calls' inputs reads the state as often as one that ends one, and gives what the actions one by one give", () => {
  const started = play(
    [{ type: "send", id: "u-1", text: "Write" }, part({ type: "message-start", messageId: "a-1" })],
    { messages: [], status: "idle" },
  );
  const readsOfMessages = (calls) => {
    const actions = [];
    for (let call = 0; call < calls; call++) {
      const id = `c-${call}`;
      actions.push(part({ type: "tool-input-delta", id, name: "write", text: '{"line":' }));
      actions.push(part({ type: "tool-input-delta", id, text: `${call}}` }));
      actions.push(part({ type: "tool-input-end", id }));
    }
    let reads = 0;
    // The same state behind a Proxy, so the module reads it afresh and each read of its message
    // list is counted: applying the batch's earlier patches again for each input read it again.
    const counted = new Proxy(started, {
      get(target, key, receiver) {
        if (key === "messages") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const batched = sessionReducer(counted, { type: "batch", actions });
    assert.deepEqual(batched, play(actions, started));
    assert.deepEqual(batched.messages[1].parts.at(-1).input, { line: calls - 1 });
    return reads;
  };
  assert.equal(readsOfMessages(40), readsOfMessages(1));
});
