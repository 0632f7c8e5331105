// Several tabs on one conversation: chat-session-reducer/tabs. An app opts in with
// `useAgentSession({ storage: localStorage, storageKey, tabs: coordinateTabs() })`
// (`coordinateTabs({ channel, locks })`: stand-ins for BroadcastChannel and Web Locks, for
// tests and other hosts). It is framework-agnostic: the hook connects it to its key and storage
// and gives it callbacks (`newest()`, `follow(session, id, resume)`, `resumes()`, `actions()`); it
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
//   the state (without BroadcastChannel, localStorage's `storage` event); the other tabs read the
//   entry as stored (a run still streaming stays streaming) and show it: they follow.
// - One request per run: a run's request is sent once this tab holds the Web Lock
//   `csr:<key>:stream`, and only if no newer session was stored meanwhile (then it follows). A
//   follower forwards what its user does (send, stop, approve…) to the tab holding that lock, over
//   the channel; it waits for the lock, which the browser frees when that tab closes, and then
//   resumes the run (`resume`, where the protocol can) or stops it. Without Web Locks there is no
//   takeover: the run a closed tab left shows as stored until a reload.

import { persistSession, sessionReducer } from "chat-session-reducer";

const NAME = "chat-session-reducer";
/** @type {import("chat-session-reducer").SessionAction} */
const CHECK = { type: "batch", actions: [] };
// How long a tab whose run ended keeps the stream lock at most, waiting for the end to be stored.
const END_SAVED_MS = 1000;

