// A stored entry's `wasStreaming`: the session was stored while a reply streamed, so the load rule
// stopped it (what the React hook's `resume` reads to reconnect instead). One field, in every way an
// entry is read: Web Storage and session stores, loadSessionEntry and restoreSessionEntry.
import assert from "node:assert/strict";
import { test } from "node:test";

import { loadSessionEntry, restoreSessionEntry, saveSession, sessionReducer } from "../../pkg/index.js";

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

// A session store that keeps envelopes as the helpers write them.
function memoryStore() {
  const envelopes = new Map();
  return {
    read: async (key) => envelopes.get(key) ?? null,
    write: async (key, entry) => void envelopes.set(key, { format: "chat-session-reducer", version: 3, ...entry }),
    remove: async (key) => void envelopes.delete(key),
  };
}

const streaming = sessionReducer(undefined, { type: "send", id: "u1", text: "Go" });
const answered = sessionReducer(streaming, { type: "part", part: { type: "finish" } });

test("an entry stored while streaming says wasStreaming, and its state is loaded stopped", () => {
  const storage = memoryStorage();
  saveSession("chat", streaming, storage, { id: "chat-1" });
  for (const entry of [loadSessionEntry("chat", storage), restoreSessionEntry("chat", storage)]) {
    assert.equal(entry.wasStreaming, true);
    assert.equal(entry.state.status, "idle", "the load rule stopped it");
    assert.equal(entry.id, "chat-1");
  }
  saveSession("chat", answered, storage);
  assert.equal(loadSessionEntry("chat", storage).wasStreaming, undefined);
  assert.equal(restoreSessionEntry("chat", storage).wasStreaming, undefined);
});

test("a session store's entry says wasStreaming the same way", async () => {
  const store = memoryStore();
  await saveSession("chat", streaming, store);
  assert.equal((await loadSessionEntry("chat", store)).wasStreaming, true);
  assert.equal((await restoreSessionEntry("chat", store)).wasStreaming, true);
  await saveSession("chat", answered, store);
  assert.equal((await restoreSessionEntry("chat", store)).wasStreaming, undefined);
});

test("an empty or unreadable entry does not say wasStreaming", () => {
  const storage = memoryStorage();
  assert.equal(restoreSessionEntry("none", storage).wasStreaming, undefined);
  storage.setItem("broken", "{not json");
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.equal(restoreSessionEntry("broken", storage).wasStreaming, undefined);
  } finally {
    console.warn = warn;
  }
});

// A run's start (the hook's `runStart`): the session the run started from, stored with the
// streaming session so that a resume after a reload goes onto it, as after a drop.
const asked = [
  { type: "send", id: "u1", text: "Delete the drafts" },
  { type: "part", part: { type: "text-delta", text: "Delete 3 drafts?" } },
  { type: "part", part: { type: "tool-call", id: "c1", name: "delete_drafts", input: {} } },
  { type: "part", part: { type: "tool-approval-request", id: "c1" } },
  { type: "part", part: { type: "finish" } },
].reduce(sessionReducer, undefined);
// The approval lets the agent go on: the run after it continues the same message.
const runStart = sessionReducer(sessionReducer(asked, { type: "part", part: { type: "tool-approval-response", id: "c1", approved: true } }), { type: "continue" });
const continuing = sessionReducer(runStart, { type: "part", part: { type: "tool-result", id: "c1", output: { deleted: 3 } } });

test("a streaming session saved with its run's start loads with runStart, the one it started from, storing only what the run changed", async () => {
  const storage = memoryStorage();
  saveSession("chat", continuing, storage, { runStart });
  const { run } = JSON.parse(storage.getItem("chat"));
  // The user's message is the same object in both: stored once; the message the run continued, twice.
  assert.deepEqual(run, { kept: 1, messages: [runStart.messages[1]] });
  for (const entry of [loadSessionEntry("chat", storage), restoreSessionEntry("chat", storage)]) {
    assert.deepEqual(entry.runStart, runStart);
    assert.equal(entry.runStart.messages[1].parts[1].state, "running", "the approved call, as the run found it");
    assert.equal(entry.state.messages[1].parts[1].state, "done");
  }
  const store = memoryStore();
  await saveSession("chat", continuing, store, { runStart });
  assert.deepEqual((await loadSessionEntry("chat", store)).runStart, runStart);
  // Once the run ended there is nothing to resume: no run stored.
  saveSession("chat", sessionReducer(continuing, { type: "part", part: { type: "finish" } }), storage, { runStart });
  assert.equal(JSON.parse(storage.getItem("chat")).run, undefined);
  assert.equal(loadSessionEntry("chat", storage).runStart, undefined);
});

test("a stored run that is not a run's start is corrupt, naming what is wrong; a bad runStart option is invalid", () => {
  const storage = memoryStorage();
  saveSession("chat", continuing, storage, { runStart });
  const envelope = JSON.parse(storage.getItem("chat"));
  const corrupt = (run, path) => {
    storage.setItem("chat", JSON.stringify({ ...envelope, run }));
    assert.throws(() => loadSessionEntry("chat", storage), { code: "corrupt", path });
  };
  corrupt("all", "stored.run");
  corrupt({ kept: 9, messages: [] }, "stored.run.kept");
  corrupt({ kept: 1, messages: [7] }, "stored.run.messages[0]");
  corrupt({ kept: 1, messages: [{ id: 3, role: "assistant", parts: [] }] }, "stored.run.messages[0].id");
  assert.throws(() => saveSession("chat", continuing, storage, { runStart: [] }), { code: "invalid", path: "options.runStart" });
});
