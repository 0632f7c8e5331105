"use client";

// The support chat of ../package/page.js written on the AI SDK's useChat, persistence by hand
// (useChat keeps nothing across a reload): the page the package's is measured against.
import { useEffect, useState } from "react";
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls } from "ai";

const transport = new DefaultChatTransport({ api: "/api/agent" });
const answered = (options) => lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options);

export default function Page() {
  const [ended, setEnded] = useState({ runs: 0, errors: 0 });
  const { messages, setMessages, status, error, sendMessage, stop, regenerate, clearError, addToolApprovalResponse, addToolOutput } = useChat({
    id: "usechat-chat",
    transport,
    sendAutomaticallyWhen: answered,
    onToolCall: ({ toolCall }) => {
      if (toolCall.toolName === "getTimezone") addToolOutput({ tool: "getTimezone", toolCallId: toolCall.toolCallId, output: { zone: "Europe/Paris" } });
    },
    onFinish: () => setEnded((ended) => ({ ...ended, runs: ended.runs + 1 })),
    onError: () => setEnded((ended) => ({ ...ended, errors: ended.errors + 1 })),
  });
  const [draft, setDraft] = useState("");
  useEffect(() => {
    const stored = sessionStorage.getItem("usechat-chat");
    if (stored) setMessages(JSON.parse(stored));
  }, [setMessages]);
  useEffect(() => sessionStorage.setItem("usechat-chat", JSON.stringify(messages)), [messages]);
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
            ) : part.type.startsWith("tool-") ? (
              <span key={part.toolCallId} data-testid="tool" data-state={part.state}>
                {part.type.slice(5)} {JSON.stringify(part.input)}: {part.state} {part.output !== undefined && JSON.stringify(part.output)}
                {part.state === "approval-requested" && <button onClick={() => addToolApprovalResponse({ id: part.approval.id, approved: true })}>Approve</button>}
                {part.state === "approval-requested" && <button onClick={() => addToolApprovalResponse({ id: part.approval.id, approved: false })}>Deny</button>}
                {part.type === "tool-getLocation" && part.state === "input-available" && (
                  <button onClick={() => addToolOutput({ tool: "getLocation", toolCallId: part.toolCallId, output: { city: "Paris" } })}>Share location</button>
                )}
              </span>
            ) : null,
          )}
        </p>
      ))}
      {status === "submitted" && <p>Thinking…</p>}
      {error && (
        <p role="alert">
          {error.message} <button onClick={() => regenerate()}>Retry</button> <button onClick={clearError}>Dismiss</button>
        </p>
      )}
      {/* Keyed: without a key React turns the Stop button into the submit button during its click, and the click submits. */}
      <form onSubmit={(event) => (event.preventDefault(), sendMessage({ text: draft }), setDraft(""))}>
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
