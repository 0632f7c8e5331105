// Several conversations, one on screen (chat-session-reducer/conversations): a store made once by
// the app and passed to useAgentSession as `conversations`, with `id` the conversation shown.
// When the hook opens another conversation while one streams, it hands the run to the store
// instead of aborting it: the store drives it by the hook's own rules (hookReducer, the next run
// when its finish sends the queue, the callbacks of a run that ended, the saves: `rules`, given by
// the hook, so that this bundle shares none of the hook's internals), applies its frames to that
// conversation's session alone and saves it under its own key. Reopened, the hook takes the
// session and its run back. The thread list (`list()`, useConversations) says per conversation
// its title, status, whether something arrived while it was not on screen, and whether it waits
// on the user; it is kept under the key prefix itself, so it survives a reload.

import { useSyncExternalStore } from "react";
import { clearSession } from "chat-session-reducer";
import { someCallWaitsOnApp } from "../react/calls.js";
import { newId } from "../react/ids.js";

/** The title of a conversation: the text of its first user message. */
function titleOf(session) {
  const first = session.messages.find((message) => message.role === "user");
  const text = first?.parts.filter((part) => part.type === "text").map((part) => part.text).join(" ") ?? "";
  return text.trim();
}

/** The thread list's entry for `id` whose session is `session`; `earlier`: its entry before. */
function summaryOf(id, session, unread, earlier) {
  const status = session.status === "streaming" ? "streaming" : session.status === "error" ? "error" : "idle";
  const title = titleOf(session);
  const waiting = status !== "streaming" && someCallWaitsOnApp(session);
  // Activity is a message sent or answered and a run that starts or ends, not each chunk: two
  // replies streaming at once do not trade places in the list on every frame.
  // (An entry read from the stored list has no count: opening it is no activity.)
  const active = earlier === undefined || earlier.status !== status || (earlier.count !== undefined && earlier.count !== session.messages.length);
  const updatedAt = active ? Date.now() : earlier.updatedAt;
  const same = earlier !== undefined && earlier.title === title && earlier.status === status && earlier.unread === unread && earlier.waiting === waiting && !active;
  return same ? earlier : { id, title, status, unread, waiting, updatedAt, count: session.messages.length };
}

// The stored list: its entries without `count` (the stored session has it) and status idle or
// error (after a reload nothing streams in this page: reopened, resume's rule applies).
const INDEX_VERSION = 1;

function readIndex(storage, key) {
  try {
    const stored = JSON.parse(storage?.getItem(key) ?? "null");
    if (stored?.version !== INDEX_VERSION || !Array.isArray(stored.conversations)) return [];
    return stored.conversations.filter((entry) => typeof entry?.id === "string" && typeof entry.title === "string" && Number.isFinite(entry.updatedAt));
  } catch {
    return [];
  }
}

