// Type-checked (never run) as a Node server using chat-session-reducer/server through
// toNodeHandler, with Node's types and no DOM, under the strict options of tsconfig.json (the
// package's declarations checked too); see types.test.mjs. Every `@ts-expect-error` line must fail
// to compile.
import { createServer } from "node:http";
import {
  createChatServer,
  ownerCookie,
  toNodeHandler,
  RUN_HEADERS,
  type ChatServerOptions,
  type ConversationSummary,
  type RunContext,
  type SessionStore,
} from "chat-session-reducer/server";
import type { SessionState } from "chat-session-reducer";

declare const store: SessionStore;
declare const model: { stream(input: unknown, signal: AbortSignal): ReadableStream<{ type: string }> };

// The AI SDK's protocol: a ReadableStream of its UI message chunks.
const chat = createChatServer({
  protocol: "ai-sdk",
  store,
  authorize: ownerCookie({ secret: "a secret of 16 characters or more" }),
  run: ({ messages, signal }) => model.stream(messages, signal),
});

// A Node http server (Express takes the same listener).
createServer(toNodeHandler(chat.fetch)).listen(3000);

// The run's context: typed by the tool map given to the server.
type Tools = { book: { input: { table: number }; output: { booked: boolean } } };
const typed: ChatServerOptions<Tools> = {
  protocol: "actions",
  store,
  // The app's own session check: an owner id, the owner with headers to add, or null (401).
  authorize: async (request) => (request.headers.get("authorization") === "Bearer t" ? { owner: "u1", headers: { "x-owner": "u1" } } : null),
  run: (context: RunContext<Tools>) => {
    const state: SessionState<Tools> = context.state;
    const owner: string = context.owner;
    void [state, owner];
    // A protocol's frames as an async iterable (here SessionActions), or a proxied agent's Response.
    return (async function* () {
      yield { type: "part", part: { type: "text-delta", text: "Hi" } };
    })();
  },
  onError: (error) => console.error(error),
  errorMessage: () => "Try again.",
  maxBodyBytes: 100_000,
  saveEveryMs: 500,
  api: "/chat",
  conversations: "/threads",
};
createChatServer(typed);
createChatServer({ protocol: "ag-ui", store, authorize: () => "u1", run: async ({ request }) => fetch("http://agent.internal/run", { method: "POST", body: request.body }) });

const summaries: Promise<ConversationSummary[]> = store.list("u1", { limit: 20 });
const header: "chat-run-offset" = RUN_HEADERS.offset;
void [summaries, header];

// @ts-expect-error authorize is required: every conversation belongs to an owner
createChatServer({ protocol: "ai-sdk", store, run: () => new Response() });
// @ts-expect-error the protocol is one the server speaks
createChatServer({ protocol: "openai", store, authorize: () => "u1", run: () => new Response() });
// @ts-expect-error authorize answers an owner id (a string), not a number
createChatServer({ protocol: "ai-sdk", store, authorize: () => 42, run: () => new Response() });
// @ts-expect-error run gives the model's stream, not a number
createChatServer({ protocol: "ai-sdk", store, authorize: () => "u1", run: () => 42 });
// @ts-expect-error the store is a SessionStore
createChatServer({ protocol: "ai-sdk", store: new Map(), authorize: () => "u1", run: () => new Response() });
// @ts-expect-error ownerCookie needs its secret
ownerCookie({});
// @ts-expect-error toNodeHandler takes a web handler, not the server
toNodeHandler(chat);

// Issue 34: a store may read a page of a conversation itself.
import type { ConversationPage, SessionStore as PagingStore } from "chat-session-reducer/server";
export async function pageOfStore(store: PagingStore): Promise<ConversationPage | undefined> {
  const found = await store.page?.("alice", "c1", { before: "m-40", limit: 20 });
  return found?.page;
}
