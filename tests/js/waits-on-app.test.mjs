// waitsOnApp (issue 22): whether an open call waits on the app, as a UI renders it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sessionReducer, waitsOnApp } from "../../pkg/index.js";

const run = (actions) => actions.reduce(sessionReducer, { messages: [], status: "idle" });
const part = (p, within) => (within === undefined ? { type: "part", part: p } : { type: "part", part: p, within });
const callIn = (state, id) => {
  const stack = [state.messages];
  for (let messages = stack.pop(); messages !== undefined; messages = stack.pop()) {
    for (const message of messages) {
      for (const p of message.parts) {
        if (p.type === "tool" && p.id === id) return p;
        if (p.type === "tool" && p.agent) stack.push(p.agent.messages);
      }
    }
  }
  throw new Error(`no call ${id}`);
};
const started = [{ type: "send", id: "u1", text: "Go" }, part({ type: "message-start", messageId: "a1" })];

test("waitsOnApp: a client-side call waits for its result once its run finished, not while the agent streams", () => {
  const streaming = run([...started, part({ type: "tool-call", id: "c1", name: "locate", input: {} })]);
  assert.equal(waitsOnApp(streaming, callIn(streaming, "c1")), undefined, "the agent may still answer it");
  const finished = sessionReducer(streaming, part({ type: "finish", reason: "tool-calls" }));
  assert.equal(waitsOnApp(finished, callIn(finished, "c1")), "result");
  const answered = sessionReducer(finished, part({ type: "tool-result", id: "c1", output: 1 }));
  assert.equal(waitsOnApp(answered, callIn(answered, "c1")), undefined, "done");
  assert.equal(waitsOnApp(answered, answered.messages[1].parts[0]), undefined);
  assert.equal(waitsOnApp(answered, { type: "text", text: "x" }), undefined);
});

test("waitsOnApp: a call awaiting approval waits for confirmation, streaming or not; once approved it is the agent's", () => {
  const asked = run([
    ...started,
    part({ type: "tool-call", id: "c1", name: "delete", input: {} }),
    part({ type: "tool-approval-request", id: "c1", prompt: "Delete?" }),
  ]);
  assert.equal(waitsOnApp(asked, callIn(asked, "c1")), "confirmation");
  const finished = sessionReducer(asked, part({ type: "finish", reason: "tool-calls" }));
  assert.equal(waitsOnApp(finished, callIn(finished, "c1")), "confirmation");
  const approved = sessionReducer(finished, part({ type: "tool-approval-response", id: "c1", approved: true }));
  assert.equal(callIn(approved, "c1").state, "running");
  assert.equal(waitsOnApp(approved, callIn(approved, "c1")), undefined);
  const automatic = run([
    ...started,
    part({ type: "tool-call", id: "c2", name: "delete", input: {} }),
    part({ type: "tool-approval-request", id: "c2", automatic: true }),
  ]);
  assert.equal(waitsOnApp(automatic, callIn(automatic, "c2")), undefined, "a policy decides, not the user");
});

test("waitsOnApp: nested runs: a call with a sub-agent run is the agent's; a call in a finished sub-run waits once nothing streams", () => {
  const nested = run([
    ...started,
    part({ type: "tool-call", id: "task", name: "researcher", input: {} }),
    part({ type: "message-start", messageId: "n1" }, "task"),
    part({ type: "tool-call", id: "pick", name: "pick_file", input: {} }, "task"),
    part({ type: "finish", reason: "tool-calls" }, "task"),
  ]);
  assert.equal(waitsOnApp(nested, callIn(nested, "pick")), undefined, "the top-level run still streams");
  const finished = sessionReducer(nested, part({ type: "finish", reason: "tool-calls" }));
  assert.equal(waitsOnApp(finished, callIn(finished, "task")), undefined, "its sub-agent's, not the app's");
  assert.equal(waitsOnApp(finished, callIn(finished, "pick")), "result");
});
