// The rows every React page renders the same way: one memoized row per message, keyed by its id, so
// a row renders again only when its message is a new object (both state layers keep unchanged messages).
import { memo } from "react";

export const Row = memo(function Row({ message }) {
  return (
    <li data-role={message.role}>
      {message.parts.map((part, index) => (part.type === "text" ? <p key={index}>{part.text}</p> : null))}
    </li>
  );
});

export function Rows({ messages }) {
  return (
    <ol data-bench-list="">
      {messages.map((message) => (
        <Row key={message.id} message={message} />
      ))}
    </ol>
  );
}
