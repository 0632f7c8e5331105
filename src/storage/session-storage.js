// Sessions in Web Storage, as JSON in a versioned envelope:
// { "format": "chat-session-reducer", "version": 3, "rev": 7, "id": "chat-…", "state": …, "run": … }
// (`rev`, +1 per write, and the conversation's `id` are optional: entries stored before them load;
// `run`, only while a reply streams, is the session its run started from, which a resume after a
// reload puts back before the server's replay: see runOf),
// or in an asynchronous session store (chat-session-reducer/indexeddb's, or the app's own), where
// every helper returns a promise.
//
// The storage is any object with getItem/setItem/removeItem (localStorage, an in-memory map, the
// app's own), sessionStorage by default, found through globalThis: so jsdom, happy-dom and
// workers with a storage work, and where there is none (Node, server rendering) the helpers say
// so, restoreSession quietly. What is read goes through the reducer's own `load` action, which
// checks it and applies the load rule (SPEC v3 "Storage"): stored while streaming, `stop` is
// applied, so a reload never shows a reply as still streaming; stored after the run ended, a call
// that waits on the user stays open and answerable.
//
// Failures are Errors with a `code`: "unavailable" (no storage, or storage that throws on access),
// "quota" (the write was refused for size), "corrupt" (not JSON, or not a session of this
// library; with the `path` of what is wrong, e.g. stored.state.messages[0].id), "version" (stored
// by a newer version), and "invalid" (a TypeError) for arguments of the wrong type. A read never
// removes what is stored, and a failed save changes nothing in memory.
//
// A Web Storage entry is one text, written whole by each save (the browser's setItem copies all of
// it: in Chromium that, not JSON.stringify, is most of a save's time); a session store may write
// only what changed (the IndexedDB store writes the changed messages' records).

import { codedError, invalid, invalidInput } from "../shared/coded-error.js";

const FORMAT = "chat-session-reducer";
// Version 2 added the v2 values (data parts, metadata, agentState), version 3 the v3 ones (forks,
// queue, step parts); an entry of an earlier version is read as it is, since every v1 state is a
// v2 state and every v2 state a v3 state.
const VERSION = 3;
// A batch of nothing: reading a state through it checks the state and changes nothing.
const CHECK = Object.freeze({ type: "batch", actions: Object.freeze([]) });

/** @typedef {import("chat-session-reducer").SessionReducerError} SessionReducerError */

/**
 * @param {SessionReducerError["code"]} code
 * @param {string} message
 * @param {string} [path]
 * @returns {SessionReducerError}
 */
function failure(code, message, path) {
  return codedError(new Error(message), code, path);
}

// The name and message of a thrown value, for the message of an error of ours; never throws.
function describe(thrown) {
  try {
    return thrown instanceof Error || (typeof thrown === "object" && thrown !== null && "message" in thrown)
      ? `${thrown.name}: ${thrown.message}`
      : String(thrown);
  } catch {
    return "unknown error";
  }
}

// Whether a failed write was refused for size: QuotaExceededError and its legacy names and codes
// (22, and Firefox's 1014).
function isQuota(thrown) {
  try {
    return ["QuotaExceededError", "NS_ERROR_DOM_QUOTA_REACHED"].includes(thrown.name) || [22, 1014].includes(thrown.code);
  } catch {
    return false;
  }
}

const hasMethods = (value, methods) =>
  typeof value === "object" && value !== null && methods.every((method) => typeof value[method] === "function");

// Whether `storage` is an asynchronous session store (read, write, remove, each a promise); never
// throws (a getter that throws makes it a Web Storage, which storageOf then refuses).
function isStore(storage) {
  try {
    return hasMethods(storage, ["read", "write", "remove"]);
  } catch {
    return false;
  }
}

// Whether `storage` has the Web Storage methods; never throws (a getter that throws: it has not).
function isWebStorage(storage) {
  try {
    return hasMethods(storage, ["getItem", "setItem", "removeItem"]);
  } catch {
    return false;
  }
}

// The storage to use: the one given, or globalThis.sessionStorage. `null` when there is none at
// all (no storage given and none in this environment).
function storageOf(storage) {
  if (storage !== undefined) {
    if (!isStore(storage) && !isWebStorage(storage)) {
      throw invalid("storage", "an object with getItem, setItem and removeItem, or a session store (read, write, remove)");
    }
    return storage;
  }
  let found;
  try {
    found = globalThis.sessionStorage;
  } catch (thrown) {
    // Privacy settings and sandboxed frames make reading it throw a SecurityError.
    throw failure("unavailable", `sessionStorage is unavailable: ${describe(thrown)}`);
  }
  return found ?? null;
}

