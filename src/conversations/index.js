// Several conversations, one on screen (chat-session-reducer/conversations): a store made once by
// the app and passed to useAgentSession (or createAgentSession) as `conversations`, with `id` the
// conversation shown. The store holds each conversation the controller showed (conversation.js of
// chat-session-reducer/session: its state, run, saves and callbacks); when the controller shows
// another while one streams, that one goes on here, under its own key, and is taken back live
// when shown again: the rules are the controller's own, nothing is re-implemented here. The
// thread list (`list()`, useConversations) says per conversation its title, status, whether
// something arrived while it was not on screen, and whether it waits on the user; it is kept
// under the key prefix itself, so it survives a reload.

import { useSyncExternalStore } from "react";
import { clearSession } from "chat-session-reducer";
import { someCallWaitsOnApp } from "../session/calls.js";
import { newId } from "../session/ids.js";

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
  /** The conversations held by id: on screen, or running in the background (controllers of
   *  chat-session-reducer/session, conversation.js). */
  const held = new Map();
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
      held.get(id)?.close();
      held.delete(id);
      try {
        clearSession(keyOf(id), storage);
      } catch {
        // Nothing stored, or storage unavailable: nothing to remove.
      }
      if (entries.delete(id)) changed();
    },
    // For the session controller (chat-session-reducer/session).
    /** The conversation `id` held here (in the background, or on screen), to be shown by a controller. */
    take: (id) => held.get(id),
    /** The controller shows another: `conversation` goes on here while it streams, else it is closed. */
    leave(id, conversation, options) {
      if (held.get(id) !== conversation) return conversation.close();
      if (conversation.state().session.status !== "streaming") {
        held.delete(id);
        return conversation.close();
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
