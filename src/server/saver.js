// Saving one conversation while its run streams: at most one save in flight, the newest state
// written next (never an older one after a newer), at most every `everyMs`, and a failed save
// retried with a growing pause while it keeps failing (the run streams on meanwhile; the app's
// onError hears of each failure). A store writes each save in one transaction.

const RETRY_FIRST_MS = 500;
const RETRY_MOST_MS = 30_000;

/**
 * @param {{ store: import("./index.js").SessionStore, owner: string, id: string, saved?: any, onError: (error: unknown) => void, everyMs?: number }} options
 */
export function createSaver({ store, owner, id, saved, onError, everyMs = 250 }) {
  let last = saved;
  let wanted = saved;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<void> | undefined} */
  let writing;
  let retryMs = RETRY_FIRST_MS;
  /** @type {(() => void)[]} */
  let settled = [];
  let cancelled = false;
  /** Waiting for the next write to land. @type {(() => void)[]} */
  let landing = [];

  async function write() {
    timer = undefined;
    if (cancelled) return notify();
    // A state given as a function (the fold's) is made only now: once per save, not per chunk.
    if (typeof wanted === "function") wanted = wanted();
    const state = wanted;
    if (state === last) return notify();
    try {
      await store.save(owner, id, state, last);
      last = state;
      retryMs = RETRY_FIRST_MS;
      for (const resolve of landing.splice(0)) resolve();
    } catch (error) {
      onError(error);
      if (cancelled) return notify();
      schedule(retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
      return;
    }
    if (wanted !== last && !cancelled) schedule(everyMs);
    else notify();
  }
  function notify() {
    const waiting = settled;
    settled = [];
    for (const resolve of waiting) resolve();
  }
  function schedule(ms) {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      writing = (writing ?? Promise.resolve()).then(write);
    }, ms);
  }

  return {
    /** The newest state of the conversation (or a function that gives it when the save is due):
     *  written within `everyMs`, or at once with `now`. */
    save(state, { now = false } = {}) {
      if (cancelled) return;
      wanted = state;
      if (now && timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      schedule(now ? 0 : everyMs);
    },
    /** Resolves once the newest state is written (it waits through retries). */
    written() {
      if (wanted === last && timer === undefined) return Promise.resolve();
      return new Promise((resolve) => settled.push(() => resolve(undefined)));
    },
    /** No more saves: what is not written yet never will be (another instance owns the conversation now). */
    cancel() {
      cancelled = true;
      clearTimeout(timer);
      timer = undefined;
      wanted = last;
      notify();
    },
    /** Resolves once the next save is written (whatever comes after it). */
    nextWrite() {
      return new Promise((resolve) => landing.push(() => resolve(undefined)));
    },
    /** What the store holds now, as far as this saver knows. */
    get saved() {
      return last;
    },
  };
}
