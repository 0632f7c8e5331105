// SPEC v3's queue as JavaScript sees it through the built package (pkg/): a send while a reply
// streams is queued (the reply goes on untouched), sent as one turn by the finish that leaves no
// open call or by the next send, kept by stop, error and an aborted finish, removed by unqueue and
// reset; `send` with parts and metadata; identity, purity (frozen inputs) and bad input. The
// core's own rows are in tests/core_queue.rs.
import assert from "node:assert/strict";
import { test } from "node:test";

import { checkAction, sessionReducer } from "../../pkg/index.js";

const part = (part) => ({ type: "part", part });
const play = (actions, state = { messages: [], status: "idle" }) => actions.reduce(sessionReducer, state);
function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
const replying = () => deepFreeze(play([{ type: "send", id: "u-1", text: "Plan a trip" }, part({ type: "text-delta", text: "Plan" })]));

function assertInvalid(fn, path) {
  assert.throws(fn, (error) => error instanceof TypeError && error.code === "invalid" && error.path === path && error.message.startsWith(`${path}: `));
}

test("a send while a reply streams is queued, and the rest of the reply lands in the reply", () => {
  const start = replying();
  const queued = sessionReducer(start, { type: "send", id: "q-1", text: "Also Rome" });
  assert.equal(queued.messages, start.messages, "no message is appended");
  assert.equal(queued.status, "streaming");
  assert.deepEqual(queued.queue, [{ id: "q-1", text: "Also Rome" }]);
  const more = sessionReducer(deepFreeze(queued), part({ type: "text-delta", text: "ning" }));
  assert.equal(more.messages[1].parts[0].text, "Planning");
  assert.equal(more.queue, queued.queue);
  const twice = sessionReducer(more, { type: "send", id: "q-2", text: "And Naples" });
  assert.deepEqual(twice.queue.map((queued) => queued.id), ["q-1", "q-2"]);
  assert.equal(twice.queue[0], queued.queue[0], "a queued message already there keeps its identity");
});

test("the finish sends the queue as one turn, each message as a user message in order", () => {
  const queued = deepFreeze(play([{ type: "send", id: "q-1", text: "Rome" }, { type: "send", id: "q-2", text: "Naples" }], replying()));
  for (const reason of [undefined, "stop", "length", "tool-calls", "content-filter", "other"]) {
    const sent = sessionReducer(queued, part(reason === undefined ? { type: "finish" } : { type: "finish", reason }));
    assert.equal(sent.status, "streaming", `${reason}: a new run starts`);
    assert.equal("queue" in sent, false);
    assert.deepEqual(sent.messages.slice(2), [
      { id: "q-1", role: "user", parts: [{ type: "text", text: "Rome" }] },
      { id: "q-2", role: "user", parts: [{ type: "text", text: "Naples" }] },
    ]);
    assert.equal(sent.messages[1], queued.messages[1]);
  }
});

test("the queue waits while a call waits on the user, and the next send sends it first", () => {
  const waiting = deepFreeze(
    play(
      [
        part({ type: "tool-call", id: "c-1", name: "book", input: {} }),
        { type: "toolPhase", name: "book", state: "awaiting-confirmation", prompt: "Book it?" },
        { type: "send", id: "q-1", text: "Cheaper, please" },
        part({ type: "finish", reason: "tool-calls" }),
      ],
      replying(),
    ),
  );
  assert.equal(waiting.status, "idle");
  assert.deepEqual(waiting.queue, [{ id: "q-1", text: "Cheaper, please" }]);
  const sent = sessionReducer(waiting, { type: "send", id: "u-2", text: "Go" });
  assert.equal(sent.messages[1].parts[1].state, "cancelled", "the user moved on");
  assert.deepEqual(sent.messages.slice(2).map((message) => message.id), ["q-1", "u-2"]);
  assert.equal("queue" in sent, false);
});

