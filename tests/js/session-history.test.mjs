// Older history on demand through the session controller (issue 34 item 2), against the real
// server's conversations route (chat-session-reducer/server, a store without `page`): a
// conversation opened with nothing held starts with its newest page; loadOlder() puts the older
// pages in front (prepend) until hasOlder is false, and the stored conversation is what was loaded.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgentSession } from "../../pkg/session/index.js";
import { createChatServer } from "../../pkg/server/index.js";
import { loadSession } from "../../pkg/index.js";
import { memoryStore, routeFetch, scriptedRun } from "../server/helpers.mjs";

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

async function until(check, what) {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A stored conversation of `turns` finished turns. */
function stored(turns) {
  const messages = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ id: `u-${turn}`, role: "user", parts: [{ type: "text", text: `question ${turn}` }] });
    messages.push({ id: `a-${turn}`, role: "assistant", parts: [{ type: "text", text: `answer ${turn}` }] });
  }
  return { messages, status: "idle" };
}

async function serverWith(state) {
  const store = memoryStore();
  await store.save("alice", "c1", state);
  const chat = createChatServer({ protocol: "actions", store, authorize: () => "alice", run: scriptedRun([]) });
  return routeFetch(chat.fetch);
}

test("opened with nothing held, a conversation starts with its newest page; loadOlder pages back to its start, kept in storage", async () => {
  const conversation = stored(60);
  const unroute = await serverWith(conversation);
  try {
    const storage = memoryStorage();
    const session = createAgentSession({ api: "/api/chat", id: "c1", storageKey: "chat", storage, history: "/api/conversations", throttle: 0 });
    assert.equal(session.getSnapshot().hasOlder, false, "nothing held, nothing asked yet");
    const unsubscribe = session.subscribe(() => {});
    await until(() => session.getSnapshot().messages.length > 0, "the newest page");
    let snapshot = session.getSnapshot();
    assert.deepEqual(snapshot.messages, conversation.messages.slice(70));
    assert.equal(snapshot.hasOlder, true);
    const newest = snapshot.messages[0];
    // Two calls while one page loads: the same page, loaded once.
    const [first, second] = [session.loadOlder(), session.loadOlder()];
    assert.equal(first, second);
    await first;
    snapshot = session.getSnapshot();
    assert.equal(snapshot.messages.length, 100);
    assert.equal(snapshot.messages[50], newest, "the messages held keep their identity");
    assert.equal(snapshot.hasOlder, true);
    await session.loadOlder();
    snapshot = session.getSnapshot();
    assert.deepEqual(snapshot.messages, conversation.messages);
    assert.equal(snapshot.hasOlder, false, "the server said nothing is older");
    await session.loadOlder();
    assert.equal(session.getSnapshot(), snapshot, "nothing older: nothing changes");
    await until(() => loadSession("chat", storage)?.messages.length === 120, "the save of what was loaded");
    unsubscribe();
  } finally {
    unroute();
  }
});

test("restored from storage, a conversation pages on from its oldest message; one the server never held has nothing older", async () => {
  const conversation = stored(30);
  const unroute = await serverWith(conversation);
  try {
    const storage = memoryStorage();
    const restored = { ...conversation, messages: conversation.messages.slice(40) };
    storage.setItem("chat", JSON.stringify({ format: "chat-session-reducer", version: 3, state: restored }));
    const session = createAgentSession({ api: "/api/chat", id: "c1", storageKey: "chat", storage, history: "/api/conversations", throttle: 0 });
    const unsubscribe = session.subscribe(() => {});
    assert.equal(session.getSnapshot().messages.length, 20);
    assert.equal(session.getSnapshot().hasOlder, true, "not known yet: there may be");
    await session.loadOlder();
    assert.deepEqual(session.getSnapshot().messages, conversation.messages);
    assert.equal(session.getSnapshot().hasOlder, false);
    unsubscribe();

    const local = createAgentSession({ api: "/api/chat", id: "made-here", history: "/api/conversations", throttle: 0 });
    const stop = local.subscribe(() => {});
    local.dispatch({ type: "load", state: stored(1) });
    await local.loadOlder();
    assert.equal(local.getSnapshot().hasOlder, false, "the server has no such conversation");
    assert.equal(local.getSnapshot().messages.length, 2);
    stop();
  } finally {
    unroute();
  }
});

test("historyPageSize sets how many messages a page holds", async () => {
  const conversation = stored(15);
  const unroute = await serverWith(conversation);
  try {
    const session = createAgentSession({ api: "/api/chat", id: "c1", history: "/api/conversations", historyPageSize: 12, throttle: 0 });
    const unsubscribe = session.subscribe(() => {});
    await until(() => session.getSnapshot().messages.length > 0, "the newest page");
    assert.deepEqual(session.getSnapshot().messages, conversation.messages.slice(18));
    await session.loadOlder();
    assert.deepEqual(session.getSnapshot().messages, conversation.messages.slice(6));
    await session.loadOlder();
    assert.deepEqual(session.getSnapshot().messages, conversation.messages);
    assert.equal(session.getSnapshot().hasOlder, false);
    unsubscribe();
  } finally {
    unroute();
  }
});

test("the history options are checked", () => {
  assert.throws(() => createAgentSession({ api: "/api/chat", history: 5 }), { code: "invalid", path: "options.history" });
  for (const historyPageSize of [0, 1001, 2.5, "50", Number.NaN]) {
    assert.throws(() => createAgentSession({ api: "/api/chat", history: "/api/conversations", historyPageSize }), { code: "invalid", path: "options.historyPageSize" });
  }
});
