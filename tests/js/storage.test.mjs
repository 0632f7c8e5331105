// The storage helpers in Node: with a storage passed in (an in-memory Web Storage), and with
// none at all (server rendering). Envelopes of version 1 and 2 load; corrupt entries say what is
// wrong with a `path`; failures keep their codes and never lose what is stored or held.
// The same helpers in a browser: tests/js/storage_chromium.test.mjs; in jsdom and happy-dom:
// tests/vitest/.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clearSession, loadSession, persistSession, restoreSession, saveSession, sessionReducer } from "../../pkg/index.js";

/** A Web Storage in memory; `fail` makes its methods throw. */
class MemoryStorage {
  constructor() {
    this.entries = new Map();
    this.fail = undefined;
  }
  getItem(key) {
    if (this.fail) throw this.fail;
    return this.entries.has(key) ? this.entries.get(key) : null;
  }
  setItem(key, value) {
    if (this.fail) throw this.fail;
    this.entries.set(key, String(value));
  }
  removeItem(key) {
    if (this.fail) throw this.fail;
    this.entries.delete(key);
  }
}

const part = (part, within) => (within === undefined ? { type: "part", part } : { type: "part", part, within });

// A running delegate call whose sub-agent run streams a call awaiting confirmation, and v2 values.
function nestedConversation() {
  return [
    { type: "send", id: "u1", text: "Plan my trip" },
    part({ type: "message-start", messageId: "a1", metadata: { model: "m" } }),
    part({ type: "text-delta", text: "Asking the planner." }),
    part({ type: "tool-call", id: "d1", name: "delegate_to_planner", input: { city: "Lyon" } }),
    part({ type: "tool-call", id: "n1", name: "book", input: {} }, "d1"),
    { type: "toolPhase", name: "book", state: "awaiting-confirmation", prompt: "Book it?" },
    part({ type: "data", name: "plan", id: "p", data: { days: 2 } }),
    part({ type: "agent-state", snapshot: { step: 1 } }),
  ].reduce(sessionReducer, undefined);
}

test("a saved session loads with stop applied to nested calls, v2 values intact", () => {
  const storage = new MemoryStorage();
  const state = nestedConversation();
  saveSession("trip", state, storage);
  assert.equal(JSON.parse(storage.getItem("trip")).version, 2);
  const loaded = loadSession("trip", storage);
  assert.equal(loaded.status, "idle");
  const delegate = loaded.messages[1].parts[1];
  assert.equal(delegate.state, "cancelled");
  assert.equal(delegate.agent.status, "idle");
  assert.equal(delegate.agent.messages[0].parts[0].state, "cancelled");
  assert.equal(delegate.agent.messages[0].parts[0].prompt, "Book it?");
  assert.deepEqual(delegate.input, { city: "Lyon" });
  assert.deepEqual(loaded.messages[1].parts[2], { type: "data", name: "plan", id: "p", data: { days: 2 } });
  assert.deepEqual(loaded.messages[1].metadata, { model: "m" });
  assert.deepEqual(loaded.agentState, { step: 1 });
  assert.equal(state.messages[1].parts[1].state, "running", "the saved state is unchanged");
  assert.equal(sessionReducer(loaded, { type: "send", id: "u2", text: "Again" }).status, "streaming");
  clearSession("trip", storage);
  assert.equal(loadSession("trip", storage), null);
  assert.equal(loadSession("never-saved", storage), null);
});

test("the v2 call fields round-trip, and a call whose input still streams is cancelled on load", () => {
  const storage = new MemoryStorage();
  const state = [
    { type: "send", id: "u1", text: "Buy" },
    part({ type: "tool-input-delta", id: "c1", name: "checkout", text: "{}" }),
    part({ type: "tool-input-end", id: "c1" }),
    part({ type: "tool-approval-request", id: "c1", approvalId: "ap1", automatic: false, details: { d: 1 } }),
    part({ type: "tool-approval-response", id: "c1", approved: true, reason: "ok" }),
    part({ type: "tool-input-delta", id: "c2", name: "search", text: '{"q"' }),
  ].reduce(sessionReducer, undefined);
  saveSession("v2-calls", state, storage);
  assert.deepEqual(loadSession("v2-calls", storage).messages[1].parts, [
    {
      type: "tool",
      id: "c1",
      name: "checkout",
      input: {},
      inputText: "{}",
      state: "cancelled",
      approval: { id: "ap1", automatic: false, details: { d: 1 }, approved: true, reason: "ok" },
    },
    { type: "tool", id: "c2", name: "search", input: null, inputText: '{"q"', state: "cancelled" },
  ]);
});

test("an entry stored by version 1 of the format loads", () => {
  const storage = new MemoryStorage();
  const v1 = {
    format: "chat-session-reducer",
    version: 1,
    state: {
      messages: [
        { id: "u-0", role: "user", parts: [{ type: "text", text: "Earlier" }] },
        { id: "a-0", role: "assistant", parts: [{ type: "reasoning", text: "r", metadata: { sig: "s" } }, { type: "tool", id: "c-0", name: "search", input: {}, state: "running" }] },
      ],
      status: "streaming",
    },
  };
  storage.setItem("old", JSON.stringify(v1));
  const loaded = loadSession("old", storage);
  assert.equal(loaded.messages[1].parts[1].state, "cancelled");
  assert.deepEqual(loaded.messages[1].parts[0], v1.state.messages[1].parts[0]);
  assert.equal(storage.getItem("old"), JSON.stringify(v1), "reading does not rewrite it");
});

