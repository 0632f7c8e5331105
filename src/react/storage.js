// Keeping the session in storage from the hook. The stored session is applied right after
// hydration (a layout effect, before the browser paints): the server and the first client render
// both show the empty session, so the markup always matches and the server never reads storage.
// Saving serialises the whole conversation, so while a reply streams it happens at most every
// SAVE_EVERY_MS (and when the page is hidden: a reload, a closed tab), and at once otherwise.

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { persistSession, restoreSession } from "chat-session-reducer";
import { EMPTY_SESSION, RESTORE } from "./session.js";

const SAVE_EVERY_MS = 500;

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer").SessionReducerError} SessionReducerError */

// useLayoutEffect warns when it runs on the server (React 18); there is nothing to restore there.
export const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** Restores and saves `session` under `storageKey` (nothing without a key); returns the last
 *  save's failure, or undefined. */
export function useStoredSession(storageKey, storage, session, dispatch) {
  useClientLayoutEffect(() => {
    if (storageKey === undefined) return;
    dispatch({ type: RESTORE, session: restoreSession(storageKey, storage) });
  }, [storageKey, storage]);

  const [storageError, setStorageError] = useState(/** @type {SessionReducerError | undefined} */ (undefined));
  // The session not saved yet, and the save that is due for it.
  // `save` is set by the effect below before the one after it can call it.
  /** @type {import("react").RefObject<{ session?: SessionState, timer?: ReturnType<typeof setTimeout>, save: () => void }>} */
  const unsaved = useRef({ session: undefined, timer: undefined, save: () => {} });
  useEffect(() => {
    if (storageKey === undefined) return;
    const save = () => {
      const { session: latest, timer } = unsaved.current;
      clearTimeout(timer);
      Object.assign(unsaved.current, { session: undefined, timer: undefined });
      if (latest === undefined) return;
      const failure = persistSession(storageKey, latest, storage);
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
    // The empty session before restoring must not overwrite what is stored.
    if (storageKey === undefined || session === EMPTY_SESSION) return;
    const due = unsaved.current;
    due.session = session;
    if (session.status !== "streaming") due.save();
    else due.timer ??= setTimeout(due.save, SAVE_EVERY_MS);
  }, [storageKey, storage, session]);

  return storageError;
}
