// bench/ui/memory.mjs's page: 50 conversations of 10,000 messages with 2,000 finished tool calls
// each, kept in a Web Storage object held in memory (its texts are what the store holds), shown
// one at a time by useAgentSession with chat-session-reducer/conversations, switched by `show`.
import { memo, useState } from "react";
import { createRoot } from "react-dom/client";
import { saveSession } from "chat-session-reducer";
import { useAgentSession } from "chat-session-reducer/react";
import { createConversations } from "chat-session-reducer/conversations";

const MESSAGES = 10_000;
const CONVERSATIONS = Number(new URLSearchParams(location.search).get("conversations") ?? 50);

/** Conversation `c`: user and assistant in turn; every fifth message an answer with a finished call (2,000 calls). */
function conversation(c) {
  const messages = [];
  for (let i = 0; i < MESSAGES; i++) {
    const parts = [{ type: "text", text: `${c}/${i}: The quick brown fox jumps over the lazy dog.` }];
    if (i % 5 === 1) parts.push({ type: "tool", id: `c${c}t${i}`, name: "search", input: { query: `fox ${i}` }, state: "done", output: { hits: [`result ${i}a`, `result ${i}b`] } });
    messages.push({ id: `c${c}m${i}`, role: i % 2 === 0 ? "user" : "assistant", parts });
  }
  return { messages, status: "idle" };
}

const texts = new Map();
const storage = { getItem: (key) => texts.get(key) ?? null, setItem: (key, value) => void texts.set(key, String(value)), removeItem: (key) => void texts.delete(key) };
const conversations = createConversations({ storage });
for (let c = 0; c < CONVERSATIONS; c++) saveSession(conversations.keyOf(`conv${c}`), conversation(c), storage);

const Row = memo(function Row({ message }) {
  return (
    <li data-id={message.id}>
      {message.parts.map((part, index) => (part.type === "text" ? <p key={index}>{part.text}</p> : part.type === "tool" ? <code key={part.id}>{part.name}: {part.state}</code> : null))}
    </li>
  );
});

const app = {};
function App() {
  const [id, setId] = useState("conv0");
  app.show = setId;
  const chat = useAgentSession({ api: "/never", conversations, id });
  return (
    <ol data-bench-list="">
      {chat.messages.map((message) => (
        <Row key={message.id} message={message} />
      ))}
    </ol>
  );
}

createRoot(document.getElementById("root")).render(<App />);
const shown = (c) => document.querySelector("[data-bench-list]")?.firstElementChild?.dataset.id === `c${c}m0`;
window.memory = {
  conversations: CONVERSATIONS,
  /** The characters the storage holds (one byte each: they are ASCII). */
  storedChars: () => [...texts.values()].reduce((sum, text) => sum + text.length, 0),
  /** Shows conversation `c` and resolves once its rows are in the DOM. */
  async show(c) {
    app.show(`conv${c}`);
    while (!shown(c) || document.querySelector("[data-bench-list]").childElementCount < MESSAGES) await new Promise(requestAnimationFrame);
  },
};
