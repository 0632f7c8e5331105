// chat-session-reducer/indexeddb in Node, on fake-indexeddb (an in-memory IndexedDB): the storage
// helpers with the store (each a promise), the load rule on what it reads, saves that write only
// the records of what changed, a write by another tab, a refused write (quota) that loses nothing,
// and records that are not a session. Real IndexedDB and a real quota: storage-chromium.test.mjs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";

import { clearSession, loadSession, loadSessionEntry, persistSession, restoreSession, saveSession, sessionReducer, storedSessionId } from "../../pkg/index.js";
import { indexedDBStore } from "../../pkg/indexeddb/index.js";

const part = (part) => ({ type: "part", part });
const newStore = (indexedDB = new IDBFactory()) => ({ indexedDB, store: indexedDBStore({ indexedDB, IDBKeyRange }) });
// The same database as another tab sees it: a store of its own (indexedDBStore gives one store per
// database of each IndexedDB factory, so this goes through a factory of its own onto the same one).
const anotherTab = (indexedDB) => indexedDBStore({ indexedDB: { open: (...args) => indexedDB.open(...args) }, IDBKeyRange });

function conversation(turns) {
  const actions = [];
  for (let turn = 0; turn < turns; turn++) {
    actions.push({ type: "send", id: `u${turn}`, text: `question ${turn}` }, part({ type: "text-delta", text: `answer ${turn}` }), part({ type: "finish" }));
  }
  actions.push({ type: "send", id: "last", text: "one more" }, part({ type: "text-delta", text: "Stream" }));
  return actions.reduce(sessionReducer, undefined);
}

// Runs `run` with the key of each record put and each key (range) deleted collected.
async function written(run) {
  const { put, delete: remove } = IDBObjectStore.prototype;
  const puts = [];
  const deletes = [];
  IDBObjectStore.prototype.put = function (value, key) {
    puts.push(key);
    return put.call(this, value, key);
  };
  IDBObjectStore.prototype.delete = function (key) {
    deletes.push(key);
    return remove.call(this, key);
  };
  try {
    await run();
  } finally {
    Object.assign(IDBObjectStore.prototype, { put, delete: remove });
  }
  return { puts, deletes };
}

test("a session round-trips with its id and rev; stored while streaming, it loads with stop applied", async () => {
  const { store } = newStore();
  const state = conversation(2);
  assert.equal(await saveSession("chat", state, store, { id: "chat-1" }), undefined);
  const entry = await loadSessionEntry("chat", store);
  assert.deepEqual(entry, { state: sessionReducer(undefined, { type: "load", state }), id: "chat-1", rev: 1, wasStreaming: true });
  assert.equal(entry.state.status, "idle");
  assert.deepEqual(entry.state.messages, state.messages);
  assert.equal(await loadSession("never", store), null);
  await clearSession("chat", store);
  assert.equal(await loadSession("chat", store), null);
});

test("storedSessionId reads a store's id as loadSessionEntry does, a promise that never rejects", async () => {
  const { store } = newStore();
  await saveSession("chat", conversation(1), store, { id: "chat-9" });
  const id = storedSessionId("chat", store);
  assert.ok(id instanceof Promise);
  assert.equal(await id, "chat-9");
  assert.equal(await storedSessionId("never", store), undefined);
  const broken = { read: async () => ({ format: "chat-session-reducer", version: 3, state: { messages: 7 } }), write: async () => {}, remove: async () => {} };
  assert.equal(await storedSessionId("chat", broken), undefined, "an entry it cannot read: no id, no rejection");
  await assert.rejects(loadSessionEntry("chat", broken), { code: "corrupt" });
});

