// The hook's reducer: the session (sessionReducer's state) plus a count of the runs started, so
// that the hook starts a request exactly when an action starts a run. Two internal actions, with
// symbol types no app can send: restoring a stored session after hydration, and answering a
// call with the continuation the agent needs.

import { sessionReducer } from "chat-session-reducer";

export const RESTORE = Symbol("restore");
export const ANSWER = Symbol("answer");

export const EMPTY_SESSION = { messages: [], status: "idle" };

export const initialHookState = { session: EMPTY_SESSION, runs: 0 };

/**
 * Whether a call still waits for the user once the run has finished: a question (awaiting
 * confirmation), or a client-side tool (running with no approved answer: the agent would run an
 * approved call itself when it goes on).
 */
function waitsForUser(messages) {
  const waits = (part) =>
    part.type === "tool" &&
    (part.state === "awaiting-confirmation" ||
      (part.state === "running" && part.approval?.approved !== true) ||
      (part.agent !== undefined && waitsForUser(part.agent.messages)));
  return messages.some((message) => message.parts.some(waits));
}

/** A run starts when the session starts streaming, and again on Retry (the messages changed). */
function startsRun(before, after, action) {
  return after.status === "streaming" && (before.status !== "streaming" || action.type === "retry");
}

function answered(session, answer) {
  const next = sessionReducer(session, answer);
  // After a finished run, the agent goes on once every call it left open has its answer.
  if (next === session || next.status === "streaming" || waitsForUser(next.messages)) return next;
  return sessionReducer(next, { type: "continue" });
}

export function hookReducer(current, action) {
  if (action.type === RESTORE) return { session: action.session, runs: current.runs };
  const session = action.type === ANSWER ? answered(current.session, action.answer) : sessionReducer(current.session, action);
  if (session === current.session) return current;
  return { session, runs: startsRun(current.session, session, action) ? current.runs + 1 : current.runs };
}