function requireStorage(storage) {
  const found = storageOf(storage);
  if (found === null) {
    throw failure("unavailable", "sessionStorage is unavailable: there is none here (Node, server rendering); pass a storage");
  }
  return found;
}

function checkKey(key) {
  if (typeof key !== "string") throw invalid("key", "a string");
}

// The conversation id of a save's options (SHARED.md: the envelope's `id`), or undefined.
function idOf(options) {
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null) throw invalid("options", "an object");
  if (options.id !== undefined && typeof options.id !== "string") throw invalid("options.id", "a string");
  return options.id;
}

// `run` of the envelope of `state` (streaming): the session the run started from, `runStart`, as
// what it shares with `state` and what it does not. `kept`: its first messages are the state's
// first `kept` (the same objects: the reducer keeps what an action did not touch); each of
// `messages`, its others, is the index of the same message in the state, or the message as it was
// when the run started (one the run continued, say); `agentState` when it is not the state's.
function runOf(state, runStart) {
  const at = new Map(state.messages.map((message, index) => [message, index]));
  let kept = 0;
  while (kept < runStart.messages.length && runStart.messages[kept] === state.messages[kept]) kept += 1;
  const messages = runStart.messages.slice(kept).map((message) => at.get(message) ?? message);
  const agentState = runStart.agentState === state.agentState ? undefined : runStart.agentState;
  return agentState === undefined ? { kept, messages } : { kept, messages, agentState };
}

// The session the stored run started from, from the envelope's `run` (runOf) and its stored
// `state` (already checked), checked as a state is (by `reducer`): a bad one is `corrupt`, naming what is wrong.
function runStartOf(key, run, state, reducer) {
  const notARun = (path, problem = "not the start of a run") => failure("corrupt", `${path}: ${problem} (the value stored under "${key}")`, path);
  if (typeof run !== "object" || run === null || !Array.isArray(run.messages)) throw notARun("stored.run");
  const stored = state.messages;
  if (!Number.isSafeInteger(run.kept) || run.kept < 0 || run.kept > stored.length) throw notARun("stored.run.kept");
  const messages = stored.slice(0, run.kept);
  run.messages.forEach((message, index) => {
    if (typeof message !== "number") return void messages.push(message);
    if (!Number.isSafeInteger(message) || stored[message] === undefined) throw notARun(`stored.run.messages[${index}]`);
    messages.push(stored[message]);
  });
  const runStart = run.agentState === undefined ? { messages, status: "streaming" } : { messages, status: "streaming", agentState: run.agentState };
  try {
    return reducer(runStart, CHECK);
  } catch (thrown) {
    if (thrown?.code !== "invalid") throw thrown;
    // Only what `run` holds itself can be wrong: the state's messages were checked with it.
    const path = thrown.path.replace(/^state\.messages\[(\d+)\]/, (_, index) => `stored.run.messages[${index - run.kept}]`).replace(/^state\./, "stored.run.");
    throw notARun(path, thrown.message.slice(thrown.path.length + 2));
  }
}

// The state of a stored envelope of this library, any version this one reads, with its `id` and
// `rev` when it has them, and `run`.
function storedEntry(key, envelope) {
  const notOurs = (path) => failure("corrupt", `${path}: the stored value under "${key}" is not a session of chat-session-reducer`, path);
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) throw notOurs("stored");
  if (envelope.format !== FORMAT) throw notOurs("stored.format");
  const { version } = envelope;
  if (version === 1 || version === 2 || version === VERSION) {
    if (envelope.state === undefined) throw notOurs("stored.state");
    const { state, id, rev, run } = envelope;
    if (id !== undefined && typeof id !== "string") throw notOurs("stored.id");
    if (rev !== undefined && !Number.isSafeInteger(rev)) throw notOurs("stored.rev");
    return { state, id, rev: rev ?? 0, run };
  }
  if (typeof version === "number" && version > VERSION) {
    throw failure(
      "version",
      `the session under "${key}" was stored by a newer version (format ${version}); this version reads formats 1 to ${VERSION}`,
    );
  }
  throw notOurs("stored.version");
}

// The revision of the entry stored under `key`, read from the head of its text (an envelope
// this library wrote puts `rev` before the state); 0 when there is none or it cannot be read (the
// write that follows says why).
function storedRev(key, target) {
  try {
    const rev = Number(/^\{"format":"chat-session-reducer","version":\d+,"rev":(\d+)[,}]/.exec(target.getItem(key) ?? "")?.[1] ?? 0);
    return Number.isSafeInteger(rev) ? rev : 0;
  } catch {
    return 0;
  }
}

