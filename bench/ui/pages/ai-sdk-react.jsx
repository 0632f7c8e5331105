// The AI SDK's useChat (@ai-sdk/react) on the same stream, through its DefaultChatTransport with
// a fetch that serves the harness's bytes. It stores nothing (an app would add its own saving).
import { createRoot } from "react-dom/client";
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { Rows } from "./rows.jsx";
import { mockFetch, runPage, threadMessages } from "../harness.js";

const transport = new DefaultChatTransport({ api: "/chat", fetch: mockFetch });
const messages = threadMessages();
const chat = {};

function App() {
  const { messages: shown, sendMessage } = useChat({ messages, transport });
  chat.send = sendMessage;
  return <Rows messages={shown} />;
}

runPage((root) => {
  createRoot(root).render(<App />);
  return { send: () => chat.send({ text: "go" }) };
});
