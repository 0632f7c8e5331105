// useAgentSession with the list virtualised by TanStack Virtual (@tanstack/react-virtual): only
// the rows in view (and a few more) are in the DOM, each measured, and the view pinned to the end.
import { useLayoutEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useAgentSession } from "chat-session-reducer/react";
import { Row } from "./rows.jsx";
import { respond, runPage, threadMessages } from "../harness.js";

const options = { api: respond, protocol: "ai-sdk", initialMessages: threadMessages() };
const session = {};

function VirtualRows({ messages }) {
  const scroller = useRef(null);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 40,
    getItemKey: (index) => messages[index].id,
    overscan: 4,
  });
  // Pinned: each change keeps the newest row's end in view.
  useLayoutEffect(() => virtualizer.scrollToIndex(messages.length - 1, { align: "end" }), [messages, virtualizer]);
  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scroller} style={{ height: "100vh", overflow: "auto" }}>
      <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
        <ol data-bench-list="" style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${items[0]?.start ?? 0}px)` }}>
          {items.map((item) => (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement}>
              <Row message={messages[item.index]} />
            </div>
          ))}
        </ol>
      </div>
    </div>
  );
}

function App() {
  const chat = useAgentSession(options);
  session.send = chat.send;
  return <VirtualRows messages={chat.messages} />;
}

runPage((root) => {
  createRoot(root).render(<App />);
  return { send: () => session.send("go") };
});
