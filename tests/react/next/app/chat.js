"use client";

import { useState } from "react";
import { useAgentSession } from "chat-session-reducer/react";

export function Chat() {
  const { messages, status, error, send, stop } = useAgentSession({ api: "/api/chat", storageKey: "next-chat" });
  const [draft, setDraft] = useState("");
  return (
    <section data-testid="chat" data-status={status}>
      <p data-testid="count">{messages.length} messages</p>
      <ol>
        {messages.map((message) => (
          <li key={message.id} data-testid="message" data-role={message.role}>
            {message.parts.map((part, index) =>
              part.type === "text" ? (
                <span key={index}>{part.text}</span>
              ) : part.type === "tool" ? (
                <span key={part.id} data-testid="tool-call" data-name={part.name} data-state={part.state}>
                  {part.name}: {part.state}
                </span>
              ) : null,
            )}
          </li>
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
      <input data-testid="composer" aria-label="Message" value={draft} onChange={(event) => setDraft(event.target.value)} />
      {status === "streaming" ? (
        <button data-testid="stop" onClick={stop}>
          Stop
        </button>
      ) : (
        <button data-testid="send" onClick={() => (send(draft), setDraft(""))}>
          Send
        </button>
      )}
    </section>
  );
}
