// Where the calls still open are: the hook's callbacks and its answers, and the thread list's
// `waiting` (chat-session-reducer/conversations), read them. No symbol of the hook's here, so
// another subpath may bundle this file.

import { waitsOnApp } from "chat-session-reducer";

/**
 * The tool parts of the last turn (after the last user message), those of sub-agent runs
 * included: where every call still open is (a send cancels the calls left open). A walk with a
 * stack, not recursion, so no nesting depth can overflow it.
 */
export function callsOfLastTurn(messages) {
  const calls = [];
  const runs = [{ messages, turn: true }];
  for (let run = runs.pop(); run !== undefined; run = runs.pop()) {
    const start = run.turn ? run.messages.findLastIndex((message) => message.role === "user") + 1 : 0;
    for (const message of run.messages.slice(start)) {
      for (const part of message.parts) {
        if (part.type !== "tool") continue;
        calls.push(part);
        if (part.agent !== undefined) runs.push({ messages: part.agent.messages, turn: false });
      }
    }
  }
  return calls;
}

/** Whether a call of the session waits on the app: an approval, a question or a client-side tool. */
export function someCallWaitsOnApp(session) {
  return callsOfLastTurn(session.messages).some((part) => waitsOnApp(session, part) !== undefined);
}
