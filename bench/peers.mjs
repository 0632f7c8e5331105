// The peers of `npm run bench`, driven by the same workloads (bench/workloads.mjs) through their
// own public APIs, each translated to the peer's protocol before any timing starts:
// - the AI SDK's `Chat` (@ai-sdk/react: what `useChat` holds) fed by a transport that streams
//   an array of UI message chunks, with a messages listener reading what a chat view renders;
// - the AI SDK's `readUIMessageStream` over the same chunks (it builds the reply only);
// - AG-UI's `AbstractAgent` (@ag-ui/client), a subclass whose run replays AG-UI events.
// A peer is { prepare(): input, run(input): result, content(result) }: run is timed, prepare and
// content are not; content is the conversation in one comparable form, which run.mjs checks
// against the package's, so a peer cannot win by doing less.
import { Chat } from "@ai-sdk/react";
import { readUIMessageStream } from "ai";
import { AbstractAgent, EventType } from "@ag-ui/client";
import { Observable } from "rxjs";

// The content a chat view shows, the same for every implementation: per message its id, role
// and parts, a part being its text, or a tool call's id, name, input and output.
const textPart = (text) => `text ${text}`;
const toolPart = (id, name, input, output) => `tool ${id} ${name} ${JSON.stringify(input)} ${JSON.stringify(output)}`;

export function packageContent(state) {
  return state.messages.map(({ id, role, parts }) => ({
    id,
    role,
    parts: parts.map((part) => part.type === "text" ? textPart(part.text) : toolPart(part.id, part.name, part.input, part.output)),
  }));
}

// ---- AI SDK: UI messages and UI message chunks ----

function toUiMessage({ id, role, parts }) {
  return {
    id,
    role,
    parts: parts.map((part) => part.type === "text"
      ? { type: "text", text: part.text, state: "done" }
      : { type: `tool-${part.name}`, toolCallId: part.id, state: "output-available", input: part.input, output: part.output }),
  };
}

function uiContent(messages) {
  return messages.map(({ id, role, parts }) => ({
    id,
    role,
    parts: parts.filter((part) => part.type !== "step-start").map((part) => part.type === "text"
      ? textPart(part.text)
      : toolPart(part.toolCallId, part.type.slice("tool-".length), part.input, part.output)),
  }));
}

// The workload's actions after its first (`send`, which Chat.sendMessage does) as UI message
// chunks. A text part is opened by its first delta and closed before anything else. toolPhase
// has a chunk only for an approval request (granting it is the client's call, not the
// stream's); `stop` after the stream has ended changes nothing in either model.
function aiSdkChunks(actions) {
  const chunks = [];
  let text = null;
  let texts = 0;
  const closeText = () => {
    if (text !== null) chunks.push({ type: "text-end", id: text });
    text = null;
  };
  for (const action of actions) {
    if (action.type === "toolPhase") {
      if (action.state === "awaiting-confirmation") {
        const { id } = [...actions].reverse().find((a) => a.part?.type === "tool-call" && actions.indexOf(a) < actions.indexOf(action)).part;
        chunks.push({ type: "tool-approval-request", approvalId: `approval-${id}`, toolCallId: id });
      }
      continue;
    }
    if (action.type !== "part") continue;
    const { part } = action;
    switch (part.type) {
      case "message-start":
        chunks.push({ type: "start", messageId: part.messageId });
        break;
      case "text-delta":
        if (text === null) chunks.push({ type: "text-start", id: (text = `text-${texts++}`) });
        chunks.push({ type: "text-delta", id: text, delta: part.text });
        break;
      case "tool-call":
        closeText();
        chunks.push({ type: "tool-input-available", toolCallId: part.id, toolName: part.name, input: part.input });
        break;
      case "tool-result":
        closeText();
        chunks.push({ type: "tool-output-available", toolCallId: part.id, output: part.output });
        break;
      case "finish":
        closeText();
        chunks.push({ type: "finish", finishReason: part.reason ?? "stop" });
        break;
      default:
        throw new Error(`bench/peers.mjs: no AI SDK chunk for ${part.type}`);
    }
  }
  closeText();
  return chunks;
}

const streamOf = (items) => new ReadableStream({
  start(controller) {
    for (const item of items) controller.enqueue(item);
    controller.close();
  },
});

// What bench/workloads.mjs's replay reads after each action, read after each change.
function readRendered(messages) {
  const parts = messages[messages.length - 1].parts;
  const last = parts[parts.length - 1];
  return last === undefined ? 0 : last.type === "text" ? last.text.length : 1;
}

export function aiSdkChat(workload) {
  const [send, ...rest] = workload.actions;
  const chunks = aiSdkChunks(rest);
  return {
    prepare: () => ({ messages: workload.initial().messages.map(toUiMessage) }),
    async run({ messages }) {
      const chat = new Chat({
        id: "bench",
        messages,
        transport: { sendMessages: async () => streamOf(chunks), reconnectToStream: async () => null },
      });
      let rendered = 0;
      chat["~registerMessagesCallback"](() => {
        rendered += readRendered(chat.messages);
      });
      await chat.sendMessage({ id: send.id, role: "user", parts: [{ type: "text", text: send.text }] });
      return { messages: chat.messages, rendered };
    },
    content: ({ messages }) => uiContent(messages),
  };
}