// sessionStorage, where there is one: none on a server, and reading it throws where the browser blocks storage.
function sessionStorageIfAny() {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * @param {{ storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">, keyPrefix?: string }} [options]
 */
export function createConversations({ storage = sessionStorageIfAny(), keyPrefix = "chat:" } = {}) {
  /** The thread list's entries by id (in no order), and the list in order, rebuilt on change. */
  let entries;
  /** @type {readonly any[]} */
  let listed = [];
  /** The conversations running in the background: `{ hook, run, saver }` by id. */
  const background = new Map();
  const listeners = new Set();

  const keyOf = (id) => `${keyPrefix}${id}`;
  const load = () => {
    if (entries !== undefined) return;
    entries = new Map();
    for (const entry of readIndex(storage, keyPrefix)) {
      const status = entry.status === "error" ? "error" : "idle";
      entries.set(entry.id, { id: entry.id, title: entry.title, status, unread: entry.unread === true, waiting: entry.waiting === true, updatedAt: entry.updatedAt, count: undefined });
    }
    listed = order();
  };
  const order = () => Object.freeze([...entries.values()].sort((a, b) => b.updatedAt - a.updatedAt));

  const changed = () => {
    const next = order();
    if (next.length === listed.length && next.every((entry, at) => entry === listed[at])) return;
    listed = next;
    try {
      const conversations = listed.map(({ count, ...entry }) => entry);
      storage?.setItem(keyPrefix, JSON.stringify({ version: INDEX_VERSION, conversations }));
    } catch {
      // A full store keeps the list in this page; the conversations' own saves report their failures.
    }
    for (const listener of listeners) listener();
  };

  /** Records `session` as `id`'s; a conversation is listed once it has a message. */
  const record = (id, session, unread) => {
    load();
    const earlier = entries.get(id);
    if (earlier === undefined && session.messages.length === 0) return;
    entries.set(id, summaryOf(id, session, unread, earlier));
    changed();
  };

  /**
   * Drives the run handed over by the hook for conversation `id`: `hook` is the hook's state then,
   * `missed` what the run dispatched that this state has not applied; `rules` the hook's (RULES of
   * src/react/index.js) with its `options` and `throttle` then.
   */
  const drive = (id, hook, run, missed, { reduce, startRun, runEnded, createSaver, answer, options, throttle }) => {
    const saver = createSaver(keyOf(id), storage, () => {});
    const handed = new Set();
    const start = (state) =>
      startRun({ options, session: state.session, chatId: id, startedBy: state.startedBy }, state.runs, dispatch, throttle, (part) => options.onData?.(part), false);
    const held = { hook, run, saver };
    background.set(id, held);
    function dispatch(action) {
      if (background.get(id) !== held) return;
      const before = held.hook;
      held.hook = reduce(before, action);
      const { runs, session } = held.hook;
      // The run's finish sent the queue: the next run starts here, as the hook's effect starts it.
      if (runs !== before.runs) {
        held.run?.stop();
        held.run = session.status === "streaming" ? start(held.hook) : undefined;
      } else if (session.status !== "streaming") held.run = undefined;
      if (held.hook.ended !== before.ended) runEnded(held.hook, options, handed, (part) => dispatch(answer(part)), id);
      if (session === before.session) return;
      saver.due(session, id);
      // Not on screen: what arrived is unread.
      record(id, session, true);
    }
    // What the hook had not applied, then what arrives, in order: after the hook's last save of
    // this conversation (its storage effect's cleanup, later in this commit), never before.
    /** @type {any[] | undefined} */
    let arrived = [];
    run.handTo((action) => arrived?.push(action));
    held.catchUp = () => {
      if (arrived === undefined) return;
      const pending = [...missed, ...arrived];
      arrived = undefined;
      run.handTo(dispatch);
      for (const action of pending) dispatch(action);
    };
    queueMicrotask(held.catchUp);
  };

  return {
    storage,
    keyOf,
    /** A new conversation's id. */
    create: () => newId("chat"),
    list() {
      load();
      return listed;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Stops its run, if it runs in the background, and removes it from storage and from the list. */
    remove(id) {
      load();
      const held = background.get(id);
      background.delete(id);
      held?.run?.stop();
      held?.saver.close();
      try {
        clearSession(keyOf(id), storage);
      } catch {
        // Nothing stored, or storage unavailable: nothing to remove.
      }
      if (entries.delete(id)) changed();
    },
    // For useAgentSession.
    hold: drive,
    /** The hook's state (and its run, if it still runs) of a conversation the store drove. */
    take(id) {
      const held = background.get(id);
      if (held === undefined) return undefined;
      held.catchUp();
      background.delete(id);
      held.saver.close();
      return { hook: held.hook, run: held.hook.session.status === "streaming" ? held.run : undefined };
    },
    /** The conversation on screen is `session`: nothing of it is unread. */
    show: (id, session) => record(id, session, false),
  };
}

/** @type {readonly any[]} */
const NONE = Object.freeze([]);
const none = () => NONE;

/** The thread list of `conversations`, most recent activity first; the same array and entries
 *  while nothing changed. Empty on the server and while hydrating (the list is in the browser's storage). */
/** @param {{ subscribe: (listener: () => void) => () => void, list: () => readonly any[] }} conversations */
export function useConversations(conversations) {
  return useSyncExternalStore(conversations.subscribe, conversations.list, none);
}
