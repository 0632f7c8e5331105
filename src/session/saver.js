// Keeping a conversation in storage (open.js opens it). A Web Storage entry is one text, written whole (a 4 MB conversation: a few hundred ms in
// Chromium; the IndexedDB store writes the changed messages alone), so while a reply streams a
// save happens at most every SAVE_EVERY_MS, and never sooner than SAVE_SHARE times what the last
// save took (saving keeps to a tenth of the main thread), and when the page is hidden (a reload, a
// closed tab); at once otherwise. A failed save is shown (storageError); one refused
// for size (`quota`) loses nothing: the session stays due and is saved again at the next change,
// or after RETRY_MS (doubling up to RETRY_MAX_MS) when none comes, until a save lands.

import { persistSession } from "chat-session-reducer";

const SAVE_EVERY_MS = 500;
const SAVE_SHARE = 10;
const RETRY_MS = 2_000;
const RETRY_MAX_MS = 30_000;

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer").SessionReducerError} SessionReducerError */

/**
 * Saves one conversation's session under `storageKey` by the rule at the top of this file: `due(session, id, runStart)`
 * after each change (saved at once, or while it streams at most every SAVE_EVERY_MS), `close()` saves
 * what is due and stops (no retry after). `report(failure)` gets each save's failure, or undefined.
 * The hook keeps one per key; a conversation running in the background (chat-session-reducer/conversations) too.
 * `tabs()`: the tabs coordinator's connection, which saves instead (null: nothing written, the failure shown stays).
 */
export function createSaver(storageKey, storage, report, tabs) {
  // The session not saved yet (with its id), the save that is due for it, a retry after a refused
  // save, and how long the last save took (ms).
  /** @type {{ session?: SessionState, id?: string, runStart?: SessionState, timer?: ReturnType<typeof setTimeout>, retry?: ReturnType<typeof setTimeout>, took: number }} */
  const due = { session: undefined, id: undefined, runStart: undefined, timer: undefined, retry: undefined, took: 0 };
  let open = true;
  let retryIn = RETRY_MS;
  const settled = (latest, failure) => {
    if (!open) return;
    report(failure);
    if (failure?.code !== "quota") {
      retryIn = RETRY_MS;
      return;
    }
    // Nothing is lost: unless a newer session is due, this one is saved again.
    due.session ??= latest;
    clearTimeout(due.retry);
    due.retry = setTimeout(save, retryIn);
    retryIn = Math.min(retryIn * 2, RETRY_MAX_MS);
  };
  function save() {
    const { session: latest, id, runStart } = due;
    clearTimeout(due.timer);
    clearTimeout(due.retry);
    Object.assign(due, { session: undefined, timer: undefined, retry: undefined });
    if (latest === undefined) return;
    const started = Date.now();
    const connection = tabs?.();
    const failure = connection ? connection.save(latest, id, runStart) : persistSession(storageKey, latest, storage, { id, runStart });
    due.took = Date.now() - started;
    if (failure === null) return;
    if (failure instanceof Promise) failure.then((found) => settled(latest, found));
    else settled(latest, failure);
  }
  // A page has pagehide; other hosts (React Native, a test's bare global) may not.
  globalThis.addEventListener?.("pagehide", save);
  return {
    due(session, id, runStart) {
      due.session = session;
      due.id = id;
      due.runStart = runStart;
      if (session.status !== "streaming") save();
      else due.timer ??= setTimeout(save, Math.max(SAVE_EVERY_MS, SAVE_SHARE * due.took));
    },
    close() {
      globalThis.removeEventListener?.("pagehide", save);
      save();
      open = false;
      clearTimeout(due.retry);
    },
  };
}
