// The session controller's reducer: the session (sessionReducer's state) plus what the hook keeps beside it:
// a count of the runs started, so that the hook starts a request exactly when an action starts
// a run; the conversation's id; whether the current run has streamed anything yet ("submitted");
// the details of its failure; what started the current run (the AI SDK body's `trigger` and
// `messageId`); a record of the last run that ended, for the app's callbacks; and the number of
// a run resumed rather than requested (resume.js).
// Internal actions have symbol types no app can send.

import { sessionReducer } from "chat-session-reducer";
import { someCallWaitsOnApp } from "./calls.js";
import { endsRun, startsNextRun } from "./run.js";

/** Opens a conversation: `{ session, id, opened }` (restored from storage, or the initial one);
 *  `over`, when an asynchronous store answered after the first paint: the session shown then;
 *  `resume`: one stored while it streamed goes on streaming (resume.js), from `runStart` (stored
 *  with it); `live`: the conversation ran in the background (chat-session-reducer/conversations)
 *  and is shown again as it is. */
export const OPEN = Symbol("open");
/** An app action that starts a new conversation (a reset): `{ action, id }`, the new id. */
export const NEW_CONVERSATION = Symbol("new conversation");
export const ANSWER = Symbol("answer");
export const STREAMED = Symbol("streamed");
/** Why the run `run` failed, beyond its error part: `{ run, details }` (HTTP status, body, cause). */
export const FAILED = Symbol("failed");
/** The session another tab stored (chat-session-reducer/tabs): `{ session, id }`, shown as it is,
 *  no run starts or ends here; `resume`: the run a closed tab left, resumed here from `runStart`. */
export const FOLLOW = Symbol("follow");
/** The run `run`'s connection broke and it reconnects (`on`), or a reconnect answered (resume.js). */
export const RECONNECTING = Symbol("reconnecting");

export const EMPTY_SESSION = { messages: [], status: "idle" };

/**
 * The hook's state for a conversation whose session is `session` (the initial one) and id `id`.
 * `opened` names the storage key and id option the session was opened for (undefined until a
 * stored conversation is opened: nothing is saved before, so an initial session never
 * overwrites what is stored). `streamed` is the number of the run that delivered its first
 * action; `ended` is `{ run, session }` for the last run that ended; `resumes` the number of
 * the run resumed (resume.js) rather than requested; `follows`:
 * the session shown is a run another tab streams (chat-session-reducer/tabs). Set later:
 * `reconnecting`, the number of the run reconnecting; `runStart`, the session the current run
 * started from (for a resumed run, the one stored with it, or undefined), saved with it while it
 * streams so that a reload's replay goes onto it (resume.js).
 */
export function initialHookState(session, id) {
  return { session, runs: 0, id, opened: undefined, streamed: 0, failure: undefined, startedBy: undefined, ended: undefined, resumes: undefined, follows: false };
}

/** True for an action that resets the conversation (a `reset`, also inside a batch). */
export function resetsConversation(action) {
  return action.type === "reset" || (action.type === "batch" && action.actions.some(resetsConversation));
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
  if (next === session || next.status === "streaming" || someCallWaitsOnApp(next)) return next;
  return sessionReducer(next, { type: "continue" });
}

const STARTERS = new Set(["send", "edit", "regenerate", "retry", "continue"]);

/**
 * What started a run, as useChat tells its server: `trigger` "regenerate-message" for Retry
 * and regenerate (`messageId`: the reply redone), else "submit-message" (`messageId`: the reply
 * the run continues, after an answer, or the edited message; none for a new message).
 */
export function startedBy(before, after, action) {
  const starter = action.type === "batch" ? action.actions.findLast((inner) => STARTERS.has(inner.type)) : action;
  const last = after.messages.at(-1);
  if (last?.role === "assistant") return { trigger: "submit-message", messageId: last.id };
  if (starter?.type === "retry" || starter?.type === "regenerate") {
    const replaced = before.messages.at(-1);
    const messageId = starter.messageId ?? (replaced?.role === "assistant" ? replaced.id : undefined);
    return messageId === undefined ? { trigger: "regenerate-message" } : { trigger: "regenerate-message", messageId };
  }
  return starter?.type === "edit" ? { trigger: "submit-message", messageId: starter.id } : { trigger: "submit-message" };
}

/** The hook's state with its session now `session` after `action`: a run that started, or ended. */
function withSession(current, session, action) {
  if (session === current.session) return current;
  const starts = startsRun(current.session, session, action);
  const runs = starts ? current.runs + 1 : current.runs;
  // Every run that started ends once: it finished, failed, was stopped, or was replaced (an
  // edit, a regenerate, a queued turn sent as it finished).
  const ended = current.session.status === "streaming" && (session.status !== "streaming" || runs !== current.runs);
  return {
    ...current,
    session,
    runs,
    startedBy: starts ? startedBy(current.session, session, action) : current.startedBy,
    runStart: starts ? session : current.runStart,
    ended: ended ? { run: current.runs, session } : current.ended,
  };
}

/** A conversation restored while it streamed goes on streaming: a run that is resumed, not
 *  requested, from `runStart` (the one stored with it, or undefined). */
function resumed(current, runStart) {
  const next = withSession(current, sessionReducer(current.session, { type: "continue" }), { type: "continue" });
  return next.runs === current.runs ? current : { ...next, resumes: next.runs, runStart };
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
  // The same request, replayed from the same start.
  return sentQueue ? next : { ...next, runs: current.runs, runStart: current.runStart };
}

export function hookReducer(current, action) {
  switch (action.type) {
    case OPEN: {
      // A conversation taken back from the background keeps its state and run: only where it is shown changes.
      if (action.live) return { ...current, id: action.id, opened: action.opened };
      // An action taken on the session shown before the store answered wins: it is kept, with
      // its id, and saved under the key from now on.
      if (action.over !== undefined && action.over !== current.session) return { ...current, opened: action.opened };
      // The run of the conversation left is aborted, not reported: the callbacks are the new one's.
      const opened = withSession({ ...current, id: action.id, opened: action.opened, follows: false }, action.session, action);
      return { ...(action.resume ? resumed(opened, action.runStart) : opened), ended: current.ended };
    }
    case NEW_CONVERSATION:
      return { ...hookReducer(current, action.action), id: action.id };
    case FOLLOW: {
      const shown = { ...current, session: action.session, id: action.id ?? current.id, follows: action.session.status === "streaming" };
      return action.resume ? resumed(shown, action.runStart) : shown;
    }
    case RECONNECTING: {
      const reconnecting = action.on ? action.run : undefined;
      return action.run !== current.runs || current.reconnecting === reconnecting ? current : { ...current, reconnecting };
    }
    case FAILED:
      return action.run === current.runs ? { ...current, failure: { run: action.run, details: action.details } } : current;
    case STREAMED: {
      // What an earlier run's stream delivered after the next run began (an edit while it
      // streamed) belongs to a reply set aside: it must not land in the new one.
      if (action.run !== current.runs) return current;
      return streamed(current.streamed === action.run ? current : { ...current, streamed: action.run }, action.action);
    }
    case ANSWER:
      return withSession(current, answered(current.session, action.answer), action.answer);
    default:
      return withSession(current, sessionReducer(current.session, action), action);
  }
}
