// chat-session-reducer/indexeddb: a session store (see the main entry's storage helpers) in
// IndexedDB, for conversations beyond Web Storage's 5 MiB and files. Each message is a record of
// its own, so a save writes only the messages that changed since this store last read or wrote
// the key (found by identity: the reducer keeps the messages an action did not touch the same
// objects), the state's other fields that changed, and a small meta record with the revision.
// One readwrite transaction per save: it lands whole or not at all (a full disk aborts it), and
// the next save writes everything changed since the last one that landed.
//
// Records, in one object store, keyed by arrays so that a key's records are one key range:
//   [key, "meta"]         { format, version, rev, id?, fields: the state's field names, messages: count }
//   [key, index]          the message at `index` of state.messages
//   [key, "state", name]  the state's field `name` (status, forks, queue, …)
//   [key, "run"]          while a reply streams, the envelope's `run` (where its run started)

import { invalid } from "../shared/coded-error.js";

const FORMAT = "chat-session-reducer";
const VERSION = 3;
const RECORDS = "records";

// The store of each database of each IndexedDB: `indexedDBStore()` called in a render gives the
// same object each time (the hook's effects depend on it), and every caller shares its last state.
const stores = new WeakMap();
const NO_INDEXEDDB = {};

/**
 * @param {{ database?: string, indexedDB?: IDBFactory, IDBKeyRange?: typeof IDBKeyRange }} [options]
 */
export function indexedDBStore(options = {}) {
  const { database = FORMAT, indexedDB = globalThis.indexedDB, IDBKeyRange: KeyRange = globalThis.IDBKeyRange } = options;
  if (typeof database !== "string") throw invalid("options.database", "a string");
  const factory = indexedDB ?? NO_INDEXEDDB;
  if (!stores.has(factory)) stores.set(factory, new Map());
  const byName = stores.get(factory);
  if (!byName.has(database)) byName.set(database, newStore(database, indexedDB, KeyRange));
  return byName.get(database);
}

function newStore(database, indexedDB, KeyRange) {
  /** @type {Promise<IDBDatabase> | undefined} */
  let opened;
  // Per key: the state this store last read or wrote, its revision and run; and the write in flight.
  const known = new Map();
  const writes = new Map();

  const all = (key) => KeyRange.bound([key], [key, []]);

  function open() {
    opened ??= new Promise((resolve, reject) => {
      if (!indexedDB || !KeyRange) throw new Error("IndexedDB is unavailable here (Node, server rendering, a private window that blocks it)");
      const request = indexedDB.open(database, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(RECORDS);
      request.onsuccess = () => {
        const db = request.result;
        // A newer version opened elsewhere (another tab) must not wait on this connection.
        db.onversionchange = () => {
          db.close();
          opened = undefined;
        };
        resolve(db);
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error(`IndexedDB "${database}" is blocked by an older connection in another tab`));
    });
    // A failed open is tried again by the next call.
    return opened.catch((error) => {
      opened = undefined;
      throw error;
    });
  }

  // Runs `work(records, done, step)` in one transaction; resolves with what `done` was given once
  // the transaction has committed, rejects with its error when it aborts. `step(fn)` wraps a
  // request's handler: what it throws aborts the transaction and is the rejection.
  async function transact(mode, work) {
    const db = await open();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(RECORDS, mode);
      let result;
      let thrown;
      const step = (fn) => () => {
        try {
          fn();
        } catch (error) {
          thrown = error;
          transaction.abort();
        }
      };
      transaction.oncomplete = () => resolve(result);
      transaction.onabort = () => reject(thrown ?? transaction.error ?? new Error("the IndexedDB transaction was aborted"));
      work(transaction.objectStore(RECORDS), (value) => (result = value), step);
    });
  }

  // One write or removal at a time per key: each diffs against what the one before it wrote.
  function queued(key, run) {
    const next = (writes.get(key) ?? Promise.resolve()).then(run);
    writes.set(key, next.catch(() => {}));
    return next;
  }

  function read(key) {
    return transact("readonly", (records, done, step) => {
      const keys = records.getAllKeys(all(key));
      const values = records.getAll(all(key));
      values.onsuccess = step(() => done(envelopeOf(keys.result, values.result)));
    }).then((envelope) => {
      if (envelope?.format === FORMAT) known.set(key, { state: envelope.state, rev: envelope.rev, run: envelope.run });
      return envelope;
    });
  }

  function write(key, { state, id, run }) {
    return queued(key, () =>
      transact("readwrite", (records, done, step) => {
        const meta = records.get([key, "meta"]);
        meta.onsuccess = step(() => {
          const stored = meta.result;
          const last = known.get(key);
          // Written by another store (another tab) since: this one's last state says nothing of it.
          const before = last !== undefined && stored?.rev === last.rev ? last.state : undefined;
          if (before === undefined) records.delete(all(key));
          const rev = (Number.isSafeInteger(stored?.rev) ? stored.rev : 0) + 1;
          writeChanged(records, key, before, state);
          records.put(metaOf(state, id, rev), [key, "meta"]);
          if (run !== undefined) records.put(run, [key, "run"]);
          else if (before !== undefined && last.run !== undefined) records.delete([key, "run"]);
          done(rev);
        });
      }).then((rev) => {
        known.set(key, { state, rev, run });
      }),
    );
  }

  // Puts the messages and fields of `state` that are not those of `before`, and deletes those gone.
  function writeChanged(records, key, before, state) {
    const earlier = before?.messages ?? [];
    state.messages.forEach((message, index) => {
      if (earlier[index] !== message) records.put(message, [key, index]);
    });
    if (earlier.length > state.messages.length) records.delete(KeyRange.bound([key, state.messages.length], [key, Infinity]));
    for (const name of new Set([...Object.keys(before ?? {}), ...Object.keys(state)])) {
      if (name === "messages" || (before !== undefined && before[name] === state[name])) continue;
      if (state[name] === undefined) records.delete([key, "state", name]);
      else records.put(state[name], [key, "state", name]);
    }
  }

  function remove(key) {
    return queued(key, () =>
      transact("readwrite", (records) => records.delete(all(key))).then(() => {
        known.delete(key);
      }),
    );
  }

  return { read, write, remove };
}

function metaOf(state, id, rev) {
  const fields = Object.keys(state).filter((name) => state[name] !== undefined);
  return { format: FORMAT, version: VERSION, rev, ...(id === undefined ? {} : { id }), fields, messages: state.messages.length };
}

// The envelope the records of one key make, as the storage helpers read it (they check it); null
// when there are none. A message missing from its place stays a hole the helpers name.
function envelopeOf(keys, values) {
  if (keys.length === 0) return null;
  const meta = values[keys.findIndex(([, part]) => part === "meta")];
  if (typeof meta !== "object" || meta === null || !Array.isArray(meta.fields)) return { format: undefined };
  const { format, version, rev, id } = meta;
  // A count written by someone else is not trusted further than the records there are.
  if (!Number.isSafeInteger(meta.messages) || meta.messages < 0) return { format, version, rev, id, state: undefined };
  const messages = Array.from({ length: Math.min(meta.messages, keys.length) }, () => undefined);
  const fields = new Map();
  let run;
  keys.forEach(([, part, name], index) => {
    if (typeof part === "number" && part < messages.length) messages[part] = values[index];
    else if (part === "state") fields.set(name, values[index]);
    else if (part === "run") run = values[index];
  });
  const state = Object.fromEntries(meta.fields.map((name) => [name, name === "messages" ? messages : fields.get(name)]));
  return { format, version, rev, ...(id === undefined ? {} : { id }), state, ...(run === undefined ? {} : { run }) };
}

