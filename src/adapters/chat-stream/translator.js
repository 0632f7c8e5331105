// The NDJSON ChatStreamEvent frames of seed 001 (the Qredence chat UI's `POST /api/chat`) as
// session actions. Frame shapes follow its public protocol (web/protocol/src/chat-protocol.ts):
// `tool` frames carry a whole AI SDK-like tool part (`type: "tool-Name"`, `toolCallId`,
// `toolName`, `state`, `input`, `output`/`result`), upserted on every change; `done` carries
// the finished assistant message, which is authoritative.
import { DENIED, DENIED_CODE } from "../../wasm/protocol.js";
import { isRecord, isString, partAction } from "../shared/fields.js";

// Its error codes that have a session error code.
const errorCodes = { RATE_LIMIT: "rate_limited", NETWORK_DISCONNECTED: "network" };
// The fields of a tool part that become the call's own; the rest is kept in its metadata.
const toolPartFields = ["toolCallId", "toolName", "state", "input", "output", "result", "errorText"];

const toolName = (part) => (isString(part.toolName) ? part.toolName : isString(part.type) ? part.type.replace(/^tool-/, "") : "tool");
const outputOf = (part) => (part.output !== undefined ? part.output : part.result !== undefined ? part.result : null);

function toolMetadata(part) {
  /** @type {{ [key: string]: import("chat-session-reducer").JsonValue }} */
  const rest = {};
  for (const [key, value] of Object.entries(part)) if (!toolPartFields.includes(key) && value !== undefined) rest[key] = value;
  return { "chat-stream": rest };
}

// A tool part's state as the parts that bring a call there (a call already there ignores them).
function toolParts(part, messageId) {
  const id = part.toolCallId;
  const call = { type: "tool-call", id, name: toolName(part), input: part.input === undefined ? null : part.input };
  if (messageId !== undefined) call.messageId = messageId;
  call.metadata = toolMetadata(part);
  switch (part.state) {
    case "output-available":
      return [call, { type: "tool-result", id, output: outputOf(part) }];
    case "output-error": {
      const message = isString(part.errorText) ? part.errorText : "The tool failed";
      const error = { type: "tool-error", id, error: { message } };
      if (outputOf(part) !== null) error.metadata = { "chat-stream": { output: outputOf(part) } };
      return [call, error];
    }
    case "output-denied":
      return [call, { type: "tool-error", id, error: { message: DENIED, code: DENIED_CODE } }];
    default: {
      // Running ("input-streaming" is sent while the tool executes, with its input known); a
      // partial result is the tool's progress.
      const progress = outputOf(part);
      return progress === null ? [call] : [call, { type: "tool-result", id, output: progress, preliminary: true }];
    }
  }
}

// The parts of a `done` frame's ChatMessage as session parts.
/** @returns {import("chat-session-reducer").AgentPart[]} */
function sessionParts(message) {
  /** @type {import("chat-session-reducer").AgentPart[]} */
  const parts = [];
  for (const part of Array.isArray(message.parts) ? message.parts : []) {
    if (!isRecord(part) || !isString(part.type)) continue;
    if (part.type === "text") {
      if (isString(part.text)) parts.push({ type: "text", text: part.text });
    } else if (part.type === "tool-Thinking") {
      const thought = isRecord(part.input) && isString(part.input.thought) ? part.input.thought : isString(part.output) ? part.output : "";
      parts.push({ type: "reasoning", text: thought });
    } else if (part.type.startsWith("tool-") && isString(part.toolCallId)) {
      /** @type {{ type: "tool" } & import("chat-session-reducer").ToolPart} */
      const call = { type: "tool", id: part.toolCallId, name: toolName(part), input: part.input === undefined ? null : part.input, state: "running" };
      if (part.state === "output-available") Object.assign(call, { state: "done", output: outputOf(part) });
      else if (part.state === "output-error") Object.assign(call, { state: "error", error: { message: isString(part.errorText) ? part.errorText : "The tool failed" } });
      else if (part.state === "output-denied") Object.assign(call, { state: "error", error: { message: DENIED, code: DENIED_CODE } });
      call.metadata = toolMetadata(part);
      parts.push(call);
    } else {
      // Images, error notes and parts of newer versions: data parts named after their type.
      const { type, ...data } = part;
      parts.push({ type: "data", name: type, data });
    }
  }
  return parts;
}

export function createChatStreamTranslator() {
  // The assistant message the turn writes to: `start`'s id until a frame names another one
  // (the server may open a placeholder and then stream under its own id).
  let assistantId;
  const target = (frame) => {
    if (isString(frame.messageId)) assistantId = frame.messageId;
    return assistantId;
  };
  const parts = (list) => list.map((part) => partAction(part));
  const targeted = (part, messageId) => (messageId === undefined ? part : { ...part, messageId });

  const translators = {
    start: (frame) => {
      if (isString(frame.id)) assistantId = frame.id;
      return [];
    },
    // The most frequent frame: built directly.
    delta: (frame) => {
      if (!isString(frame.text)) return [];
      const messageId = target(frame);
      const part = messageId === undefined ? { type: "text-delta", text: frame.text } : { type: "text-delta", messageId, text: frame.text };
      return [{ type: "part", part }];
    },
    // A "start" phase opens a reasoning block; deltas (and frames without a phase) append; the
    // "end" phase adds nothing.
    thinking: (frame) => {
      if (!isString(frame.text) || frame.phase === "end") return [];
      const type = frame.phase === "start" ? "reasoning" : "reasoning-delta";
      return parts([targeted({ type, text: frame.text }, target(frame))]);
    },
    tool: (frame) => {
      if (!isRecord(frame.part) || !isString(frame.part.toolCallId)) return [];
      return parts(toolParts(frame.part, target(frame)));
    },
    // The plan is shown with the reply: a data part replaced by each plan frame.
    plan: (frame) => {
      const { type, ...plan } = frame;
      return parts([targeted({ type: "data", name: "plan", id: "plan", data: plan }, assistantId)]);
    },
    done: (frame) => {
      const finish = partAction({ type: "finish", reason: "stop" });
      const message = frame.message;
      if (!isRecord(message) || !isString(message.id)) return [finish];
      const messageParts = sessionParts(message);
      // An empty final message keeps what was streamed (as the reference client does).
      if (!messageParts.some((part) => part.type !== "text" || part.text.trim() !== "")) return [finish];
      // It replaces the message the turn streamed into, whatever id the server gives it now.
      const final = { id: assistantId ?? message.id, role: "assistant", parts: messageParts };
      return [partAction({ type: "snapshot", messages: [final] }), finish];
    },
    error: (frame) => {
      const error = { type: "error", error: isString(frame.message) ? frame.message : "The turn failed" };
      if (Object.prototype.hasOwnProperty.call(errorCodes, frame.code)) error.code = errorCodes[frame.code];
      return parts([error]);
    },
  };

  return (frame) => {
    if (!isRecord(frame) || !isString(frame.type) || !Object.prototype.hasOwnProperty.call(translators, frame.type)) return [];
    return translators[frame.type](frame);
  };
}
