// chat-session-reducer/session without any framework: what every binding (React, Vue, Svelte)
// relies on. The controller starts with its first subscriber and stops with its last, its
// snapshot is the same object while nothing changed, and runs start and stop from the reducer's
// answer alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgentSession } from "../../pkg/session/index.js";
import { liveReply, mockEndpoint } from "../../pkg/testing/index.js";
import { persistSession } from "../../pkg/index.js";

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

/** Resolves once `check()` holds, polling the event loop (bounded: fails after 5 s). */
async function until(check, what) {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const text = (message) => message.parts.filter((part) => part.type === "text").map((part) => part.text).join("");

function endpointWithLiveReplies() {
  const replies = [];
  const endpoint = mockEndpoint("actions", () => {
    const reply = liveReply();
    replies.push(reply);
    return reply;
  });
  return { endpoint, replies };
}

const delta = (value) => ({ type: "part", part: { type: "text-delta", text: value } });
const finish = { type: "part", part: { type: "finish", reason: "stop" } };

test("the snapshot is the same object until something changes; a send streams its reply, and a message that did not change keeps its identity", async () => {
  const { endpoint, replies } = endpointWithLiveReplies();
  const session = createAgentSession({ api: endpoint.api, throttle: 0 });
  const initial = session.getSnapshot();
  assert.equal(session.getSnapshot(), initial, "the same object while nothing changed");
  assert.equal(session.getServerSnapshot(), initial);
  let notified = 0;
  const unsubscribe = session.subscribe(() => (notified += 1));
  assert.equal(session.getSnapshot(), initial, "starting without a key changes nothing");
  session.send("Hello");
  const sent = session.getSnapshot();
  assert.equal(sent.status, "submitted");
  assert.ok(notified > 0);
  await until(() => replies.length === 1, "the request");
  replies[0].write(delta("Hi "));
  await until(() => session.getSnapshot().status === "streaming", "the first frame");
  const userMessage = session.getSnapshot().messages[0];
  replies[0].write(delta("there"));
  replies[0].write(finish);
  replies[0].end();
  await until(() => session.getSnapshot().status === "idle", "the end");
  const done = session.getSnapshot();
  assert.deepEqual(done.messages.map(text), ["Hello", "Hi there"]);
  assert.equal(done.messages[0], userMessage, "a message that did not change is the same object");
  assert.equal(session.getServerSnapshot(), initial, "the server's snapshot stays the initial one");
  assert.equal(typeof done.send, "function");
  assert.equal(done.send, initial.send, "the actions are the same functions for the controller's life");
  unsubscribe();
});

test("the last unsubscribe aborts the run a microtask later; an unsubscribe and subscribe in one go (Strict Mode) sends one request", async () => {
  const { endpoint, replies } = endpointWithLiveReplies();
  const session = createAgentSession({ api: endpoint.api, throttle: 0 });
  let unsubscribe = session.subscribe(() => {});
  session.send("Hello");
  unsubscribe();
  unsubscribe = session.subscribe(() => {});
  await until(() => replies.length === 1, "the request");
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(endpoint.requests.length, 1, "one request");
  assert.equal(endpoint.requests[0].signal.aborted, false);
  unsubscribe();
  assert.equal(endpoint.requests[0].signal.aborted, false, "a subscriber may come back in the same task");
  await Promise.resolve();
  assert.equal(endpoint.requests[0].signal.aborted, true, "stopped with its last subscriber");
});

test("a send while a reply streams is queued; the finish sends it: one request per run, decided by the reducer", async () => {
  const { endpoint, replies } = endpointWithLiveReplies();
  const session = createAgentSession({ api: endpoint.api, throttle: 0 });
  const unsubscribe = session.subscribe(() => {});
  session.send("First");
  await until(() => replies.length === 1, "the first request");
  session.send("Second");
  assert.deepEqual(session.getSnapshot().queue.map((queued) => queued.text ?? queued.parts?.[0]?.text), ["Second"]);
  replies[0].write(delta("One"));
  replies[0].write(finish);
  replies[0].end();
  await until(() => replies.length === 2, "the queued turn's request");
  replies[1].write(delta("Two"));
  replies[1].write(finish);
  replies[1].end();
  await until(() => session.getSnapshot().status === "idle" && session.getSnapshot().messages.length === 4, "the second reply");
  assert.deepEqual(session.getSnapshot().messages.map(text), ["First", "One", "Second", "Two"]);
  assert.equal(endpoint.requests.length, 2);
  unsubscribe();
});

test("the stored conversation is opened by the first subscriber, and another by setOptions with its key", async () => {
  const storage = memoryStorage();
  const stored = (words) => ({ messages: [{ id: `u-${words}`, role: "user", parts: [{ type: "text", text: words }] }], status: "idle" });
  persistSession("chat:a", stored("In A"), storage, { id: "a" });
  persistSession("chat:b", stored("In B"), storage, { id: "b" });
  const options = { api: "/unused", storage, storageKey: "chat:a" };
  const session = createAgentSession(options);
  assert.equal(session.getSnapshot().messages.length, 0, "nothing read before it starts (a server renders this)");
  const unsubscribe = session.subscribe(() => {});
  assert.deepEqual(session.getSnapshot().messages.map(text), ["In A"]);
  assert.equal(session.getSnapshot().id, "a");
  assert.equal(session.getServerSnapshot().messages.length, 0);
  session.setOptions({ ...options, storageKey: "chat:b" });
  assert.deepEqual(session.getSnapshot().messages.map(text), ["In B"]);
  assert.equal(session.getSnapshot().id, "b");
  unsubscribe();
});

test("wrong options are coded TypeErrors naming the option, from createAgentSession and setOptions alike", () => {
  assert.throws(() => createAgentSession(/** @type {any} */ ({})), { name: "TypeError", code: "invalid", path: "options.api" });
  assert.throws(() => createAgentSession(/** @type {any} */ ({ api: "/x", protocol: "smoke" })), { code: "invalid", path: "options.protocol" });
  assert.throws(() => createAgentSession(/** @type {any} */ (undefined)), { code: "invalid", path: "options" });
  const session = createAgentSession({ api: "/x" });
  assert.throws(() => session.setOptions(/** @type {any} */ ({ api: "/x", tabs: true })), { code: "invalid", path: "options.tabs" });
});

test("fail(callId, error) ends a client-side call as error (cancelled for code cancelled), and the agent goes on once no call waits", async () => {
  const { endpoint, replies } = endpointWithLiveReplies();
  const session = createAgentSession({ api: endpoint.api, throttle: 0 });
  const unsubscribe = session.subscribe(() => {});
  session.send("Where am I?");
  await until(() => replies.length === 1, "the request");
  const call = (id, name) => ({ type: "part", part: { type: "tool-call", id, name, input: {} } });
  replies[0].write(call("loc", "location"));
  replies[0].write(call("cam", "camera"));
  replies[0].write(finish);
  replies[0].end();
  await until(() => session.getSnapshot().status === "idle", "the run's end");
  session.fail("loc", { message: "No GPS" });
  const [loc] = session.getSnapshot().messages[1].parts;
  assert.deepEqual([loc.state, loc.error], ["error", { message: "No GPS" }]);
  assert.equal(replies.length, 1, "a call still waits: nothing is sent");
  session.fail("cam", { message: "Closed by the user", code: "cancelled" });
  assert.equal(session.getSnapshot().messages[1].parts[1].state, "cancelled");
  await until(() => replies.length === 2, "the agent going on");
  assert.equal(endpoint.requests[1].body.messages.length, 2);
  unsubscribe();
});

test("a message sent right after Stop is requested once the server answered the Stop (so another instance reads the stopped reply), and at most 5 s after", async () => {
  const { endpoint, replies } = endpointWithLiveReplies();
  const requests = [];
  let answerStop;
  const original = globalThis.fetch;
  globalThis.fetch = (url, init) => {
    requests.push(`${init.method} ${url}`);
    return new Promise((resolve) => (answerStop = () => resolve(new Response(null, { status: 204 }))));
  };
  try {
    const session = createAgentSession({ api: (body, signal) => (requests.push("POST chat"), endpoint.api(body, signal)), stopApi: "http://app.test/api/chat/stop", throttle: 0 });
    const unsubscribe = session.subscribe(() => {});
    session.send("one");
    await until(() => replies.length === 1, "the first request");
    replies[0].write(delta("Hi "));
    await until(() => session.getSnapshot().status === "streaming", "the first frame");
    session.stop();
    session.send("two");
    await until(() => requests.includes("POST http://app.test/api/chat/stop"), "the stop");
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(requests, ["POST chat", "POST http://app.test/api/chat/stop"], "the second message waits for the Stop's answer");
    answerStop();
    await until(() => replies.length === 2, "the second request");
    assert.deepEqual(requests, ["POST chat", "POST http://app.test/api/chat/stop", "POST chat"]);
    assert.deepEqual(session.getSnapshot().messages.map(text), ["one", "Hi ", "two"]);
    // A Stop the server never answers holds the next message back 5 s, no longer.
    replies[1].write(delta("Yes"));
    await until(() => session.getSnapshot().messages.length === 4, "the second reply");
    session.stop();
    const stoppedAt = Date.now();
    session.send("three");
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(replies.length, 2, "the third message waits for the Stop's answer");
    for (let waited = 0; replies.length < 3; waited += 50) {
      if (waited > 10_000) throw new Error("timed out waiting for the third request");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(Date.now() - stoppedAt >= 4_900, `sent ${Date.now() - stoppedAt} ms after the Stop`);
    replies[2].end();
    unsubscribe();
  } finally {
    globalThis.fetch = original;
  }
});
