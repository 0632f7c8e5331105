// Sessions in Web Storage, as JSON in a versioned envelope:
// { "format": "chat-session-reducer", "version": 3, "id"?: …, "state": … }; `id`, optional, is
// the conversation's id (the hook's `id`), kept with it.
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
 */
function failure(code, message, path) {
  const error = /** @type {SessionReducerError} */ (new Error(message));
  error.code = code;
  if (path !== undefined) error.path = path;
  return error;
}

/**
 * @param {string} path
 * @param {string} problem
 */
function invalid(path, problem) {
  const error = /** @type {SessionReducerError} */ (new TypeError(`${path}: ${problem}`));
  error.code = "invalid";
  error.path = path;
  return error;
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

// The storage to use: the one given, or globalThis.sessionStorage. `null` when there is none at
// all (no storage given and none in this environment).
function storageOf(storage) {
  if (storage !== undefined) {
    const usable =
      typeof storage === "object" &&
      storage !== null &&
      ["getItem", "setItem", "removeItem"].every((method) => typeof storage[method] === "function");
    if (!usable) throw invalid("storage", "expected an object with getItem, setItem and removeItem");
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
  if (typeof key !== "string") throw invalid("key", "expected a string");
}

// The state of a stored envelope of this library, any version this one reads.
function storedState(key, envelope) {
  const notOurs = (path) => failure("corrupt", `${path}: the stored value under "${key}" is not a session of chat-session-reducer`, path);
  if (typeof envelope !== "object" || envelope === null || Array.isArray(envelope)) throw notOurs("stored");
  if (envelope.format !== FORMAT) throw notOurs("stored.format");
  const { version } = envelope;
  if (version === 1 || version === 2 || version === VERSION) {
    if (envelope.state === undefined) throw notOurs("stored.state");
    return envelope.state;
  }
  if (typeof version === "number" && version > VERSION) {
    throw failure(
      "version",
      `the session under "${key}" was stored by a newer version (format ${version}); this version reads formats 1 to ${VERSION}`,
    );
  }
  throw notOurs("stored.version");
}

// The helpers, on the package's own reducer (its reader checks what is stored).
export function sessionStorageHelpers(sessionReducer) {
  // What restoreSession gave for each key of each storage, with the stored text it was made
  // from: called again on an unchanged entry (React Strict Mode calls an initializer twice) it
  // gives the same object, and persistSession does not overwrite an entry before the
  // conversation has changed, even one it could not read.
  const restored = new WeakMap();

  function saveSession(key, state, storage, options) {
    checkKey(key);
    const target = requireStorage(storage);
    // The reducer takes `undefined` for the empty session (Redux); a save must be given one.
    if (state === undefined) throw invalid("state", "expected an object");
    sessionReducer(state, CHECK);
    const id = options?.id;
    if (id !== undefined && typeof id !== "string") throw invalid("options.id", "expected a string");
    let json;
    try {
      json = JSON.stringify(id === undefined ? { format: FORMAT, version: VERSION, state } : { format: FORMAT, version: VERSION, id, state });
    } catch (thrown) {
      throw invalid("state", `not JSON: ${describe(thrown)}`);
    }
    try {
      target.setItem(key, json);
    } catch (thrown) {
      throw failure(isQuota(thrown) ? "quota" : "unavailable", `the session could not be saved: ${describe(thrown)}`);
    }
  }

  function read(key, target) {
    try {
      return target.getItem(key);
    } catch (thrown) {
      throw failure("unavailable", `the storage could not be read: ${describe(thrown)}`);
    }
  }

  // The stored envelope's conversation id: a string, or undefined.
  const idOf = (envelope) => (typeof envelope?.id === "string" ? envelope.id : undefined);

  function parse(key, stored) {
    try {
      return JSON.parse(stored);
    } catch (thrown) {
      throw failure("corrupt", `stored: the stored session under "${key}" is not JSON: ${describe(thrown)}`, "stored");
    }
  }

  // The state stored under `key` (null when nothing is), the envelope's `id`, and the stored
  // state's status before the load rule changes it ("streaming": the page was left mid-reply).
  function loadFrom(key, target) {
    const stored = read(key, target);
    if (stored === null || stored === undefined) return { state: null, id: undefined, status: undefined };
    const envelope = parse(key, stored);
    const state = storedState(key, envelope);
    return { state: loadState(key, state), id: idOf(envelope), status: state?.status };
  }

  function loadState(key, state) {
    try {
      // The load rule is the reducer's (one rule, one place), for what every version stored.
      return sessionReducer(undefined, { type: "load", state });
    } catch (thrown) {
      if (thrown?.code !== "invalid") throw thrown;
      // The reader names `action.state…`; what is wrong is in the stored envelope's state.
      const path = `stored.${thrown.path.replace(/^action\./, "")}`;
      const problem = thrown.message.slice(thrown.path.length + 2);
      throw failure("corrupt", `${path}: ${problem} (the value stored under "${key}" is not a session)`, path);
    }
  }

  function loadSession(key, storage) {
    checkKey(key);
    return loadFrom(key, requireStorage(storage)).state;
  }

  function clearSession(key, storage) {
    checkKey(key);
    try {
      requireStorage(storage).removeItem(key);
    } catch (thrown) {
      if (thrown?.code === "unavailable" || thrown?.code === "invalid") throw thrown;
      throw failure("unavailable", `the storage could not be written: ${describe(thrown)}`);
    }
  }

  function warn(error) {
    try {
      console.warn("chat-session-reducer: starting a new session:", error);
    } catch {
      // A console that throws must not break the initializer.
    }
  }

  function restoreSession(key, storage) {
    const empty = () => ({ messages: [], status: "idle" });
    let target;
    try {
      checkKey(key);
      target = storageOf(storage);
    } catch (error) {
      warn(error);
      return empty();
    }
    // No storage at all (server rendering): quietly a new session, on every render.
    if (target === null) return empty();
    let stored;
    try {
      stored = read(key, target);
    } catch (error) {
      warn(error);
      return empty();
    }
    const byKey = restored.get(target) ?? new Map();
    restored.set(target, byKey);
    const again = byKey.get(key);
    if (again !== undefined && again.stored === stored) return again.state;
    let state;
    let id;
    let status;
    try {
      ({ state, id, status } = loadFrom(key, target));
      state ??= empty();
    } catch (error) {
      warn(error);
      state = empty();
    }
    byKey.set(key, { stored, state, id, status });
    return state;
  }

  // The conversation id stored with the session under `key`; what restoreSession read when the
  // entry is unchanged since, so the hook's restore parses the stored conversation once.
  function storedSessionId(key, storage) {
    try {
      checkKey(key);
      const target = storageOf(storage);
      if (target === null) return undefined;
      const stored = read(key, target);
      const again = restored.get(target)?.get(key);
      if (again !== undefined && again.stored === stored) return again.id;
      return stored === null || stored === undefined ? undefined : idOf(parse(key, stored));
    } catch {
      return undefined;
    }
  }

  // The status the entry restoreSession last read under `key` was stored with, before the load
  // rule: "streaming" tells the hook's `resume` that the page was left mid-reply.
  function restoredStatus(key, storage) {
    try {
      return restored.get(storageOf(storage))?.get(key)?.status;
    } catch {
      return undefined;
    }
  }

  function persistSession(key, state, storage, options) {
    try {
      const target = requireStorage(storage);
      if (restored.get(target)?.get(key)?.state === state) return undefined;
      saveSession(key, state, target, options);
      return undefined;
    } catch (error) {
      return error;
    }
  }

  return { saveSession, loadSession, clearSession, restoreSession, persistSession, storedSessionId, restoredStatus };
}
