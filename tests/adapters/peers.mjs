// The peer libraries as an app would run them, on the same streams the adapters read, and the
// projection both sides are compared on (research/protocols.md: texts per part, each call's
// state by the note's table, inputs, outputs, approvals).
import { createUIMessageStreamResponse, readUIMessageStream } from "ai";
import { HttpAgent } from "@ag-ui/client";
import { EventEncoder } from "@ag-ui/encoder";

// ---- AI SDK

const streamOf = (items) => new ReadableStream({ start(controller) { for (const item of items) controller.enqueue(item); controller.close(); } });

// The bytes an AI SDK server sends for these chunks (SSE, `data: [DONE]` at the end).
export const aiSdkResponse = (chunks) => createUIMessageStreamResponse({ stream: streamOf(chunks) });

// The message `ai`'s readUIMessageStream builds from the chunks (its last snapshot).
export async function aiSdkMessage(chunks, message) {
  let last = message;
  const errors = [];
  for await (const built of readUIMessageStream({ stream: streamOf(chunks), message, onError: (error) => errors.push(error) })) last = built;
  return { message: last, errors };
}

// The research note's table: an AI SDK tool state in the session's terms.
function sessionState(part) {
  switch (part.state) {
    case "input-available":
      return "running";
    case "approval-requested":
      return "awaiting-confirmation";
    case "approval-responded":
      return part.approval.approved ? "running" : "error";
    case "output-available":
      return part.preliminary ? "running" : "done";
    case "output-error":
    case "output-denied":
      return "error";
    default:
      return part.state;
  }
}

const openStates = new Set(["input-streaming", "running", "awaiting-confirmation"]);

// Adjacent texts are one item: the session merges two text blocks that nothing separates.
function pushItem(items, item) {
  const last = items.at(-1);
  if (item.text !== undefined && last?.text !== undefined) last.text += item.text;
  else items.push(item);
}

const approvalOf = (approval) => (approval ? { id: approval.id, ...(approval.approved !== undefined && { approved: approval.approved }) } : undefined);

/**
 * A UIMessage as comparable items. With `endedEarly` (the stream ended in `abort` or `error`),
 * the calls it leaves open are expected cancelled: the session gives them an exit.
 */
export function projectUiMessage(message, { endedEarly = false } = {}) {
  const items = [];
  for (const part of message.parts) {
    if (part.type === "text") pushItem(items, { text: part.text });
    else if (part.type === "reasoning") items.push({ reasoning: part.text });
    else if (part.type === "dynamic-tool" || part.type.startsWith("tool-")) {
      let state = sessionState(part);
      if (endedEarly && openStates.has(state)) state = "cancelled";
      const call = { call: part.toolCallId, name: part.toolName ?? part.type.slice(5), state };
      if (part.state === "input-streaming") call.inputText = part.rawInput ?? "";
      else call.input = part.input;
      if (state === "done") call.output = part.output;
      if (part.state === "output-error") call.error = part.errorText;
      const approval = approvalOf(part.approval);
      if (approval) call.approval = approval;
      items.push(call);
    } else if (part.type.startsWith("data-")) items.push({ data: part.type.slice(5), id: part.id, value: part.data });
    else if (["source-url", "source-document", "file", "reasoning-file", "custom"].includes(part.type)) {
      const { type, sourceId, providerMetadata, ...value } = part;
      items.push({ data: type, id: sourceId, value });
    }
  }
  return items;
}

// A session message as the same items.
export function projectSessionMessage(message) {
  const items = [];
  for (const part of message.parts) {
    if (part.type === "text") pushItem(items, { text: part.text });
    else if (part.type === "reasoning") items.push({ reasoning: part.text });
    else if (part.type === "tool") {
      const call = { call: part.id, name: part.name, state: part.state };
      if (part.input === null && part.inputText !== undefined) call.inputText = part.inputText;
      else call.input = part.input;
      if (part.output !== undefined && part.state === "done") call.output = part.output;
      if (part.state === "error" && part.error.code !== "denied") call.error = part.error.message;
      const approval = approvalOf(part.approval);
      if (approval) call.approval = approval;
      items.push(call);
    } else if (part.type === "data") items.push({ data: part.name, id: part.id, value: part.data });
  }
  return items;
}

// ---- AG-UI

// The bytes an AG-UI server sends for these events (@ag-ui/encoder's SSE).
export function agUiResponse(events) {
  const encoder = new EventEncoder();
  return new Response(events.map((event) => encoder.encodeSSE(event)).join(""), { headers: { "content-type": "text/event-stream" } });
}

// @ag-ui/client's HttpAgent running over those bytes: its messages, state and pending interrupts.
export async function agUiAgent(events, { messages = [], state, resume, pendingInterrupts = [] } = {}) {
  const agent = new HttpAgent({ url: "http://agent.test/run", threadId: "thread-1", fetch: async () => agUiResponse(events) });
  agent.messages = structuredClone(messages);
  agent.pendingInterrupts = structuredClone(pendingInterrupts);
  if (state !== undefined) agent.state = structuredClone(state);
  let error;
  try {
    await agent.runAgent(resume ? { resume } : {});
  } catch (caught) {
    error = caught;
  }
  return { agent, error };
}

// AG-UI messages as comparable messages: one per id, tool results folded into their calls.
export function projectAgUiMessages(messages) {
  const projected = [];
  const calls = new Map();
  for (const message of messages) {
    if (message.role === "tool") {
      const call = calls.get(message.toolCallId);
      if (call && message.error !== undefined) Object.assign(call, { state: "error", error: message.error });
      else if (call) Object.assign(call, { state: "done", output: message.content });
      continue;
    }
    const item = { id: message.id, role: message.role === "reasoning" || message.role === "activity" ? "assistant" : message.role };
    if (message.role === "reasoning") item.reasoning = message.content;
    else if (message.role === "activity") item.data = [{ name: message.activityType, value: message.content }];
    else if (typeof message.content === "string" && message.content !== "") item.text = message.content;
    if (message.toolCalls?.length) {
      item.calls = message.toolCalls.map((call) => ({ id: call.id, name: call.function.name, args: call.function.arguments, state: "open" }));
      for (const call of item.calls) calls.set(call.id, call);
    }
    projected.push(item);
  }
  return projected;
}

// Session messages as the same comparable messages.
export function projectSessionAsAgUi(messages) {
  return messages.map((message) => {
    const item = { id: message.id, role: message.role };
    const text = message.parts.filter((part) => part.type === "text").map((part) => part.text).join("");
    if (text !== "") item.text = text;
    const reasoning = message.parts.filter((part) => part.type === "reasoning");
    if (reasoning.length) item.reasoning = reasoning.map((part) => part.text).join("");
    const data = message.parts.filter((part) => part.type === "data");
    if (data.length) item.data = data.map((part) => ({ name: part.name, value: part.data }));
    const calls = message.parts.filter((part) => part.type === "tool");
    if (calls.length) {
      item.calls = calls.map((part) => {
        const call = { id: part.id, name: part.name, args: part.inputText ?? JSON.stringify(part.input), state: openStates.has(part.state) ? "open" : part.state };
        if (part.state === "done") call.output = part.output;
        if (part.state === "error") call.error = part.error.message;
        return call;
      });
    }
    return item;
  });
}
