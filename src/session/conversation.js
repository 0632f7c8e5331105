// One conversation's live side, whoever shows it: its state (session-state.js), the run it
// streams, its saves and the app's callbacks. Every change goes through `dispatch`, and whether a
// run starts or stops is decided in one place from the reducer's answer (`runNow`): a run streams
// while the session streams, this tab does not follow another's, and someone holds the
// conversation (a subscribed controller, or a store of conversations in the background).
//
// Its owner (index.js's controller, or src/conversations' store) gives `options()` (the newest,
// with the conversation's storage key), `tabs()` (the tabs coordinator's connection, if any),
// `serverStop()` (the Stop being told to the server, if any, which its next request waits for),
// `shows(state)` (whether what it holds is the conversation those options name: only then is
// it saved) and `changed()`, called after each change.

import { checkAction } from "chat-session-reducer";
import { dataPartsOf, runEnded } from "./callbacks.js";
import { createFrameQueue } from "./frame-queue.js";
import { runReply } from "./resume.js";
import { createSaver } from "./saver.js";
import { ANSWER, FAILED, RECONNECTING, STREAMED, hookReducer } from "./session-state.js";

/** Calls `onData` outside the stream's reading: what it throws is the app's, reported as an
 *  uncaught error, and never ends the run. */
function toApp(onData, part) {
  queueMicrotask(() => onData(part));
}

/** What the app's callback threw, reported as uncaught without stopping what the session does. */
function reportLater(thrown) {
  queueMicrotask(() => {
    throw thrown;
  });
}

/**
 * Starts run number `run` of `request` (`{ options, session, chatId, startedBy, runStart }`), read into a
 * frame queue that dispatches its actions tagged with the run. The request is sent a microtask
 * later, so a run stopped at once (React Strict Mode's second mount) sends nothing. `resumed`: the
 * run is one the server still produces, reconnected to (resume.js); `tabs`: the tabs
 * coordinator's connection, whose stream lock gates the request.
 */
function startRun(request, run, dispatch, onData, resumed, tabs, serverStop) {
  const controller = new AbortController();
  const queue = createFrameQueue((action) => dispatch({ type: STREAMED, run, action }), request.options.throttle);
  let replyEnded = false;
  // Where the client is in the run, as the server counts (run.js): its id and the frames applied.
  const position = { run: undefined, frames: 0 };
  const report = {
    position,
    deliver(actions) {
      for (const part of dataPartsOf(actions)) toApp(onData, part);
      queue.push(actions);
    },
    ended: () => (replyEnded = true),
    failed: (details) => dispatch({ type: FAILED, run, details }),
    transient: (part) => toApp(onData, part),
    reconnecting: (on) => dispatch({ type: RECONNECTING, run, on }),
  };
  const send = () => void runReply(request, controller, report, resumed);
  const go = () => {
    if (controller.signal.aborted) return;
    if (tabs === undefined) send();
    else tabs.gate(send, controller.signal);
  };
  // After a Stop the server is told of, the next request waits for its answer (bounded), so a
  // server of several instances has stored the stop before another instance reads the conversation.
  if (serverStop === undefined) queueMicrotask(go);
  else {
    let timer;
    const bound = new Promise((resolve) => (timer = setTimeout(resolve, STOP_FIRST_MS)));
    void Promise.race([serverStop, bound]).then(() => {
      clearTimeout(timer);
      go();
    });
  }
  return {
    number: run,
    queue,
    position,
    stop() {
      queue.close();
      tabs?.release();
      // A reply that ended is not aborted: the server would take it for the user's Stop.
      if (!replyEnded) controller.abort();
    },
  };
}

/** How long a request waits for the answer to the Stop before it (see startRun). */
const STOP_FIRST_MS = 5_000;

/** The action of the user's answer `part` (an approval, a tool's result or error). */
export const answerAction = (part) => ({ type: ANSWER, answer: checkAction({ type: "part", part }) });

