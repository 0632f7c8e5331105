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
