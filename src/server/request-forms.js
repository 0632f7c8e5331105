// Each protocol's request body as the request side reads it (request.js): where the conversation
// id is, the shape its messages must have, how a message of the body is compared with a stored
// one, what the user sent, and the answers the client gave to calls the store holds open.
// Compared are digests, not whole messages: what the user wrote and answered must match exactly,
// but a client that folds the stream itself (the AI SDK's useChat, an AG-UI client) holds the
// server's replies in its own shape. Digests are compared as JSON text, in which undefined
// fields are absent, as on the wire.

import { fromAgUiMessages, toAgUiInput } from "chat-session-reducer/ag-ui";
import { toAiSdkMessages } from "chat-session-reducer/ai-sdk";
import { interruptOf } from "../adapters/ag-ui/interrupts.js";
import { contentChunkTypes } from "../adapters/ai-sdk/from-chunk.js";
import { isRecord, isString } from "../adapters/shared/fields.js";

const defined = (record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

const textOf = (parts, type) => parts.filter((part) => part?.type === type && isString(part.text)).map((part) => part.text).join("");

/** The first problem of `messages` as `{ path, problem }`, checked item by item with `check`. */
function firstProblem(messages, check) {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    const path = `body.messages[${index}]`;
    if (!isRecord(message)) return { path, problem: "expected an object" };
    if (!isString(message.id) || message.id === "") return { path: `${path}.id`, problem: "expected a non-empty string" };
    const problem = check(message, path);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

// ---- ai-sdk: UIMessages ----

const uiToolName = (part) => (part.type === "dynamic-tool" ? part.toolName : part.type.startsWith("tool-") ? part.type.slice(5) : undefined);

/** A UI part the user sends as a session part (text, a file or source, app data); undefined for others. */
function fromUiUserPart(part) {
  if (part.type === "text") return { type: "text", text: part.text };
  if (contentChunkTypes.has(part.type)) {
    const { type, sourceId, providerMetadata, ...data } = part;
    return isString(sourceId) ? { type: "data", name: type, id: sourceId, data } : { type: "data", name: type, data };
  }
  if (part.type.startsWith("data-")) {
    const fields = { type: "data", name: part.type.slice(5) };
    if (isString(part.id)) fields.id = part.id;
    return { ...fields, data: part.data ?? null };
  }
  return undefined;
}

// A UI tool part's state as the session holds it (first requests only: history the store never had).
function fromUiToolPart(part) {
  const call = { type: "tool", id: part.toolCallId, name: uiToolName(part), input: part.input ?? null, state: "running" };
  const approval = isRecord(part.approval) ? defined({ id: part.approval.id ?? part.toolCallId, approved: part.approval.approved, reason: part.approval.reason }) : undefined;
  if (approval !== undefined) call.approval = approval;
  if (part.state === "output-available") return { ...call, state: "done", output: part.output ?? null };
  if (part.state === "output-error") return { ...call, state: "error", error: { message: String(part.errorText ?? "The tool failed") } };
  if (part.state === "output-denied" || approval?.approved === false) return { ...call, state: "error", error: { message: approval?.reason ?? "Denied by the user", code: "denied" } };
  if (part.state === "approval-requested") return { ...call, state: "awaiting-confirmation" };
  return call;
}

function fromUiAssistantPart(part) {
  if (part.type === "reasoning") return { type: "reasoning", text: part.text };
  if (part.type === "step-start") return { type: "step" };
  if (uiToolName(part) !== undefined && isString(part.toolCallId)) return fromUiToolPart(part);
  return fromUiUserPart(part);
}

function fromUiMessage(message) {
  const read = message.role === "user" ? fromUiUserPart : fromUiAssistantPart;
  const parts = message.parts.map(read).filter((part) => part !== undefined);
  return message.metadata === undefined ? { id: message.id, role: message.role, parts } : { id: message.id, role: message.role, parts, metadata: message.metadata };
}

// What must match of a UIMessage: the user's parts and metadata; of a reply, its text, reasoning and calls.
function uiDigest(message) {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  if (message.role === "user") {
    const sent = parts.map((part) => fromUiUserPart(part) ?? part).filter((part) => !(part.type === "text" && part.text === ""));
    return { id: message.id, role: message.role, parts: sent, metadata: message.metadata };
  }
  const calls = parts
    .filter((part) => isString(part?.toolCallId))
    .map((part) => ({ id: part.toolCallId, state: part.state, input: part.input, output: part.output, errorText: part.errorText, approved: part.approval?.approved, reason: part.approval?.reason }));
  return { id: message.id, role: message.role, text: textOf(parts, "text"), reasoning: textOf(parts, "reasoning"), calls };
}

function uiAnswer(call, bodyPart) {
  const approved = bodyPart.approval?.approved;
  const edited = bodyPart.input !== undefined && JSON.stringify(bodyPart.input) !== JSON.stringify(call.input) ? { input: bodyPart.input } : {};
  const reason = isString(bodyPart.approval?.reason) ? { reason: bodyPart.approval.reason } : {};
  switch (bodyPart.state) {
    case "output-available":
      return approved === true
        ? { type: "tool-approval-response", id: call.id, approved: true, ...reason, ...edited, output: bodyPart.output ?? null }
        : { type: "tool-result", id: call.id, output: bodyPart.output ?? null };
    case "approval-responded":
    case "output-denied":
      return isRecord(bodyPart.approval) && typeof approved === "boolean" ? { type: "tool-approval-response", id: call.id, approved, ...reason, ...(approved ? edited : {}) } : undefined;
    case "output-error":
      // A call the user's send cancelled is answered by the send itself.
      return bodyPart.errorText === "Cancelled by the user" ? undefined : { type: "tool-error", id: call.id, error: { message: String(bodyPart.errorText ?? "The tool failed") } };
    default:
      return undefined;
  }
}

function uiCheck(message, path) {
  if (!["user", "assistant", "system"].includes(message.role)) return { path: `${path}.role`, problem: 'expected "user", "assistant" or "system"' };
  if (!Array.isArray(message.parts)) return { path: `${path}.parts`, problem: "expected an array" };
  const bad = message.parts.findIndex((part) => !isRecord(part) || !isString(part.type));
  if (bad !== -1) return { path: `${path}.parts[${bad}]`, problem: "expected an object with a string type" };
  if (message.parts.some((part) => part.type === "text" && !isString(part.text))) return { path: `${path}.parts`, problem: "expected text parts with a string text" };
  return undefined;
}

const aiSdk = {
  idPath: "body.id",
  idOf: (body) => body.id,
  check: (body) => firstProblem(body.messages, uiCheck),
  /** The body's messages as digests, in order, and the stored messages' digests. */
  digests: (body) => body.messages.map(uiDigest),
  storedDigests: (messages) => toAiSdkMessages(messages).map(uiDigest),
  /** Per stored message, the digests it is written as (one each here). */
  groups: (messages) => toAiSdkMessages(messages).map((message) => [uiDigest(message)]),
  extra: () => undefined,
  storedExtra: () => undefined,
  sent: (body, index) => fromUiMessage(body.messages[index]),
  history: (messages) => messages.filter((message) => message.role !== "system").map(fromUiMessage),
  answersFor(body, calls) {
    const parts = new Map(body.messages.flatMap((message) => message.parts.filter((part) => isString(part.toolCallId)).map((part) => [part.toolCallId, part])));
    return calls.map((call) => (parts.has(call.id) ? uiAnswer(call, parts.get(call.id)) : undefined));
  },
  trigger: (body) => body.trigger,
  messageId: (body) => body.messageId,
};

// ---- ag-ui: RunAgentInput ----

const AG_UI_ROLES = ["user", "assistant", "tool", "reasoning", "activity", "system", "developer"];

function agUiDigest(message) {
  if (message.role === "user") return { id: message.id, role: "user", content: message.content, metadata: message.metadata };
  if (message.role === "tool") return { role: "tool", toolCallId: message.toolCallId, content: message.content, error: message.error };
  const calls = Array.isArray(message.toolCalls) ? message.toolCalls.map((call) => [call?.id, call?.function?.arguments]) : undefined;
  return { id: message.id, role: message.role, content: message.role === "assistant" || message.role === "reasoning" ? message.content : undefined, calls };
}

// The tool messages answer calls: they follow the message whose calls they answer, so a stored
// message is matched by its other AG-UI messages.
const agUiKeyed = (digest) => digest.role !== "tool";

function agUiCheck(message, path) {
  if (!AG_UI_ROLES.includes(message.role)) return { path: `${path}.role`, problem: `expected one of ${AG_UI_ROLES.join(", ")}` };
  if (message.role === "user" && !isString(message.content) && !Array.isArray(message.content)) return { path: `${path}.content`, problem: "expected a string or an array" };
  if (message.toolCalls !== undefined && !Array.isArray(message.toolCalls)) return { path: `${path}.toolCalls`, problem: "expected an array" };
  if (message.role === "tool" && !isString(message.toolCallId)) return { path: `${path}.toolCallId`, problem: "expected a string" };
  return undefined;
}

// The input the body's call carries, when the user edited it as they approved (JSON text in AG-UI).
function editedInput(call, argumentsText) {
  if (!isString(argumentsText) || argumentsText === JSON.stringify(call.input)) return {};
  try {
    return { input: JSON.parse(argumentsText) };
  } catch {
    return {};
  }
}

// The payload of a resume entry as the answer it encodes (interrupts.js's resumeEntry, read back).
function resumeAnswer(call, entry, argumentsText) {
  if (entry.status !== "resolved") return undefined;
  const payload = entry.payload;
  const decision = isRecord(payload) && typeof payload.approved === "boolean" && Object.keys(payload).every((key) => key === "approved" || key === "reason");
  const edited = editedInput(call, argumentsText);
  if (!decision) return { type: "tool-approval-response", id: call.id, approved: true, ...edited, output: payload ?? null };
  const reason = isString(payload.reason) ? { reason: payload.reason } : {};
  return { type: "tool-approval-response", id: call.id, approved: payload.approved, ...reason, ...(payload.approved ? edited : {}) };
}

// A tool message's content as the output the client gave (its tool content is JSON text for values).
function toolOutput(content) {
  if (!isString(content)) return content ?? null;
  try {
    const parsed = JSON.parse(content);
    return !isString(parsed) && JSON.stringify(parsed) === content ? parsed : content;
  } catch {
    return content;
  }
}

const agUi = {
  idPath: "body.threadId",
  idOf: (body) => body.threadId,
  check(body) {
    if (body.resume !== undefined && (!Array.isArray(body.resume) || !body.resume.every((entry) => isRecord(entry) && isString(entry.interruptId)))) {
      return { path: "body.resume", problem: "expected an array of { interruptId, status }" };
    }
    return firstProblem(body.messages, agUiCheck);
  },
  digests: (body) => body.messages.map(agUiDigest),
  storedDigests: (messages) => toAgUiInput({ messages, status: "idle" }).messages.map(agUiDigest),
  groups: (messages) => messages.map((message) => toAgUiInput({ messages: [message], status: "idle" }).messages.map(agUiDigest)),
  keyed: agUiKeyed,
  extra: (body) => body.resume ?? [],
  storedExtra: (state) => toAgUiInput(state).resume,
  sent: (body, index) => fromAgUiMessages([body.messages[index]])[0],
  history: (messages) => fromAgUiMessages(messages),
  answersFor(body, calls) {
    const entries = new Map((body.resume ?? []).map((entry) => [entry.interruptId, entry]));
    const results = new Map(body.messages.filter((message) => message.role === "tool").map((message) => [message.toolCallId, message]));
    const argumentsOf = new Map(body.messages.flatMap((message) => (Array.isArray(message.toolCalls) ? message.toolCalls : []).map((call) => [call?.id, call?.function?.arguments])));
    return calls.map((call) => {
      const interrupt = interruptOf(call);
      if (interrupt !== undefined) return entries.has(interrupt.id) ? resumeAnswer(call, entries.get(interrupt.id), argumentsOf.get(call.id)) : undefined;
      const result = results.get(call.id);
      if (result === undefined) return undefined;
      if (isString(result.error)) return result.error === "Cancelled by the user" ? undefined : { type: "tool-error", id: call.id, error: { message: result.error } };
      return { type: "tool-result", id: call.id, output: toolOutput(result.content) };
    });
  },
  trigger: () => undefined,
  messageId: () => undefined,
};

// ---- actions and chat-stream: the session's own messages ----

const sessionDigest = (message) => message;

function sessionAnswer(call, part) {
  if (part === undefined || part.type !== "tool" || part.state === call.state || part.state === "cancelled") return undefined;
  const edited = JSON.stringify(part.input) !== JSON.stringify(call.input) ? { input: part.input } : {};
  const reason = isString(part.approval?.reason) ? { reason: part.approval.reason } : {};
  if (part.state === "done") {
    return part.approval?.approved === true
      ? { type: "tool-approval-response", id: call.id, approved: true, ...reason, ...edited, output: part.output ?? null }
      : { type: "tool-result", id: call.id, output: part.output ?? null };
  }
  if (part.state === "running" && part.approval?.approved === true) return { type: "tool-approval-response", id: call.id, approved: true, ...reason, ...edited };
  if (part.state === "error" && part.error?.code === "denied") return { type: "tool-approval-response", id: call.id, approved: false, ...reason };
  if (part.state === "error") return { type: "tool-error", id: call.id, error: part.error ?? { message: "The tool failed" } };
  return undefined;
}

const sessionMessages = {
  idPath: "body.id",
  idOf: (body) => body.id,
  // The reducer checks these messages itself (request.js loads them), naming the path.
  check: (body) => firstProblem(body.messages, () => undefined),
  digests: (body) => body.messages.map(sessionDigest),
  storedDigests: (messages) => messages.map(sessionDigest),
  groups: (messages) => messages.map((message) => [sessionDigest(message)]),
  extra: () => undefined,
  storedExtra: () => undefined,
  sent: (body, index) => body.messages[index],
  history: (messages) => messages,
  answersFor(body, calls) {
    const parts = new Map(body.messages.flatMap((message) => (Array.isArray(message.parts) ? message.parts : []).filter((part) => part?.type === "tool").map((part) => [part.id, part])));
    return calls.map((call) => sessionAnswer(call, parts.get(call.id)));
  },
  trigger: (body) => body.trigger,
  messageId: (body) => body.messageId,
};

/** The forms by protocol name. */
export const FORMS = { "ai-sdk": aiSdk, "ag-ui": agUi, actions: sessionMessages, "chat-stream": sessionMessages };

/** What a stored message is matched on: the user's words whole, a reply by its id alone. */
export const keyOf = (digest) => JSON.stringify(digest.role === "user" ? digest : { id: digest.id, role: digest.role });
