// Several conversations, one on screen (chat-session-reducer/conversations): a store made once by
// the app and passed to useAgentSession (or createAgentSession) as `conversations`, with `id` the
// conversation shown. The store holds each conversation the controller showed (conversation.js of
// chat-session-reducer/session: its state, run, saves and callbacks); when the controller shows
// another while one streams, that one goes on here, under its own key, and is taken back live
// when shown again: the rules are the controller's own, nothing is re-implemented here. The
// thread list (`list()`, useConversations) says per conversation its title, status, whether
// something arrived while it was not on screen, and whether it waits on the user; it is kept
// under the key prefix itself, so it survives a reload. With `remote` (the server's conversations,
// remote.js), the list is the tab's entries merged with the server's, and a conversation opens
// from the server's copy unless the tab's own knows more (serverCopyWins).

import { useSyncExternalStore } from "react";
import { clearSession, restoreSessionEntry, saveSession } from "chat-session-reducer";
import { someCallWaitsOnApp } from "../session/calls.js";
import { newId } from "../session/ids.js";
import { mergedEntry, sameEntry, serverCopyWins, serverEntries, sourceOf } from "./remote.js";

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
// error (after a reload nothing streams in this page: reopened, resume's rule applies); with
// `remote`, the server's last list beside it, so a reload lists at once what it listed before.
const INDEX_VERSION = 1;

