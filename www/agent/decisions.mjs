// The tool calls that wait for the user's Approve or Deny, by call id.
// The page posts the decision to POST /api/chat/decision while the chat stream stays open;
// the scripted agent that asked awaits it here.

const waiting = new Map();

/** Resolves to true (approved) or false (denied); rejects when `signal` aborts first. */
export function awaitDecision(callId, signal) {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      waiting.delete(callId);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    waiting.set(callId, (approved) => {
      signal.removeEventListener("abort", onAbort);
      waiting.delete(callId);
      resolve(approved);
    });
  });
}

/** Delivers a decision; false when no call with that id is waiting. */
export function decide(callId, approved) {
  const deliver = waiting.get(callId);
  if (!deliver) return false;
  deliver(approved);
  return true;
}
