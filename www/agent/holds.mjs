// The end-to-end tests' holds on the scripted agent (the demo's server with DEMO_TEST_HOOKS=1): a
// run waits at a named point of its script (`agent.hold(point)` in ./scenarios.mjs) until the test
// releases it, so a test acts at the moment of a reply it chose instead of racing the agent's pace.
// A hold is armed for one run: the first that reaches the point waits there; it says so on the
// server's output ("test: <run>: held at <point>"), and the run's abort (Stop, a closed page)
// ends the wait as it ends a pause.

/** The armed holds; `log(line)` prints what the tests wait for. */
export function createHolds(log) {
  // point -> { reached, release(), gate: a promise release() resolves }
  const armed = new Map();

  return {
    /** Arms a hold at `point` for the next run that reaches it. */
    hold(point) {
      let release;
      const gate = new Promise((resolve) => (release = resolve));
      armed.set(point, { reached: false, release, gate });
    },
    /** Lets the run held at `point` go on (a hold not reached yet is disarmed); every hold when `point` is undefined. */
    release(point) {
      for (const [name, entry] of armed) {
        if (point !== undefined && name !== point) continue;
        entry.release();
        armed.delete(name);
      }
    },
    /** What a run's `agent.hold(point)` waits for: nothing unless a hold is armed there. */
    async at(point, runName, signal) {
      const entry = armed.get(point);
      if (entry === undefined || entry.reached) return;
      entry.reached = true;
      log(`test: ${runName}: held at ${point}`);
      await untilAborted(entry.gate, signal);
    },
  };
}

function untilAborted(promise, signal) {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
