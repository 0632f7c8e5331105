// Several tabs on one conversation: useAgentSession's `tabs: true` (or `{ channel, locks }`, for
// tests and other hosts). It applies to a storage the tabs share (`storage: localStorage`, or the
// app's own Web Storage); with sessionStorage, the default, or a session store, it does nothing: a duplicated tab's
// sessionStorage is a copy that never sees the other's writes, so the copy is a conversation of
// its own from then on (it resumes or stops the copied run, as a reload does).
// - A save never overwrites a newer one: it names the revision this tab last read or wrote
//   (persistSession's `rev`), inside the Web Lock `csr:<key>` where there are Web Locks (without,
//   or while the page is being hidden, the check and the write are one synchronous step: another
//   tab's write in between can still be overwritten). A newer one found is shown instead, and
//   the save's `conflict` is the hook's storageError until the next save.
// - A save is announced on the BroadcastChannel `chat-session-reducer` as `{ key, rev }`, never
//   the state (without BroadcastChannel, localStorage's `storage` event); the other tabs read the
//   entry as stored (a run still streaming stays streaming) and show it: they follow.
// - One request per run: a run's request is sent once this tab holds the Web Lock
//   `csr:<key>:stream`, and only if no newer session was stored meanwhile (then it follows). A
//   follower forwards what its user does (send, stop, approve…) to the tab that streams, over the
//   channel; it waits for the stream lock, which the browser frees when that tab closes, and
//   then resumes the run (`resume`, where the protocol can) or stops it. Without Web Locks there
//   is no takeover: the run a closed tab left shows as stored until a reload.

import { useEffect, useRef } from "react";
import { persistSession, sessionReducer } from "chat-session-reducer";
import { FOLLOW } from "./session.js";

const NAME = "chat-session-reducer";
const CHECK = { type: "batch", actions: [] };

/** The storage the tabs share when the hook coordinates tabs, else undefined. */
function sharedStorage({ tabs, storageKey, storage }) {
  if (!tabs || storageKey === undefined) return undefined;
  // The hook's default storage is sessionStorage.
  return typeof storage?.getItem === "function" && storage !== globalThis.sessionStorage ? storage : undefined;
}

/** The entry under `key` as stored (no load rule: a run still streaming stays streaming), checked
 *  by the reducer; undefined when there is none; throws when it is not a session. */
function readStored(key, storage) {
  const text = storage.getItem(key);
  if (text === null) return undefined;
  const { format, rev = 0, id, state } = JSON.parse(text);
  if (format !== NAME || !Number.isSafeInteger(rev)) throw new Error("not a session");
  return { rev, id, state: sessionReducer(state, CHECK) };
}

const END_SAVED_MS = 1000;

function free(t) {
  t.ending = false;
  clearTimeout(t.endTimer);
  t.stream.release();
}

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

/**
 * Coordinates the hook with the other tabs (see the top of this file). `hook` is the hook's
 * state, `newest()` the newest options, session and id, `actions` the hook's own actions (what a
 * follower forwards runs them in the tab that streams), `takeOver()` resumes the run a closed
 * tab left (true) or stops it (false). Returns undefined without `tabs`, else
 * `{ save, gate, release, forward }`.
 */
