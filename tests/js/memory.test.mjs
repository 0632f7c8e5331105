// Issue 10, items 2 and 6: the module's memory follows what the state holds, never what a caller
// claims or what the state no longer holds. WebAssembly memory never shrinks, so any growth here
// would last for the life of the page.
//
// The module's memory is not part of the package's API: it is read from the instance the package
// creates on import, caught here by wrapping `WebAssembly.Instance` before the import.
import assert from "node:assert/strict";
import { test } from "node:test";

let instance;
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (...args) {
  instance = new Instance(...args);
  return instance;
};
const { resumable, sessionReducer } = await import("../../pkg/index.js");
WebAssembly.Instance = Instance;

// The build gives the wasm's exports short names: the memory is found by its type.
const memory = Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory);
const memoryBytes = () => memory.buffer.byteLength;
const MiB = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
const part = (part) => ({ type: "part", part });

function sparse(length) {
  const array = [];
  array.length = length;
  return array;
}

test("an array that claims 2**30 or 2**28 items: the coded error for its first hole, and no memory taken", () => {
  let before;
  // The first length warms the module up (its tables of literals, its first error messages).
  for (const length of [2 ** 4, 2 ** 30, 2 ** 28]) {
    if (length === 2 ** 30) before = memoryBytes();
    const cases = [
      [() => sessionReducer({ messages: sparse(length), status: "idle" }, { type: "stop" }), "state.messages[0]"],
      [
        () => sessionReducer({ messages: [{ id: "u-1", role: "user", parts: sparse(length) }], status: "idle" }, { type: "stop" }),
        "state.messages[0].parts[0]",
      ],
      [() => resumable(sparse(length)), "messages[0]"],
    ];
    for (const [call, path] of cases) {
      assert.throws(call, (error) => error instanceof TypeError && error.code === "invalid" && error.path === path, path);
    }
  }
  assert.equal(memoryBytes(), before, `memory grew from ${MiB(before)} to ${MiB(memoryBytes())}`);
  // And the module still answers.
  assert.equal(sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "hi" }).status, "streaming");
});

test("200,000 rounds of message-start, tool-call, error, retry: the module's memory stays bounded", () => {
  let state = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "hi" });
  const round = (index) => {
    state = sessionReducer(state, part({ type: "message-start", messageId: `a-${index}` }));
    state = sessionReducer(state, part({ type: "tool-call", id: `call-${index}`, name: "search", input: {} }));
    state = sessionReducer(state, part({ type: "error", error: "Network down", code: "network" }));
    state = sessionReducer(state, { type: "retry" });
  };
  for (let index = 0; index < 1000; index++) round(index);
  const before = memoryBytes();
  for (let index = 1000; index < 200_000; index++) round(index);
  const after = memoryBytes();
  console.log(`wasm memory: ${MiB(before)} after 1,000 rounds, ${MiB(after)} after 200,000`);
  assert.equal(state.messages.length, 1);
  assert.ok(after - before <= 64 * 1024, `grew from ${MiB(before)} to ${MiB(after)}`);
});
