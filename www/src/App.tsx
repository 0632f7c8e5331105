import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { persistSession, restoreSession, sessionReducer } from "chat-session-reducer";
import type { SessionErrorCode, ToolPart } from "chat-session-reducer";
import { decide } from "./chat/decide";
import { newId } from "./chat/ids";
import { useAgentRun } from "./chat/useAgentRun";
import { Composer } from "./components/Composer";
import { Conversation } from "./components/Conversation";
import { DecisionContext } from "./components/decisionContext";

/** Where the conversation lives in sessionStorage: it survives a reload of this tab. */
const STORAGE_KEY = "chat-session-reducer-demo";

const ERROR_TITLES: Record<SessionErrorCode, string> = {
  network: "Connection problem",
  rate_limited: "Too many requests",
  chat_disabled: "Chat is turned off",
  bad_request: "Request refused",
};

export function App() {
  // restoreSession loads what this tab saved, with stop applied: nothing shows as running.
  const [state, dispatch] = useReducer(sessionReducer, STORAGE_KEY, restoreSession);
  const [storageProblem, setStorageProblem] = useState<string>();
  useEffect(() => {
    setStorageProblem(persistSession(STORAGE_KEY, state)?.message);
  }, [state]);
  useAgentRun(state, dispatch);

  const streaming = state.status === "streaming";
  const onDecide = useCallback((call: ToolPart, approved: boolean) => void decide(call, approved, dispatch), []);
  const liveDecisions = streaming ? onDecide : null;

  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [state.messages]);

  const error = state.error;
  const errorTitle = error?.code === undefined ? "Something went wrong" : ERROR_TITLES[error.code];

  return (
    <div className="app">
      <header className="topbar">
        <div>
          <h1>Chat session reducer</h1>
          <p className="subtitle">A scripted agent, streamed over NDJSON into useReducer(sessionReducer).</p>
        </div>
        <button type="button" data-testid="reset" onClick={() => dispatch({ type: "reset" })}>
          Reset
        </button>
      </header>

      <main className="conversation" data-testid="conversation">
        {state.messages.length === 0 ? (
          <p className="empty">Pick a prompt below or type your own. The conversation survives a reload of this tab.</p>
        ) : (
          <DecisionContext.Provider value={liveDecisions}>
            <Conversation messages={state.messages} />
          </DecisionContext.Provider>
        )}
        {streaming && <p className="typing">The agent is replying…</p>}
        <div ref={end} />
      </main>

      {error !== undefined && (
        <div className="error-banner" role="alert" data-testid="error">
          <div>
            <strong>{errorTitle}.</strong> {error.message}
          </div>
          <button type="button" className="primary" data-testid="retry" onClick={() => dispatch({ type: "retry" })}>
            Retry
          </button>
        </div>
      )}
      {storageProblem !== undefined && (
        <p className="notice" role="status">
          This conversation is not being saved: {storageProblem}
        </p>
      )}

      <Composer
        streaming={streaming}
        onSend={(text) => dispatch({ type: "send", id: newId("user"), text })}
        onStop={() => dispatch({ type: "stop" })}
      />
    </div>
  );
}
