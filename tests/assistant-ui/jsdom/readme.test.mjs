// The packed README's assistant-ui example, as written (../run.mjs copies it here as
// readme-example.jsx), rendered in jsdom against an AI SDK endpoint of chat-session-reducer/testing.
import { act, createElement } from "react";
import { createRoot } from "react-dom/client";
import { mockEndpoint } from "chat-session-reducer/testing";
import { expect, test } from "vitest";
import { Chat } from "./readme-example.jsx";
import { until } from "./harness-react.mjs";

test("the README's Chat sends what is typed and shows the reply, streamed on the AI SDK protocol", async () => {
  const reply = [
    { type: "start", messageId: "r1" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "Hello from the agent" },
    { type: "text-end", id: "t" },
    { type: "finish" },
  ];
  const endpoint = mockEndpoint("ai-sdk", [reply]);
  const fetch = globalThis.fetch;
  globalThis.fetch = endpoint.fetch;
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  try {
    await act(async () => root.render(createElement(Chat)));
    const input = container.querySelector('textarea[aria-label="Message"]');
    // React reads a controlled field's value through the prototype's setter.
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set.call(input, "Hi");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    const send = [...container.querySelectorAll("button")].find((button) => button.textContent === "Send");
    await act(async () => send.dispatchEvent(new MouseEvent("click", { bubbles: true })));
    await until(() => container.textContent.includes("Hello from the agent"));
    expect(endpoint.requests).toHaveLength(1);
    expect(endpoint.requests[0].url).toBe("/api/chat");
    expect(JSON.stringify(endpoint.requests[0].body.messages)).toContain("Hi");
    expect(JSON.parse(sessionStorage.getItem("support-chat")).state.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  } finally {
    await act(async () => root.unmount());
    globalThis.fetch = fetch;
  }
});
