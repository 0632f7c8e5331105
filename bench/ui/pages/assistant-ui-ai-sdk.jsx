// assistant-ui's own AI SDK runtime (@assistant-ui/react-ai-sdk's useChatRuntime) on the same
// stream, rendered with assistant-ui's primitives (ThreadPrimitive.Messages, MessagePrimitive).
import { createRoot } from "react-dom/client";
import { AssistantRuntimeProvider, MessagePrimitive, ThreadPrimitive } from "@assistant-ui/react";
import { useChatRuntime } from "@assistant-ui/react-ai-sdk";
import { DefaultChatTransport } from "ai";
import { mockFetch, runPage, threadMessages } from "../harness.js";

const transport = new DefaultChatTransport({ api: "/chat", fetch: mockFetch });
const messages = threadMessages();
const app = {};

// The text as the other pages show it (assistant-ui's default text adds a " ●" while it runs).
const Text = ({ text }) => <p>{text}</p>;
const Message = () => (
  <MessagePrimitive.Root>
    <MessagePrimitive.Parts components={{ Text }} />
  </MessagePrimitive.Root>
);

function App() {
  const runtime = useChatRuntime({ messages, transport });
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
