// The hook's reducer: the session (sessionReducer's state) plus a count of the runs started, so
// that the hook starts a request exactly when an action starts a run. Four internal actions,
// with symbol types no app can send: restoring a stored session after hydration, resuming it
// (resume.js), answering a call with the continuation the agent needs, and what a run's stream
// delivered.

import { sessionReducer } from "chat-session-reducer";
import { endsRun, startsNextRun } from "./run.js";

export const RESTORE = Symbol("restore");
// A conversation restored while it streamed goes on streaming; its run is resumed (resume.js).
export const RESUME = Symbol("resume");
export const ANSWER = Symbol("answer");
export const STREAMED = Symbol("streamed");

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

// Actions after which a session still streaming streams a new run: they end the run or start it
// over. A `finish` that sends the queue ends the run and the reducer starts the next at once.
const RESTARTING = new Set(["retry", "edit", "regenerate", "stop", "reset"]);

function endsOrRestartsRun(action) {
  if (action.type === "batch") return action.actions.some(endsOrRestartsRun);
  return RESTARTING.has(action.type) || endsRun(action);
}

/**
 * A run starts when the reducer leaves the session streaming after an action that found it not
 * streaming, or that ended or restarted the run it streamed (Retry, an edit, a regenerate, a
 * finish that sent the queue). A `send` while streaming only queues: no new run.
 */
function startsRun(before, after, action) {
  return after.status === "streaming" && (before.status !== "streaming" || endsOrRestartsRun(action));
}

function answered(session, answer) {
  const next = sessionReducer(session, answer);
  // After a finished run, the agent goes on once every call it left open has its answer.
  if (next === session || next.status === "streaming" || waitsForUser(next.messages)) return next;
  return sessionReducer(next, { type: "continue" });
}

/**
 * What a run's stream delivered. A stream that goes on with its next run (AG-UI: RUN_STARTED
 * after RUN_FINISHED, a `continue` among its actions) keeps its request: no new run starts,
 * unless the run's finish sent the queue (the agent has not seen the queued messages).
 */
function streamed(current, action) {
  const next = hookReducer(current, action);
  if (next.runs === current.runs || !startsNextRun([action])) return next;
  const sentQueue = current.session.queue !== undefined && next.session.queue === undefined;
  return sentQueue ? next : { ...next, runs: current.runs };
}

export function hookReducer(current, action) {
  if (action.type === RESTORE) return { session: action.session, runs: current.runs };
  if (action.type === RESUME) {
    const next = hookReducer(current, { type: "continue" });
    return next === current ? current : { ...next, resumes: next.runs };
  }
  // What an earlier run's stream delivered after the next run began (an edit while it streamed)
  // belongs to a reply set aside: it must not land in the new one.
  if (action.type === STREAMED) return action.run === current.runs ? streamed(current, action.action) : current;
  const session = action.type === ANSWER ? answered(current.session, action.answer) : sessionReducer(current.session, action);
  if (session === current.session) return current;
  return { ...current, session, runs: startsRun(current.session, session, action) ? current.runs + 1 : current.runs };
}