test("stop, an error and an aborted finish keep the queue; unqueue removes one; reset drops it", () => {
  const queued = deepFreeze(play([{ type: "send", id: "q-1", text: "a" }, { type: "send", id: "q-2", text: "b" }], replying()));
  for (const end of [{ type: "stop" }, part({ type: "error", error: "lost" }), part({ type: "finish", reason: "aborted" })]) {
    assert.equal(sessionReducer(queued, end).queue, queued.queue, JSON.stringify(end));
  }
  assert.equal(sessionReducer(queued, { type: "unqueue", id: "nope" }), queued);
  const one = sessionReducer(queued, { type: "unqueue", id: "q-1" });
  assert.deepEqual(one.queue, [{ id: "q-2", text: "b" }]);
  assert.equal(one.queue[0], queued.queue[1]);
  assert.equal("queue" in sessionReducer(one, { type: "unqueue", id: "q-2" }), false);
  assert.deepEqual(sessionReducer(queued, { type: "reset" }), { messages: [], status: "idle" });
});

test("send with parts and metadata: the text, then the parts given, and the metadata; a queued message keeps both", () => {
  const file = { type: "data", name: "file", data: { mediaType: "image/png", url: "data:,", filename: "a.png" } };
  const note = { type: "text", text: "(see attached)" };
  const sent = sessionReducer({ messages: [], status: "idle" }, deepFreeze({ type: "send", id: "u-1", text: "What is this?", parts: [file, note], metadata: { via: "drop" } }));
  assert.deepEqual(sent.messages[0], {
    id: "u-1",
    role: "user",
    parts: [{ type: "text", text: "What is this?" }, file, note],
    metadata: { via: "drop" },
  });
  assert.equal(sent.messages[0].parts[1], file, "the parts given are kept by reference");
  const plain = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "Hi", parts: [] });
  assert.deepEqual(plain.messages[0], { id: "u-1", role: "user", parts: [{ type: "text", text: "Hi" }] }, "absent fields stay absent");

  const queued = sessionReducer(replying(), { type: "send", id: "q-1", text: "Look", parts: [file], metadata: null });
  assert.deepEqual(queued.queue, [{ id: "q-1", text: "Look", parts: [file], metadata: null }]);
  const flushed = sessionReducer(queued, part({ type: "finish" }));
  assert.deepEqual(flushed.messages[2], { id: "q-1", role: "user", parts: [{ type: "text", text: "Look" }, file], metadata: null });
});

test("bad v3 input in send, unqueue and a state's queue names its path", () => {
  const state = replying();
  assertInvalid(() => sessionReducer(state, { type: "send", id: "u", text: "t", parts: [{ type: "text", text: "a" }, { type: "tool", id: "c" }] }), "action.parts[1].type");
  assertInvalid(() => sessionReducer(state, { type: "send", id: "u", text: "t", parts: [{ type: "data", name: "file" }] }), "action.parts[0].data");
  assertInvalid(() => sessionReducer(state, { type: "send", id: "u", text: "t", parts: "file" }), "action.parts");
  assertInvalid(() => sessionReducer(state, { type: "unqueue" }), "action.id");
  assertInvalid(() => sessionReducer({ ...state, queue: [] }, part({ type: "text-delta", text: "x" })), "state.queue");
  assertInvalid(() => sessionReducer({ ...state, queue: [{ id: "q", text: 1 }] }, { type: "stop" }), "state.queue[0].text");
  assertInvalid(() => checkAction({ type: "unqueue", id: null }), "action.id");
  assert.deepEqual(checkAction({ type: "unqueue", id: "q-1" }), { type: "unqueue", id: "q-1" });
  assert.equal(sessionReducer(state, { type: "stop" }).status, "idle", "the module keeps working");
});

test("a state with a queue of 100,000 messages reads, and the finish sends them all in order", () => {
  const queue = Array.from({ length: 100_000 }, (_, index) => ({ id: `q-${index}`, text: `message ${index}` }));
  const state = { messages: [], status: "streaming", queue };
  const unqueued = sessionReducer(state, { type: "unqueue", id: "q-50000" });
  assert.equal(unqueued.queue.length, 99_999);
  assert.equal(unqueued.queue[50_000], queue[50_001]);
  const sent = sessionReducer(unqueued, part({ type: "finish" }));
  assert.equal(sent.messages.length, 99_999);
  assert.equal(sent.messages[99_998].id, "q-99999");
  assert.equal(sent.messages[49_999].id, "q-49999");
  assert.equal(sent.messages[50_000].id, "q-50001");
});
