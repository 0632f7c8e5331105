// Keeping the session in storage from the hook. The stored session is applied right after
// hydration (a layout effect, before the browser paints): the server and the first client render
// both show the empty session, so the markup always matches and the server never reads storage.
// An asynchronous store (chat-session-reducer/indexeddb) answers after the first paint: until it
// has, nothing is saved (the empty session never overwrites what is stored), and what it restores
// replaces the session only if nothing changed it meanwhile (an action taken on the empty session
// is kept, and saved).
// A Web Storage entry is one text, written whole (a 4 MB conversation: a few hundred ms in
// Chromium; the IndexedDB store writes the changed messages alone), so while a reply streams a
// save happens at most every SAVE_EVERY_MS, and never sooner than SAVE_SHARE times what the last
// save took (saving keeps to a tenth of the main thread), and when the page is hidden (a reload, a
// closed tab); at once otherwise. A failed save is shown (storageError); one refused
// for size (`quota`) loses nothing: the session stays due and is saved again at the next change,
// or after RETRY_MS (doubling up to RETRY_MAX_MS) when none comes, until a save lands.

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { persistSession, restoreSessionEntry } from "chat-session-reducer";
import { EMPTY_SESSION, RESTORE } from "./session.js";

const SAVE_EVERY_MS = 500;
const SAVE_SHARE = 10;
const RETRY_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer").SessionReducerError} SessionReducerError */
/** @typedef {import("chat-session-reducer").SessionEntry} SessionEntry */

// useLayoutEffect warns when it runs on the server (React 18); there is nothing to restore there.
export const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** Restores and saves `session` under `storageKey` (nothing without a key), with the conversation
 *  `id`; returns the last save's failure, or undefined. */
export function useStoredSession(storageKey, storage, session, dispatch, id) {
  // The session not saved yet, the save that is due for it, a retry after a refused save, how
  // long the last save took (ms), and whether an asynchronous store is still restoring. `save` is
  // set by the effect below before the one after it can call it.
  /** @type {import("react").RefObject<{ session?: SessionState, timer?: ReturnType<typeof setTimeout>, retry?: ReturnType<typeof setTimeout>, took: number, restoring: boolean, save: () => void }>} */
  const unsaved = useRef({ session: undefined, timer: undefined, retry: undefined, took: 0, restoring: false, save: () => {} });

  useClientLayoutEffect(() => {
    if (storageKey === undefined) return;
    const restored = /** @type {SessionEntry | Promise<SessionEntry>} */ (restoreSessionEntry(storageKey, storage));
    if (!(restored instanceof Promise)) {
      dispatch({ type: RESTORE, session: restored.state, id: restored.id });
      return;
    }
    return restoreLater(restored, session, dispatch, unsaved.current);
  }, [storageKey, storage]);

  const [storageError, setStorageError] = useState(/** @type {SessionReducerError | undefined} */ (undefined));
  useEffect(() => {
    if (storageKey === undefined) return;
    const due = unsaved.current;
    let open = true;
    let retryIn = RETRY_MS;
    const settled = (latest, failure) => {
      if (!open) return;
      setStorageError((shown) => (shown?.message === failure?.message ? shown : failure));
      if (failure?.code !== "quota") {
        retryIn = RETRY_MS;
        return;
      }
      // Nothing is lost: unless a newer session is due, this one is saved again.
      due.session ??= latest;
      clearTimeout(due.retry);
      due.retry = setTimeout(due.save, retryIn);
      retryIn = Math.min(retryIn * 2, RETRY_MAX_MS);
    };
    const save = () => {
      const { session: latest } = due;
      clearTimeout(due.timer);
      clearTimeout(due.retry);
      // While a store restores, the session stays due: restoreLater saves it once it has answered.
      Object.assign(due, { session: due.restoring ? latest : undefined, timer: undefined, retry: undefined });
      if (latest === undefined || due.restoring) return;
      const started = Date.now();
      const failure = persistSession(storageKey, latest, storage, { id });
      due.took = Date.now() - started;
      if (failure instanceof Promise) failure.then((found) => settled(latest, found));
      else settled(latest, failure);
    };
    due.save = save;
    // A page has pagehide; other hosts (React Native, a test's bare global) may not.
    globalThis.addEventListener?.("pagehide", save);
    return () => {
      globalThis.removeEventListener?.("pagehide", save);
      save();
      open = false;
      clearTimeout(due.retry);
    };
  }, [storageKey, storage, id]);

  useEffect(() => {
    // The empty session before restoring must not overwrite what is stored.
    if (storageKey === undefined || session === EMPTY_SESSION) return;
    const due = unsaved.current;
    due.session = session;
    if (session.status !== "streaming") due.save();
    else due.timer ??= setTimeout(due.save, Math.max(SAVE_EVERY_MS, SAVE_SHARE * due.took));
  }, [storageKey, storage, session]);

  return storageError;
}

// Applies what an asynchronous store restores, over `shown` (the session on screen when it was
// asked) only; saves wait until it has answered. Returns the effect's cleanup.
function restoreLater(restored, shown, dispatch, due) {
  let current = true;
  due.restoring = true;
  restored.then((entry) => {
    if (!current) return;
    due.restoring = false;
    dispatch({ type: RESTORE, session: entry.state, id: entry.id, over: shown });
    due.save();
  });
  return () => {
    current = false;
    due.restoring = false;
  };
}
