// useAgentSession with the list virtualised by react-virtuoso: its Virtuoso list, rows keyed by
// message id, followOutput keeping the view at the end while the reply grows.
import { forwardRef } from "react";
import { createRoot } from "react-dom/client";
import { Virtuoso } from "react-virtuoso";
import { useAgentSession } from "chat-session-reducer/react";
import { Row } from "./rows.jsx";
import { respond, runPage, threadMessages } from "../harness.js";

const options = { api: respond, protocol: "ai-sdk", initialMessages: threadMessages() };
const session = {};
const List = forwardRef(function List(props, ref) {
  return <ol {...props} ref={ref} data-bench-list="" />;
});
const components = { List };
const keyOf = (index, message) => message.id;
const content = (index, message) => <Row message={message} />;

function App() {
  const chat = useAgentSession(options);
  session.send = chat.send;
  return (
    <Virtuoso
      style={{ height: "100vh" }}
      data={chat.messages}
      components={components}
      computeItemKey={keyOf}
      itemContent={content}
      initialTopMostItemIndex={chat.messages.length - 1}
      followOutput="auto"
    />
  );
}

runPage((root) => {
  createRoot(root).render(<App />);
  return { send: () => session.send("go") };
});
