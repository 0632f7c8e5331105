// Which conversation the hook shows. At mount: `initialState` or `initialMessages` (the server
// renders it too), then, right after hydration, the one stored under `storageKey`. When
// `storageKey`, `storage` or `id` changes, the hook opens that conversation instead, as at mount:
// the stored one, unless it is stored under another id, else the initial one. The running reply
// of the conversation left is aborted (its session is no longer the one streaming). With
// `resume`, a conversation stored while it streamed is opened still streaming (resume.js).

import { useRef } from "react";
import { restoreSession, sessionReducer, storedSessionId } from "chat-session-reducer";
import { newId } from "./ids.js";
import { resumesStored } from "./resume.js";
import { EMPTY_SESSION, OPEN } from "./session.js";
import { useClientLayoutEffect } from "./storage.js";

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
    throw Object.assign(new TypeError(`${path}${error.message.slice(error.path.length)}`), { code: "invalid", path });
  }
}

const isEmpty = (session) => session.messages.length === 0 && session.queue === undefined && session.status !== "error";

/** The OPEN action for the conversation `options` name (see the top of this file). */
function opening(options) {
  const { storageKey, storage, id } = options;
  const opened = { storageKey, storage, id };
  if (storageKey !== undefined) {
    const stored = restoreSession(storageKey, storage);
    const storedId = storedSessionId(storageKey, storage);
    const another = id !== undefined && storedId !== undefined && storedId !== id;
    // An empty stored session is kept as it is (an entry that could not be read is not overwritten).
    const fresh = options.initialState === undefined && options.initialMessages === undefined;
    if (!another && (!isEmpty(stored) || fresh)) {
      return { type: OPEN, session: stored, id: storedId ?? newId("chat"), opened, resume: resumesStored(options) };
    }
  }
  return { type: OPEN, session: initialSession(options), id: newId("chat"), opened };
}

const sameConversation = (a, b) => a.storageKey === b.storageKey && a.storage === b.storage && a.id === b.id;

/** Whether the conversation shown is the one `options` name (`opened`: what the last OPEN opened):
 *  until then nothing is saved, so the conversation left never overwrites the one opened. */
export function isOpened(opened, options) {
  return opened !== undefined && sameConversation(opened, options);
}

/** Opens the conversation of `options` at mount (a stored one) and whenever it changes. */
export function useOpenConversation(options, dispatch) {
  const { storageKey, storage, id } = options;
  /** @type {import("react").RefObject<{ storageKey?: string, storage?: unknown, id?: string } | undefined>} */
  const shown = useRef(undefined);
  useClientLayoutEffect(() => {
    const wanted = { storageKey, storage, id };
    const before = shown.current;
    shown.current = wanted;
    // At mount without a key, the initial conversation is already the one shown (and Strict
    // Mode's second mount finds the one it opened).
    if (before === undefined ? storageKey === undefined : sameConversation(before, wanted)) return;
    dispatch(opening(options));
  }, [storageKey, storage, id]);
}
