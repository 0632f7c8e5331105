// Whether an open call waits on the app (issue 22): a UI calls it per tool part per render, so
// it reads the state in JavaScript and never enters the module.

/**
 * Whether the run holding the call `id` and every run around it have stopped streaming: then
 * no agent is at work that could still answer the call. A walk with a stack, not recursion, so
 * no nesting depth can overflow it; a streaming run is not entered (a call in it is the agent's).
 */
function heldByStoppedRuns(state, id) {
  if (state.status === "streaming") return false;
  const runs = [state.messages];
  while (runs.length > 0) {
    const messages = runs.pop();
    // From the end: an open call is in the last turn (a send cancels the calls left open).
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      for (const part of messages[index].parts) {
        if (part.type !== "tool") continue;
        if (part.id === id) return true;
        if (part.agent !== undefined && part.agent.status !== "streaming") runs.push(part.agent.messages);
      }
    }
  }
  return false;
}

/** @type {typeof import("chat-session-reducer").waitsOnApp} */
export function waitsOnApp(state, part) {
  if (part?.type !== "tool") return undefined;
  // A policy's approval (automatic) is decided without the user.
  if (part.state === "awaiting-confirmation") return part.approval?.automatic === true ? undefined : "confirmation";
  // An approved call is the agent's to run when it goes on; a call with a sub-agent run is the
  // agent's too (a call inside that run may wait on the app).
  if (part.state !== "running" || part.approval?.approved === true || part.agent !== undefined) return undefined;
  return heldByStoppedRuns(state, part.id) ? "result" : undefined;
}
