// Several tabs on one conversation: chat-session-reducer/tabs. An app opts in with
// `useAgentSession({ storage: localStorage, storageKey, tabs: coordinateTabs() })`
// (`coordinateTabs({ channel, locks })`: stand-ins for BroadcastChannel and Web Locks, for
// tests and other hosts). It is framework-agnostic: the hook connects it to its key and storage
// and gives it callbacks (`newest()`, `follow(session, id, resume, runStart)`, `resumes()`, `actions()`); it
// gives back `save`, `gate`, `release`, `send` and `close` (src/react/tabs.js is the glue).
// It applies to a storage the tabs share (localStorage, or the app's own Web Storage); with
// sessionStorage (the hook's default) or a session store it does nothing: a duplicated tab's
// sessionStorage is a copy that never sees the other's writes, so the copy is a conversation of
// its own from then on (it resumes or stops the copied run, as a reload does).
// - A save never overwrites a newer one: it names the revision this tab last read or wrote
//   (persistSession's `rev`), inside the Web Lock `csr:<key>` where there are Web Locks (without,
//   or while the page is being hidden, the check and the write are one synchronous step). A newer
//   one found is shown instead, and the save's `conflict` is the hook's storageError.
// - A save is announced on the BroadcastChannel `chat-session-reducer` as `{ key, rev }`, never
//   the state (and localStorage's `storage` event, which also brings a write the announcement
//   outran, or the only word without BroadcastChannel); the other tabs read the
//   entry as stored (a run still streaming stays streaming) and show it: they follow.
// - One request per run: a run's request is sent once this tab holds the Web Lock
//   `csr:<key>:stream`, and only if no newer session was stored meanwhile (then it follows). A
//   follower forwards what its user does (send, stop, approve…) to the tab holding that lock, over
//   the channel; it waits for the lock, which the browser frees when that tab closes, and then
//   resumes the run (`resume`, where the protocol can) or stops it. Without Web Locks there is no
//   takeover: the run a closed tab left shows as stored until a reload.

import { loadSessionEntry, persistSession, sessionReducer } from "chat-session-reducer";
import { invalid } from "../shared/coded-error.js";
import { applied, heardFrame, heardSave, liveState, stamp } from "./live.js";

const NAME = "chat-session-reducer";
/** @type {import("chat-session-reducer").SessionAction} */
const CHECK = { type: "batch", actions: [] };
// How long a tab whose run ended keeps the stream lock at most, waiting for the end to be stored.
const END_SAVED_MS = 1000;
// How long a follower granted the stream lock waits for what the tab that held it wrote last.
const SETTLE_MS = 200;


/** The entry under `key` as stored (no load rule: a run still streaming stays streaming), checked
 *  by the reducer; undefined when there is none; throws when it is not a session. */
function readStored(key, storage) {
  const text = storage.getItem(key);
  if (text === null) return undefined;
  const { format, rev = 0, id, state } = JSON.parse(text);
  if (format !== NAME || !Number.isSafeInteger(rev)) throw new Error("not a session");
  return { rev, id, state: sessionReducer(state, CHECK) };
}

