// The agent both chat pages talk to (/package and /usechat): a real AI SDK streamText route over
// the AI SDK's test model, scripted by the last message it gets. Three tools: deleteFile runs on
// the server once the user approves it (needsApproval); getLocation and getTimezone have no
// execute, so the page answers them (the user shares the location; the time zone is automatic).
// POST is the chat; GET returns each request's conversation id, trigger, model messages (what
// convertToModelMessages made of the page's UI messages) and whether the page aborted it;
// DELETE empties that log.
import { convertToModelMessages, stepCountIs, streamText, tool, validateUIMessages } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";

const requests = [];
let failures = 0;

const tools = {
  deleteFile: tool({
    description: "Deletes a file",
    inputSchema: z.object({ path: z.string() }),
    needsApproval: true,
    execute: async ({ path }) => ({ deleted: path }),
  }),
  getLocation: tool({ description: "The user's city, shared by the user", inputSchema: z.object({}) }),
  getTimezone: tool({ description: "The browser's time zone", inputSchema: z.object({}) }),
};

const pause = (ms, signal) => new Promise((resolve) => (signal?.aborted ? resolve() : (setTimeout(resolve, ms), signal?.addEventListener("abort", resolve))));
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const finish = (unified) => ({ type: "finish", finishReason: { unified, raw: undefined }, usage });
const words = (text) => text.split(/(?<= )/);

// What the model streams for a prompt: a reply to a tool's result, or to the user's words.
function script(prompt) {
  const last = prompt.at(-1);
  const calls = prompt.flatMap((message) => (message.role === "assistant" ? message.content.filter((part) => part.type === "tool-call") : []));
  const callId = `call-${calls.length + 1}`;
  if (last.role === "tool") {
    const result = last.content.findLast((part) => part.type === "tool-result");
    const call = calls.find((c) => c.toolCallId === result.toolCallId);
    if (result.output.type !== "json") return { text: `OK, I kept ${call.input.path}.` }; // denied (or failed)
    if (call.toolName === "deleteFile") return { text: `Deleted ${result.output.value.deleted}.` };
    if (call.toolName === "getTimezone") return { text: `Your time zone is ${result.output.value.zone}.` };
    return { text: `You are in ${result.output.value.city}.` };
  }
  const text = last.content.map((part) => part.text ?? "").join("");
  if (text.startsWith("Delete ")) return { call: { toolCallId: callId, toolName: "deleteFile", input: JSON.stringify({ path: text.slice(7) }) } };
  if (text === "Where am I?") return { call: { toolCallId: callId, toolName: "getLocation", input: "{}" } };
  if (text === "What time is it?") return { call: { toolCallId: callId, toolName: "getTimezone", input: "{}" } };
  if (text === "Tell me a story") return { text: "Once upon a time", hang: true };
  if (text === "Fail once") return failures++ === 0 ? { fail: "The model is overloaded." } : { text: "Back on my feet." };
  if (text === "Fail") return { fail: "The model is down." };
  return { text: `You said: ${text}` };
}

const model = new MockLanguageModelV4({
  doStream: async ({ prompt, abortSignal }) => {
    const { text, call, hang, fail } = script(prompt);
    if (fail) throw new Error(fail);
    return {
      stream: new ReadableStream({
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          await pause(150, abortSignal); // long enough for the page to show that it waits
          if (call) {
            controller.enqueue({ type: "tool-call", ...call });
            controller.enqueue(finish("tool-calls"));
            return controller.close();
          }
          controller.enqueue({ type: "text-start", id: "t" });
          for (const delta of words(text)) {
            controller.enqueue({ type: "text-delta", id: "t", delta });
            await pause(30, abortSignal);
          }
          if (hang) await pause(60_000, abortSignal); // until the page stops or reloads
          if (abortSignal?.aborted) return controller.close();
          controller.enqueue({ type: "text-end", id: "t" });
          controller.enqueue(finish("stop"));
          controller.close();
        },
      }),
    };
  },
});

export async function POST(request) {
  const { id, messages, trigger } = await request.json();
  const modelMessages = await convertToModelMessages(await validateUIMessages({ messages, tools }), { tools });
  const logged = { id, trigger, modelMessages, aborted: false };
  request.signal.addEventListener("abort", () => (logged.aborted = true));
  requests.push(logged);
  const result = streamText({ model, messages: modelMessages, tools, stopWhen: stepCountIs(5), abortSignal: request.signal });
  return result.toUIMessageStreamResponse({ originalMessages: messages, onError: (error) => error.message });
}

export function GET() {
  return Response.json(requests);
}

export function DELETE() {
  requests.length = 0;
  failures = 0;
  return new Response(null, { status: 204 });
}
