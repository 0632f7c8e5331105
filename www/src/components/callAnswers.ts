import { createContext } from "react";
import type { JsonValue, SessionState } from "chat-session-reducer";

/** What a tool call's buttons do: the hook's answers (the agent goes on once no call waits), and
 *  the session they answer in (for `waitsOnApp`). */
export interface CallAnswers {
  state: SessionState;
  approve(callId: string): void;
  deny(callId: string): void;
  answer(callId: string, output: JsonValue): void;
}

/** The answers, or null while the agent is still streaming (a call waits only once the run paused). */
export const CallAnswersContext = createContext<CallAnswers | null>(null);