export function useTabs(options, hook, newest, dispatchToHook, actions, takeOver) {
  const storage = sharedStorage(options);
  const { storageKey: key } = options;
  // The stand-ins given (an inline `tabs: { … }` is a new object each render).
  const { channel: givenChannel, locks: givenLocks } = options.tabs === true ? {} : (options.tabs ?? {});
  const shared = useRef(undefined);
  const forwarded = useRef(actions);
  forwarded.current = actions;

  useEffect(() => {
    if (storage === undefined) return;
    const channel = givenChannel ?? (typeof BroadcastChannel === "function" ? new BroadcastChannel(NAME) : undefined);
    const locks = givenLocks ?? globalThis.navigator?.locks;
    const t = { rev: 0, followed: new WeakSet(), channel, locks, stream: locks && lockKeeper(locks, `csr:${key}:stream`) };
    shared.current = t;
    // Shows what another tab stored, when it is newer than what this tab read or wrote (or
    // `always`: a run that did not get the stream lock). An entry that is not a session (another
    // tab's, tampered) is left: this tab's next save replaces it.
    t.follow = (always) => {
      let stored;
      try {
        stored = readStored(key, storage);
      } catch {
        return;
      }
      if (stored === undefined || (stored.rev <= t.rev && !always)) return;
      const { id } = newest().options;
      if (id !== undefined && stored.id !== undefined && stored.id !== id) return;
      t.rev = stored.rev;
      t.followed.add(stored.state);
      dispatchToHook({ type: FOLLOW, session: stored.state, id: stored.id });
    };
    t.streamsHere = () => newest().session.status === "streaming" && !t.following;
    const heard = ({ data }) => {
      if (data?.key !== key) return;
      if (data.call === undefined) t.follow(false);
      else if (t.streamsHere()) forwarded.current[data.call]?.(...data.args);
    };
    const changed = (event) => event.key === key && t.follow(false);
    channel?.addEventListener("message", heard);
    if (channel === undefined) globalThis.addEventListener?.("storage", changed);
    // What is stored now is what this tab read; a run another tab streams is followed.
    try {
      t.rev = readStored(key, storage)?.rev ?? 0;
    } catch {}
    void locks?.query?.().then(({ held = [] }) => {
      if (shared.current === t && held.some((lock) => lock.name === `csr:${key}:stream`) && !t.stream.held()) t.follow(true);
    });
    return () => {
      channel?.removeEventListener("message", heard);
      // Closed a moment later: the last save (this unmount's, in the save lock) is announced first.
      if (givenChannel === undefined) setTimeout(() => channel?.close(), 100);
      globalThis.removeEventListener?.("storage", changed);
      t.stream?.release();
      shared.current = undefined;
    };
  }, [storage, key, givenChannel, givenLocks]);

  // A follower waits for the stream lock: once the tab that streams is gone, it takes the run over.
  const follows = storage !== undefined && hook.follows;
  useEffect(() => {
    const t = shared.current;
    if (t === undefined) return;
    t.following = follows;
    if (!follows || t.stream === undefined) return;
    const waiting = new AbortController();
    void t.stream.acquire(waiting.signal).then((held) => {
      if (!held) return;
      t.follow(false);
      // Resumed, the run keeps the lock; stopped, it is free again.
      if (!(t.following && newest().session.status === "streaming" && takeOver())) t.stream.release();
    });
    return () => waiting.abort();
  }, [follows, storage]);

  if (storage === undefined) return undefined;
  return {
    /** persistSession for the hook's saves: checked against the revision last read or written. */
    save(session, id) {
      const t = shared.current;
      if (t === undefined) return persistSession(key, session, storage, { id });
      // What was read from storage is not written back: a save due before the newest was followed
      // would overwrite it with an older one (its revision is already the newest's).
      if (t.followed.has(session)) return null;
      const write = () => {
        const failure = persistSession(key, session, storage, { id, rev: t.rev });
        // A session persistSession left unwritten (the one restored) is no new revision.
        const rev = Number(/^\{"format":"chat-session-reducer","version":\d+,"rev":(\d+)/.exec(storage.getItem(key) ?? "")?.[1] ?? t.rev);
        if (failure === undefined && rev > t.rev) {
          t.rev = rev;
          // A tab that is closing has closed its channel: the others see the save once they hold the stream lock.
          try {
            t.channel?.postMessage({ key, rev: t.rev });
          } catch {}
          // The run's end is stored: a follower granted the stream lock now sees that it ended.
          if (t.ending && session.status !== "streaming") free(t);
        } else if (failure?.code === "conflict") t.follow(false);
        return failure;
      };
      const hidden = globalThis.document?.visibilityState === "hidden";
      return t.locks === undefined || hidden ? write() : t.locks.request(`csr:${key}`, write);
    },
    /** Sends a run's request (`start`) once this tab holds the stream lock, unless a newer
     *  session was stored meanwhile (another tab streams it: followed). `signal`: the run's. */
    gate(start, signal) {
      const t = shared.current;
      if (t?.stream === undefined || t.stream.held()) {
        if (t !== undefined) t.ending = false;
        return void start();
      }
      void t.stream.acquire(signal).then((held) => {
        if (!held || signal.aborted) return void t.stream.release();
        let stored;
        try {
          stored = readStored(key, storage);
        } catch {}
        if (stored !== undefined && stored.rev > t.rev) {
          t.stream.release();
          t.follow(true);
        } else start();
      });
    },
    /** A run of this tab ended: the stream lock is freed once its end is stored (or after
     *  END_SAVED_MS), so a follower granted it never takes the ended run for one left by a closed tab. */
    release() {
      const t = shared.current;
      if (!t?.stream?.held()) return;
      t.ending = true;
      clearTimeout(t.endTimer);
      t.endTimer = setTimeout(() => t.ending && free(t), END_SAVED_MS);
    },
    /** The hook's actions, forwarded to the tab that streams while this one follows. */
    forward(own) {
      const sent = {};
      for (const [name, act] of Object.entries(own)) {
        sent[name] = (...args) => {
          const t = shared.current;
          if (!t?.following || t.channel === undefined) return act(...args);
          // setMessages' updater runs here, on the messages shown.
          const values = args.map((arg) => (typeof arg === "function" ? arg(newest().session.messages) : arg));
          t.channel.postMessage({ key, call: name, args: values });
        };
      }
      return sent;
    },
  };
}
