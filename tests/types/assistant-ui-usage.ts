// Type-checked (never run) as a React app rendering assistant-ui on chat-session-reducer/assistant-ui;
// see types.test.mjs. Every `@ts-expect-error` line must fail to compile.
import type { AssistantRuntime, ExternalStoreThreadListAdapter } from "@assistant-ui/react";
import { SimpleImageAttachmentAdapter } from "@assistant-ui/react";
import { useAgentSessionRuntime, useConversationsThreadList, type AgentToolCallProps, type ConversationMarks } from "chat-session-reducer/assistant-ui";
import { createConversations } from "chat-session-reducer/conversations";
import { createAgentSession } from "chat-session-reducer/session";

type Tools = {
  deleteFile: { input: { path: string }; output: { ok: boolean } };
  weather: { input: { city: string }; output: { temp: number } };
};

// From the hook's options, typed by the tool map: onToolCall's call narrows by name.
export function useChatRuntime(): AssistantRuntime {
  return useAgentSessionRuntime<Tools>(
    {
      api: "/api/chat",
      protocol: "ai-sdk",
      onToolCall: ({ toolCall }) => (toolCall.name === "weather" ? { temp: toolCall.input.city.length } : undefined),
    },
    { adapters: { attachments: new SimpleImageAttachmentAdapter() } },
  );
}

// From a controller the app made.
const controller = createAgentSession<Tools>({ api: "/api/chat" });
export const useControlled = (): AssistantRuntime => useAgentSessionRuntime(controller);

// @ts-expect-error: the runtime takes the session's options or a controller
export const wrong = (): AssistantRuntime => useAgentSessionRuntime({ protocol: "actions" });

// A tool UI's props by the tool map: args are the tool's input, result its output.
export function weatherLabel(props: AgentToolCallProps<Tools, "weather">): string {
  const temp: number | undefined = props.result?.temp;
  // @ts-expect-error: weather's input has no path
  const path: string = props.args.path;
  return `${props.args.city}: ${temp ?? "…"} ${path}`;
}

// The thread list over a store of conversations.
const conversations = createConversations();
export function useThreads(id: string, onSwitch: (id: string) => void): ExternalStoreThreadListAdapter {
  const list = useConversationsThreadList({ conversations, id, onSwitch });
  const marks = list.threads?.[0]?.custom as ConversationMarks | undefined;
  if (marks?.status === "streaming" && marks.unread) onSwitch(list.threads?.[0]?.id ?? id);
  return list;
}
