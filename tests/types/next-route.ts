// Type-checked (never run) as a Next.js App Router app: the README's "The server" route on the AI
// SDK's streamText, under create-next-app's compiler options (tsconfig.next.json: strict, lib
// "dom", skipLibCheck as Next.js sets it: the AI SDK's own declarations need it); see types.test.mjs.
import { convertToModelMessages, streamText, type LanguageModel } from "ai";
import { createChatServer, ownerCookie, type ChatServer, type SessionStore } from "chat-session-reducer/server";

// The app's model and store (the README: a provider's model, createPgliteStore({ dataDir })).
declare const model: LanguageModel;
declare const store: SessionStore;

// lib/chat.ts: one chat server per process.
const globalForChat = globalThis as typeof globalThis & { chat?: ChatServer };
export const chat = (globalForChat.chat ??= createChatServer({
  protocol: "ai-sdk",
  store,
  authorize: ownerCookie({ secret: process.env.CHAT_SECRET! }),
  run: async ({ messages, signal }) =>
    streamText({ model, messages: await convertToModelMessages(messages), abortSignal: signal }).toUIMessageStream({
      generateMessageId: () => crypto.randomUUID(),
    }),
}));

// app/api/chat/[[...path]]/route.ts and app/api/conversations/[[...path]]/route.ts: Next.js
// calls each export with the Request and a context the handler does not need.
type RouteHandler = (request: Request, context: { params: Promise<{ path?: string[] }> }) => Response | Promise<Response>;
export const GET: RouteHandler = chat.fetch;
export const POST: RouteHandler = chat.fetch;
export const DELETE: RouteHandler = chat.fetch;
