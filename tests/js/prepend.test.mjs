// SPEC v4 "Actions": prepend through the built package (pkg/): older history goes in front as
// the very objects given, what the conversation holds is skipped, identity of everything held is
// kept, and the hostile inputs (an open call, a call id already held, a fork after no given
// message, overlapping pages, a page of 100,000 messages) are coded errors naming their path, or
// work.
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkAction, sessionReducer } from "../../pkg/index.js";

const user = (id, text = "q") => ({ id, role: "user", parts: [{ type: "text", text }] });
const done = (id) => ({ type: "tool", id, name: "search", input: { q: id }, state: "done", output: { hits: 1 } });
const reply = (id, ...parts) => ({ id, role: "assistant", parts: [{ type: "text", text: "r" }, ...parts] });
const part = (part) => ({ type: "part", part });

// A conversation the module made: u-5, then a reply streaming a running call.
function streamingReply() {
  return [
    { type: "send", id: "u-5", text: "now" },
    part({ type: "message-start", messageId: "a-5" }),
    part({ type: "tool-call", id: "c-5", name: "search", input: {} }),
  ].reduce(sessionReducer, undefined);
}

function assertInvalid(fn, path, problem) {
  assert.throws(fn, (error) => error instanceof TypeError && error.code === "invalid" && error.path === path &&
    error.message === `${path}: ${problem}`);
}

test("prepend puts the given messages in front, as the very objects given, while a reply streams", () => {
  const before = streamingReply();
  const page = [user("u-1"), reply("a-1", done("c-1"))];
  const after = sessionReducer(before, { type: "prepend", messages: page });
  assert.deepEqual(after.messages.map((message) => message.id), ["u-1", "a-1", "u-5", "a-5"]);
  assert.equal(after.messages[0], page[0]);
  assert.equal(after.messages[1], page[1]);
  assert.equal(after.messages[2], before.messages[0]);
  assert.equal(after.messages[3], before.messages[1]);
  assert.equal(after.status, "streaming");
  // The reply goes on where it was: its call is found by id, a delta extends it.
  const answered = sessionReducer(after, part({ type: "tool-result", id: "c-5", output: 1 }));
  assert.equal(answered.messages[3].parts[0].state, "done");
  assert.equal(answered.messages[0], page[0]);
});

test("overlapping pages: the messages held, on the path or in a branch, are skipped", () => {
  const before = { messages: [user("u-2"), reply("a-3")], status: "idle",
    forks: [{ after: "u-2", active: 1, alternatives: [{ messages: [reply("a-2")] }, null] }] };
  const after = sessionReducer(before, { type: "prepend", messages: [user("u-1"), reply("a-2"), user("u-2", "again")] });
  assert.deepEqual(after.messages.map((message) => message.id), ["u-1", "u-2", "a-3"]);
  assert.equal(after.forks, before.forks, "the forks are the same array: nothing was added to them");
  assert.equal(sessionReducer(after, { type: "prepend", messages: [user("u-1")] }), after, "nothing left to add");
});

test("the fork at the start of what was loaded now follows the last message prepended", () => {
  const before = { messages: [user("u-2")], status: "idle",
    forks: [{ after: null, active: 1, alternatives: [{ messages: [user("u-2-old")] }, null] }] };
  const pageFork = { after: "u-0", active: 0, alternatives: [null, { messages: [reply("b-0")] }] };
  const after = sessionReducer(before, { type: "prepend", messages: [user("u-0"), reply("a-0")], forks: [pageFork] });
  assert.deepEqual(after.forks.map((fork) => fork.after), ["u-0", "a-0"]);
  assert.equal(after.forks[0], pageFork);
  assert.equal(after.forks[1].alternatives, before.forks[0].alternatives);
  assert.equal(before.forks[0].after, null, "the state given is as it was");
});

test("bad prepends are coded errors naming their path, and checkAction refuses what it can see", () => {
  const before = streamingReply();
  const open = { type: "prepend", messages: [reply("a-1", { ...done("c-1"), state: "awaiting-confirmation" })] };
  assertInvalid(() => sessionReducer(before, open), "action.messages[0].parts[1].state", "expected no open call in older history");
  assertInvalid(() => checkAction(open), "action.messages[0].parts[1].state", "expected no open call in older history");
  const stray = { type: "prepend", messages: [user("u-1")], forks: [{ after: "u-5", active: 1, alternatives: [{ messages: [] }, null] }] };
  assertInvalid(() => checkAction(stray), "action.forks[0].after", "expected the id of one of the given messages");
  const taken = { type: "prepend", messages: [user("u-1"), reply("a-1", done("c-5"))] };
  checkAction(taken); // only the state shows the call id is taken
  assertInvalid(() => sessionReducer(before, taken), "action.messages[1].parts[1].id", "expected a call id not already in the conversation");
  const inBatch = { type: "batch", actions: [{ type: "stop" }, taken] };
  assertInvalid(() => sessionReducer(before, inBatch), "action.actions[1].messages[1].parts[1].id", "expected a call id not already in the conversation");
  assertInvalid(() => sessionReducer(before, { type: "prepend" }), "action.messages", "expected an array");
  // The module keeps working, and the state it held is as it was.
  const next = sessionReducer(before, part({ type: "tool-result", id: "c-5", output: 2 }));
  assert.equal(next.messages[1].parts[0].state, "done");
});

test("a page of 100,000 messages goes in front", () => {
  const before = streamingReply();
  const page = Array.from({ length: 100_000 }, (_, index) => (index % 2 === 0 ? user(`u-h${index}`) : reply(`a-h${index}`, done(`c-h${index}`))));
  const after = sessionReducer(before, { type: "prepend", messages: page });
  assert.equal(after.messages.length, 100_002);
  assert.equal(after.messages[99_999], page[99_999]);
  assert.equal(after.messages[100_001], before.messages[1]);
  const again = sessionReducer(after, part({ type: "tool-call", id: "c-h77777", name: "search", input: {} }));
  assert.equal(again, after, "a prepended call's id is taken");
});
