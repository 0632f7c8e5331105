// A chat on useAgentSession, as a Vite app writes it. For the test it counts, per message, how
// often its memoised row commits (window.rowCommits), and the animation frames so far
// (window.frames).
import { StrictMode, memo, useLayoutEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { useAgentSession } from "chat-session-reducer/react";

window.rowCommits = {};
window.frames = 0;
requestAnimationFrame(function tick() {
  window.frames += 1;
  requestAnimationFrame(tick);
});

const Row = memo(function Row({ message }) {
  useLayoutEffect(() => {
    window.rowCommits[message.id] = (window.rowCommits[message.id] ?? 0) + 1;
  });
  const text = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  return (
    <li data-testid="message" data-role={message.role} data-id={message.id}>
      {text}
    </li>
  );
});

function Chat() {
  const { messages, status, error, send, stop } = useAgentSession({ api: "/api/chat" });
  const [draft, setDraft] = useState("");
  return (
    <main data-status={status}>
      <ol>
        {messages.map((message) => (
          <Row key={message.id} message={message} />
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
      <input data-testid="composer" value={draft} onChange={(event) => setDraft(event.target.value)} />
      {status === "streaming" ? (
        <button data-testid="stop" onClick={stop}>
          Stop
        </button>
      ) : (
        <button data-testid="send" onClick={() => (send(draft), setDraft(""))}>
          Send
        </button>
      )}
    </main>
  );
}

createRoot(document.getElementById("root")).render(
  <StrictMode>
    <Chat />
  </StrictMode>,
);