// The helpers, on the package's own reducer (its reader checks what is stored).
export function sessionStorageHelpers(sessionReducer) {
  // What restoreSession gave for each key of each storage: the state, held weakly, and with it
  // (for as long as something holds that state) its entry and the stored text it was made from.
  // Called again on an unchanged entry (React Strict Mode calls an initializer twice, a store of
  // conversations opens one again) it gives the same object, and persistSession does not
  // overwrite an entry before the conversation has changed, even one it could not read, while
  // the app holds that state; a conversation let go of is not kept alive by it (issue 34).
  const restored = new WeakMap();
  const madeFrom = new WeakMap();
  // The revision last written to or read from each key of each Web Storage.
  const revisions = new WeakMap();

  const entriesOf = (map, target) => {
    if (!map.has(target)) map.set(target, new Map());
    return map.get(target);
  };

  // With a session store every helper returns a promise, which its failures reject.
  const settle = (storage, run) => (isStore(storage) ? Promise.resolve().then(run) : run());

  // A session store's failure, coded as a Web Storage's would be.
  const storeFailure = (doing) => (thrown) => {
    if (typeof thrown?.code === "string") throw thrown;
    throw failure(isQuota(thrown) ? "quota" : "unavailable", `the session could not be ${doing}: ${describe(thrown)}`);
  };

  // `expected`: the revision the caller last read or wrote (options.rev); a newer one stored is
  // not overwritten (another tab saved since): a `conflict`, with the stored revision as `rev`.
  function writeWebStorage(key, state, id, target, expected, run) {
    const byKey = entriesOf(revisions, target);
    if (expected !== undefined) {
      const stored = storedRev(key, target);
      if (stored > expected) {
        throw Object.assign(failure("conflict", `a newer session (revision ${stored}) is stored under "${key}": it was not overwritten`), { rev: stored });
      }
      byKey.set(key, expected);
    }
    const rev = (byKey.get(key) ?? storedRev(key, target)) + 1;
    let json;
    try {
      json = JSON.stringify({ format: FORMAT, version: VERSION, rev, id, state, run });
    } catch (thrown) {
      throw invalidInput("state", `not JSON: ${describe(thrown)}`);
    }
    try {
      target.setItem(key, json);
    } catch (thrown) {
      throw failure(isQuota(thrown) ? "quota" : "unavailable", `the session could not be saved: ${describe(thrown)}`);
    }
    byKey.set(key, rev);
  }

  function saveSession(key, state, storage, options) {
    return settle(storage, () => {
      checkKey(key);
      const target = requireStorage(storage);
      // The reducer takes `undefined` for the empty session (Redux); a save must be given one.
      if (state === undefined) throw invalid("state", "an object");
      const id = idOf(options);
      const expected = options?.rev;
      if (expected !== undefined && !Number.isSafeInteger(expected)) throw invalid("options.rev", "an integer");
      const runStart = options?.runStart;
      if (runStart !== undefined && !Array.isArray(runStart?.messages)) throw invalid("options.runStart", "a session (with messages)");
      sessionReducer(state, CHECK);
      // The run's start matters only while it streams (a resume after a reload goes onto it).
      const run = runStart !== undefined && state.status === "streaming" ? runOf(state, runStart) : undefined;
      if (!isStore(target)) return writeWebStorage(key, state, id, target, expected, run);
      return Promise.resolve(target.write(key, run === undefined ? { state, id } : { state, id, run })).then(() => undefined, storeFailure("saved"));
    });
  }

  function read(key, target) {
    try {
      return target.getItem(key);
    } catch (thrown) {
      throw failure("unavailable", `the storage could not be read: ${describe(thrown)}`);
    }
  }

  // The stored envelope's state through the load rule, with its id and revision; `wasStreaming`
  // when it was stored while a reply streamed (the load rule stops it; the hook's `resume` goes
  // on), with `runStart` when the session its run started from was stored with it.
  function loadEntry(key, envelope) {
    const { state, id, rev, run } = storedEntry(key, envelope);
    let entry;
    try {
      // The load rule is the reducer's (one rule, one place), for what every version stored.
      entry = { state: sessionReducer(undefined, { type: "load", state }), id, rev };
    } catch (thrown) {
      if (thrown?.code !== "invalid") throw thrown;
      // The reader names `action.state…`; what is wrong is in the stored envelope's state.
      const path = `stored.${thrown.path.replace(/^action\./, "")}`;
      const problem = thrown.message.slice(thrown.path.length + 2);
      throw failure("corrupt", `${path}: ${problem} (the value stored under "${key}" is not a session)`, path);
    }
    if (state.status !== "streaming") return entry;
    return run === undefined ? { ...entry, wasStreaming: true } : { ...entry, wasStreaming: true, runStart: runStartOf(key, run, state, sessionReducer) };
  }

  // The entry under `key` of a Web Storage, from its text; null when nothing is stored.
  function entryFromText(key, stored, target) {
    if (stored === null || stored === undefined) return null;
    let envelope;
    try {
      envelope = JSON.parse(stored);
    } catch (thrown) {
      throw failure("corrupt", `stored: the stored session under "${key}" is not JSON: ${describe(thrown)}`, "stored");
    }
    const entry = loadEntry(key, envelope);
    entriesOf(revisions, target).set(key, entry.rev);
    return entry;
  }

  // The entry under `key`: from a session store, a promise.
  function loadFrom(key, target) {
    if (!isStore(target)) return entryFromText(key, read(key, target), target);
    return Promise.resolve(target.read(key)).then(
      (envelope) => (envelope === null || envelope === undefined ? null : loadEntry(key, envelope)),
      storeFailure("read"),
    );
  }

  function loadSessionEntry(key, storage) {
    return settle(storage, () => {
      checkKey(key);
      return loadFrom(key, requireStorage(storage));
    });
  }

  function loadSession(key, storage) {
    const stateOf = (entry) => entry?.state ?? null;
    const entry = loadSessionEntry(key, storage);
    return isStore(storage) ? entry.then(stateOf) : stateOf(entry);
  }

  function clearSession(key, storage) {
    return settle(storage, () => {
      checkKey(key);
      const target = requireStorage(storage);
      revisions.get(target)?.delete(key);
      if (isStore(target)) return Promise.resolve(target.remove(key)).then(() => undefined, storeFailure("removed"));
      try {
        target.removeItem(key);
      } catch (thrown) {
        throw failure("unavailable", `the storage could not be written: ${describe(thrown)}`);
      }
    });
  }

  function warn(error) {
    try {
      console.warn("chat-session-reducer: starting a new session:", error);
    } catch {
      // A console that throws must not break the initializer.
    }
  }

  const emptyEntry = () => ({ state: { messages: [], status: "idle" }, id: undefined, rev: 0 });

  // The entry restored under `key` from what is stored (`stored`, a Web Storage's text), kept so
  // that restoring the same text again gives the same object (a store's entry is read afresh).
  function restoredEntry(key, target, stored, load) {
    const states = entriesOf(restored, target);
    const shown = states.get(key)?.deref();
    const again = shown === undefined ? undefined : madeFrom.get(shown);
    if (again !== undefined && !isStore(target) && again.stored === stored) return again.entry;
    let entry;
    try {
      entry = load() ?? emptyEntry();
    } catch (error) {
      warn(error);
      entry = emptyEntry();
    }
    states.set(key, new WeakRef(entry.state));
    madeFrom.set(entry.state, { stored, entry });
    return entry;
  }

  function restoreSessionEntry(key, storage) {
    let target;
    try {
      checkKey(key);
      target = storageOf(storage);
    } catch (error) {
      warn(error);
      return isStore(storage) ? Promise.resolve(emptyEntry()) : emptyEntry();
    }
    // No storage at all (server rendering): quietly a new session, on every render.
    if (target === null) return emptyEntry();
    if (isStore(target)) {
      return Promise.resolve()
        .then(() => loadFrom(key, target))
        .then(
          (entry) => restoredEntry(key, target, undefined, () => entry),
          (error) => restoredEntry(key, target, undefined, () => {
            throw error;
          }),
        );
    }
    let stored;
    try {
      stored = read(key, target);
    } catch (error) {
      warn(error);
      return emptyEntry();
    }
    return restoredEntry(key, target, stored, () => entryFromText(key, stored, target));
  }

  function restoreSession(key, storage) {
    const entry = restoreSessionEntry(key, storage);
    return entry instanceof Promise ? entry.then((restoredOne) => restoredOne.state) : entry.state;
  }

  // Whether `state` is the one restoreSession gave for `key`: saving it would write back what was
  // read, or overwrite an entry it could not read.
  const isRestored = (target, key, state) => restored.get(target)?.get(key)?.deref() === state;

  function persistSession(key, state, storage, options) {
    if (isStore(storage)) {
      if (isRestored(storage, key, state)) return Promise.resolve(undefined);
      return saveSession(key, state, storage, options).then(() => undefined, (error) => error);
    }
    try {
      const target = requireStorage(storage);
      if (isRestored(target, key, state)) return undefined;
      saveSession(key, state, target, options);
      return undefined;
    } catch (error) {
      return error;
    }
  }

  // The conversation id stored with the session under `key`: the id of its entry, as
  // loadSessionEntry reads it; undefined when there is none or the entry cannot be read.
  function storedSessionId(key, storage) {
    const idOf = (entry) => entry?.id;
    try {
      const entry = loadSessionEntry(key, storage);
      return entry instanceof Promise ? entry.then(idOf, () => undefined) : idOf(entry);
    } catch {
      return undefined;
    }
  }

  return { saveSession, loadSession, loadSessionEntry, clearSession, restoreSession, restoreSessionEntry, persistSession, storedSessionId };
}
