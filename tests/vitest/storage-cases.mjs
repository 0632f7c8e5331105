// The storage helpers in a DOM test environment (jsdom or happy-dom, chosen by the suite that
// calls this): sessionStorage is found through globalThis with no storage argument, and any
// other Web Storage (localStorage) works when passed. Neither environment has IndexedDB: the
// IndexedDB store runs on fake-indexeddb's, passed in, as an app's tests would.
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, expect, test } from "vitest";

import { clearSession, loadSession, loadSessionEntry, persistSession, restoreSession, saveSession, sessionReducer } from "../../pkg/index.js";
import { indexedDBStore } from "../../pkg/indexeddb/index.js";

const part = (part) => ({ type: "part", part });

export function storageCases() {
  afterEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  test("sessionStorage is the default, found through globalThis", () => {
    const state = [
      { type: "send", id: "u", text: "hi" },
      part({ type: "tool-call", id: "c", name: "search", input: { q: 1 } }),
      part({ type: "data", name: "source", data: { url: "https://example.org" } }),
    ].reduce(sessionReducer, undefined);
    saveSession("chat", state);
    expect(JSON.parse(sessionStorage.getItem("chat")).version).toBe(3);
    const loaded = loadSession("chat");
    expect(loaded.status).toBe("idle");
    expect(loaded.messages[1].parts[0].state).toBe("cancelled");
    expect(loaded.messages[1].parts[1].data).toEqual({ url: "https://example.org" });
    clearSession("chat");
    expect(sessionStorage.getItem("chat")).toBeNull();
  });

  test("restoreSession and persistSession, as useReducer and an effect use them", () => {
    sessionStorage.setItem(
      "chat",
      JSON.stringify({
        format: "chat-session-reducer",
        version: 1,
        state: { messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "Earlier" }] }], status: "streaming" },
      }),
    );
    const restored = restoreSession("chat");
    expect(restoreSession("chat")).toBe(restored);
    expect(restored.status).toBe("idle");
    expect(persistSession("chat", restored)).toBeUndefined();
    expect(JSON.parse(sessionStorage.getItem("chat")).version).toBe(1);
    const next = sessionReducer(restored, { type: "send", id: "u2", text: "Now" });
    expect(persistSession("chat", next)).toBeUndefined();
    expect(loadSession("chat").messages).toHaveLength(2);
  });

  test("localStorage, passed in, is used instead", () => {
    const state = sessionReducer(undefined, { type: "send", id: "u", text: "kept across tabs" });
    saveSession("chat", state, localStorage);
    expect(sessionStorage.getItem("chat")).toBeNull();
    expect(loadSession("chat", localStorage).messages[0].parts[0].text).toBe("kept across tabs");
    expect(restoreSession("chat", localStorage).messages).toHaveLength(1);
  });

  test("the IndexedDB store on fake-indexeddb: saves as a reply streams, loads with stop applied", async () => {
    const store = indexedDBStore({ indexedDB: new IDBFactory(), IDBKeyRange });
    let state = [{ type: "send", id: "u", text: "hi" }, part({ type: "text-delta", text: "Hel" })].reduce(sessionReducer, undefined);
    await saveSession("chat", state, store, { id: "chat-1" });
    state = sessionReducer(state, part({ type: "text-delta", text: "lo" }));
    expect(await persistSession("chat", state, store, { id: "chat-1" })).toBeUndefined();
    const entry = await loadSessionEntry("chat", store);
    expect([entry.id, entry.rev, entry.state.status, entry.state.messages[1].parts[0].text]).toEqual(["chat-1", 2, "idle", "Hello"]);
    expect(await restoreSession("chat", store)).toEqual(entry.state);
    await clearSession("chat", store);
    expect(await loadSession("chat", store)).toBeNull();
    expect(sessionStorage.length).toBe(0);
  });
}
