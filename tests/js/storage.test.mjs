// The storage helpers in Node: with a storage passed in (an in-memory Web Storage), and with
// none at all (server rendering). Envelopes of versions 1 to 3 load, by the reducer's `load` rule
// (stored while streaming: `stop` applied; stored after the run: as stored, a question waiting on
// the user still open); corrupt entries say what is wrong with a `path`; failures keep their codes
// and never lose what is stored or held.
// Each write adds 1 to the envelope's `rev`; the conversation `id` is kept with it.
// The same helpers in a browser: tests/js/storage-chromium.test.mjs; in jsdom and happy-dom:
// tests/vitest/; with the IndexedDB store: tests/js/storage-indexeddb.test.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

import {
  branchAt, clearSession, loadSession, loadSessionEntry, persistSession, restoreSession, restoreSessionEntry, saveSession, sessionReducer,
  storedSessionId,
} from "../../pkg/index.js";

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
  assert.equal(JSON.parse(storage.getItem("trip")).version, 3);
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
    [JSON.stringify({ format: "chat-session-reducer", version: 3, state: { messages: [], status: "idle", forks: [] } }), "corrupt", "stored.state.forks"],
    [JSON.stringify({ format: "chat-session-reducer", version: 3, state: { messages: [], status: "idle", queue: [{ id: "q", text: 1 }] } }), "corrupt", "stored.state.queue[0].text"],
    [JSON.stringify({ format: "chat-session-reducer", version: 4, state: {} }), "version", undefined],
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

