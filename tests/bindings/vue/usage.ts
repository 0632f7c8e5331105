// Type-checked (never run) as a Vue app's TypeScript using chat-session-reducer/vue; run.mjs runs
// tsc over it in the installed consumer. Every `@ts-expect-error` line must fail to compile.
import { computed, ref, type ComputedRef } from "vue";
import type { AgentMessage } from "chat-session-reducer";
import { useAgentSession, type AgentSessionRefs } from "chat-session-reducer/vue";

type Tools = { deleteFile: { input: { path: string }; output: { ok: boolean } } };

export function useSupportChat(conversation: { value: string }): AgentSessionRefs<Tools> {
  const chat = useAgentSession<Tools>(() => ({ api: "/api/chat", protocol: "ai-sdk", storageKey: `chat-${conversation.value}` }));
  const messages: ComputedRef<AgentMessage<Tools>[]> = chat.messages;
  const paths = computed(() =>
    messages.value.flatMap((message) => message.parts.flatMap((part) => (part.type === "tool" && part.name === "deleteFile" && part.state === "done" ? [part.input.path] : []))),
  );
  void paths;
  if (chat.status.value === "error" && chat.error.value?.code === "rate_limited") chat.retry();
  chat.send("Hello", { metadata: { from: "ui" } });
  chat.approve("call-1", { input: { path: "/tmp" } });
  chat.switchBranch(null, 1);
  const id: string = chat.id.value;
  void id;
  // @ts-expect-error an action is a function, not a ref
  void chat.stop.value;
  // @ts-expect-error the fields are read-only refs: the session changes through its actions
  chat.status.value = "idle";
  // @ts-expect-error an approval's edited input is the tool's own
  chat.approve("call-1", { input: { file: "/tmp" } });
  return chat;
}

// A plain object and a ref are options too.
useAgentSession({ api: "/api/chat" });
useAgentSession(ref({ api: "/api/chat", storageKey: "chat" }));
// @ts-expect-error `api` is required
useAgentSession({ storageKey: "chat" });

// Issue 34: older history, a ref and an action like the others.
export function olderHistory(): Promise<void> | undefined {
  const chat = useAgentSession({ api: "/api/chat", history: "/api/conversations" });
  const more: boolean = chat.hasOlder.value;
  return more ? chat.loadOlder() : undefined;
}
