import { Suspense, lazy, useEffect, useMemo, useState } from "react";
import type { SessionErrorCode } from "chat-session-reducer";
import { useAgentSession } from "chat-session-reducer/react";
import type { AgentProtocol } from "chat-session-reducer/react";
import { coordinateTabs } from "chat-session-reducer/tabs";
import { Composer } from "./components/Composer";
import { CallAnswersContext } from "./components/callAnswers";
import { MessageActionsContext } from "./components/messageActions";
import { ThreadList, conversations, threadsOn, useOpenThread } from "./components/ThreadList";
import { MessageList } from "./components/MessageList";

/** Where the conversation lives in sessionStorage: it survives a reload of this tab. */
const STORAGE_KEY = "chat-session-reducer-demo";

/** `?tabs=1` in the address: the conversation in localStorage instead, shared by every tab open on
 *  the demo with it (one request per run, the others follow; chat-session-reducer/tabs). */
const SHARED_BY_TABS = new URLSearchParams(location.search).get("tabs") === "1" ? { storage: localStorage, tabs: coordinateTabs() } : {};

/** The protocols the demo's server speaks, each on its own endpoint (server.mjs). */
const PROTOCOLS: { value: AgentProtocol; label: string }[] = [
  { value: "actions", label: "NDJSON actions (this package's)" },
  { value: "ai-sdk", label: "AI SDK UI message stream" },
  { value: "ag-ui", label: "AG-UI events" },
];

const ERROR_TITLES: Record<SessionErrorCode, string> = {
  network: "Connection problem",
  rate_limited: "Too many requests",
  chat_disabled: "Chat is turned off",
  bad_request: "Request refused",
};

/** The protocol in the address (?protocol=ai-sdk), so a reload keeps it; NDJSON actions by default. */
function protocolInAddress(): AgentProtocol {
  const named = new URLSearchParams(location.search).get("protocol");
  return PROTOCOLS.find((protocol) => protocol.value === named)?.value ?? "actions";
}

/** `?ui=assistant-ui`: the page rendered by assistant-ui's components instead (components/AssistantUiChat.tsx),
 *  a chunk of its own that the default page never downloads. */
const ASSISTANT_UI = new URLSearchParams(location.search).get("ui") === "assistant-ui";
const AssistantUiChat = lazy(() => import("./components/AssistantUiChat").then(({ AssistantUiChat }) => ({ default: AssistantUiChat })));

export function App() {
  return ASSISTANT_UI ? (
    <Suspense>
      <AssistantUiChat protocol={protocolInAddress()} />
    </Suspense>
  ) : (
    <Chat />
  );
}

function Chat() {
  const [protocol, setProtocol] = useState(protocolInAddress);
  useEffect(() => {
    const address = new URL(location.href);
    address.searchParams.set("protocol", protocol);
    history.replaceState(null, "", address);
  }, [protocol]);

  // The hook restores what this tab saved (a question asked after the run still waits; a reply
  // cut by a reload goes on where the protocol can resume, the AI SDK's and AG-UI's, and is
  // stopped otherwise), starts a request on Send, Retry, Edit, Regenerate, each answer that lets
  // the agent go on and when a queued message goes out, streams it into the session, reconnects
  // when the connection drops mid-reply, and saves each change. Stop tells the server (stopApi).
  // With ?threads=1, several conversations: one replying goes on in the background while another is open.
  const [threadId, openThread] = useOpenThread();
  const chat = useAgentSession({
    api: `/api/chat/${protocol}`,
    protocol,
    ...(threadsOn ? { conversations, id: threadId } : { storageKey: STORAGE_KEY }),
    resume: true,
    stopApi: `/api/chat/${protocol}/stop`,
    // Older messages come from the server a page at a time, as the user scrolls up (MessageList).
    history: "/api/conversations",
    ...SHARED_BY_TABS,
  });
  const { state, approve, deny, answer, edit, regenerate, switchBranch } = chat;

  const streaming = state.status === "streaming";
  const answers = useMemo(
    () => ({ state, approve: (callId: string) => approve(callId), deny: (callId: string) => deny(callId), answer }),
    [state, approve, deny, answer],
  );
  const messageActions = useMemo(() => ({ streaming, edit, regenerate, switchBranch }), [streaming, edit, regenerate, switchBranch]);

  const error = state.error;
  const errorTitle = error?.code === undefined ? "Something went wrong" : ERROR_TITLES[error.code];

  return (
    <div className="app">
      <header className="topbar">
        <div>
          <h1>Chat session reducer</h1>
          <p className="subtitle">A scripted agent streamed into useAgentSession, in the protocol of your choice.</p>
        </div>
        <div className="topbar-actions">
          <select aria-label="Protocol" data-testid="protocol" value={protocol} disabled={streaming} onChange={(event) => setProtocol(event.target.value as AgentProtocol)}>
            {PROTOCOLS.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <button type="button" data-testid="reset" onClick={chat.reset}>
            Reset
          </button>
        </div>
      </header>
      {threadsOn && <ThreadList openId={threadId} onOpen={openThread} />}

      <main className="conversation" data-testid="conversation">
        {state.messages.length === 0 ? (
          <p className="empty">Pick a prompt below or type your own. The conversation survives a reload of this tab.</p>
        ) : (
          <CallAnswersContext.Provider value={streaming ? null : answers}>
            <MessageActionsContext.Provider value={messageActions}>
              <MessageList session={state} hasOlder={chat.hasOlder} loadOlder={chat.loadOlder} />
            </MessageActionsContext.Provider>
          </CallAnswersContext.Provider>
        )}
        {streaming && <p className="typing">{chat.status === "submitted" ? "Sent, waiting for the agent…" : "The agent is replying…"}</p>}
      </main>

      {error !== undefined && (
        <div className="error-banner" role="alert" data-testid="error">
          <div>
            <strong>{errorTitle}.</strong> {error.message}
          </div>
          <button type="button" className="primary" data-testid="retry" onClick={chat.retry}>
            Retry
          </button>
        </div>
      )}
      {chat.storageError !== undefined && (
        <p className="notice" role="status">
          This conversation is not being saved: {chat.storageError.message}
        </p>
      )}

      <Composer streaming={streaming} queue={chat.queue} onSend={chat.send} onStop={chat.stop} onUnqueue={chat.unqueue} />
    </div>
  );
}
