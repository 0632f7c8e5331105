// Type-checked (never run) as a React app using chat-session-reducer/react; see types.test.mjs.
// Every `@ts-expect-error` line must fail to compile: tsc reports an unused one as an error.
import { useAgentSession, type AgentSession, type UseAgentSessionOptions } from "chat-session-reducer/react";
import { branchAt, loadSessionEntry, saveSession, storedSessionId, type AgentMessage, type QueuedMessage, type SessionEntry, type SessionState } from "chat-session-reducer";
import { indexedDBStore } from "chat-session-reducer/indexeddb";
import { coordinateTabs } from "chat-session-reducer/tabs";

export function useSupportChat(token: string): AgentSession {
  const chat = useAgentSession({
    api: "/api/chat",
    protocol: "actions",
    headers: () => ({ authorization: `Bearer ${token}` }),
    body: (session: SessionState, defaultBody: unknown) => ({ ...(defaultBody as object), locale: "en", turns: session.messages.length }),
    storageKey: "support-chat",
    storage: localStorage,
    throttle: 50,
  });
  const messages: AgentMessage[] = chat.messages;
  if (chat.status === "error" && chat.error?.code === "rate_limited") chat.retry();
  if (messages.length === 0) chat.send("Hello");
  chat.approve("call-1", { input: { path: "/tmp" } });
  chat.deny("call-2", "Not now");
  chat.answer("call-3", { choice: "Ann" });
  chat.continue();
  chat.stop();
  chat.reset();
  chat.dispatch({ type: "part", part: { type: "text-delta", text: "hi" } });
  return chat;
}

// SPEC v3 in the hook: branches, the queue, a send with parts.
export function BranchesAndQueue({ chat }: { chat: AgentSession }) {
  const fork = branchAt(chat.state, 1);
  if (fork !== undefined && fork.active + 1 < fork.count) chat.switchBranch(fork.after, fork.active + 1);
  chat.edit("u-1", "A better question");
  chat.regenerate();
  chat.regenerate("a-1");
  const queued: readonly QueuedMessage[] = chat.queue;
  for (const { id, text } of queued) if (text === "never mind") chat.unqueue(id);
  chat.send("With a file", { parts: [{ type: "data", name: "file", data: { mediaType: "text/plain", url: "data:," } }], metadata: { from: "ui" } });
  // @ts-expect-error: a message id is needed
  chat.edit("A better question");
  // @ts-expect-error: only text and data parts go with a message
  chat.send("x", { parts: [{ type: "reasoning", text: "r" }] });
  // @ts-expect-error: the queue is the hook's to change
  chat.queue.push({ id: "q", text: "x" });
}

export const custom: UseAgentSessionOptions = {
  api: (body, signal) => fetch("/agent", { method: "POST", body: JSON.stringify(body), signal }),
};

// @ts-expect-error: the endpoint is required
export const missingApi: UseAgentSessionOptions = { protocol: "actions" };

// @ts-expect-error: not a protocol the hook speaks
export const unknownProtocol: UseAgentSessionOptions = { api: "/api", protocol: "graphql" };

export function badDispatch(chat: AgentSession) {
  // @ts-expect-error: an action's fields are checked
  chat.dispatch({ type: "send", text: "no id" });
}

// chat-session-reducer/testing, as a component test uses it.
import { drop, liveReply, mockEndpoint, raw, recordResponse, wait, type ScriptStep } from "chat-session-reducer/testing";

export const live = liveReply();
export const endpoint = mockEndpoint("ai-sdk", [
  [{ type: "start", messageId: "a1" }, wait(5), { type: "text-delta", id: "t", delta: "Hi" }, drop()],
  { status: 500, body: { error: "boom" } },
  live,
  (request) => (request.body === undefined ? [] : [raw("data: {\n\n")]),
]);
export const everyRequest = mockEndpoint("actions", (_request, index) => (index === 0 ? [] : { status: 429 }));

export function useMockedChat(): AgentSession {
  globalThis.fetch = endpoint.fetch;
  return useAgentSession({ api: endpoint.api, protocol: "ai-sdk" });
}

export async function recorded(): Promise<ScriptStep[] | undefined> {
  const reply = await recordResponse(await endpoint.fetch("/api/chat", { method: "POST", body: "{}" }), "ai-sdk", { timing: true });
  return Array.isArray(reply) ? reply : undefined;
}

// @ts-expect-error: not a protocol the endpoint frames
mockEndpoint("sse", []);

// @ts-expect-error: a step is a frame (with a type), a wait, a drop or raw text
mockEndpoint("actions", [[{ pause: 5 }]]);

// A fetch Response, and its body, are what the adapters' readers read (also under exactOptionalPropertyTypes).
import { readAiSdkStream } from "chat-session-reducer/ai-sdk";
export async function readsFetch(): Promise<void> {
  for await (const chunk of readAiSdkStream(await fetch("/api/chat"))) void chunk;
  const { body } = await fetch("/api/chat");
  if (body !== null) for await (const chunk of readAiSdkStream(body)) void chunk;
}

