// A storage that fills up mid-reply, 200 seeded runs per backend (Web Storage, the IndexedDB
// store on fake-indexeddb): the reply streams, a save follows every chunk as the hook's would,
// the storage refuses saves from a random chunk for a random number of chunks, then has room
// again. Every run ends with the stored conversation equal to the one in memory (nothing lost,
// nothing doubled), `rev` counting exactly the writes that landed, and every refusal coded quota.
import assert from "node:assert/strict";
import { test } from "node:test";
import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";

import { loadSessionEntry, persistSession, sessionReducer } from "../../pkg/index.js";
import { indexedDBStore } from "../../pkg/indexeddb/index.js";

const RUNS = 200;
const CHUNKS = 30;
const part = (part) => ({ type: "part", part });

// A small deterministic generator (Park-Miller), so a failing run can be replayed by its seed.
function random(seed) {
  let value = seed + 1;
  return (below) => (value = (value * 48271) % 2147483647) % below;
}

// The reply's actions: a user turn, then text and a tool call streamed in CHUNKS chunks, then finish.
function reply(next) {
  const actions = [{ type: "send", id: "u-late", text: "and now?" }];
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    actions.push(next(4) === 0 ? part({ type: "tool-call", id: `c${chunk}`, name: "look", input: { chunk } }) : part({ type: "text-delta", text: `w${chunk} ` }));
  }
  actions.push(part({ type: "finish" }));
  return actions;
}

async function run(seed, storage, setFull) {
  const next = random(seed);
  let state = [{ type: "send", id: "u0", text: "hi" }, part({ type: "text-delta", text: "hello" }), part({ type: "finish" })].reduce(sessionReducer, undefined);
  let landed = 0;
  const save = async () => {
    const failure = await persistSession("chat", state, storage);
    if (failure === undefined) landed++;
    else assert.equal(failure.code, "quota", `seed ${seed}: ${failure.message}`);
  };
  await save();
  const fullFrom = 1 + next(CHUNKS);
  const fullFor = 1 + next(CHUNKS);
  const actions = reply(next);
  for (const [index, action] of actions.entries()) {
    setFull(index >= fullFrom && index < fullFrom + fullFor);
    state = sessionReducer(state, action);
    await save();
  }
  // The hook's retry: the same session again once there is room.
  setFull(false);
  await save();
  const entry = await loadSessionEntry("chat", storage);
  assert.deepEqual(entry.state, state, `seed ${seed}: the stored conversation is the one in memory`);
  assert.equal(entry.rev, landed, `seed ${seed}: rev counts the writes that landed`);
  return fullFrom + fullFor > actions.length;
}

test(`Web Storage full mid-reply, ${RUNS} seeded runs: nothing lost, nothing doubled`, async () => {
  let endedFull = 0;
  for (let seed = 0; seed < RUNS; seed++) {
    const entries = new Map();
    let full = false;
    const storage = {
      getItem: (key) => entries.get(key) ?? null,
      setItem: (key, value) => {
        if (full) throw new DOMException("full", "QuotaExceededError");
        entries.set(key, value);
      },
      removeItem: (key) => entries.delete(key),
    };
    if (await run(seed, storage, (value) => (full = value))) endedFull++;
  }
  assert.ok(endedFull > 0, "some runs were still full when the reply ended");
});

test(`IndexedDB full mid-reply, ${RUNS} seeded runs: nothing lost, nothing doubled`, async () => {
  const { put } = IDBObjectStore.prototype;
  let full = false;
  // As a browser does at the quota: the transaction aborts with a QuotaExceededError.
  IDBObjectStore.prototype.put = function (value, key) {
    const request = put.call(this, value, key);
    if (full && key[1] === "meta") {
      Object.defineProperty(this.transaction, "error", { value: new DOMException("full", "QuotaExceededError") });
      this.transaction.abort();
    }
    return request;
  };
  try {
    for (let seed = 0; seed < RUNS; seed++) {
      await run(seed, indexedDBStore({ indexedDB: new IDBFactory(), IDBKeyRange }), (value) => (full = value));
    }
  } finally {
    IDBObjectStore.prototype.put = put;
  }
});
