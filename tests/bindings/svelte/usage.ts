// Type-checked (never run) as a Svelte app's TypeScript using chat-session-reducer/svelte; run.mjs
// runs tsc over it in the installed consumer. Every `@ts-expect-error` line must fail to compile.
import type { AgentMessage } from "chat-session-reducer";
import { useAgentSession, type ReactiveAgentSession } from "chat-session-reducer/svelte";

type Tools = { deleteFile: { input: { path: string }; output: { ok: boolean } } };

export function supportChat(conversation: string): ReactiveAgentSession<Tools> {
  const chat = useAgentSession<Tools>({ api: "/api/chat", protocol: "ai-sdk", storageKey: `chat-${conversation}` });
  const messages: AgentMessage<Tools>[] = chat.messages;
  const paths = messages.flatMap((message) =>
    message.parts.flatMap((part) => (part.type === "tool" && part.name === "deleteFile" && part.state === "done" ? [part.input.path] : [])),
  );
  void paths;
  if (chat.status === "error" && chat.error?.code === "rate_limited") chat.retry();
  chat.send("Hello", { metadata: { from: "ui" } });
  chat.approve("call-1", { input: { path: "/tmp" } });
  chat.setOptions({ api: "/api/chat", storageKey: "chat-b" });
  // @ts-expect-error the fields are read-only: the session changes through its actions
  chat.status = "idle";
  // @ts-expect-error an approval's edited input is the tool's own
  chat.approve("call-1", { input: { file: "/tmp" } });
  // @ts-expect-error `api` is required
  chat.setOptions({ storageKey: "chat-b" });
  return chat;
}

// Issue 34: older history, a reactive field and an action like the others.
export function olderHistory(): Promise<void> | undefined {
  const chat = useAgentSession({ api: "/api/chat", history: "/api/conversations" });
  const more: boolean = chat.hasOlder;
  return more ? chat.loadOlder() : undefined;
}
