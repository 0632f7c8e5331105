// Writes one scripted agent run as NDJSON: one frame a line, each frame an action the page
// dispatches as is: { type: "part", part, within? } or { type: "toolPhase", name, state, prompt? }.
// Every write and pause checks the request's abort signal, so a run stops as soon as the page
// stops listening (Stop, Reset, reload, closed tab).

import { setTimeout as sleep } from "node:timers/promises";
import { awaitDecision } from "./decisions.mjs";

/** Milliseconds between two words of streamed text: a realistic model pace. */
const WORD_PACE_MS = 35;

export function createAgentStream(res, signal) {
  let frames = 0;

  const writeLine = (line) => {
    signal.throwIfAborted();
    res.write(line + "\n");
    frames += 1;
  };

  const stream = {
    get frames() {
      return frames;
    },
    /** One AgentStreamPart; `within` names the delegate call whose sub-agent run it belongs to. */
    part(part, within) {
      writeLine(JSON.stringify(within === undefined ? { type: "part", part } : { type: "part", part, within }));
    },
    phase(name, state, prompt) {
      writeLine(JSON.stringify({ type: "toolPhase", name, state, ...(prompt === undefined ? {} : { prompt }) }));
    },
    /** A line written verbatim: only the scenarios that demonstrate malformed frames use it. */
    rawLine(line) {
      writeLine(line);
    },
    pause(ms) {
      return sleep(ms, undefined, { signal });
    },
    /** Streams `text` word by word as text-delta parts. */
    async say(messageId, text, within) {
      for (const word of text.match(/\S+\s*/g) ?? []) {
        stream.part({ type: "text-delta", messageId, text: word }, within);
        await stream.pause(WORD_PACE_MS);
      }
    },
    decision(callId) {
      return awaitDecision(callId, signal);
    },
  };
  return stream;
}
