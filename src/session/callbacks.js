// The app's callbacks about runs: onFinish and onError once a run ended, onToolCall for each
// client-side tool call a finished run left waiting on the app, onData (conversation.js) as data
// parts arrive. They are called after the change they report reached the subscribers, from the
// newest options; what they throw is reported as an uncaught error and never stops the session.

import { waitsOnApp } from "chat-session-reducer";
import { callsOfLastTurn } from "./calls.js";

/** The data parts among a run's actions (batches included, nested runs' parts too). */
export function dataPartsOf(actions) {
  const parts = [];
  const pending = [...actions];
  while (pending.length > 0) {
    const action = pending.pop();
    if (action.type === "batch") pending.push(...action.actions);
    else if (action.type === "part" && action.part.type === "data") parts.push(action.part);
  }
  return parts.reverse();
}

function lastAssistantMessage(messages) {
  return messages.findLast((message) => message.role === "assistant");
}

// What a thrown value says, as a tool error's message.
function messageOf(thrown) {
  return thrown instanceof Error ? thrown.message : typeof thrown === "string" ? thrown : String(thrown);
}

/**
 * Runs the app's `onToolCall` for `call`: what it returns (or resolves to) is the call's result,
 * what it throws (or rejects with) the call's error; `undefined` leaves the call to `answer()`.
 * A result that is not JSON is the call's error too. Never throws.
 */
async function runToolCall(onToolCall, call, answer) {
  let output;
  try {
    output = await onToolCall({ toolCall: call });
  } catch (thrown) {
    answer({ type: "tool-error", id: call.id, error: { message: messageOf(thrown) } });
    return;
  }
  if (output === undefined) return;
  try {
    answer({ type: "tool-result", id: call.id, output });
  } catch (thrown) {
    answer({ type: "tool-error", id: call.id, error: { message: `onToolCall: its result is not JSON (${messageOf(thrown)})` } });
  }
}

/**
 * After a run ended (`hook.ended`, hookReducer's): `onFinish({ state, message, id })` (finished,
 * failed, stopped or replaced), `onError(error, { id })` when it failed, and `onToolCall` once for
 * each call of the last turn that waits on the app for its result (`waitsOnApp` says "result"); a
 * call that needs approval is not one (until approved, it waits on the user; approved, it is the
 * agent's). `handed`: the calls given to onToolCall already; `id`: the conversation's.
 */
export function runEnded(hook, options, handed, answer, id) {
  const { ended, failure } = hook;
  const { session } = ended;
  options.onFinish?.({ state: session, message: lastAssistantMessage(session.messages), id });
  if (session.status === "error") {
    options.onError?.(failure?.run === ended.run ? { ...session.error, ...failure.details } : session.error, { id });
  }
  const { onToolCall } = options;
  if (onToolCall === undefined || session.status === "streaming") return;
  for (const call of callsOfLastTurn(session.messages)) {
    if (handed.has(call.id) || waitsOnApp(session, call) !== "result") continue;
    handed.add(call.id);
    void runToolCall(onToolCall, call, answer);
  }
}