test("what restoreSession gave is not kept alive once the app lets go of it, and still not overwritten while the app holds it", async () => {
  // A full collection on demand (Node's test runner starts without --expose-gc).
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc");
  const storage = new MemoryStorage();
  const big = { messages: Array.from({ length: 200 }, (_, i) => ({ id: `m${i}`, role: "user", parts: [{ type: "text", text: `message ${i}` }] })), status: "idle" };
  for (let c = 0; c < 20; c++) saveSession(`c${c}`, big, storage);
  storage.setItem("unreadable", "{ not json");
  const warn = console.warn;
  console.warn = () => {};
  const held = restoreSession("unreadable", storage);
  console.warn = warn;
  // The conversations switched through, one after another, each let go of.
  const left = [];
  for (let c = 0; c < 20; c++) left.push(new WeakRef(restoreSession(`c${c}`, storage)));
  // The reducer remembers the states of its last calls for a while: enough calls to forget them.
  let other = sessionReducer(undefined, { type: "send", id: "u", text: "x" });
  for (let i = 0; i < 100; i++) other = sessionReducer(other, { type: "reset" });
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  // The last one restored is kept (Strict Mode's second call gets the same object).
  assert.equal(left.slice(0, -1).filter((ref) => ref.deref() !== undefined).length, 0, "the conversations left are collected");
  assert.equal(persistSession("unreadable", held, storage), undefined);
  assert.equal(storage.getItem("unreadable"), "{ not json", "what it could not read is not overwritten while the app shows the empty session it gave");
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

// SPEC v3 "Storage": the load rule, and the v3 values in the envelope.

// A run that finished asking for approval (an open call waiting on the user), beside a
// delegate call whose sub-agent run still streams (it was working, not waiting).
function finishedWithQuestions() {
  return [
    { type: "send", id: "u1", text: "Clean up" },
    part({ type: "message-start", messageId: "a1" }),
    part({ type: "tool-call", id: "c1", name: "delete", input: { all: true } }),
    part({ type: "tool-approval-request", id: "c1", approvalId: "ap1", prompt: "Delete everything?" }),
    part({ type: "tool-call", id: "d1", name: "delegate_to_archiver", input: {} }),
    part({ type: "message-start", messageId: "n1" }, "d1"),
    part({ type: "text-delta", text: "Archiving" }, "d1"),
    part({ type: "finish", reason: "tool-calls" }),
  ].reduce(sessionReducer, undefined);
}

const envelope = (version, state) => JSON.stringify({ format: "chat-session-reducer", version, state });

test("stored after the run (v3 and v2): a waiting approval stays open and answerable; a call whose sub-agent still streams is cancelled", () => {
  const state = finishedWithQuestions();
  assert.equal(state.status, "idle");
  assert.equal(state.messages[1].parts[1].agent.status, "streaming");
  const storage = new MemoryStorage();
  saveSession("v3", state, storage);
  storage.setItem("v2", envelope(2, state));
  for (const key of ["v3", "v2"]) {
    const loaded = loadSession(key, storage);
    // One rule, in one place: what storage loads is what the reducer's `load` action gives.
    assert.deepEqual(loaded, sessionReducer(undefined, { type: "load", state: JSON.parse(storage.getItem(key)).state }), key);
    const [approval, delegate] = loaded.messages[1].parts;
    assert.equal(loaded.status, "idle", key);
    assert.deepEqual([approval.state, approval.prompt, approval.approval.id], ["awaiting-confirmation", "Delete everything?", "ap1"], key);
    assert.equal(delegate.state, "cancelled", `${key}: its sub-agent was working, not waiting on the user`);
    assert.equal(delegate.agent.status, "idle", key);
    assert.equal(delegate.agent.messages[0].parts[0].text, "Archiving", key);
    const answered = sessionReducer(loaded, part({ type: "tool-approval-response", approvalId: "ap1", approved: true }));
    assert.deepEqual([answered.messages[1].parts[0].state, answered.messages[1].parts[0].approval.approved], ["running", true], key);
    assert.equal(sessionReducer(answered, { type: "continue" }).status, "streaming", key);
  }
});

test("stored after the run by version 1: a call awaiting confirmation stays open and takes its result", () => {
  const storage = new MemoryStorage();
  const asked = { type: "tool", id: "c1", name: "pick_time", input: {}, state: "awaiting-confirmation", prompt: "Which time?" };
  const v1 = { messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Book" }] }, { id: "a1", role: "assistant", parts: [asked] }], status: "idle" };
  storage.setItem("v1", envelope(1, v1));
  const loaded = loadSession("v1", storage);
  assert.deepEqual(loaded.messages[1].parts[0], asked);
  const answered = sessionReducer(loaded, part({ type: "tool-result", id: "c1", output: { time: "8 pm" } }));
  assert.deepEqual([answered.messages[1].parts[0].state, answered.messages[1].parts[0].output], ["done", { time: "8 pm" }]);
});

test("stored while streaming (a reload cut the reply): stop is applied, the question too is cancelled, the queue kept", () => {
  const streaming = [
    { type: "send", id: "u1", text: "Clean up" },
    part({ type: "tool-call", id: "c1", name: "delete", input: {} }),
    part({ type: "tool-approval-request", id: "c1", prompt: "Delete?" }),
    { type: "send", id: "u2", text: "and then the drafts" },
  ].reduce(sessionReducer, undefined);
  assert.equal(streaming.status, "streaming");
  const storage = new MemoryStorage();
  saveSession("cut", streaming, storage);
  storage.setItem("cut-v2", envelope(2, { ...streaming, queue: undefined }));
  const loaded = loadSession("cut", storage);
  assert.equal(loaded.status, "idle");
  assert.equal(loaded.messages[1].parts[0].state, "cancelled");
  assert.equal(loaded.messages[1].parts[0].prompt, "Delete?", "cancelling changes nothing else");
  assert.deepEqual(loaded.queue, [{ id: "u2", text: "and then the drafts" }]);
  assert.equal(loadSession("cut-v2", storage).messages[1].parts[0].state, "cancelled");
});

test("forks, the queue and step parts round-trip: equal values, and the branches set aside switch back", () => {
  const state = [
    { type: "send", id: "u1", text: "Hello" },
    part({ type: "message-start", messageId: "a1" }),
    part({ type: "step-start" }),
    part({ type: "text-delta", text: "Hi." }),
    part({ type: "finish" }),
    { type: "regenerate" },
    part({ type: "message-start", messageId: "a2" }),
    part({ type: "text-delta", text: "Hello there." }),
    part({ type: "finish" }),
    { type: "edit", messageId: "u1", id: "u1b", text: "Hey" },
    part({ type: "text-delta", text: "Hey!" }),
    { type: "send", id: "u2", text: "Queued", metadata: { from: "test" } },
  ].reduce(sessionReducer, undefined);
  assert.ok(state.forks?.length === 1 && state.queue?.length === 1, "the conversation holds a fork and a queue");
  const storage = new MemoryStorage();
  saveSession("branches", state, storage);
  const loaded = loadSession("branches", storage);
  assert.equal(loaded.status, "idle", "stored while streaming: stopped");
  assert.deepEqual(loaded.messages, state.messages);
  assert.deepEqual(loaded.forks, state.forks);
  assert.deepEqual(loaded.queue, state.queue);
  assert.notEqual(loaded.forks, state.forks, "read from the JSON, not kept from memory");
  assert.deepEqual(branchAt(loaded, 0), branchAt(state, 0));

  const back = sessionReducer(loaded, { type: "switchBranch", after: null, to: 0 });
  assert.deepEqual(back.messages.map((message) => message.id), ["u1", "a2"]);
  assert.deepEqual(back.messages[1].parts, [{ type: "text", text: "Hello there." }]);
  assert.deepEqual(branchAt(back, 1), { after: "u1", active: 1, count: 2 }, "the nested fork came back with its branch");
  const first = sessionReducer(back, { type: "switchBranch", after: "u1", to: 0 });
  assert.deepEqual(first.messages[1].parts, [{ type: "step" }, { type: "text", text: "Hi." }]);
  assert.deepEqual(first.queue, state.queue);
});

test("an entry of a newer version than 3 is a version error that says which versions this one reads", () => {
  const storage = new MemoryStorage();
  storage.setItem("k", envelope(4, { messages: [], status: "idle" }));
  assert.throws(() => loadSession("k", storage), (error) => error.code === "version" && /format 4\b.*formats 1 to 3/.test(error.message));
});

// A conversation of `turns` finished turns, then a reply streaming.
function longConversation(turns) {
  const actions = [];
  for (let turn = 0; turn < turns; turn++) {
    actions.push({ type: "send", id: `u${turn}`, text: `question ${turn}` }, part({ type: "text-delta", text: `answer ${turn}` }), part({ type: "finish" }));
  }
  actions.push({ type: "send", id: "last", text: "one more" }, part({ type: "text-delta", text: "Stream" }));
  return actions.reduce(sessionReducer, undefined);
}

test("a save writes the envelope with rev and id before the state, as JSON.stringify writes it", () => {
  const storage = new MemoryStorage();
  const before = longConversation(5);
  saveSession("long", before, storage, { id: "chat-1" });
  const after = sessionReducer(before, part({ type: "text-delta", text: "ing on" }));
  saveSession("long", after, storage, { id: "chat-1" });
  assert.equal(storage.getItem("long"), JSON.stringify({ format: "chat-session-reducer", version: 3, rev: 2, id: "chat-1", state: after }));
  assert.equal(loadSession("long", storage).messages.at(-1).parts[0].text, "Streaming on");
});

test("each write adds 1 to rev, continuing the stored one; id and rev load with loadSessionEntry", () => {
  const storage = new MemoryStorage();
  const state = longConversation(2);
  saveSession("k", state, storage);
  saveSession("k", sessionReducer(state, { type: "stop" }), storage, { id: "chat-7" });
  assert.deepEqual(loadSessionEntry("k", storage), { state: loadSession("k", storage), id: "chat-7", rev: 2 });
  // Another page (a reload) continues from what is stored.
  const other = new MemoryStorage();
  other.setItem("k", storage.getItem("k"));
  saveSession("k", state, other);
  assert.equal(JSON.parse(other.getItem("k")).rev, 3);
  assert.deepEqual(restoreSessionEntry("none", other), { state: { messages: [], status: "idle" }, id: undefined, rev: 0 });
  // Entries stored before rev and id load with rev 0; a wrong id or rev is named.
  storage.setItem("old", envelope(3, { messages: [], status: "idle" }));
  assert.deepEqual(loadSessionEntry("old", storage), { state: { messages: [], status: "idle" }, id: undefined, rev: 0 });
  storage.setItem("bad", JSON.stringify({ format: "chat-session-reducer", version: 3, id: 7, state: { messages: [], status: "idle" } }));
  assert.throws(() => loadSession("bad", storage), { code: "corrupt", path: "stored.id" });
  assert.throws(() => saveSession("k", state, storage, { id: 7 }), { code: "invalid", path: "options.id" });
});

test("a full storage: quota, nothing lost in memory or stored; the next save writes everything since", () => {
  const storage = new MemoryStorage();
  const limit = { bytes: Infinity };
  const setItem = storage.setItem.bind(storage);
  storage.setItem = (key, value) => {
    if (value.length > limit.bytes) throw new DOMException("full", "QuotaExceededError");
    setItem(key, value);
  };
  let state = longConversation(3);
  saveSession("k", state, storage);
  const stored = storage.getItem("k");
  limit.bytes = stored.length;
  const grown = [part({ type: "text-delta", text: " and more" }), part({ type: "finish" })].reduce(sessionReducer, state);
  const copy = JSON.stringify(grown);
  assert.equal(persistSession("k", grown, storage).code, "quota");
  assert.equal(JSON.stringify(grown), copy, "the conversation in memory is intact");
  assert.equal(storage.getItem("k"), stored, "what was stored is kept");
  limit.bytes = Infinity;
  assert.equal(persistSession("k", grown, storage), undefined, "retried once there is room");
  assert.deepEqual(loadSessionEntry("k", storage), { state: loadSession("k", storage), id: undefined, rev: 2 });
  assert.equal(loadSession("k", storage).messages.at(-1).parts[0].text, "Stream and more");
});

test("a storage whose every property throws is refused by the helpers that throw, and reported by those that never do", () => {
  const hostile = new Proxy({}, { get() { throw new Error("trap"); } });
  const state = longConversation(1);
  assert.throws(() => saveSession("k", state, hostile), { code: "invalid", path: "storage" });
  assert.equal(persistSession("k", state, hostile).code, "invalid");
  const warn = console.warn;
  console.warn = () => {};
  try {
    assert.deepEqual(restoreSession("k", hostile), { messages: [], status: "idle" });
  } finally {
    console.warn = warn;
  }
});

test("the conversation's id is kept in the envelope beside its state, and read back by storedSessionId", () => {
  const storage = new MemoryStorage();
  const state = sessionReducer(undefined, { type: "send", id: "u1", text: "Hi" });
  saveSession("chat", state, storage, { id: "chat_1" });
  const envelope = JSON.parse(storage.getItem("chat"));
  assert.deepEqual([envelope.format, envelope.version, envelope.id], ["chat-session-reducer", 3, "chat_1"]);
  assert.equal(storedSessionId("chat", storage), "chat_1");
  assert.equal(loadSession("chat", storage).messages[0].id, "u1", "the state loads as before");
  assert.equal(restoreSession("chat", storage).messages.length, 1);
  assert.equal(storedSessionId("chat", storage), "chat_1", "after restoreSession, from what it read");

  saveSession("plain", state, storage);
  assert.equal("id" in JSON.parse(storage.getItem("plain")), false, "no id given: none stored (an earlier envelope)");
  assert.equal(storedSessionId("plain", storage), undefined);
  assert.equal(storedSessionId("nothing", storage), undefined);
  storage.setItem("corrupt", "{not json");
  assert.equal(storedSessionId("corrupt", storage), undefined, "never throws");

  assert.throws(() => saveSession("chat", state, storage, { id: 7 }), (error) => error.code === "invalid" && error.path === "options.id");
  assert.equal(storedSessionId("chat", storage), "chat_1", "a refused save changes nothing");
  assert.equal(persistSession("chat", sessionReducer(state, { type: "reset" }), storage, { id: "chat_2" }), undefined);
  assert.equal(storedSessionId("chat", storage), "chat_2");
});