test("a save while a reply streams writes the streaming message and the meta record, nothing else", async () => {
  const { store } = newStore();
  const before = conversation(100);
  await saveSession("chat", before, store);
  const after = sessionReducer(before, part({ type: "text-delta", text: "ing on" }));
  const { puts, deletes } = await written(() => saveSession("chat", after, store));
  assert.deepEqual(puts, [["chat", after.messages.length - 1], ["chat", "meta"]]);
  assert.deepEqual(deletes, []);
  const finished = sessionReducer(after, part({ type: "finish" }));
  const end = await written(() => saveSession("chat", finished, store));
  assert.deepEqual(end.puts, [["chat", "state", "status"], ["chat", "meta"]], "finish changes the status alone");
  const entry = await loadSessionEntry("chat", store);
  assert.equal(entry.rev, 3);
  assert.deepEqual(entry.state, finished);
});

test("fewer messages (an edit, a reset) delete the records past the end; a second store reads what the first wrote", async () => {
  const { indexedDB, store } = newStore();
  const long = conversation(5);
  await saveSession("chat", long, store);
  const edited = sessionReducer(long, { type: "edit", messageId: "u1", id: "u1b", text: "instead" });
  await saveSession("chat", edited, store);
  const other = anotherTab(indexedDB);
  const loaded = await loadSession("chat", other);
  assert.deepEqual(loaded.messages, edited.messages);
  assert.deepEqual(loaded.forks, edited.forks);
  await saveSession("chat", sessionReducer(edited, { type: "reset" }), store);
  assert.deepEqual(await loadSession("chat", other), { messages: [], status: "idle" });
});

test("written by another tab since this store last read: the next save writes the conversation whole", async () => {
  const { indexedDB, store } = newStore();
  const tab = anotherTab(indexedDB);
  const mine = conversation(3);
  await saveSession("chat", mine, store);
  await saveSession("chat", conversation(8), tab);
  const next = sessionReducer(mine, part({ type: "text-delta", text: "!" }));
  const { puts } = await written(() => saveSession("chat", next, store));
  assert.equal(puts.filter(([, index]) => typeof index === "number").length, next.messages.length);
  const entry = await loadSessionEntry("chat", tab);
  assert.deepEqual(entry.state.messages, next.messages, "no message of the other tab's longer conversation is left behind");
  assert.equal(entry.rev, 3);
});

test("a refused write (quota) rejects with code quota, writes nothing, and the next save writes all since", async () => {
  const { indexedDB, store } = newStore();
  const first = conversation(2);
  await saveSession("chat", first, store);
  const grown = [part({ type: "text-delta", text: " more" }), part({ type: "finish" }), { type: "send", id: "u9", text: "next" }].reduce(sessionReducer, first);
  const { put } = IDBObjectStore.prototype;
  // As a browser does when the disk or the origin's quota is full: the transaction aborts, its
  // error a QuotaExceededError.
  IDBObjectStore.prototype.put = function (value, key) {
    const request = put.call(this, value, key);
    if (key[1] === "meta") {
      Object.defineProperty(this.transaction, "error", { value: new DOMException("The quota has been exceeded.", "QuotaExceededError") });
      this.transaction.abort();
    }
    return request;
  };
  let failure;
  try {
    failure = await persistSession("chat", grown, store);
  } finally {
    IDBObjectStore.prototype.put = put;
  }
  assert.equal(failure.code, "quota", failure.message);
  assert.ok(failure instanceof Error);
  const kept = await loadSessionEntry("chat", anotherTab(indexedDB));
  assert.equal(kept.rev, 1, "the aborted transaction wrote nothing");
  assert.equal(kept.state.messages.length, first.messages.length);
  assert.equal(await persistSession("chat", grown, store), undefined, "retried");
  assert.deepEqual((await loadSession("chat", store)).messages, grown.messages);
});

