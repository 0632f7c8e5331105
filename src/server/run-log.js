// The run log: each run's frames, in the protocol's framing, kept with their offsets so a client
// that reconnects gets what it lacks and then the live tail, whichever connection the run started
// on. This one lives in the process (one server); the interface is what a shared log (Redis)
// implements for several. A conversation's newest run stays readable after it ended, for
// `keepEndedMs`, so a page that stored it still streaming gets its end rather than a 204.

/**
 * @typedef {{ id: string, frames: string[], ended: boolean, waiters: Set<() => void>, expires?: ReturnType<typeof setTimeout> }} LoggedRun
 */

/** @param {{ keepEndedMs?: number }} [options] */
export function createMemoryRunLog({ keepEndedMs = 10 * 60_000 } = {}) {
  /** The newest run of each conversation, by key. @type {Map<string, LoggedRun>} */
  const newest = new Map();
  /** @type {Map<string, LoggedRun>} */
  const byId = new Map();

  const wake = (run) => {
    for (const waiter of run.waiters) waiter();
    run.waiters.clear();
  };
  const forget = (key, run) => {
    clearTimeout(run.expires);
    byId.delete(run.id);
    if (newest.get(key) === run) newest.delete(key);
  };

  return {
    /** A new run of the conversation `key`: from now on its newest. */
    start(key, id) {
      const previous = newest.get(key);
      if (previous !== undefined) forget(key, previous);
      /** @type {LoggedRun} */
      const run = { id, frames: [], ended: false, waiters: new Set() };
      newest.set(key, run);
      byId.set(id, run);
    },
    /** Appends a frame; returns its offset. */
    append(id, frame) {
      const run = byId.get(id);
      if (run === undefined || run.ended) return -1;
      run.frames.push(frame);
      wake(run);
      return run.frames.length - 1;
    },
    /** The run wrote its last frame. */
    end(key, id) {
      const run = byId.get(id);
      if (run === undefined || run.ended) return;
      run.ended = true;
      wake(run);
      run.expires = setTimeout(() => forget(key, run), keepEndedMs);
      run.expires.unref?.();
    },
    /** The conversation was deleted: it has no newest run any more. */
    forget(key) {
      const run = newest.get(key);
      if (run !== undefined) forget(key, run);
    },
    /** The conversation's newest run: `{ id, length, ended }`, or undefined. */
    newest(key) {
      const run = newest.get(key);
      return run === undefined ? undefined : { id: run.id, length: run.frames.length, ended: run.ended };
    },
    /** The run's frames `[from, to)` as they are now. */
    slice(id, from, to) {
      return byId.get(id)?.frames.slice(from, to) ?? [];
    },
    /**
     * The run's frames from offset `from`, then each one as it is appended, until the run ends or
     * `signal` aborts (a closed connection stops following; the run goes on).
     * @param {string} id @param {number} from @param {AbortSignal} [signal]
     */
    async *follow(id, from, signal) {
      const run = byId.get(id);
      if (run !== undefined) yield* followHeld(run, from, signal);
    },
  };
}

/**
 * A run held in this process, followed: its frames from `from` up to `length()`, then each one as
 * `run.waiters` are woken, until `ended()` or `signal` aborts; returns the offset it reached. The
 * Redis log follows its own runs so too, with only what Redis acknowledged (`length`) and an
 * `ended` that throws on a failed write.
 * @param {{ frames: string[], ended?: boolean, waiters: Set<() => void> }} run
 * @param {number} from @param {AbortSignal | undefined} signal
 */
export async function* followHeld(run, from, signal, length = () => run.frames.length, ended = () => run.ended === true) {
  let next = from;
  /** @type {(() => void) | undefined} */
  let wakeUp;
  const onAbort = () => wakeUp?.();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      while (next < length()) yield run.frames[next++];
      if (ended() || signal?.aborted) return next;
      await new Promise((resolve) => {
        wakeUp = () => resolve(undefined);
        run.waiters.add(wakeUp);
      });
    }
  } finally {
    if (wakeUp !== undefined) run.waiters.delete(wakeUp);
    signal?.removeEventListener("abort", onAbort);
  }
}
