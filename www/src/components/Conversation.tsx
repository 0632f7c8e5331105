import { memo } from "react";
import type { AgentMessage } from "chat-session-reducer";
import { ToolCall } from "./ToolCall";

/** Whether a message has anything to show: AG-UI streams reasoning as a message of its own. */
const shown = (message: AgentMessage) => message.parts.some((part) => part.type === "text" || part.type === "tool");

/** A list of messages: the top-level conversation, or a sub-agent's run inside a tool call. */
export function Conversation({ messages }: { messages: AgentMessage[] }) {
  return (
    <ol className="messages">
      {messages.filter(shown).map((message) => (
        <Message key={message.id} message={message} />
      ))}
    </ol>
  );
}

// The reducer keeps every unchanged message the very same object, so while one reply streams
// only its own row renders again.
const Message = memo(function Message({ message }: { message: AgentMessage }) {
  return (
    <li className={`message message-${message.role}`} data-testid="message" data-role={message.role}>
      {message.parts.map((part, index) => {
        switch (part.type) {
          case "text":
            return (
              <p key={index} className="text">
                {part.text}
              </p>
            );
          case "tool":
            return <ToolCall key={part.id} call={part} />;
          // Reasoning stays in the session (the next request sends it back) but is not shown.
          case "reasoning":
            return null;
        }
      })}
    </li>
  );
});