// readUIMessageStream builds the reply only: its content is compared with the package's last
// message.
export function aiSdkReadStream(workload) {
  const chunks = aiSdkChunks(workload.actions.slice(1));
  return {
    prepare: () => null,
    async run() {
      let message;
      let rendered = 0;
      for await (message of readUIMessageStream({ stream: streamOf(chunks) })) rendered += readRendered([message]);
      return { message, rendered };
    },
    content: ({ message }) => uiContent([{ ...message, role: "assistant" }]),
    lastMessageOnly: true,
  };
}

// ---- AG-UI: messages and events ----

// An AG-UI conversation keeps tool calls on the assistant message and results as tool messages;
// its content is brought to the package's form: an assistant message's text parts and calls in
// the order they came, each call with its result.
function toAgUiMessages(messages) {
  const out = [];
  for (const { id, role, parts } of messages) {
    if (role === "user") {
      out.push({ id, role, content: parts.map((part) => part.text).join("") });
      continue;
    }
    // A text after a call is a message of its own, as an agent that streams text after a tool
    // result sends it.
    let current = null;
    let segment = 0;
    for (const part of parts) {
      if (part.type === "text") {
        if (current === null || current.toolCalls.length > 0) {
          current = { id: segment === 0 ? id : `${id}~${segment}`, role: "assistant", content: "", toolCalls: [] };
          segment++;
          out.push(current);
        }
        current.content += part.text;
      } else {
        if (current === null) {
          current = { id: segment === 0 ? id : `${id}~${segment}`, role: "assistant", content: "", toolCalls: [] };
          segment++;
          out.push(current);
        }
        current.toolCalls.push({ id: part.id, type: "function", function: { name: part.name, arguments: JSON.stringify(part.input) } });
        out.push({ id: `result-${part.id}`, role: "tool", toolCallId: part.id, content: JSON.stringify(part.output) });
      }
    }
  }
  return out;
}

function agUiContent(messages) {
  const results = new Map(messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, JSON.parse(m.content)]));
  const out = [];
  for (const message of messages) {
    if (message.role === "tool") continue;
    const owner = message.id.replace(/~\d+$/, "");
    const parts = [];
    if (message.content) parts.push(textPart(message.content));
    for (const call of message.toolCalls ?? []) {
      parts.push(toolPart(call.id, call.function.name, JSON.parse(call.function.arguments), results.get(call.id)));
    }
    const previous = out[out.length - 1];
    if (previous?.id === owner && message.role === "assistant") previous.parts.push(...parts);
    else out.push({ id: owner, role: message.role, parts });
  }
  return out;
}

function agUiEvents(actions) {
  const events = [{ type: EventType.RUN_STARTED, threadId: "bench", runId: "run" }];
  let messageId = null;
  let text = null;
  let segment = 0;
  const closeText = () => {
    if (text !== null) events.push({ type: EventType.TEXT_MESSAGE_END, messageId: text });
    text = null;
  };
  for (const action of actions) {
    if (action.type !== "part") continue;
    const { part } = action;
    switch (part.type) {
      case "message-start":
        messageId = part.messageId;
        break;
      case "text-delta":
        if (text === null) {
          text = segment === 0 ? messageId : `${messageId}~${segment}`;
          segment++;
          events.push({ type: EventType.TEXT_MESSAGE_START, messageId: text, role: "assistant" });
        }
        events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: text, delta: part.text });
        break;
      case "tool-call": {
        const parent = text ?? (segment === 0 ? messageId : `${messageId}~${segment - 1}`);
        if (segment === 0) segment++;
        closeText();
        events.push(
          { type: EventType.TOOL_CALL_START, toolCallId: part.id, toolCallName: part.name, parentMessageId: parent },
          { type: EventType.TOOL_CALL_ARGS, toolCallId: part.id, delta: JSON.stringify(part.input) },
          { type: EventType.TOOL_CALL_END, toolCallId: part.id },
        );
        break;
      }
      case "tool-result":
        closeText();
        events.push({
          type: EventType.TOOL_CALL_RESULT, messageId: `result-${part.id}`, toolCallId: part.id,
          content: JSON.stringify(part.output), role: "tool",
        });
        break;
      case "finish":
        break;
      default:
        throw new Error(`bench/peers.mjs: no AG-UI event for ${part.type}`);
    }
  }
  closeText();
  events.push({ type: EventType.RUN_FINISHED, threadId: "bench", runId: "run" });
  return events;
}

class ReplayingAgent extends AbstractAgent {
  constructor(config, events) {
    super(config);
    this.events = events;
  }

  run() {
    return new Observable((subscriber) => {
      for (const event of this.events) subscriber.next(event);
      subscriber.complete();
    });
  }
}

export function agUiAgent(workload) {
  const [send, ...rest] = workload.actions;
  const events = agUiEvents(rest);
  return {
    prepare: () => toAgUiMessages(workload.initial().messages),
    async run(messages) {
      const agent = new ReplayingAgent({ threadId: "bench", initialMessages: messages }, events);
      let rendered = 0;
      agent.subscribe({
        onMessagesChanged: ({ messages: current }) => {
          const last = current[current.length - 1];
          rendered += typeof last.content === "string" ? last.content.length : 1;
        },
      });
      agent.addMessage({ id: send.id, role: "user", content: send.text });
      await agent.runAgent();
      return { messages: agent.messages, rendered };
    },
    content: ({ messages }) => agUiContent(messages),
  };
}
