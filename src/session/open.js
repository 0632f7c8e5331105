// Which conversation the session controller shows. Before it starts: `initialState` or
// `initialMessages` (what a server renders too), then, once started (right after hydration), the
// one stored under `storageKey`. When `storageKey`, `storage` or `id` changes, it opens that
// conversation instead, as at the start: the stored one, unless it is stored under another id,
// else the initial one. The running reply of the conversation left is aborted (its session is no
// longer the one streaming), or, with a store of conversations, goes on there (index.js).
// An asynchronous store (chat-session-reducer/indexeddb) answers after the first paint: until it
// has, the conversation shown stays and nothing is saved (isOpened); at mount, an action taken on
// the initial session meanwhile is kept (session-state.js, OPEN).
// With `resume`, a conversation stored while it streamed is opened still streaming (resume.js).

import { restoreSessionEntry, sessionReducer } from "chat-session-reducer";
import { newId } from "./ids.js";
import { resumesStored } from "./resume.js";
import { EMPTY_SESSION, OPEN } from "./session-state.js";
import { codedError } from "../shared/coded-error.js";

/** The conversation before anything is restored: `initialState`, else `initialMessages`, else empty.
 *  Loaded as the `load` action loads a state; a bad one throws, naming the option. */
/** @param {{ initialState?: import("chat-session-reducer").SessionState, initialMessages?: import("chat-session-reducer").AgentMessage[] }} options */
export function initialSession({ initialState, initialMessages }) {
  // What the reader names `action.state…` is, in the app's terms, the option it came from.
  const [state, from, to] =
    initialState !== undefined
      ? [initialState, /^action\.state/, "options.initialState"]
      : [initialMessages === undefined ? undefined : { messages: initialMessages, status: /** @type {const} */ ("idle") }, /^action\.state\.messages/, "options.initialMessages"];
  if (state === undefined) return EMPTY_SESSION;
  try {
    return sessionReducer(undefined, { type: "load", state });
  } catch (error) {
    if (error?.code !== "invalid" || typeof error.path !== "string") throw error;
    const path = error.path.replace(from, to);
    throw codedError(new TypeError(`${path}${error.message.slice(error.path.length)}`), "invalid", path);
  }
}

const isEmpty = (session) => session.messages.length === 0 && session.queue === undefined && session.status !== "error";

/** The OPEN action for the conversation `options` name (see the top of this file), given the
 *  entry `stored` under its key (restoreSessionEntry's; undefined without a key). */
export function opening(options, stored) {
  const { storageKey, storage, id } = options;
  const opened = { storageKey, storage, id };
  if (stored !== undefined) {
    const another = id !== undefined && stored.id !== undefined && stored.id !== id;
    // An empty stored session is kept as it is (an entry that could not be read is not overwritten).
    const fresh = options.initialState === undefined && options.initialMessages === undefined;
    if (!another && (!isEmpty(stored.state) || fresh)) {
      return { type: OPEN, session: stored.state, id: stored.id ?? newId("chat"), opened, resume: resumesStored(options, stored), runStart: stored.runStart };
    }
  }
  return { type: OPEN, session: initialSession(options), id: newId("chat"), opened };
}

export const sameConversation = (a, b) => a.storageKey === b.storageKey && a.storage === b.storage && a.id === b.id;

/** Whether the conversation shown is the one `options` name (`opened`: what the last OPEN opened):
 *  until then nothing is saved, so the conversation left never overwrites the one opened. */
export function isOpened(opened, options) {
  return opened !== undefined && sameConversation(opened, options);
}