function readIndex(storage, key) {
  try {
    const stored = JSON.parse(storage?.getItem(key) ?? "null");
    if (stored?.version !== INDEX_VERSION || !Array.isArray(stored.conversations)) return { conversations: [], server: [] };
    const conversations = stored.conversations.filter((entry) => typeof entry?.id === "string" && typeof entry.title === "string" && Number.isFinite(entry.updatedAt));
    return { conversations, server: Array.isArray(stored.server) ? stored.server : [] };
  } catch {
    return { conversations: [], server: [] };
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

/** Calls `refresh` when the page gets the focus back (another tab or profile may have changed the server's list). */
function onFocus(refresh) {
  const target = globalThis.window;
  if (typeof target?.addEventListener !== "function") return () => {};
  const visible = () => globalThis.document?.visibilityState !== "hidden" && refresh();
  target.addEventListener("focus", refresh);
  target.addEventListener("visibilitychange", visible);
  return () => {
    target.removeEventListener("focus", refresh);
    target.removeEventListener("visibilitychange", visible);
  };
}

/** An object with the Web Storage methods, in memory: where the server's copy is opened from when storage refuses it. */
function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

/**
 * @param {{ storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">, keyPrefix?: string, remote?: string | URL | { list: () => Promise<any[]>, read: (id: string) => Promise<any>, remove?: (id: string) => Promise<void> } }} [options]
 */
export function createConversations({ storage = sessionStorageIfAny(), keyPrefix = "chat:", remote } = {}) {
  const source = sourceOf(remote);
  /** The thread list's entries by id (in no order): the tab's, and the server's (by its last list). */
  let entries;
  let serverList = new Map();
  /** @type {readonly any[]} */
  let listed = [];
  /** The entries listed, by id: kept while an entry lists the same, so the list's objects stay. */
  const shown = new Map();
  /** The conversations held by id: on screen, or running in the background (controllers of
   *  chat-session-reducer/session, conversation.js). */
  const held = new Map();
  /** Ids made here (create): not on the server until their first run, never read from it. */
  const created = new Set();
  const listeners = new Set();
  let asked = 0;
  let unwatch;

  const keyOf = (id) => `${keyPrefix}${id}`;
  const load = () => {
    if (entries !== undefined) return;
    entries = new Map();
    const index = readIndex(storage, keyPrefix);
    for (const entry of index.conversations) {
      const status = entry.status === "error" ? "error" : "idle";
      entries.set(entry.id, { id: entry.id, title: entry.title, status, unread: entry.unread === true, waiting: entry.waiting === true, updatedAt: entry.updatedAt, count: undefined });
    }
    if (source !== undefined) serverList = serverEntries(index.server);
    listed = order();
  };
  const listedEntry = (entry) => {
    const before = shown.get(entry.id);
    if (sameEntry(before, entry)) return before;
    const { count, ...listedAs } = entry;
    shown.set(entry.id, Object.freeze(listedAs));
    return shown.get(entry.id);
  };
  const order = () => {
    const ids = new Set([...entries.keys(), ...serverList.keys()]);
    const merged = [...ids].map((id) => listedEntry(mergedEntry(entries.get(id), serverList.get(id), held.has(id))));
    return Object.freeze(merged.sort((a, b) => b.updatedAt - a.updatedAt));
  };

  const changed = () => {
    const next = order();
    if (next.length === listed.length && next.every((entry, at) => entry === listed[at])) return;
    listed = next;
    try {
      const conversations = [...entries.values()].map(({ count, ...entry }) => entry);
      const server = source === undefined ? undefined : [...serverList.values()].map(({ id, title, status, updatedAt }) => ({ id, title, status, updatedAt }));
      storage?.setItem(keyPrefix, JSON.stringify({ version: INDEX_VERSION, conversations, server }));
    } catch {
      // A full store keeps the list in this page; the conversations' own saves report their failures.
    }
    for (const listener of listeners) listener();
  };

  /** Asks the server for its list; what it answers replaces the server's entries (a failure keeps them). */
  const refresh = async () => {
    if (source === undefined) return;
    const ask = ++asked;
    let summaries;
    try {
      summaries = await source.list();
    } catch {
      return;
    }
    if (ask !== asked) return;
    load();
    serverList = serverEntries(summaries);
    changed();
  };

  /** Records `session` as `id`'s; a conversation is listed once it has a message. */
  const record = (id, session, unread) => {
    load();
    if (!entries.has(id) && session.messages.length === 0) return;
    // A conversation first opened from the server's copy: opening it is no activity.
    const earlier = entries.get(id) ?? serverList.get(id);
    entries.set(id, summaryOf(id, session, unread, earlier));
    changed();
    // A run of this tab ended: the server's list may have moved on too.
    if (earlier?.status === "streaming" && session.status !== "streaming") void refresh();
  };

  /**
   * What a conversation on screen goes on as when the controller shows another (or stops): held
   * here while it streams, with the options it had, and saved under its own key; what arrives is
   * unread. Taken back when it is shown again.
   */
  const background = (id, conversation, options) => {
    let recorded = conversation.state().session;
    return {
      options: () => options,
      tabs: () => undefined,
      shows: () => true,
      changed() {
        const { session } = conversation.state();
        if (session === recorded) return;
        recorded = session;
        record(id, session, true);
      },
    };
  };

  /**
   * The stored entry conversation `id` opens from (restoreSessionEntry's) for a controller: the
   * tab's own, or with `remote`, a Promise of the server's copy where it wins (serverCopyWins),
   * saved under the conversation's key first, so the load rule and the resume rule are storage's.
   */
  const restore = (id) => {
    const key = keyOf(id);
    const local = restoreSessionEntry(key, storage);
    if (source === undefined || (created.has(id) && local.state.messages.length === 0)) return local;
    const fromServer = (state) => {
      if (!serverCopyWins(local, state)) return local;
      try {
        saveSession(key, state, storage);
        return restoreSessionEntry(key, storage);
      } catch {
        const memory = memoryStorage();
        saveSession(key, state, memory);
        return restoreSessionEntry(key, memory);
      }
    };
    return source.read(id).then(fromServer).catch(() => local);
  };

  return {
    storage,
    keyOf,
    /** A new conversation's id. */
    create() {
      const id = newId("chat");
      created.add(id);
      return id;
    },
    list() {
      load();
      return listed;
    },
    /** Reads the server's list again (with `remote`); resolves once it is applied, or kept after a failure. */
    refresh,
    subscribe(listener) {
      listeners.add(listener);
      // The first subscriber asks the server, and again whenever the page gets the focus back.
      if (listeners.size === 1 && source !== undefined) {
        unwatch = onFocus(() => void refresh());
        void refresh();
      }
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        unwatch?.();
        unwatch = undefined;
      };
    },
    /** Stops its run, if it runs in the background, and removes it from storage and from the list
     *  (with `remote`, from the server too, where the source can remove). */
    remove(id) {
      load();
      held.get(id)?.close();
      held.delete(id);
      try {
        clearSession(keyOf(id), storage);
      } catch {
        // Nothing stored, or storage unavailable: nothing to remove.
      }
      // A list asked for before the delete would list it again.
      asked += 1;
      shown.delete(id);
      const local = entries.delete(id);
      if (serverList.delete(id) || local) changed();
      return Promise.resolve(source?.remove?.(id));
    },
    // For the session controller (chat-session-reducer/session).
    restore,
    /** The conversation `id` held here (in the background, or on screen), to be shown by a controller. */
    take: (id) => held.get(id),
    /** The controller shows another: `conversation` goes on here while it streams, else it is closed. */
    leave(id, conversation, options) {
      if (held.get(id) !== conversation) return conversation.close();
      if (conversation.state().session.status !== "streaming") {
        held.delete(id);
        conversation.close();
        // No longer the tab's: the server's status lists it from now on.
        if (entries !== undefined) changed();
        return;
      }
      conversation.handTo(background(id, conversation, options));
    },
    /** `conversation` is on screen as `id`: nothing of it is unread. */
    show(id, conversation) {
      held.set(id, conversation);
      record(id, conversation.state().session, false);
    },
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
