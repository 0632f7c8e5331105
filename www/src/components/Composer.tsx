import { useState } from "react";
import type { FormEvent } from "react";
import type { QueuedMessage } from "chat-session-reducer";

/** Prompts that pick each of the scripted agent's scenarios (see www/agent/scenarios.mjs). */
const SUGGESTIONS = [
  "Hello!",
  "Delete the old drafts",
  "Research WebAssembly",
  "Write a haiku to a file",
  "Book a table",
  "What's the weather in Lisbon?",
  "Tell me a long story",
];

interface ComposerProps {
  streaming: boolean;
  /** The messages sent while the reply streams: they go out when it ends. */
  queue: readonly QueuedMessage[];
  onSend: (text: string) => void;
  onStop: () => void;
  onUnqueue: (id: string) => void;
}

export function Composer({ streaming, queue, onSend, onStop, onUnqueue }: ComposerProps) {
  const [draft, setDraft] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (text === "") return;
    // While a reply streams, the hook queues the message.
    onSend(text);
    setDraft("");
  };
  return (
    <form className="composer" onSubmit={submit}>
      <div className="suggestions" aria-label="Try">
        {SUGGESTIONS.map((suggestion) => (
          <button key={suggestion} type="button" className="chip" onClick={() => setDraft(suggestion)}>
            {suggestion}
          </button>
        ))}
      </div>
      <div className="composer-row">
        <input
          data-testid="composer"
          aria-label="Message"
          placeholder={streaming ? "Queue a message for when the reply ends" : "Message the agent"}
          autoComplete="off"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        {streaming && (
          <button type="button" data-testid="stop" onClick={onStop}>
            Stop
          </button>
        )}
        <button type="submit" className="primary" data-testid="send" disabled={draft.trim() === ""}>
          Send
        </button>
      </div>
      {queue.length > 0 && (
        <ul className="queue" data-testid="queue">
          {queue.map((queued) => (
            <li key={queued.id} data-testid="queued">
              <span className="queued-text">queued: {queued.text}</span>
              <button type="button" className="link" data-testid="unqueue" aria-label={`Remove "${queued.text}" from the queue`} onClick={() => onUnqueue(queued.id)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
