// Collects the actions a stream delivers and dispatches them together, once per animation frame
// (or per `throttle` milliseconds): a fast stream then costs one render and one call into the
// reducer per frame, not one per chunk.

/** One action for a list of them: the action itself when there is one, else a `batch`. */
export function asOneAction(actions) {
  return actions.length === 1 ? actions[0] : { type: "batch", actions };
}

function scheduler(throttle) {
  if (throttle === "frame" && typeof requestAnimationFrame === "function") {
    return { start: (flush) => requestAnimationFrame(flush), cancel: (handle) => cancelAnimationFrame(handle) };
  }
  // No frames outside a page (a test runner, a worker): about one a frame's time.
  const delay = throttle === "frame" ? 16 : throttle;
  return { start: (flush) => setTimeout(flush, delay), cancel: (handle) => clearTimeout(handle) };
}

/**
 * A queue for one run. `push(actions)` queues them and schedules a flush; `take()` empties the
 * queue without dispatching (Stop applies what arrived before it in the same batch); `close()`
 * drops what is queued (the run was aborted: its late actions must not land).
 * @param {(action: import("chat-session-reducer").SessionAction) => void} dispatch
 * @param {number | "frame"} [throttle]
 */
export function createFrameQueue(dispatch, throttle = "frame") {
  const { start, cancel } = scheduler(throttle);
  let pending = [];
  let handle;
  const flush = () => {
    handle = undefined;
    const actions = take();
    if (actions.length > 0) dispatch(asOneAction(actions));
  };
  function take() {
    if (handle !== undefined) cancel(handle);
    handle = undefined;
    const actions = pending;
    pending = [];
    return actions;
  }
  return {
    push(actions) {
      if (actions.length === 0) return;
      pending.push(...actions);
      if (handle === undefined) handle = start(flush);
    },
    take,
    close() {
      take();
    },
  };
}
