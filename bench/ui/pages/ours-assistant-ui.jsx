// Our assistant-ui runtime (chat-session-reducer/assistant-ui's useAgentSessionRuntime, on
// useExternalStoreRuntime) on the same stream, rendered with the same assistant-ui primitives as
// assistant-ui-ai-sdk.jsx, saving to the package's IndexedDB store, each save timed.
import { createRoot } from "react-dom/client";
import { AssistantRuntimeProvider, MessagePrimitive, ThreadPrimitive } from "@assistant-ui/react";
import { useAgentSessionRuntime } from "chat-session-reducer/assistant-ui";
import { indexedDBStore } from "chat-session-reducer/indexeddb";
import { STORAGE, THREAD, respond, runPage, threadMessages, timedStore, timedWebStorage } from "../harness.js";

const storage = STORAGE === "session" ? timedWebStorage(sessionStorage) : timedStore(indexedDBStore());
const options = { api: respond, protocol: "ai-sdk", initialMessages: threadMessages(), storageKey: `bench-${THREAD}-${Math.random()}`, storage };
const app = {};

// The text as the other pages show it (assistant-ui's default text adds a " ●" while it runs).
const Text = ({ text }) => <p>{text}</p>;
const Message = () => (
  <MessagePrimitive.Root>
    <MessagePrimitive.Parts components={{ Text }} />
  </MessagePrimitive.Root>
);

function App() {
  const runtime = useAgentSessionRuntime(options);
  app.runtime = runtime;
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <div data-bench-list="">
        <ThreadPrimitive.Messages components={{ Message }} />
      </div>
    </AssistantRuntimeProvider>
  );
}

runPage((root) => {
  createRoot(root).render(<App />);
  return { send: () => app.runtime.thread.append({ role: "user", content: [{ type: "text", text: "go" }] }) };
});
