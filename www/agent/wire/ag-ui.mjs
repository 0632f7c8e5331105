// AG-UI events over server-sent events, encoded by @ag-ui/encoder's EventEncoder. The request is
// a RunAgentInput: AG-UI messages (fromAgUiMessages turns them into session messages) and
// `resume`, the answers to the last run's interrupts. An approval is an interrupt of the run:
// RUN_FINISHED with outcome "interrupt", one Interrupt per call awaiting confirmation.

import { EventEncoder } from "@ag-ui/encoder";
import { fromAgUiMessages } from "chat-session-reducer/ag-ui";

const encoder = new EventEncoder({ accept: "text/event-stream" });
export const contentType = encoder.getContentType();

const INTERRUPT_PREFIX = "approval-";

// A tool message's content is text for the model: the text of an MCP-style output, else JSON.
function contentOf(output) {
  const texts = Array.isArray(output?.content) ? output.content.filter((item) => item?.type === "text").map((item) => item.text) : [];
  return texts.length > 0 ? texts.join("\n") : JSON.stringify(output);
}

/** The session's messages, with the interrupts' answers applied to their calls. */
export function messagesOf(body) {
  if (!Array.isArray(body?.messages)) return null;
  const messages = fromAgUiMessages(body.messages);
  const answers = new Map(
    (Array.isArray(body.resume) ? body.resume : [])
      .filter((entry) => typeof entry?.interruptId === "string" && entry.interruptId.startsWith(INTERRUPT_PREFIX))
      .map((entry) => [entry.interruptId.slice(INTERRUPT_PREFIX.length), entry.status === "resolved" && entry.payload?.approved === true]),
  );
  return messages.map((message) => ({
    ...message,
    parts: message.parts.map((part) =>
      part.type === "tool" && answers.has(part.id) ? { ...part, state: answers.get(part.id) ? "running" : "error", approval: { id: part.id, approved: answers.get(part.id) } } : part,
    ),
  }));
}

export function createWire(res) {
  res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
  const send = (event) => res.write(encoder.encode(event));
  const threadId = "demo";
  const runId = `run-${Date.now()}`;
  send({ type: "RUN_STARTED", threadId, runId });

  const openMessages = new Map();
  let reasonings = 0;
  const interrupts = [];
  const subagents = new Map();
  // A sub-agent's events carry its run id; the first one announces it under its delegate call.
  const tagged = (event, within) => {
    if (within === undefined) return event;
    if (!subagents.has(within)) {
      subagents.set(within, `sub-${within}`);
      send({ type: "SUBAGENT_STARTED", subagentRunId: `sub-${within}`, name: "researcher", parentToolCallId: within });
    }
    return { ...event, subagentRunId: subagents.get(within) };
  };
  const ensureMessage = (messageId, within) => {
    if (openMessages.has(messageId)) return;
    openMessages.set(messageId, within);
    send(tagged({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" }, within));
  };
  const closeMessages = (within) => {
    for (const [messageId, owner] of openMessages) {
      if (owner !== within) continue;
      send(tagged({ type: "TEXT_MESSAGE_END", messageId }, within));
      openMessages.delete(messageId);
    }
  };

  const events = {
    // AG-UI starts a text message with its first text: reasoning comes as messages of its own.
    "message-start": () => {},
    "text-delta": (part, within) => {
      ensureMessage(part.messageId, within);
      send(tagged({ type: "TEXT_MESSAGE_CONTENT", messageId: part.messageId, delta: part.text }, within));
    },
    reasoning: (part, within) => {
      const messageId = `${part.messageId}-reasoning-${(reasonings += 1)}`;
      send(tagged({ type: "REASONING_MESSAGE_START", messageId, role: "reasoning" }, within));
      send(tagged({ type: "REASONING_MESSAGE_CONTENT", messageId, delta: part.text }, within));
      send(tagged({ type: "REASONING_MESSAGE_END", messageId }, within));
    },
    "tool-call": (part, within) => {
      send(tagged({ type: "TOOL_CALL_START", toolCallId: part.id, toolCallName: part.name, parentMessageId: part.messageId }, within));
      send(tagged({ type: "TOOL_CALL_ARGS", toolCallId: part.id, delta: JSON.stringify(part.input) }, within));
      send(tagged({ type: "TOOL_CALL_END", toolCallId: part.id }, within));
    },
    "tool-input-delta": (part, within) => {
      if (part.name !== undefined) send(tagged({ type: "TOOL_CALL_START", toolCallId: part.id, toolCallName: part.name, parentMessageId: part.messageId }, within));
      send(tagged({ type: "TOOL_CALL_ARGS", toolCallId: part.id, delta: part.text }, within));
    },
    "tool-input-end": (part, within) => send(tagged({ type: "TOOL_CALL_END", toolCallId: part.id }, within)),
    "tool-result": (part, within) =>
      send(tagged({ type: "TOOL_CALL_RESULT", messageId: `result-${part.id}`, toolCallId: part.id, content: contentOf(part.output), role: "tool" }, within)),
    "tool-approval-request": (part) =>
      interrupts.push({ id: `${INTERRUPT_PREFIX}${part.id}`, reason: "tool_approval", toolCallId: part.id, ...(part.prompt === undefined ? {} : { message: part.prompt }) }),
    finish: (part, within) => {
      closeMessages(within);
      if (within !== undefined) return send({ type: "SUBAGENT_FINISHED", subagentRunId: subagents.get(within) });
      const outcome = interrupts.length > 0 ? { type: "interrupt", interrupts: interrupts.splice(0) } : { type: "success" };
      send({ type: "RUN_FINISHED", threadId, runId, outcome });
    },
    error: (part, within) => {
      closeMessages(within);
      send(within === undefined ? { type: "RUN_ERROR", message: part.error, code: part.code } : { type: "SUBAGENT_ERROR", subagentRunId: subagents.get(within), message: part.error });
    },
  };

  return {
    part: (part, within) => events[part.type]?.(part, within),
    garbled: () => res.write('data: {"type": "TEXT_MESSAGE_CONTENT", "delta": \n\n'),
    drop: () => res.destroy(),
    invalid() {
      throw new Error("the AG-UI stream carries events, not actions");
    },
    end: () => res.end(),
    abort() {},
  };
}
