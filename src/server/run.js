// One run on the server: the model's stream, whatever the connection does. Each frame goes into
// the run log (whose followers are the client's response and any reconnect) and into the fold
// (fold.js), whose state is saved as it grows. A run always ends with a frame that ends it: a
// stream that throws or stops short gets the protocol's failure frame, so the client and the
// store fold the same ending. Only `stop` (the user's Stop, or a newer run) aborts the model.

import { createRunFold, foldStopped } from "./fold.js";
import { failureOf, isMalformed } from "../session/run.js";

/** What the model's stream is, as frames: a Response or a byte stream in the protocol's framing
 *  is read by its reader; otherwise each item is a frame (a UIMessageChunk, an AG-UI event, an action). */
async function* framesOf(protocol, source) {
  if (source instanceof Response) return yield* protocol.read(source);
  const items = typeof source?.getReader === "function" ? iterateStream(source) : source;
  if (items == null || typeof items[Symbol.asyncIterator] !== "function" && typeof items[Symbol.iterator] !== "function") {
    throw new TypeError("run: expected the model's stream (a ReadableStream, an async iterable or a Response)");
  }
  const iterator = (items[Symbol.asyncIterator] ?? items[Symbol.iterator]).call(items);
  const first = await iterator.next();
  if (first.done) return;
  const rest = { [Symbol.asyncIterator]: () => iterator };
  if (typeof first.value === "string" || first.value instanceof Uint8Array) {
    return yield* protocol.read(prepended(first.value, rest));
  }
  yield first.value;
  yield* rest;
}

async function* prepended(first, rest) {
  yield first;
  yield* rest;
}

async function* iterateStream(stream) {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

// A stream that ended without the frame that ends its run.
const ENDED_SHORT = "The agent's reply ended before it was finished.";

/**
 * Starts a run. `produce(signal)` calls the app's `run` and gives the model's stream; `saver`
 * saves the conversation; `ended(state)` is called once with the run's last state.
 * @param {{ key: string, id: string, protocol: any, start: any, produce: (signal: AbortSignal) => unknown, log: any, saver: ReturnType<typeof import("./saver.js").createSaver>, onError: (error: unknown) => void, errorMessage: (error: unknown) => string }} options
 */
export function startRun({ key, id, protocol, start, produce, log, saver, onError, errorMessage }) {
  const controller = new AbortController();
  const fold = createRunFold(protocol, start);
  let stopped = false;
  let finished = false;
  /** The state `stop` left. */
  let stoppedState;
  saver.save(start, { now: true });

  const write = (frame) => {
    const json = JSON.stringify(frame);
    if (json === undefined) return;
    log.append(id, json);
    // The fold reads the frame as the client parses it.
    fold.push(JSON.parse(json));
    saver.save(() => fold.state);
  };

  async function pump() {
    try {
      for await (const frame of framesOf(protocol, await produce(controller.signal))) {
        if (stopped) return;
        write(frame);
      }
      if (!stopped && !fold.endCame) write(protocol.failedFrame(ENDED_SHORT));
    } catch (error) {
      if (stopped) return;
      onError(error);
      // A malformed frame from the agent is told as the client tells one; any other failure as the app words it.
      write(protocol.failedFrame(isMalformed(error) ? failureOf(error, undefined, protocol.name).message : errorMessage(error)));
    } finally {
      if (!stopped) {
        fold.end();
        finished = true;
        log.end(key, id);
        saver.save(fold.state, { now: true });
      }
    }
  }
  // A model that does not heed its signal keeps its stream open: the run is done at the stop anyway.
  /** @type {() => void} */
  let stoppedNow = () => {};
  const done = Promise.race([pump(), new Promise((resolve) => (stoppedNow = () => resolve(undefined)))]);
  /** The stop's save, once asked (a stop resolves `done` before it has folded its cut). */
  let stopSaving = Promise.resolve();

  return {
    id,
    start,
    done,
    get state() {
      return fold.state;
    },
    get ended() {
      return finished || stopped;
    },
    get frames() {
      return fold.frames;
    },
    /**
     * The user stopped the run after their client had applied its first `offset` frames (all
     * the server folded, when not given): the model is aborted, the state re-folded to exactly
     * there and stopped, and those following the run get the protocol's stopped frame.
     * @param {number} [offset]
     */
    async stop(offset) {
      // A stop that comes after the run ended changes nothing, unless the client had stopped
      // before the end (it had applied fewer frames): a question the reply asked stays open.
      if (finished && (offset === undefined || offset >= fold.frames)) return fold.state;
      const cut = offset === undefined ? fold.frames : Math.min(offset, fold.frames);
      const wasRunning = !finished && !stopped;
      stopped = true;
      controller.abort(new Error("stopped by the user"));
      stoppedNow();
      /** @type {() => void} */
      let saving = () => {};
      stopSaving = new Promise((resolve) => (saving = () => resolve(undefined)));
      try {
        const frames = (await log.slice(id, 0, cut)).map((json) => JSON.parse(json));
        const state = foldStopped(protocol, start, frames, cut);
        if (wasRunning) {
          log.append(id, JSON.stringify(protocol.stoppedFrame));
          log.end(key, id);
        }
        saver.save(state, { now: true });
        stoppedState = state;
        return state;
      } finally {
        saving();
      }
    },
    /** Resolves once the run ended (or was stopped) and its last state is written. */
    async settled() {
      await done;
      await stopSaving;
      await saver.written();
    },
    /**
     * The server is shutting down: the run ends here with the protocol's failure frame saying so,
     * written to the log and folded as every frame is, so those following it and the store end
     * the same; its state is saved at once.
     * @param {string} message
     */
    interrupt(message) {
      if (finished || stopped) return;
      write(protocol.failedFrame(message));
      stopped = true;
      controller.abort(new Error("the server is shutting down"));
      stoppedNow();
      fold.end();
      finished = true;
      log.end(key, id);
      saver.save(fold.state, { now: true });
    },
    /**
     * Another instance took the run over (its lease was lost): the model is aborted and nothing
     * more of it is written here, neither to the log nor to the store; the taker ends it, and
     * those following it here get that end from the shared log.
     */
    lost() {
      if (finished || stopped) return;
      stopped = true;
      finished = true;
      controller.abort(new Error("another instance took the run over"));
      stoppedNow();
      saver.cancel();
      log.handOver?.(id);
    },
    /** The state the run left: stopped, or folded to its end. */
    get last() {
      return stoppedState ?? fold.state;
    },
  };
}