const invalid = (path, expected) => Object.assign(new TypeError(`${path}: expected ${expected}`), { code: "invalid", path });

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
      const channel = givenChannel ?? own;
      const locks = givenLocks ?? globalThis.navigator?.locks;
      const streamLock = `csr:${key}:stream`;
      const stream = locks && lockKeeper(locks, streamLock);
      // The revision this tab last read or wrote; the sessions it read (never written back: a save
      // due before the newest was followed would overwrite it with an older one).
      let rev = 0;
      const followed = new WeakSet();
      let open = true;
      let ending = false;
      let endTimer;
      let waiting;

      const read = () => {
        try {
          return readStored(key, storage);
        } catch {
          // Not a session (another tab's, tampered): left, this tab's next save replaces it.
          return undefined;
        }
      };
      // Shows `stored` when it is newer than what this tab read or wrote (or `always`: a run
      // another tab streams, found at the start or when the stream lock was not free).
      const adopt = (stored, always) => {
        if (stored === undefined || (stored.rev <= rev && !always)) return;
        const { id } = host.newest().options;
        if (id !== undefined && stored.id !== undefined && stored.id !== id) return;
        rev = stored.rev;
        followed.add(stored.state);
        host.follow(stored.state, stored.id);
        if (stored.state.status === "streaming") waitForStream();
        else stopWaiting();
      };
      const stopWaiting = () => {
        waiting?.abort();
        waiting = undefined;
      };
      const follow = (always) => adopt(read(), always);
      const free = () => {
        ending = false;
        clearTimeout(endTimer);
        stream.release();
      };
      // A follower waits for the stream lock: once the tab that streamed is gone (or its run's
      // end is stored), the run still stored as streaming is taken over.
      function waitForStream() {
        if (stream === undefined || waiting !== undefined) return;
        const wait = (waiting = new AbortController());
        void stream.acquire(wait.signal).then((held) => {
          if (!held || wait.signal.aborted || !open) {
            if (waiting === wait) waiting = undefined;
            return void (held && stream.release());
          }
          const stored = read();
          // Still waiting while it adopts what is stored: no second wait.
          adopt(stored, false);
          waiting = undefined;
          if (stored?.rev === rev && stored.state.status === "streaming") takeOver(stored);
          else stream.release();
        });
      }
      // The run a closed tab left, as a reload opens it: through the load rule (stopped), then
      // resumed where the hook resumes (it keeps the stream lock), else saved stopped.
      const takeOver = (stored) => {
        const resume = host.resumes();
        host.follow(sessionReducer(undefined, { type: "load", state: stored.state }), stored.id, resume);
        if (!resume) stream.release();
      };
      // Whether this tab runs what the others forward: it holds the stream lock (without Web
      // Locks: it streams and follows no one).
      const streamsHere = () => {
        const { session, follows } = host.newest();
        return stream === undefined ? session.status === "streaming" && !follows : stream.held();
      };
      const heard = ({ data }) => {
        if (data?.key !== key) return;
        if (data.call === undefined) follow(false);
        else if (streamsHere() && Object.hasOwn(host.actions(), data.call)) host.actions()[data.call](...data.args);
      };
      const changed = (event) => event.key === key && follow(false);
      channel?.addEventListener("message", heard);
      if (channel === undefined) globalThis.addEventListener?.("storage", changed);
      // What is stored now is what this tab read; a run another tab streams is followed.
      rev = read()?.rev ?? 0;
      void locks?.query?.().then(({ held = [] }) => {
        if (open && held.some((lock) => lock.name === streamLock) && !stream.held()) follow(true);
      });

      return {
        /** persistSession for the hook's saves, checked against the revision last read or
         *  written; null for a session read from storage (nothing to write). */
        save(session, id) {
          if (followed.has(session)) return null;
          const write = () => {
            const before = storedRev(key, storage);
            const failure = persistSession(key, session, storage, { id, rev });
            // persistSession leaves the session it restored unwritten: no revision of this tab's.
            const written = storedRev(key, storage);
            if (failure === undefined && written !== before) {
              rev = written;
              // A tab that is closing may have closed its channel: the others see it with the stream lock.
              try {
                channel?.postMessage({ key, rev });
              } catch {}
              // The run's end is stored: a follower granted the stream lock now sees that it ended.
              if (ending && session.status !== "streaming") free();
            } else if (failure?.code === "conflict" || written > rev) follow(false);
            return failure;
          };
          const hidden = globalThis.document?.visibilityState === "hidden";
          return locks === undefined || hidden ? write() : locks.request(`csr:${key}`, write);
        },
        /** Sends a run's request (`start`) once this tab holds the stream lock, unless a newer
         *  session was stored meanwhile (another tab streams it: followed). `signal`: the run's. */
        gate(start, signal) {
          if (stream === undefined || stream.held()) {
            ending = false;
            clearTimeout(endTimer);
            return void start();
          }
          void stream.acquire(signal).then((held) => {
            if (!held) return;
            if (signal.aborted || !open) return void stream.release();
            const stored = read();
            if (stored === undefined || stored.rev <= rev) return void start();
            stream.release();
            adopt(stored, true);
          });
        },
        /** A run of this tab ended: the stream lock is freed once its end is stored (or after
         *  END_SAVED_MS), so a follower granted it never takes the ended run for a left one. */
        release() {
          if (!stream?.held()) return;
          ending = true;
          clearTimeout(endTimer);
          endTimer = setTimeout(() => ending && free(), END_SAVED_MS);
        },
        /** While this tab follows, sends the action `name` with `args` to the tab that streams
         *  and returns true (setMessages' updater runs here, on the messages shown). */
        send(name, args) {
          const { session, follows } = host.newest();
          if (!follows || channel === undefined) return false;
          channel.postMessage({ key, call: name, args: args.map((arg) => portable(typeof arg === "function" ? arg(session.messages) : arg)) });
          return true;
        },
        /** Disconnects: the stream lock and the channel go once the last save (queued in the save
         *  lock before this) is written and announced. */
        close() {
          open = false;
          stopWaiting();
          clearTimeout(endTimer);
          channel?.removeEventListener("message", heard);
          globalThis.removeEventListener?.("storage", changed);
          const done = () => {
            stream?.release();
            own?.close();
          };
          if (locks === undefined) done();
          else void locks.request(`csr:${key}`, done).catch(done);
        },
      };
    },
    /** `actions` that, while the coordinator `connected()` gives follows, go to the tab that streams. */
    forward(actions, connected) {
      return Object.fromEntries(Object.entries(actions).map(([name, act]) => [name, (...args) => connected()?.send(name, args) || act(...args)]));
    },
  };
}