test("records that are not a session are corrupt with a path, and stay; no IndexedDB is unavailable", async () => {
  const { indexedDB, store } = newStore();
  await saveSession("chat", conversation(2), store);
  const db = await new Promise((resolve) => (indexedDB.open("chat-session-reducer").onsuccess = (event) => resolve(event.target.result)));
  await new Promise((resolve) => {
    const transaction = db.transaction("records", "readwrite");
    transaction.objectStore("records").delete(["chat", 1]);
    transaction.objectStore("records").put({ theme: "dark" }, ["theme", "meta"]);
    // Tampered by another tab: a count of a billion messages, and a count that is no count.
    transaction.objectStore("records").put({ format: "chat-session-reducer", version: 3, rev: 1, fields: ["messages", "status"], messages: 1e9 }, ["huge", "meta"]);
    transaction.objectStore("records").put({ theme: "dark" }, ["huge", 0]);
    transaction.objectStore("records").put({ format: "chat-session-reducer", version: 3, rev: 1, fields: ["messages"], messages: "2" }, ["odd", "meta"]);
    transaction.oncomplete = resolve;
  });
  db.close();
  await assert.rejects(loadSession("chat", store), { code: "corrupt", path: "stored.state.messages[1]" });
  await assert.rejects(loadSession("chat", store), { code: "corrupt" }, "the read removed nothing");
  await assert.rejects(loadSession("theme", store), { code: "corrupt", path: "stored.format" });
  await assert.rejects(loadSession("huge", store), { code: "corrupt", path: "stored.state.messages[0].id" }, "read as the records there are");
  await assert.rejects(loadSession("odd", store), { code: "corrupt", path: "stored.state" });
  assert.equal(await saveSession("huge", conversation(1), store), undefined, "a save replaces a tampered entry whole");
  assert.equal((await loadSession("huge", store)).messages.length, conversation(1).messages.length);

  const nowhere = indexedDBStore({ indexedDB: undefined });
  const warn = console.warn;
  const warnings = [];
  console.warn = (...values) => warnings.push(values[1]?.code);
  try {
    await assert.rejects(saveSession("chat", conversation(1), nowhere), { code: "unavailable" });
    assert.deepEqual(await restoreSession("chat", nowhere), { messages: [], status: "idle" });
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(warnings, ["unavailable"]);
  await assert.rejects(saveSession(1, conversation(1), store), { code: "invalid", path: "key" });
});

test("indexedDBStore gives one store per database (a render may call it), another for another database", () => {
  const indexedDB = new IDBFactory();
  assert.equal(indexedDBStore({ indexedDB, IDBKeyRange }), indexedDBStore({ indexedDB, IDBKeyRange }));
  assert.notEqual(indexedDBStore({ indexedDB, IDBKeyRange, database: "other" }), indexedDBStore({ indexedDB, IDBKeyRange }));
  assert.throws(() => indexedDBStore({ database: 1 }), { code: "invalid", path: "options.database" });
});

test("restoreSession then persistSession does not write back what was restored", async () => {
  const { store } = newStore();
  await saveSession("chat", sessionReducer(conversation(2), part({ type: "finish" })), store);
  const restored = await restoreSession("chat", store);
  const { puts } = await written(() => persistSession("chat", restored, store));
  assert.deepEqual(puts, []);
  const next = sessionReducer(restored, { type: "send", id: "u", text: "again" });
  const after = await written(() => persistSession("chat", next, store));
  assert.deepEqual(after.puts, [["chat", next.messages.length - 1], ["chat", "state", "status"], ["chat", "meta"]]);
});

test("a streaming session's run start round-trips through the store, and goes once the run ended", async () => {
  const { store } = newStore();
  const runStart = conversation(2);
  const streaming = sessionReducer(runStart, part({ type: "text-delta", text: "ing on" }));
  await saveSession("chat", streaming, store, { runStart });
  assert.deepEqual((await loadSessionEntry("chat", store)).runStart, runStart);
  const finished = sessionReducer(streaming, part({ type: "finish" }));
  const { deletes } = await written(() => saveSession("chat", finished, store, { runStart }));
  assert.deepEqual(deletes, [["chat", "run"]]);
  assert.equal((await loadSessionEntry("chat", store)).runStart, undefined);
});
