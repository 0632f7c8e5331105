// chat-session-reducer/ag-ui: AG-UI 1.0 events in, RunAgentInput messages and resume entries out.
import { readJsonEvents } from "../shared/read-stream.js";
import { resumeEntry } from "./interrupts.js";
import { interruptCallsById, toAgUiMessages, trailingInterruptCalls } from "./messages.js";

export { createAgUiTranslator } from "./translator.js";
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
