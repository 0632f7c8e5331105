// A run's frames folded into the conversation's state on the server, by the rules the client reads
// them with (src/session/run.js's readReply): the same translator, the same checked actions, the
// frame that ends the run ending it, a malformed frame failing it with the client's own words, a
// body that ends early failing it as the client fails it. So the state stored is the state the
// client folds from the same bytes.

import { sessionReducer } from "chat-session-reducer";
import { CLOSED_EARLY, actionsOf, endsRun, failureOf, runFailed, startsNextRun } from "../session/run.js";

const asOne = (actions) => (actions.length === 1 ? actions[0] : { type: "batch", actions });

/**
 * A fold of one run from `start` (the state after the user's operation). `push(frame)` takes each
 * frame as the client parses it; `end()` when the body ended; `stop()` when the user stopped it.
 * @param {any} protocol a protocol descriptor (translator, severalRuns, name)
 * @param {import("chat-session-reducer").SessionState} start
 */
export function createRunFold(protocol, start) {
  const translate = protocol.translator({ onTransientData() {}, replay: false });
  let state = start;
  // The actions not yet applied: applied together, as one batch, when the state is asked for (a
  // save, a stop), so a chunk costs no call into the reducer, whose cost grows with the
  // conversation once more conversations stream than it keeps indexed.
  let pending = [];
  let frames = 0;
  // Set once the frame that ends the run came (for AG-UI, held until the next frame says whether it
  // starts the response's next run), or the run failed.
  let ended = false;
  /** @type {any[] | undefined} */
  let held;
  const apply = (actions) => {
    for (const action of actions) pending.push(action);
  };
  const applied = () => {
    if (pending.length > 0) state = sessionReducer(state, asOne(pending));
    pending = [];
    return state;
  };
  const endWith = (actions) => {
    held = undefined;
    ended = true;
    apply(actions);
  };
  return {
    get state() {
      return applied();
    },
    /** Frames pushed so far: the run's offset. */
    get frames() {
      return frames;
    },
    /** Whether the run has ended (its end frame came, it failed, or it was stopped). */
    get ended() {
      return ended && held === undefined;
    },
    /** Whether the frame that ends the run came (for AG-UI it may still be held). */
    get endCame() {
      return ended;
    },
    push(frame) {
      const index = frames++;
      if (ended && held === undefined) return;
      let actions;
      try {
        actions = actionsOf(translate, frame, index);
      } catch (error) {
        if (held !== undefined) return endWith(held);
        const { message, code } = failureOf(error, undefined, protocol.name);
        return endWith([runFailed(message, code)]);
      }
      if (held !== undefined) {
        if (!startsNextRun(actions)) return endWith(held);
        actions = [...held, ...actions];
        held = undefined;
        ended = false;
      }
      if (!actions.some(endsRun)) apply(actions);
      else if (protocol.severalRuns) {
        held = actions;
        ended = true;
      } else endWith(actions);
    },
    /** The body ended: a held end is the end; no end at all fails the run as the client fails it. */
    end() {
      if (held !== undefined) endWith(held);
      else if (!ended) endWith([runFailed(CLOSED_EARLY.message, CLOSED_EARLY.code)]);
    },
    /** The user stopped the run where their client was: what it had not applied is dropped. */
    stop() {
      held = undefined;
      ended = true;
      state = sessionReducer(applied(), { type: "stop" });
    },
  };
}

/** The state of a run stopped after its first `offset` frames (re-folded from its start). */
export function foldStopped(protocol, start, frames, offset) {
  const fold = createRunFold(protocol, start);
  for (const frame of frames.slice(0, offset)) fold.push(frame);
  fold.stop();
  return fold.state;
}