test("corrupt, foreign and newer entries are coded errors with a path, and stay stored", () => {
  const storage = new MemoryStorage();
  const cases = [
    ["{ not json", "corrupt", "stored"],
    [JSON.stringify({ theme: "dark" }), "corrupt", "stored.format"],
    [JSON.stringify([1]), "corrupt", "stored"],
    [JSON.stringify({ format: "chat-session-reducer", version: "1", state: {} }), "corrupt", "stored.version"],
    [JSON.stringify({ format: "chat-session-reducer", version: 2 }), "corrupt", "stored.state"],
    [JSON.stringify({ format: "chat-session-reducer", version: 1, state: { messages: [{ id: 1 }], status: "idle" } }), "corrupt", "stored.state.messages[0].id"],
    [JSON.stringify({ format: "chat-session-reducer", version: 2, state: { messages: [], status: "idle", agentState: {}, error: { message: "x" } } }), "corrupt", "stored.state.error"],
    [JSON.stringify({ format: "chat-session-reducer", version: 3, state: {} }), "version", undefined],
  ];
  for (const [stored, code, path] of cases) {
    storage.setItem("k", stored);
    assert.throws(
      () => loadSession("k", storage),
      (error) => error instanceof Error && error.code === code && error.path === path && (path === undefined || error.message.startsWith(`${path}: `)),
      stored,
    );
    assert.equal(storage.getItem("k"), stored, "a read never destroys what is stored");
  }
});

test("storage failures keep their codes; the state in memory is never changed", () => {
  const storage = new MemoryStorage();
  const state = nestedConversation();
  const before = JSON.stringify(state);
  storage.fail = new DOMException("full", "QuotaExceededError");
  assert.throws(() => saveSession("k", state, storage), { code: "quota" });
  assert.equal(persistSession("k", state, storage).code, "quota");
  storage.fail = new DOMException("blocked", "SecurityError");
  for (const call of [() => saveSession("k", state, storage), () => loadSession("k", storage), () => clearSession("k", storage)]) {
    assert.throws(call, (error) => error.code === "unavailable" && error.message.includes("SecurityError"));
  }
  assert.equal(JSON.stringify(state), before);
  assert.throws(() => saveSession("k", { messages: "no", status: "idle" }, new MemoryStorage()), { code: "invalid", path: "state.messages" });
  assert.throws(() => saveSession("k", undefined, new MemoryStorage()), { code: "invalid", path: "state" });
  assert.throws(() => saveSession(1, state, new MemoryStorage()), { code: "invalid", path: "key" });
  assert.throws(() => loadSession("k", { getItem() {} }), { code: "invalid", path: "storage" });
});

test("restoreSession then persistSession: the same object twice, and an unreadable entry is not overwritten", () => {
  const storage = new MemoryStorage();
  storage.setItem("unreadable", "{ not json");
  const warnings = [];
  const warn = console.warn;
  console.warn = (...values) => warnings.push(values);
  let restored;
  try {
    restored = restoreSession("unreadable", storage);
    assert.equal(restoreSession("unreadable", storage), restored, "Strict Mode's second call");
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(restored, { messages: [], status: "idle" });
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0][1].code, "corrupt");
  assert.equal(persistSession("unreadable", restored, storage), undefined);
  assert.equal(storage.getItem("unreadable"), "{ not json");
  const changed = sessionReducer(restored, { type: "send", id: "u", text: "new start" });
  assert.equal(persistSession("unreadable", changed, storage), undefined);
  assert.equal(loadSession("unreadable", storage).messages[0].parts[0].text, "new start");

  // The entry changed since: read again.
  saveSession("k", changed, storage);
  const first = restoreSession("k", storage);
  saveSession("k", sessionReducer(changed, { type: "reset" }), storage);
  assert.notEqual(restoreSession("k", storage), first);
});

test("without any storage (Node, server rendering): restoreSession is a quiet no-op, the others say unavailable", () => {
  assert.equal(globalThis.sessionStorage, undefined);
  const printed = [];
  const saved = { warn: console.warn, error: console.error, log: console.log };
  Object.assign(console, { warn: (...v) => printed.push(v), error: (...v) => printed.push(v), log: (...v) => printed.push(v) });
  let restored;
  try {
    restored = restoreSession("k");
  } finally {
    Object.assign(console, saved);
  }
  assert.deepEqual(restored, { messages: [], status: "idle" });
  assert.deepEqual(printed, [], "no console output on every server render");
  const state = nestedConversation();
  for (const error of [
    (() => { try { saveSession("k", state); } catch (e) { return e; } })(),
    (() => { try { loadSession("k"); } catch (e) { return e; } })(),
    (() => { try { clearSession("k"); } catch (e) { return e; } })(),
    persistSession("k", state),
  ]) {
    assert.ok(error instanceof Error);
    assert.equal(error.code, "unavailable");
  }
  assert.equal(sessionReducer(state, part({ type: "text-delta", text: "still here" })).messages[1].parts.at(-1).text, "still here");
});

test("a console.warn that throws does not break restoreSession", () => {
  const storage = new MemoryStorage();
  storage.setItem("k", "{ not json");
  const warn = console.warn;
  console.warn = () => {
    throw new Error("console is broken");
  };
  try {
    for (let i = 0; i < 600; i++) restoreSession(`k${i % 2 ? "" : "x"}`, i % 2 ? storage : { getItem: () => "{", setItem() {}, removeItem() {} });
  } finally {
    console.warn = warn;
  }
  assert.equal(sessionReducer(undefined, { type: "send", id: "u", text: "ok" }).messages.length, 1);
});
