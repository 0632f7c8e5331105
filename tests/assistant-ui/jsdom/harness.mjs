// assistant-ui's primitives rendered in jsdom on useAgentSessionRuntime, over a session
// controller the test holds (createAgentSession) and a scripted endpoint (../../react/harness.mjs's).
import { act, createElement as h, useState } from "react";
import { createRoot } from "react-dom/client";
import {
  AssistantRuntimeProvider,
  BranchPickerPrimitive,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  useAuiState,
} from "@assistant-ui/react";
import { useAgentSessionRuntime, useConversationsThreadList } from "chat-session-reducer/assistant-ui";
import { createAgentSession } from "chat-session-reducer/session";
import { scriptedAgent, until } from "./harness-react.mjs";

export { scriptedAgent, until };

/** Renders of each row by message id: what a streaming delta re-renders. */
export const renders = new Map();

function Branches() {
  return h(
    BranchPickerPrimitive.Root,
    { hideWhenSingleBranch: true, className: "branches" },
    h(BranchPickerPrimitive.Previous, { className: "previous" }, "<"),
    h("span", { className: "picker" }, h(BranchPickerPrimitive.Number), "/", h(BranchPickerPrimitive.Count)),
    h(BranchPickerPrimitive.Next, { className: "next" }, ">"),
  );
}

const Text = ({ text }) => h("span", { className: "text" }, text);
const Tool = ({ toolName, result, status }) => h("span", { className: "tool" }, `${toolName}:${status.type}:${JSON.stringify(result ?? null)}`);
const parts = { Text, tools: { Override: Tool } };

function Row() {
  // The whole message state, so the row renders again exactly when its message changes.
  const message = useAuiState((s) => s.message);
  renders.set(message.id, (renders.get(message.id) ?? 0) + 1);
  return h(MessagePrimitive.Root, { "data-id": message.id, "data-role": message.role, className: "row" }, h(MessagePrimitive.Parts, { components: parts }), h(Branches));
}
const components = { UserMessage: Row, AssistantMessage: Row };

function Thread({ runtime }) {
  return h(
    AssistantRuntimeProvider,
    { runtime },
    h(ThreadPrimitive.Root, null, h(ThreadPrimitive.Messages, { components }), h(ComposerPrimitive.Root, null, h(ComposerPrimitive.Input, { className: "input" }), h(ComposerPrimitive.Send, { className: "send" }, "Send"))),
  );
}

function Chat({ controller, extras, result }) {
  const runtime = useAgentSessionRuntime(controller, extras);
  result.runtime = runtime;
  return h(Thread, { runtime });
}

// A thread list over a store of conversations: the runtime made from the hook's options.
function Conversations({ options, conversations, result }) {
  const [id, setId] = useState(options.id);
  const threadList = useConversationsThreadList({ conversations, id, onSwitch: setId });
  const runtime = useAgentSessionRuntime({ ...options, conversations, id }, { adapters: { threadList } });
  result.runtime = runtime;
  result.id = id;
  return h(Thread, { runtime });
}

async function mount(element, result) {
  const container = document.createElement("div");
  document.body.append(container);
  result.container = container;
  const root = createRoot(container);
  await act(async () => root.render(element));
  result.unmount = async () => {
    await act(async () => root.unmount());
    container.remove();
  };
  /** The rows shown: `{ id, role, text, picker }` (picker: "i/n" or undefined). */
  result.rows = () =>
    [...container.querySelectorAll(".row")].map((row) => ({
      id: row.dataset.id,
      role: row.dataset.role,
      text: [...row.querySelectorAll(".text, .tool")].map((part) => part.textContent).join(""),
      picker: row.querySelector(".picker")?.textContent,
    }));
  result.click = (element) => act(async () => element.dispatchEvent(new MouseEvent("click", { bubbles: true })));
  return result;
}

/** Mounts a chat on a controller for `options`; `extras`: the runtime's second argument. */
export function mountChat(options, extras) {
  const controller = createAgentSession(options);
  const result = { controller, session: () => controller.getSnapshot() };
  return mount(h(Chat, { controller, extras, result }), result);
}

/** Mounts a chat with assistant-ui's thread list over `conversations`, showing `options.id` first. */
export function mountConversations(options, conversations) {
  const result = {};
  return mount(h(Conversations, { options, conversations, result }), result);
}

/** A state of `messages` given as `[role, text]` pairs (ids m0, m1, …). */
export const thread = (...pairs) => ({ messages: pairs.map(([role, text], index) => ({ id: `m${index}`, role, parts: [{ type: "text", text }] })), status: "idle" });

export { act };
