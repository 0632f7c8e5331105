// restoredStatus: the status an entry restoreSession read was stored with, before the load rule
// (what the React hook's `resume` needs: a session stored while streaming loads stopped).
import assert from "node:assert/strict";
import { test } from "node:test";

import { restoreSession, restoredStatus, saveSession, sessionReducer } from "../../pkg/index.js";

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

const streaming = sessionReducer(undefined, { type: "send", id: "u1", text: "Go" });
const answered = sessionReducer(streaming, { type: "part", part: { type: "finish" } });

test("restoredStatus gives the stored status of what restoreSession read, before the load rule", () => {
  const storage = memoryStorage();
  assert.equal(restoredStatus("chat", storage), undefined, "nothing read yet");
  saveSession("chat", streaming, storage);
  const restored = restoreSession("chat", storage);
  assert.equal(restored.status, "idle", "the load rule stopped it");
  assert.equal(restoredStatus("chat", storage), "streaming");
  saveSession("chat", answered, storage);
  restoreSession("chat", storage);
  assert.equal(restoredStatus("chat", storage), "idle");
  assert.equal(restoredStatus("other", storage), undefined);
});

test("restoredStatus is undefined for an empty or unreadable entry, and never throws", () => {
  const storage = memoryStorage();
  restoreSession("none", storage);
  assert.equal(restoredStatus("none", storage), undefined);
  storage.setItem("broken", "{not json");
  const warn = console.warn;
  console.warn = () => {};
  try {
    restoreSession("broken", storage);
  } finally {
    console.warn = warn;
  }
  assert.equal(restoredStatus("broken", storage), undefined);
  assert.equal(restoredStatus("chat", { getItem: null }), undefined, "a bad storage is not thrown about");
});