/** The revision at the head of the entry under `key` (persistSession writes it first), or 0. */
const storedRev = (key, storage) => Number(/^\{"format":"chat-session-reducer","version":\d+,"rev":(\d+)/.exec(storage.getItem(key) ?? "")?.[1] ?? 0);

/** One exclusive Web Lock, held until `release()`; `acquire(signal)` resolves true once held. */
function lockKeeper(locks, name) {
  let release;
  return {
    held: () => release !== undefined,
    acquire: (signal) =>
      new Promise((resolve) =>
        locks
          .request(name, { signal }, () => new Promise((done) => ((release = done), resolve(true))))
          .catch(() => resolve(false)),
      ),
    release() {
      release?.();
      release = undefined;
    },
  };
}

// What of an action's argument can go to another tab: what cannot be cloned (the click event of
// `onClick={stop}`) goes as undefined, which every action takes as "not given".
function portable(arg) {
  try {
    return structuredClone(arg);
  } catch {
    return undefined;
  }
}

const isShared = (storage) => typeof storage?.getItem === "function" && storage !== globalThis.sessionStorage;

/**
 * @typedef {object} Connection One tab's coordination of the conversation under `key`.
 * @property {string} key
 * @property {Pick<Storage, "getItem" | "setItem" | "removeItem">} storage
 * @property {import("chat-session-reducer/tabs").TabsHost} host
 * @property {Pick<BroadcastChannel, "postMessage" | "addEventListener" | "removeEventListener"> | undefined} channel
 * @property {BroadcastChannel | undefined} own the channel this tab opened (closed with it)
 * @property {Pick<LockManager, "request" | "query"> | undefined} locks
 * @property {ReturnType<typeof lockKeeper> | undefined} stream the stream lock `csr:<key>:stream`
 * @property {number} rev the revision this tab last read or wrote
 * @property {WeakSet<object>} followed the sessions read from storage (never written back)
 * @property {boolean} open
 * @property {boolean} leaving the page is going away (pagehide): saves are written at once
 * @property {boolean} running this tab's own run holds the stream lock (until it is freed)
 * @property {boolean} ending this tab's run ended: the stream lock goes once its end is stored
 * @property {ReturnType<typeof setTimeout> | undefined} endTimer
 * @property {AbortController | undefined} waiting a follower's wait for the stream lock
 * @property {ReturnType<typeof liveState>} live the run's frames sent to followers, or followed (live.js)
 */

/** The entry stored under the connection's key, undefined when there is none or it is not a
 *  session (another tab's, tampered: left, this tab's next save replaces it).
 * @param {Connection} t
 */
function read(t) {
  try {
    return readStored(t.key, t.storage);
  } catch {
    return undefined;
  }
}

/** Shows `stored` when it is newer than what this tab read or wrote (or `always`: a run another
 *  tab streams, found at the start or when the stream lock was not free); a run still streaming
 *  is followed until the stream lock is free.
 * @param {Connection} t
 */
function adopt(t, stored, always) {
  if (stored === undefined || (stored.rev <= t.rev && !always)) return;
  const { id } = t.host.newest().options;
  if (id !== undefined && stored.id !== undefined && stored.id !== id) return;
  t.rev = stored.rev;
  t.followed.add(stored.state);
  // What is shown now is what is stored: the frames after it apply once a save says where it is.
  t.live.from = undefined;
  t.host.follow(stored.state, stored.id);
  if (stored.state.status === "streaming") waitForStream(t);
  else stopWaiting(t);
}

/**
 * A follower's wait for the stream lock, given up (it follows no run now, or closes).
 * @param {Connection} t
 */
function stopWaiting(t) {
  t.waiting?.abort();
  t.waiting = undefined;
}

/** A follower waits for the stream lock: once the tab that streamed is gone (or its run's end is
 *  stored), a run still stored as streaming is taken over.
 * @param {Connection} t
 */
function waitForStream(t) {
  const { stream } = t;
  if (stream === undefined || t.waiting !== undefined) return;
  const wait = (t.waiting = new AbortController());
  const given = () => {
    // Granted while this tab sent a run of its own (the moment before given): the lock is that run's.
    if (t.running) {
      if (t.waiting === wait) t.waiting = undefined;
      return;
    }
    if (wait.signal.aborted || !t.open) {
      if (t.waiting === wait) t.waiting = undefined;
      return void stream.release();
    }
    const stored = read(t);
    // Still waiting while it adopts what is stored: no second wait.
    adopt(t, stored, false);
    t.waiting = undefined;
    if (stored !== undefined && stored.rev === t.rev && stored.state.status === "streaming") takeOver(t, stored);
    else stream.release();
  };
  void stream.acquire(wait.signal).then((held) => {
    if (!held) {
      if (t.waiting === wait) t.waiting = undefined;
      return;
    }
    // The last writes of the tab that held the lock can reach this tab's storage after the lock
    // does (Chromium's localStorage is copied to each renderer): a moment for them first.
    setTimeout(given, SETTLE_MS);
  });
}

/** The run a closed tab left, opened as a reload opens it: through the load rule (stopped), then
 *  resumed where the hook resumes (this tab keeps the stream lock), else saved stopped.
 * @param {Connection} t
 */
function takeOver(t, stored) {
  const resume = t.host.resumes();
  // The storage helpers' reading also gives the session the run started from (its replay goes onto it).
  let entry;
  try {
    entry = loadSessionEntry(t.key, t.storage);
  } catch {}
  t.host.follow(entry?.state ?? sessionReducer(undefined, { type: "load", state: stored.state }), stored.id, resume, entry?.runStart);
  if (!resume) t.stream?.release();
}

/**
 * Frees the stream lock of a run that ended.
 * @param {Connection} t
 */
function free(t) {
  t.running = false;
  t.ending = false;
  clearTimeout(t.endTimer);
  t.stream?.release();
}

/** persistSession, checked against the revision last read or written; null for a session read
 *  from storage (nothing to write). Inside the save lock `csr:<key>` where there are Web Locks.
 * @param {Connection} t
 */
function save(t, session, id, runStart) {
  if (t.followed.has(session)) return null;
  // A page going away (pagehide comes before its visibility turns hidden) may not live to be
  // granted the lock: its last save is written at once.
  const leaving = t.leaving || globalThis.document?.visibilityState === "hidden";
  return t.locks === undefined || leaving ? write(t, session, id, runStart) : t.locks.request(`csr:${t.key}`, () => write(t, session, id, runStart));
}

/**
 * The save's check and write, and its announcement; a conflict (or a newer revision found) shows the newer.
 * @param {Connection} t
 */
function write(t, session, id, runStart) {
  const { key, storage } = t;
  const before = storedRev(key, storage);
  const failure = persistSession(key, session, storage, { id, rev: t.rev, runStart });
  // persistSession leaves the session it restored unwritten: no revision of this tab's.
  const written = storedRev(key, storage);
  if (failure === undefined && written !== before) {
    t.rev = written;
    // A tab that is closing may have closed its channel: the others see it with the stream lock.
    try {
      t.channel?.postMessage({ key, rev: written, ...stamp(t, session) });
    } catch {}
    // The run's end is stored: a follower granted the stream lock now sees that it ended.
    if (t.ending && session.status !== "streaming") free(t);
  } else if (failure?.code === "conflict" || written > t.rev) adopt(t, read(t), false);
  return failure;
}

/** Sends a run's request (`start`) once this tab holds the stream lock, unless a newer session
 *  was stored meanwhile (another tab streams it: followed). `signal`: the run's.
 * @param {Connection} t
 */
function gate(t, start, signal) {
  const { stream } = t;
  if (stream === undefined || stream.held()) {
    t.running = true;
    t.ending = false;
    clearTimeout(t.endTimer);
    return void start();
  }
  void stream.acquire(signal).then((held) => {
    if (!held) return;
    if (signal.aborted || !t.open) return void stream.release();
    const stored = read(t);
    if (stored === undefined || stored.rev <= t.rev) {
      t.running = true;
      return void start();
    }
    stream.release();
    adopt(t, stored, true);
  });
}

/** A run of this tab ended: the stream lock is freed once its end is stored (or after
 *  END_SAVED_MS), so a follower granted it never takes the ended run for one a closed tab left.
 * @param {Connection} t
 */
function release(t) {
  if (!t.stream?.held()) return;
  t.ending = true;
  clearTimeout(t.endTimer);
  t.endTimer = setTimeout(() => t.ending && free(t), END_SAVED_MS);
}

/** While this tab follows, sends the action `name` with `args` to the tab that streams and
 *  returns true (setMessages' updater runs here, on the messages shown).
 * @param {Connection} t
 */
function send(t, name, args) {
  const { session, follows } = t.host.newest();
  if (!follows || t.channel === undefined) return false;
  t.channel.postMessage({ key: t.key, call: name, args: args.map((arg) => portable(typeof arg === "function" ? arg(session.messages) : arg)) });
  return true;
}

/** Whether this tab runs what the others forward: it holds the stream lock (without Web Locks:
 *  it streams and follows no one).
 * @param {Connection} t
 */
function streamsHere(t) {
  const { session, follows } = t.host.newest();
  return t.stream === undefined ? session.status === "streaming" && !follows : t.stream.held();
}

/**
 * What this tab hears from the others: a save (`{ key, rev }`), or an action forwarded.
 * @param {Connection} t
 */
function hear(t, data) {
  if (data?.key !== t.key) return;
  if (data.frame !== undefined) return void heardFrame(t, data.frame);
  const actions = t.host.actions();
  if (data.call === undefined) {
    t.live.announced = data;
    adopt(t, read(t), false);
    heardSave(t, data);
  } else if (streamsHere(t) && Object.hasOwn(actions, data.call)) actions[data.call](...data.args);
}

/** Starts listening: to the channel and to localStorage's `storage` event, and for a run
 *  another tab streams now, which is followed at once. Returns what stops listening.
 * @param {Connection} t
 */
function listen(t) {
  const heard = ({ data }) => hear(t, data);
  const changed = (event) => {
    if (event.key !== t.key) return;
    adopt(t, read(t), false);
    // The write an announcement outran: in step from the announced save, if this is it.
    heardSave(t, t.live.announced);
  };
  // The page goes away: what it shows is written at once (the hook's own pagehide save may wait
  // for a lock the page does not live to be granted); back from the back-forward cache, it stays.
  const leaving = (event) => {
    t.leaving = event.type === "pagehide";
    const { session, id, runStart } = t.host.newest();
    if (t.leaving && !t.followed.has(session)) write(t, session, id, runStart);
  };
  t.channel?.addEventListener("message", heard);
  // Also with a channel: its announcement can reach this tab before the browser has copied the
  // entry into this tab's localStorage (Chromium), and the storage event then brings the write.
  globalThis.addEventListener?.("storage", changed);
  globalThis.addEventListener?.("pagehide", leaving);
  globalThis.addEventListener?.("pageshow", leaving);
  const streamLock = `csr:${t.key}:stream`;
  void t.locks?.query?.().then(({ held = [] }) => {
    if (t.open && held.some((lock) => lock.name === streamLock) && !t.stream?.held()) adopt(t, read(t), true);
  });
  return () => {
    t.channel?.removeEventListener("message", heard);
    globalThis.removeEventListener?.("storage", changed);
    globalThis.removeEventListener?.("pagehide", leaving);
    globalThis.removeEventListener?.("pageshow", leaving);
  };
}

/** Disconnects: the stream lock and the channel go once the last save (queued in the save lock
 *  before this) is written and announced.
 * @param {Connection} t
 */
function close(t, stopListening) {
  t.open = false;
  stopWaiting(t);
  clearTimeout(t.endTimer);
  stopListening();
  const done = () => {
    t.stream?.release();
    t.own?.close();
  };
  if (t.locks === undefined) done();
  else void t.locks.request(`csr:${t.key}`, done).catch(done);
}

/**
 * Coordinates useAgentSession's tabs (see the top of this file). `standIns.channel` and
 * `standIns.locks` replace `new BroadcastChannel("chat-session-reducer")` and `navigator.locks`.
 * @param {import("chat-session-reducer/tabs").TabsOptions} [standIns]
 */
export function coordinateTabs(standIns = {}) {
  if (typeof standIns !== "object" || standIns === null) throw invalid("options", "an object");
  const { channel: givenChannel, locks: givenLocks } = standIns;
  if (givenChannel !== undefined && typeof givenChannel?.postMessage !== "function") throw invalid("options.channel", "a BroadcastChannel");
  if (givenLocks !== undefined && typeof givenLocks?.request !== "function") throw invalid("options.locks", "a LockManager");
  return {
    /**
     * The coordinator of the conversation under `key` in `storage`, or undefined when the tabs do
     * not share that storage. `host.newest()`: `{ options, session, follows }` as the hook has them
     * now; `host.follow(session, id, resume)` shows a session another tab stored (`resume`: the
     * run a closed tab left, loaded, to resume); `host.resumes()`: whether the hook resumes a run;
     * `host.actions()`: the hook's own actions, which what a follower forwards runs.
     * @param {string} key
     * @param {Pick<Storage, "getItem" | "setItem" | "removeItem">} storage a Web Storage (anything else: nothing is coordinated)
     * @param {import("chat-session-reducer/tabs").TabsHost} host
     */
    connect(key, storage, host) {
      if (!isShared(storage)) return undefined;
      const own = givenChannel === undefined && typeof BroadcastChannel === "function" ? new BroadcastChannel(NAME) : undefined;
      const locks = givenLocks ?? globalThis.navigator?.locks;
      /** @type {Connection} */
      const t = { key, storage, host, channel: givenChannel ?? own, own, locks, stream: locks && lockKeeper(locks, `csr:${key}:stream`), rev: 0, followed: new WeakSet(), open: true, leaving: false, running: false, ending: false, endTimer: undefined, waiting: undefined, live: liveState() };
      // What is stored now is what this tab read.
      t.rev = read(t)?.rev ?? 0;
      const stopListening = listen(t);
      return {
        save: (session, id, runStart) => save(t, session, id, runStart),
        applied: (session, action) => applied(t, session, action),
        gate: (start, signal) => gate(t, start, signal),
        release: () => release(t),
        send: (name, args) => send(t, name, args),
        close: () => close(t, stopListening),
      };
    },
    /** `actions` that, while the coordinator `connected()` gives follows, go to the tab that streams. */
    forward(actions, connected) {
      return Object.fromEntries(Object.entries(actions).map(([name, act]) => [name, (...args) => connected()?.send(name, args) || act(...args)]));
    },
  };
}
