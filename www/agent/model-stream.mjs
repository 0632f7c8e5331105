// The scripted agent as a model's stream: its wire (./wire/) writes into a response-like sink
// whose writes become the chunks of a byte stream, which chat-session-reducer/server reads in the
// protocol's framing, as it reads a proxied agent. The end-to-end tests may hold a run's output
// at chunk counts (`stops`, ./test-hooks.mjs): the writes wait in `pending` until released.

const encoder = new TextEncoder();

/** The message of the error a scenario's drop fails the model's stream with. */
export const AGENT_DROPPED = "the agent's connection dropped";

/**
 * A sink for a wire and the stream it feeds. `run` is the record of the run (`{ chunks, stops,
 * pending }`): the test hooks', or one that is never held outside the tests.
 */
export function createModelOutput(run) {
  let controller;
  let closed = false;
  const stream = new ReadableStream({
    start(given) {
      controller = given;
    },
    // The server stopped reading (Stop): what the script still writes goes nowhere.
    cancel() {
      closed = true;
    },
  });
  const deliver = (chunk) => {
    if (closed) return;
    if (chunk === END) {
      closed = true;
      run.ended = true;
      controller.close();
      return;
    }
    controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    run.chunks += 1;
  };
  // Held: the run has delivered the chunks of its next stop (or still writes what was held).
  const isHeld = () => run.pending.length > 0 || run.chunks === run.stops[0];
  const write = (chunk) => (isHeld() ? run.pending.push(chunk) : deliver(chunk));
  run.isHeld = isHeld;
  // Moves the run on from its stop: what it wrote meanwhile goes out, up to its next stop.
  run.moveOn = (stops) => {
    run.stops = stops;
    while (run.pending.length > 0 && run.chunks !== run.stops[0] && !closed) deliver(run.pending.shift());
  };
  const res = {
    destroyed: false,
    writeHead() {},
    write(chunk) {
      write(chunk);
      return true;
    },
    end: () => write(END),
    // The scenario's own drop (the agent's connection fails mid-reply).
    destroy() {
      if (res.destroyed || closed) return;
      res.destroyed = true;
      closed = true;
      run.ended = true;
      controller.error(new Error(AGENT_DROPPED));
    },
  };
  return { res, stream };
}

const END = Symbol("end");
