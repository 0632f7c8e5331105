// @vitest-environment node
// Server rendering (a Next.js page, say): assistant-ui's thread renders the session's initial
// messages in Node, with no window, no storage and no request.
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { AssistantRuntimeProvider, MessagePrimitive, ThreadPrimitive } from "@assistant-ui/react";
import { useAgentSessionRuntime } from "chat-session-reducer/assistant-ui";
import { expect, test } from "vitest";

const Row = () => h(MessagePrimitive.Root, { className: "row" }, h(MessagePrimitive.Parts));

function Chat() {
  const initialMessages = [
    { id: "u", role: "user", parts: [{ type: "text", text: "rendered on the server" }] },
    { id: "a", role: "assistant", parts: [{ type: "text", text: "and its reply" }] },
  ];
  const runtime = useAgentSessionRuntime({ api: "/api/chat", initialMessages });
  return h(AssistantRuntimeProvider, { runtime }, h(ThreadPrimitive.Root, null, h(ThreadPrimitive.Messages, { components: { UserMessage: Row, AssistantMessage: Row } })));
}

test("renderToString in Node shows the initial messages, with no window", () => {
  expect(typeof window).toBe("undefined");
  const html = renderToString(h(Chat));
  expect(html).toContain("rendered on the server");
  expect(html).toContain("and its reply");
  expect(html.match(/class="row"/g)).toHaveLength(2);
});
