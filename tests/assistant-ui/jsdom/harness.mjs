// assistant-ui's primitives rendered in jsdom on useAgentSessionRuntime, over a session
// controller the test holds (createAgentSession) and a scripted endpoint (../../react/harness.mjs's).
import { act, createElement as h } from "react";
import { createRoot } from "react-dom/client";
import {
  AssistantRuntimeProvider,
  BranchPickerPrimitive,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  useAuiState,
} from "@assistant-ui/react";
import { useAgentSessionRuntime } from "chat-session-reducer/assistant-ui";
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

function Chat({ controller, result }) {
  const runtime = useAgentSessionRuntime(controller);
  result.runtime = runtime;
  return h(
    AssistantRuntimeProvider,
    { runtime },
    h(ThreadPrimitive.Root, null, h(ThreadPrimitive.Messages, { components }), h(ComposerPrimitive.Root, null, h(ComposerPrimitive.Input, { className: "input" }), h(ComposerPrimitive.Send, { className: "send" }, "Send"))),
  );
}

/** Mounts a chat on a controller for `options` (with the scripted agent's `api` unless given). */
export async function mountChat(options) {
  const controller = createAgentSession(options);
  const container = document.createElement("div");
  document.body.append(container);
  const result = { controller, container, session: () => controller.getSnapshot() };
  const root = createRoot(container);
  await act(async () => root.render(h(Chat, { controller, result })));
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

/** A state of `messages` given as `[role, text]` pairs (ids m0, m1, …). */
export const thread = (...pairs) => ({ messages: pairs.map(([role, text], index) => ({ id: `m${index}`, role, parts: [{ type: "text", text }] })), status: "idle" });

export { act };
