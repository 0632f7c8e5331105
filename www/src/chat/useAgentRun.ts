// Runs the agent whenever the session is streaming. `send` and `retry` both put the session in
// "streaming" with exactly the messages to send (Retry's are resumable(messages), computed by
// the reducer), so the request starts from state instead of from click handlers. Leaving
// "streaming" (finish, error, Stop, Reset) aborts the request, which stops the server's run.

import { useEffect, useEffectEvent } from "react";
import type { SessionAction, SessionState } from "chat-session-reducer";
import { streamRun } from "./streamRun";

export function useAgentRun(state: SessionState, dispatch: (action: SessionAction) => void): void {
  const streaming = state.status === "streaming";
  const start = useEffectEvent((signal: AbortSignal) => {
    void streamRun(state.messages, dispatch, signal);
  });
  useEffect(() => {
    if (!streaming) return;
    const controller = new AbortController();
    start(controller.signal);
    return () => controller.abort();
  }, [streaming]);
}
