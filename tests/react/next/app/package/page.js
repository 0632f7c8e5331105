"use client";

// The support chat on useAgentSession, over the AI SDK route; ../usechat/page.js is the same
// page on useChat (next.test.mjs drives both with one script and compares them).
import { useState } from "react";
import { waitsOnApp } from "chat-session-reducer";
import { useAgentSession } from "chat-session-reducer/react";

export default function Page() {
  const [ended, setEnded] = useState({ runs: 0, errors: 0 });
  const { state, messages, status, error, send, stop, retry, clearError, approve, deny, answer } = useAgentSession({
    api: "/api/agent",
    protocol: "ai-sdk",
    storageKey: "package-chat",
    onToolCall: ({ toolCall }) => (toolCall.name === "getTimezone" ? { zone: "Europe/Paris" } : undefined),
    onFinish: () => setEnded((ended) => ({ ...ended, runs: ended.runs + 1 })),
    onError: () => setEnded((ended) => ({ ...ended, errors: ended.errors + 1 })),
  });
  const [draft, setDraft] = useState("");
  return (
    <main data-testid="chat" data-status={status}>
      <p data-testid="ended">
        {ended.runs} ended, {ended.errors} failed
      </p>
      {messages.map((message) => (
        <p key={message.id} data-testid="message" data-role={message.role}>
          {message.parts.map((part, index) =>
            part.type === "text" ? (
              <span key={index}>{part.text}</span>
            ) : part.type === "tool" ? (
              <span key={part.id} data-testid="tool" data-state={part.state}>
                {part.name} {JSON.stringify(part.input)}: {part.state} {part.output !== undefined && JSON.stringify(part.output)}
                {part.state === "awaiting-confirmation" && <button onClick={() => approve(part.id)}>Approve</button>}
                {part.state === "awaiting-confirmation" && <button onClick={() => deny(part.id)}>Deny</button>}
                {part.name === "getLocation" && waitsOnApp(state, part) === "result" && <button onClick={() => answer(part.id, { city: "Paris" })}>Share location</button>}
              </span>
            ) : null,
          )}
        </p>
      ))}
      {status === "submitted" && <p>Thinking…</p>}
      {error && (
        <p role="alert">
          {error.message} <button onClick={retry}>Retry</button> <button onClick={clearError}>Dismiss</button>
        </p>
      )}
      {/* Keyed: without a key React turns the Stop button into the submit button during its click, and the click submits. */}
      <form onSubmit={(event) => (event.preventDefault(), send(draft), setDraft(""))}>
        <input aria-label="Message" value={draft} onChange={(event) => setDraft(event.target.value)} />
        {status === "submitted" || status === "streaming" ? (
          <button key="stop" type="button" onClick={stop}>
            Stop
          </button>
        ) : (
          <button key="send">Send</button>
        )}
      </form>
    </main>
  );
}
