// useAgentSession (chat-session-reducer/react) on the AI SDK stream, saving to the package's
// IndexedDB store (or sessionStorage with ?storage=session), each save timed.
import { createRoot } from "react-dom/client";
import { useAgentSession } from "chat-session-reducer/react";
import { indexedDBStore } from "chat-session-reducer/indexeddb";
import { Rows } from "./rows.jsx";
import { STORAGE, THREAD, respond, runPage, threadMessages, timedStore, timedWebStorage } from "../harness.js";

const storage = STORAGE === "session" ? timedWebStorage(sessionStorage) : timedStore(indexedDBStore());
const options = { api: respond, protocol: "ai-sdk", initialMessages: threadMessages(), storageKey: `bench-${THREAD}-${Math.random()}`, storage };
const session = {};

function App() {
  const chat = useAgentSession(options);
  session.send = chat.send;
  return <Rows messages={chat.messages} />;
}

runPage((root) => {
  createRoot(root).render(<App />);
  return { send: () => session.send("go") };
});
