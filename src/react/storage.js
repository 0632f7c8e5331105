// Keeping the session in storage from the hook. The stored session is applied right after
// hydration (a layout effect, before the browser paints, conversation.js): the server and the
// first client render both show the initial session, so the markup always matches and the
// server never reads storage.
// Saving serialises the whole conversation, so while a reply streams it happens at most every
// SAVE_EVERY_MS (and when the page is hidden: a reload, a closed tab), and at once otherwise.

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { persistSession } from "chat-session-reducer";

const SAVE_EVERY_MS = 500;

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer").SessionReducerError} SessionReducerError */

// useLayoutEffect warns when it runs on the server (React 18); there is nothing to restore there.
export const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** Saves `session`, with the conversation's `id`, under `storageKey` (nothing without a key,
 *  nor before `opened`: the conversation shown is the one opened for this key and storage);
 *  returns the last save's failure, or undefined. */
export function useStoredSession(storageKey, storage, session, id, opened) {
  const [storageError, setStorageError] = useState(/** @type {SessionReducerError | undefined} */ (undefined));
  // The session not saved yet, and the save that is due for it.
  // `save` is set by the effect below before the one after it can call it.
  /** @type {import("react").RefObject<{ session?: SessionState, id?: string, timer?: ReturnType<typeof setTimeout>, save: () => void }>} */
  const unsaved = useRef({ session: undefined, id: undefined, timer: undefined, save: () => {} });
  useEffect(() => {
    if (storageKey === undefined) return;
    const save = () => {
      const { session: latest, timer } = unsaved.current;
      clearTimeout(timer);
      Object.assign(unsaved.current, { session: undefined, timer: undefined });
      if (latest === undefined) return;
      const failure = persistSession(storageKey, latest, storage, { id: unsaved.current.id });
      setStorageError((shown) => (shown?.message === failure?.message ? shown : failure));
    };
    unsaved.current.save = save;
    // A page has pagehide; other hosts (React Native, a test's bare global) may not.
    globalThis.addEventListener?.("pagehide", save);
    return () => {
      globalThis.removeEventListener?.("pagehide", save);
      save();
    };
  }, [storageKey, storage]);

  useEffect(() => {
    // The session before the stored one was opened (the initial one, or the conversation left
    // when the key changed) must not overwrite what is stored.
    if (storageKey === undefined || !opened) return;
    const due = unsaved.current;
    due.session = session;
    due.id = id;
    if (session.status !== "streaming") due.save();
    else due.timer ??= setTimeout(due.save, SAVE_EVERY_MS);
  }, [storageKey, storage, session, id, opened]);

  return storageError;
}
