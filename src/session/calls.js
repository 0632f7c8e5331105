// Where the calls are: the controller's callbacks and answers, and the thread list's `waiting`
// (chat-session-reducer/conversations), read them through the one walk of the call tree here.

import { waitsOnApp } from "chat-session-reducer";

/**
 * The tool parts under `messages`, those of sub-agent runs included; with `lastTurn`, only those
 * after the last user message at the top (where every call still open is: a send cancels the
 * calls left open). A walk with a stack, not recursion, so no nesting depth can overflow it.
 */
function* callsIn(messages, lastTurn) {
  const runs = [{ messages, turn: lastTurn }];
  for (let run = runs.pop(); run !== undefined; run = runs.pop()) {
    const start = run.turn ? run.messages.findLastIndex((message) => message.role === "user") + 1 : 0;
    for (const message of run.messages.slice(start)) {
      for (const part of message.parts) {
        if (part.type !== "tool") continue;
        yield part;
        if (part.agent !== undefined) runs.push({ messages: part.agent.messages, turn: false });
      }
    }
  }
}

/** The tool parts of the last turn, sub-agents' included. */
export const callsOfLastTurn = (messages) => [...callsIn(messages, true)];

/** The tool part of call `callId` anywhere in `messages`, or undefined. */
export function findCall(messages, callId) {
  for (const part of callsIn(messages, false)) if (part.id === callId) return part;
  return undefined;
}

/** Whether a call of the session waits on the app: an approval, a question or a client-side tool. */
export function someCallWaitsOnApp(session) {
  return callsOfLastTurn(session.messages).some((part) => waitsOnApp(session, part) !== undefined);
}
