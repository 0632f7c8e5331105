// What the hook's jsdom tests (resume, conversations, tabs) share: waiting for the page under React's act.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `until(predicate, what)`, polling every `step` ms under `act` for at most `timeout` ms; then it fails naming `what`. */
export function untilUnder(act, { timeout = 5000, step = 2 } = {}) {
  return async (predicate, what) => {
    for (let waited = 0; waited < timeout; waited += step) {
      if (predicate()) return;
      await act(() => sleep(step));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
}
