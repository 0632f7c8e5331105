import { useState } from "react";
import type { FormEvent } from "react";

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
  onSend: (text: string) => void;
  onStop: () => void;
}

export function Composer({ streaming, onSend, onStop }: ComposerProps) {
  const [draft, setDraft] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (text === "" || streaming) return;
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
          placeholder="Message the agent"
          autoComplete="off"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        {streaming ? (
          <button type="button" data-testid="stop" onClick={onStop}>
            Stop
          </button>
        ) : (
          <button type="submit" className="primary" data-testid="send" disabled={draft.trim() === ""}>
            Send
          </button>
        )}
      </div>
    </form>
  );
}
