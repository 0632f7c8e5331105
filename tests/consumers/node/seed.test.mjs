// Runs inside the scratch project that installed the packed tarball, so the import below
// resolves exactly as it does for a Node 20 ESM user: by name, through the package's exports.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sessionReducer, resumable, restoreSession, persistSession, saveSession } from "chat-session-reducer";
import { emptySession, seedActions } from "./seed.mjs";

function runSeed() {
  return seedActions.reduce(sessionReducer, emptySession);
}

test("the reference example ends in error and Retry resends through the finished call", () => {
  const state = runSeed();
  assert.equal(state.status, "error");
  assert.deepEqual(state.error, { message: "Couldn't reach the assistant.", code: "network" });
  const tool = state.messages[1].parts[0];
  assert.equal(tool.type, "tool");
  assert.equal(tool.state, "done");
  assert.deepEqual(tool.output, { content: [{ type: "text", text: "Added." }] });
  assert.equal(resumable(state.messages).length, 2);
});

test("a step-finish part returns the very same state object", () => {
  const streaming = seedActions.slice(0, 3).reduce(sessionReducer, emptySession);
  assert.equal(streaming.status, "streaming");
  assert.ok(Object.is(sessionReducer(streaming, { type: "part", part: { type: "step-finish" } }), streaming));
});

test("a malformed action throws an Error with code invalid and the offending path", () => {
  const state = runSeed();
  let thrown;
  try {
    sessionReducer(state, { type: "send", id: 42, text: "hi" });
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof Error, `expected an Error, got ${thrown}`);
  assert.equal(thrown.code, "invalid");
  assert.equal(typeof thrown.path, "string");
  assert.equal(thrown.path, "action.id");
  assert.ok(thrown.message.startsWith(thrown.path), thrown.message);
  // The module keeps working after rejecting bad input.
  assert.equal(runSeed().status, "error");
});

test("the package has no init export: importing it is all the setup there is", async () => {
  const api = await import("chat-session-reducer");
  assert.equal(api.default, undefined);
  assert.equal(api.initSync, undefined);
});

test("without any storage (Node, server rendering) storage is unavailable: restoreSession quietly starts anew, persistSession says so without throwing", (t) => {
  const warn = t.mock.method(console, "warn", () => {});
  assert.deepEqual(restoreSession("chat"), emptySession);
  assert.equal(warn.mock.callCount(), 0, "nothing is printed on every server render");

  const state = runSeed();
  const failure = persistSession("chat", state);
  assert.ok(failure instanceof Error);
  assert.equal(failure.code, "unavailable");
  assert.throws(() => saveSession("chat", state), { code: "unavailable" });
  assert.equal(state.status, "error", "a failed save leaves the state as it was");
});
