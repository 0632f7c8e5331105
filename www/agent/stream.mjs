// What a scripted run writes: stream parts (this package's AgentStreamPart), paced like a model,
// through a wire writer (./wire/) that encodes them in the endpoint's protocol. Every write and
// pause checks the request's abort signal, so a run stops as soon as the page stops listening
// (Stop, Reset, reload, closed tab). `hold(point)` is where the end-to-end tests can hold the run
// (./holds.mjs): it resolves at once elsewhere. DEMO_PACE_MS sets another pace (the end-to-end
// tests' server runs fast: their holds, not the pace, decide when a reply is still streaming).

import { setTimeout as sleep } from "node:timers/promises";

/** Milliseconds between two words of streamed text: a realistic model pace. */
const WORD_PACE_MS = 35;

/** The pace a run streams at: DEMO_PACE_MS milliseconds between two words, or the model's. */
function paceOf(value = process.env.DEMO_PACE_MS) {
  if (value === undefined || value === "") return WORD_PACE_MS;
  const paceMs = Number(value);
  if (!Number.isFinite(paceMs) || paceMs < 0) {
    throw Object.assign(new RangeError(`DEMO_PACE_MS must be a number of milliseconds, 0 or more, not ${JSON.stringify(value)}`), { code: "invalid", path: "DEMO_PACE_MS" });
  }
  return paceMs;
}

const PACE_MS = paceOf();

/** `paceMs`: between two words; the script's pauses (a tool running, a search) scale with it. */
export function createAgentStream(wire, signal, hold = async () => {}, paceMs = PACE_MS) {
  let frames = 0;
  const written = (write) => {
    signal.throwIfAborted();
    write();
    frames += 1;
  };
  const stream = {
    get frames() {
      return frames;
    },
    /** One AgentStreamPart; `within` names the delegate call whose sub-agent run it belongs to. */
    part(part, within) {
      written(() => wire.part(part, within));
    },
    /** A frame that is not JSON: only the scenario that demonstrates malformed frames sends it. */
    garbled() {
      written(() => wire.garbled());
    },
    /** A frame that is JSON but not a valid action (the actions protocol only). */
    invalid(frame) {
      written(() => wire.invalid(frame));
    },
    /** Cuts the connection mid-reply, as a network failure does. */
    drop() {
      written(() => wire.drop());
    },
    /** Waits what `ms` is at the model's pace, scaled to this stream's. */
    pause(ms) {
      return sleep((ms * paceMs) / WORD_PACE_MS, undefined, { signal });
    },
    /** A named point of the script, where a test may hold the run until it releases it. */
    async hold(point) {
      signal.throwIfAborted();
      await hold(point);
    },
    /** Streams `text` word by word as text-delta parts. */
    async say(messageId, text, within) {
      for (const word of text.match(/\S+\s*/g) ?? []) {
        stream.part({ type: "text-delta", messageId, text: word }, within);
        await stream.pause(WORD_PACE_MS);
      }
    },
  };
  return stream;
}
