// Bad input names its path (SPEC "Bad input"): the reader builds a path only when something is
// wrong, deep in a conversation too, and a getter that throws is named by its field.
import assert from "node:assert/strict";
import { test } from "node:test";

import { sessionReducer } from "../../pkg/index.js";

const send = { type: "send", id: "u-9", text: "hi" };
const user = (id) => ({ id, role: "user", parts: [{ type: "text", text: "q" }] });
const call = (fields) => ({ type: "tool", id: "c-1", name: "t", input: {}, state: "done", ...fields });
const throwing = (object, key) => Object.defineProperty(object, key, { get() { throw new Error("no"); }, enumerable: true });

function refused(state, path, problem) {
  assert.throws(() => sessionReducer(state, send), (error) =>
    error instanceof TypeError && error.code === "invalid" && error.path === path && error.message === `${path}: ${problem}`);
}

test("a wrong field deep in a conversation is named by its whole path", () => {
  const nested = { messages: [user("n-1"), { id: "n-2", role: "assistant", parts: [{ type: "text", text: "" }, call({ id: 7 })] }], status: "idle" };
  const state = { messages: [user("u-1"), { id: "a-1", role: "assistant", parts: [call({ agent: nested })] }], status: "idle" };
  refused(state, "state.messages[1].parts[0].agent.messages[1].parts[1].id", "expected a string");
  refused({ messages: [user("u-1"), { id: "a-1", role: "robot", parts: [] }], status: "idle" }, "state.messages[1].role",
    'expected one of "user", "assistant"');
  refused({ messages: [user("u-1"), { id: "a-1", role: "user", parts: [{ type: "text" }] }], status: "idle" }, "state.messages[1].parts[0].text",
    "expected a string");
});

test("a getter that throws is named by its field, at any depth", () => {
  const getterThrew = "could not be read (its getter threw)";
  refused({ messages: [throwing(user("u-1"), "role")], status: "idle" }, "state.messages[0].role", getterThrew);
  refused({ messages: [user("u-1"), { id: "a-1", role: "assistant", parts: [throwing({ type: "text" }, "text")] }], status: "idle" },
    "state.messages[1].parts[0].text", getterThrew);
  const nested = { messages: [{ id: "n-1", role: "assistant", parts: [throwing(call({}), "state")] }], status: "idle" };
  refused({ messages: [{ id: "a-1", role: "assistant", parts: [call({ agent: nested })] }], status: "idle" },
    "state.messages[0].parts[0].agent.messages[0].parts[0].state", getterThrew);
  refused({ messages: [{ id: "a-1", role: "assistant", parts: [throwing(call({}), "error")] }], status: "idle" },
    "state.messages[0].parts[0].error", getterThrew);
});
