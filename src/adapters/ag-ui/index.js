// chat-session-reducer/ag-ui: AG-UI 1.0 events in, RunAgentInput messages and resume entries out.
import { readJsonEvents } from "../shared/read-stream.js";
import { jsonEvent, jsonTextEvent } from "../shared/write-frame.js";
import { resumeEntry } from "./interrupts.js";
import { interruptCallsById, toAgUiMessages, trailingInterruptCalls } from "./messages.js";
import { createAgUiTranslator } from "./translator.js";
import { agUiWire } from "./wire.js";

export { createAgUiTranslator };
export { fromAgUiMessages } from "./messages.js";

/** The events of an AG-UI SSE stream (`data: <json>` events). */
export function readAgUiStream(source) {
  return readJsonEvents(source);
}

/** `RunAgentInput`'s `messages` and `resume` for the session (see index.d.ts). */
export function toAgUiInput(state, options) {
  const messages = toAgUiMessages(state.messages);
  let resume;
  if (options?.interruptIds) {
    const calls = interruptCallsById(state.messages);
    resume = [...options.interruptIds].map((id) =>
      calls.has(id) ? resumeEntry(calls.get(id), id) : { interruptId: id, status: "cancelled" },
    );
  } else {
    resume = trailingInterruptCalls(state.messages).map((part) => resumeEntry(part, part.approval.id));
  }
  return { messages, resume };
}

/** The protocol as useAgentSession, its resume and chat-session-reducer/testing speak it (index.d.ts). */
export const agUiProtocol = Object.freeze({
  ...agUiWire,
  headers: Object.freeze({ "content-type": agUiWire.contentType }),
  body: ({ session, chatId, runId }) => ({
    threadId: chatId,
    runId,
    ...toAgUiInput(session),
    state: session.agentState ?? {},
    tools: [],
    context: [],
    forwardedProps: {},
  }),
  read: readAgUiStream,
  translator: createAgUiTranslator,
  // A response may carry several runs (a connect replays the thread's, then the active one).
  severalRuns: true,
  write: jsonEvent,
  writeJson: jsonTextEvent,
  // What chat-session-reducer/server appends when the model's stream fails, and when the user
  // stops (RUN_FINISHED cannot end a run whose messages are still open).
  failedFrame: (message) => ({ type: "RUN_ERROR", message }),
  stoppedFrame: Object.freeze({ type: "RUN_ERROR", message: "Stopped by the user." }),
  end: "",
});