// The IndexedDB store: the hook takes it as its storage; with it the helpers return promises.
export async function storedInIndexedDB(state: SessionState): Promise<SessionEntry | null> {
  const storage = indexedDBStore({ database: "chats" });
  useAgentSession({ api: "/api/chat", storageKey: "support-chat", storage });
  const saved: Promise<void> = saveSession("support-chat", state, storage, { id: "chat-1" });
  await saved;
  // @ts-expect-error a promise is not a state
  const wrong: SessionState | null = loadSessionEntry("support-chat", storage);
  return wrong && loadSessionEntry("support-chat", storage);
}

// Several tabs on one conversation: localStorage shared, a stale save reported as a conflict
// with the newer revision stored.
export function sharedByTabs(): number | undefined {
  const { storageError } = useAgentSession({ api: "/api/chat", storageKey: "support-chat", storage: localStorage, tabs: coordinateTabs() });
  useAgentSession({ api: "/api/chat", storageKey: "support-chat", storage: localStorage, tabs: coordinateTabs({ locks: navigator.locks, channel: new BroadcastChannel("test") }) });
  // @ts-expect-error tabs is coordinateTabs() of chat-session-reducer/tabs, not a boolean
  useAgentSession({ api: "/api/chat", tabs: true });
  return storageError?.code === "conflict" ? storageError.rev : undefined;
}

// useAgentSession typed by a tool map and a data map: the session, the callbacks' parts and the
// answers are the tools' own.
import type { AgentMessage as TypedMessage, DataPart, ToolPart } from "chat-session-reducer";

type ShopTools = {
  getLocation: { input: Record<string, never>; output: { lat: number; lng: number } };
  deleteFile: { input: { path: string }; output: { ok: boolean } };
};
type ShopData = { cart: { items: number } };

export function useShopChat(): AgentSession<ShopTools, ShopData> {
  const chat = useAgentSession<ShopTools, ShopData>({
    api: "/api/chat",
    protocol: "ai-sdk",
    onToolCall: async ({ toolCall }) => {
      if (toolCall.name === "getLocation") return { lat: 59.9, lng: 10.7 };
      if (toolCall.name === "deleteFile" && toolCall.input.path.startsWith("/tmp/")) return { ok: true };
      return undefined;
    },
    onData: (part) => {
      if (part.name === "cart") console.log(part.data?.items);
      else if (part.name === "source-url") console.log(part.data?.url);
    },
    onFinish: ({ message }) => {
      const last: TypedMessage<ShopTools, ShopData> | undefined = message;
      void last;
    },
    body: (session, defaultBody) => ({ ...(defaultBody as object), calls: session.messages.length }),
  });
  chat.answer("call-1", { lat: 1, lng: 2 });
  chat.approve("call-2", { input: { path: "/tmp/b" } });
  // @ts-expect-error an answer is one of the tools' outputs
  chat.answer("call-1", { latitude: 1 });
  // @ts-expect-error an edited input is one of the tools' inputs
  chat.approve("call-2", { input: { file: "/tmp/b" } });
  // @ts-expect-error a data part the map does not name
  chat.send("x", { parts: [{ type: "data", name: "carts", data: { items: 1 } }] });
  chat.dispatch({ type: "toolPhase", name: "deleteFile", state: "awaiting-confirmation", prompt: "Delete it?" });
  // @ts-expect-error a tool the map does not have
  chat.dispatch({ type: "toolPhase", name: "deleteFiles", state: "running" });
  return chat;
}

export function ToolCard({ part }: { part: ToolPart<ShopTools, ShopData> }): string {
  // @ts-expect-error a misspelt tool name
  if (part.name === "getLocaton") return "";
  if (part.name === "deleteFile" && part.state === "done") return part.output.ok ? `deleted ${part.input.path}` : "kept";
  // @ts-expect-error the error is there once `error`
  if (part.state !== "done") return part.error.message;
  return part.state;
}

export function CartBadge({ part }: { part: DataPart<ShopData> }): number {
  return part.name === "cart" ? part.data.items : 0;
}

export const wrongToolCall: UseAgentSessionOptions<ShopTools> = {
  api: "/api/chat",
  // @ts-expect-error onToolCall answers with one of the tools' outputs
  onToolCall: () => ({ lat: "north" }),
};

// The defaults: the untyped session of every example above.
export const untyped: AgentSession = useMockedChat();
// Issue 22: the options and returns at parity with useChat.
import { waitsOnApp } from "chat-session-reducer";
import type { AgentError, DataStreamPart } from "chat-session-reducer/react";