/**
 * A conversation whose state is `state` (initialHookState's), held by `owner` (see the top).
 * @param {any} state
 * @param {{ options: () => any, tabs: () => any, serverStop?: () => Promise<void> | undefined, shows: (state: any) => boolean, changed: () => void }} owner
 */
export function createConversation(state, owner) {
  let held = false;
  /** @type {ReturnType<typeof startRun> | undefined} */
  let run;
  /** @type {{ key: string, storage: unknown, saver: ReturnType<typeof createSaver> } | undefined} */
  let saving;
  let storageError;
  // The calls given to onToolCall already: each once.
  const handed = new Set();
  // Actions dispatched while one is applied (by a callback) are applied after it, in order.
  const pending = [];
  let applying = false;

  const idOf = () => owner.options().id ?? state.id;

  function runNow() {
    const wanted = held && state.session.status === "streaming" && !state.follows;
    if (run !== undefined && (!wanted || run.number !== state.runs)) {
      run.stop();
      run = undefined;
    }
    if (!wanted || run !== undefined) return;
    const options = owner.options();
    const request = { options, session: state.session, chatId: idOf(), startedBy: state.startedBy, runStart: state.runStart };
    run = startRun(request, state.runs, dispatch, (part) => owner.options().onData?.(part), state.resumes === state.runs, owner.tabs(), owner.serverStop?.());
  }

  function saveShown() {
    if (!owner.shows(state)) return;
    const { storageKey, storage } = state.opened;
    if (storageKey === undefined) return;
    if (saving === undefined || saving.key !== storageKey || saving.storage !== storage) {
      saving?.saver.close();
      const report = (failure) => {
        if (storageError?.message === failure?.message) return;
        storageError = failure;
        owner.changed();
      };
      saving = { key: storageKey, storage, saver: createSaver(storageKey, storage, report, owner.tabs) };
    }
    saving.saver.due(state.session, idOf(), state.runStart);
  }

  function apply(action) {
    const before = state;
    state = hookReducer(before, action);
    if (state === before) return;
    runNow();
    // The tabs that follow this one's run are given its frames as they are applied (chat-session-reducer/tabs).
    if (state.session !== before.session && !state.follows) owner.tabs()?.applied(state.session, action.type === STREAMED ? action.action : undefined);
    if (state.session !== before.session || state.id !== before.id || state.opened !== before.opened) saveShown();
    owner.changed();
    if (state.ended === before.ended) return;
    try {
      runEnded(state, owner.options(), handed, (part) => dispatch(answerAction(part)), idOf());
    } catch (thrown) {
      reportLater(thrown);
    }
  }

  function dispatch(action) {
    pending.push(action);
    if (applying) return;
    applying = true;
    try {
      for (let next = pending.shift(); next !== undefined; next = pending.shift()) apply(next);
    } finally {
      applying = false;
      pending.length = 0;
    }
  }

  /** Someone holds it from now on (its run streams) or no longer (the run is aborted). */
  function hold(holding) {
    held = holding;
    runNow();
  }

  /** Writes what is due to storage and stops saving until the next change. */
  function closeSaver() {
    saving?.saver.close();
    saving = undefined;
  }

  return {
    dispatch,
    hold,
    closeSaver,
    state: () => state,
    /** The conversation's id: its owner's `id` option, else its own. */
    id: idOf,
    /** Where the client is in the run it streams (a Stop tells the server), if any. */
    position: () => run?.position,
    storageError: () => storageError,
    /** `action` with what the run delivered before it, in one step: a Stop, an edit or a
     *  regenerate keeps all the reply received. */
    afterArrived(action) {
      dispatch({ type: "batch", actions: [...(run?.queue.take() ?? []), action] });
    },
    /** Held from now on by `next` (a store of conversations, or a controller again). */
    handTo(next) {
      owner = next;
    },
    owner: () => owner,
    close() {
      hold(false);
      closeSaver();
    },
  };
}