export function useParityChat(saved: SessionState | undefined): AgentSession {
  const chat = useAgentSession({
    api: "/api/chat",
    protocol: "ai-sdk",
    id: "chat-42",
    initialMessages: [{ id: "hi", role: "assistant", parts: [{ type: "text", text: "How can I help?" }] }],
    ...(saved === undefined ? {} : { initialState: saved }),
    onToolCall: async ({ toolCall }) => (toolCall.name === "locate" ? { city: "Lisbon" } : undefined),
    onFinish: ({ state, message }) => void [state.status, message?.id],
    onError: (error: AgentError) => void [error.message, error.code, error.status, error.body, error.cause],
    onData: (part: DataStreamPart) => void [part.name, part.data],
  });
  const id: string = chat.id;
  const status: "idle" | "streaming" | "error" | "submitted" | "reconnecting" = chat.status;
  // With resume: how a broken connection is reconnected.
  useAgentSession({ api: "/api/chat", protocol: "ai-sdk", resume: true, reconnect: { budgetMs: Infinity, stallMs: 45_000, delayMs: 500 } });
  // @ts-expect-error the reconnect times are milliseconds
  useAgentSession({ api: "/api/chat", resume: true, reconnect: { budgetMs: "1m" } });
  chat.setMessages((messages) => messages.slice(0, -1));
  chat.setMessages([]);
  chat.load({ messages: [], status: "idle" });
  chat.clearError();
  chat.send("Look", { parts: [{ type: "data", name: "file", data: { mediaType: "image/png", url: "data:," } }], metadata: { from: "ui" } });
  for (const message of chat.messages) {
    for (const part of message.parts) {
      const waits: "confirmation" | "result" | undefined = waitsOnApp(chat.state, part);
      void [id, status, waits];
    }
  }
  return chat;
}

// @ts-expect-error: onToolCall's result is a JSON value
useAgentSession({ api: "/api/chat", onToolCall: () => new Map() });

// @ts-expect-error: initialMessages are messages
useAgentSession({ api: "/api/chat", initialMessages: [{ text: "Hi" }] });

// The IndexedDB store keeps the tool and data maps of what it reads, and the conversation's id.
export async function storedShopChat(): Promise<string | undefined> {
  const storage = indexedDBStore();
  const entry = await loadSessionEntry<ShopTools, ShopData>("shop", storage);
  const typed: SessionState<ShopTools, ShopData> | undefined = entry?.state;
  void typed;
  const id: Promise<string | undefined> = storedSessionId("shop", storage);
  // @ts-expect-error from a session store the id is a promise
  const now: string | undefined = storedSessionId("shop", storage);
  return now ?? id;
}

// Several conversations (issue 23 item 4): a store passed to the hook with the id shown, and the thread list.
import { createConversations, useConversations, type ConversationSummary, type Conversations } from "chat-session-reducer/conversations";

const threads: Conversations = createConversations({ storage: sessionStorage, keyPrefix: "chat:" });
export function useThreadedChat(openId: string): readonly ConversationSummary[] {
  const chat = useAgentSession({
    api: "/api/chat",
    protocol: "ai-sdk",
    conversations: threads,
    id: openId,
    onFinish: ({ id, state }) => void [id.toUpperCase(), state.status],
    onError: (error, { id }) => void [error.message, id.toUpperCase()],
  });
  const list = useConversations(threads);
  for (const entry of list) {
    const marks: [string, string, "streaming" | "idle" | "error", boolean, boolean, number] = [entry.id, entry.title, entry.status, entry.unread, entry.waiting, entry.updatedAt];
    void marks;
    // @ts-expect-error the list is read-only: the store writes it
    entry.unread = false;
  }
  const key: string = threads.keyOf(threads.create());
  threads.remove(chat.id);
  // @ts-expect-error a store of conversations keeps Web Storage, not an IndexedDB session store
  createConversations({ storage: indexedDBStore() });
  // @ts-expect-error a status the list never shows
  const never: ConversationSummary["status"] = "submitted";
  void [key, never];
  return list;
}

// Issue 34: older history from the server's conversations route, a page at a time.
export function olderHistory(): Promise<void> | undefined {
  const { hasOlder, loadOlder } = useAgentSession({ api: "/api/chat", history: new URL("https://app.test/api/conversations") });
  // @ts-expect-error history is the conversations route's URL
  useAgentSession({ api: "/api/chat", history: true });
  const more: boolean = hasOlder;
  return more ? loadOlder() : undefined;
}

// The server's conversations (issue 31 item 6): its routes' URL, or the app's own source.
import type { ConversationsSource, RemoteConversationSummary } from "chat-session-reducer/conversations";
const fromServer: Conversations = createConversations({ remote: "/api/conversations" });
const ownSource: ConversationsSource = {
  list: async (): Promise<RemoteConversationSummary[]> => [{ id: "c1", title: "Trip", status: "idle", updatedAt: "2026-01-01T00:00:00.000Z" }],
  read: async (id) => (id === "c1" ? { messages: [], status: "idle" } : undefined),
};
createConversations({ remote: ownSource, keyPrefix: "app:" });
createConversations({ remote: new URL("https://app.example/api/conversations") });
const refreshed: Promise<void> = fromServer.refresh();
const removed: Promise<void> = fromServer.remove("c1");
void [refreshed, removed];
// @ts-expect-error a source reads conversations too
createConversations({ remote: { list: async () => [] } });
// @ts-expect-error read gives a state, not a summary
createConversations({ remote: { list: async () => [], read: async () => ({ id: "c1", title: "" }) } });
