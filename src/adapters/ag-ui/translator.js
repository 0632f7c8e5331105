// AG-UI 1.0 events as session actions, one translator per run. Each event type has one handler
// below, named for it, implementing its row of the mapping "AG-UI events → actions"
// (research/protocols.md §2b, beside the SPEC); `handlers` at the end lists them.
import { isJsonPatch, isRecord, isSessionErrorCode, isString, partAction } from "../shared/fields.js";
import { interruptParts, isInterrupt } from "./interrupts.js";
import { fromAgUiMessages } from "./messages.js";

const withMetadata = (part, event) => (event.metadata === undefined ? part : { ...part, metadata: event.metadata });
const agUiMetadata = (fields) => ({ "ag-ui": fields });

// What a translator remembers of the events it has seen; every handler gets it.
function newMemory() {
  return {
    // subagentRunId -> the call whose nested run holds that sub-agent's events.
    callOfSubagent: new Map(),
    // subagentRunId -> where the call made up for a sub-agent without a parent call lives.
    madeUpCalls: new Map(),
    // The entity each lane (the parent agent, or a sub-agent) has open through *_CHUNK events.
    lanes: new Map(),
    // Streamed messages the session cannot hold as they stream: user messages (collected and
    // added whole at their end) and system or developer ones (dropped).
    userTexts: new Map(),
    dropped: new Set(),
    // Message ids this run wrote to, and the last assistant message (where the usage goes).
    known: new Set(),
    activities: new Set(),
    lastAssistantId: undefined,
  };
}

const withinOf = (memory, event) => (isString(event.subagentRunId) ? memory.callOfSubagent.get(event.subagentRunId) : undefined);
const owner = (event) => (isString(event.subagentRunId) ? event.subagentRunId : undefined);
const emit = (parts, within) => parts.map((part) => partAction(part, within));
const ignored = () => [];

function wrote(memory, messageId, within) {
  memory.known.add(messageId);
  if (within === undefined) memory.lastAssistantId = messageId;
}

// Ends what a lane has open, as the matching *_END event would.
function closeLane(memory, laneOwner) {
  const open = memory.lanes.get(laneOwner);
  if (!open) return [];
  memory.lanes.delete(laneOwner);
  const base = laneOwner === undefined ? {} : { subagentRunId: laneOwner };
  const end = { text: "TEXT_MESSAGE_END", tool: "TOOL_CALL_END", reasoning: "REASONING_MESSAGE_END" }[open.kind];
  return apply(memory, { ...base, type: end, [open.kind === "tool" ? "toolCallId" : "messageId"]: open.id });
}
const closeAllLanes = (memory) => [...memory.lanes.keys()].flatMap((laneOwner) => closeLane(memory, laneOwner));

// A *_CHUNK event: a new id opens an entity (closing the lane's open one), no id continues it.
function chunk(memory, event, kind, idField, start, content) {
  const laneOwner = owner(event);
  const open = memory.lanes.get(laneOwner);
  const id = event[idField];
  const actions = [];
  let current;
  if (isString(id) && !(open?.kind === kind && open.id === id)) {
    actions.push(...closeLane(memory, laneOwner));
    const opened = start(id);
    if (opened === undefined) return actions;
    actions.push(...apply(memory, opened));
    memory.lanes.set(laneOwner, { kind, id });
    current = id;
  } else if (id === undefined && open?.kind === kind) {
    current = open.id;
  } else if (isString(id)) {
    current = id;
  } else {
    return actions;
  }
  if (isString(event.delta) && event.delta !== "") actions.push(...apply(memory, content(current)));
  return actions;
}

// RUN_FINISHED: success → finish {reason: "stop"} (+ message-metadata {usage}); interrupt → its
// calls to the human (tool-call, tool-approval-request), then finish; cancelled → finish "aborted".
function runFinished(memory, event) {
  const within = withinOf(memory, event);
  const actions = closeAllLanes(memory);
  const outcome = isRecord(event.outcome) ? event.outcome : {};
  if (outcome.type === "interrupt" && Array.isArray(outcome.interrupts)) {
    for (const interrupt of outcome.interrupts.filter(isInterrupt)) {
      const interruptWithin = isString(interrupt.subagentRunId) ? memory.callOfSubagent.get(interrupt.subagentRunId) : within;
      actions.push(...emit(interruptParts(interrupt), interruptWithin));
    }
  }
  if (Array.isArray(event.usage) && memory.lastAssistantId !== undefined && within === undefined) {
    actions.push(partAction({ type: "message-metadata", messageId: memory.lastAssistantId, metadata: agUiMetadata({ usage: event.usage }) }));
  }
  // A success leaves its pending (client-side) calls open: they wait for the app's answers.
  actions.push(partAction({ type: "finish", reason: outcome.type === "cancelled" ? "aborted" : "stop" }, within));
  return actions;
}

// RUN_ERROR → error {error: message}, `code` kept only when it is one of the SPEC's four.
function runError(memory, event) {
  const error = { type: "error", error: isString(event.message) ? event.message : "The run failed" };
  if (isSessionErrorCode(event.code)) error.code = event.code;
  return [...closeAllLanes(memory), partAction(error, withinOf(memory, event))];
}

// STEP_FINISHED → step-finish.
const stepFinished = (memory, event) => emit([{ type: "step-finish" }], withinOf(memory, event));

// TEXT_MESSAGE_START (assistant) → message-start {messageId, metadata}; a user message is
// collected until its end, a system or developer one dropped.
function textMessageStart(memory, event) {
  if (!isString(event.messageId)) return [];
  const within = withinOf(memory, event);
  if (event.role === "user") memory.userTexts.set(event.messageId, { text: "", metadata: event.metadata });
  else if (event.role === "system" || event.role === "developer") memory.dropped.add(event.messageId);
  else {
    wrote(memory, event.messageId, within);
    return emit([withMetadata({ type: "message-start", messageId: event.messageId }, event)], within);
  }
  return [];
}

// TEXT_MESSAGE_CONTENT → text-delta {messageId, text: delta} (+ message-metadata).
function textMessageContent(memory, event) {
  const { messageId } = event;
  if (!isString(messageId) || !isString(event.delta) || memory.dropped.has(messageId)) return [];
  const user = memory.userTexts.get(messageId);
  if (user) {
    user.text += event.delta;
    return [];
  }
  const within = withinOf(memory, event);
  wrote(memory, messageId, within);
  // The most frequent event: built directly.
  const delta = partAction({ type: "text-delta", messageId, text: event.delta }, within);
  if (event.metadata === undefined) return [delta];
  return [delta, partAction({ type: "message-metadata", messageId, metadata: event.metadata }, within)];
}

// TEXT_MESSAGE_END → message-metadata when it carries metadata; a user message → a snapshot of it.
function textMessageEnd(memory, event) {
  const { messageId } = event;
  if (!isString(messageId) || memory.dropped.delete(messageId)) return [];
  const within = withinOf(memory, event);
  const user = memory.userTexts.get(messageId);
  if (user) {
    memory.userTexts.delete(messageId);
    const message = { id: messageId, role: "user", parts: user.text === "" ? [] : [{ type: "text", text: user.text }] };
    if (isRecord(user.metadata)) message.metadata = user.metadata;
    return emit([{ type: "snapshot", messages: [message] }], within);
  }
  return event.metadata === undefined ? [] : emit([{ type: "message-metadata", messageId, metadata: event.metadata }], within);
}

// TEXT_MESSAGE_CHUNK → as TEXT_MESSAGE_START (a new id) and TEXT_MESSAGE_CONTENT.
const textMessageChunk = (memory, event) =>
  chunk(
    memory,
    event,
    "text",
    "messageId",
    (messageId) => ({ ...event, type: "TEXT_MESSAGE_START", messageId, delta: undefined }),
    (messageId) => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: event.delta, subagentRunId: event.subagentRunId }),
  );

// TOOL_CALL_START → tool-input-delta {messageId: parentMessageId, id, name, text: ""}. A call
// without a parent message gets a message of its own, keyed by the call id, as @ag-ui/client's
// reference fold does.
function toolCallStart(memory, event) {
  if (!isString(event.toolCallId) || !isString(event.toolCallName)) return [];
  const within = withinOf(memory, event);
  const messageId = isString(event.parentMessageId) ? event.parentMessageId : event.toolCallId;
  wrote(memory, messageId, within);
  const start = { type: "tool-input-delta", messageId, id: event.toolCallId, name: event.toolCallName, text: "" };
  return emit([withMetadata(start, event)], within);
}

// TOOL_CALL_ARGS → tool-input-delta {id, text: delta}.
const toolCallArgs = (memory, event) =>
  isString(event.toolCallId) && isString(event.delta)
    ? emit([withMetadata({ type: "tool-input-delta", id: event.toolCallId, text: event.delta }, event)], withinOf(memory, event))
    : [];

// TOOL_CALL_END → tool-input-end {id} (the reducer parses the input).
const toolCallEnd = (memory, event) =>
  isString(event.toolCallId) ? emit([withMetadata({ type: "tool-input-end", id: event.toolCallId }, event)], withinOf(memory, event)) : [];

// TOOL_CALL_CHUNK → as TOOL_CALL_START (a new id) and TOOL_CALL_ARGS.
const toolCallChunk = (memory, event) =>
  chunk(
    memory,
    event,
    "tool",
    "toolCallId",
    (toolCallId) =>
      isString(event.toolCallName)
        ? { type: "TOOL_CALL_START", toolCallId, toolCallName: event.toolCallName, parentMessageId: event.parentMessageId, subagentRunId: event.subagentRunId, metadata: event.metadata }
        : undefined,
    (toolCallId) => ({ type: "TOOL_CALL_ARGS", toolCallId, delta: event.delta, subagentRunId: event.subagentRunId }),
  );

// TOOL_CALL_RESULT → tool-result {id, output: content} + metadata {"ag-ui": {toolMessageId}}: the
// tool message's id goes with the result, so the request builder gives it back.
function toolCallResult(memory, event) {
  if (!isString(event.toolCallId)) return [];
  const result = { type: "tool-result", id: event.toolCallId, output: event.content === undefined ? null : event.content };
  if (isString(event.messageId)) result.metadata = agUiMetadata({ toolMessageId: event.messageId });
  return emit([result], withinOf(memory, event));
}

// REASONING_MESSAGE_START → reasoning {messageId, text: ""}: an AG-UI reasoning message becomes
// an assistant message holding one reasoning part.
function reasoningMessageStart(memory, event) {
  if (!isString(event.messageId)) return [];
  memory.known.add(event.messageId);
  return emit([withMetadata({ type: "reasoning", messageId: event.messageId, text: "" }, event)], withinOf(memory, event));
}

// REASONING_MESSAGE_CONTENT → reasoning-delta {messageId, text: delta}.
function reasoningMessageContent(memory, event) {
  if (!isString(event.messageId) || !isString(event.delta)) return [];
  memory.known.add(event.messageId);
  return emit([{ type: "reasoning-delta", messageId: event.messageId, text: event.delta }], withinOf(memory, event));
}

// REASONING_MESSAGE_END → message-metadata when it carries metadata for a message this run wrote.
const reasoningMessageEnd = (memory, event) =>
  isString(event.messageId) && event.metadata !== undefined && memory.known.has(event.messageId)
    ? emit([{ type: "message-metadata", messageId: event.messageId, metadata: event.metadata }], withinOf(memory, event))
    : [];

// REASONING_MESSAGE_CHUNK → as REASONING_MESSAGE_START (a new id) and REASONING_MESSAGE_CONTENT.
const reasoningMessageChunk = (memory, event) =>
  chunk(
    memory,
    event,
    "reasoning",
    "messageId",
    (messageId) => ({ type: "REASONING_MESSAGE_START", messageId, subagentRunId: event.subagentRunId, metadata: event.metadata }),
    (messageId) => ({ type: "REASONING_MESSAGE_CONTENT", messageId, delta: event.delta, subagentRunId: event.subagentRunId }),
  );

// REASONING_ENCRYPTED_VALUE → message-metadata {encryptedValue} on a message, metadata on a call:
// kept for the next request. A call takes it only while its input streams (a finished call's
// metadata has no part to change it: a gap).
function reasoningEncryptedValue(memory, event) {
  if (!isString(event.entityId) || !isString(event.encryptedValue)) return [];
  const metadata = agUiMetadata({ encryptedValue: event.encryptedValue });
  const within = withinOf(memory, event);
  if (event.subtype === "tool-call") return emit([{ type: "tool-input-delta", id: event.entityId, text: "", metadata }], within);
  if (event.subtype === "message" && memory.known.has(event.entityId)) {
    return emit([{ type: "message-metadata", messageId: event.entityId, metadata }], within);
  }
  return [];
}

// STATE_SNAPSHOT → agent-state {snapshot}.
const stateSnapshot = (memory, event) =>
  event.snapshot === undefined ? [] : emit([{ type: "agent-state", snapshot: event.snapshot }], withinOf(memory, event));

// STATE_DELTA → agent-state {patch: delta}.
const stateDelta = (memory, event) =>
  isJsonPatch(event.delta) ? emit([{ type: "agent-state", patch: event.delta }], withinOf(memory, event)) : [];

// MESSAGES_SNAPSHOT → snapshot {messages: fromAgUiMessages(messages)}.
const messagesSnapshot = (memory, event) =>
  Array.isArray(event.messages)
    ? [...closeAllLanes(memory), partAction({ type: "snapshot", messages: fromAgUiMessages(event.messages) }, withinOf(memory, event))]
    : [];

// ACTIVITY_SNAPSHOT → data {messageId, name: activityType, id: messageId, data: content}: an
// activity is an assistant message (its id) holding one data part (the same id).
function activitySnapshot(memory, event) {
  const { messageId, activityType } = event;
  if (!isString(messageId) || !isString(activityType) || event.content === undefined) return [];
  // `replace: false` keeps an activity this run already has.
  if (event.replace === false && memory.activities.has(messageId)) return [];
  memory.activities.add(messageId);
  memory.known.add(messageId);
  return emit([{ type: "data", messageId, name: activityType, id: messageId, data: event.content }], withinOf(memory, event));
}

// ACTIVITY_DELTA → data {messageId, name: activityType, id: messageId, patch}.
function activityDelta(memory, event) {
  const { messageId, activityType } = event;
  if (!isString(messageId) || !isString(activityType) || !isJsonPatch(event.patch)) return [];
  return emit([{ type: "data", messageId, name: activityType, id: messageId, patch: event.patch }], withinOf(memory, event));
}

// SUBAGENT_STARTED → with parentToolCallId, the sub-agent's events go `within` that call; without,
// tool-call {id: subagentRunId, name, input: {description}} first, answered when it finishes.
function subagentStarted(memory, event) {
  const { subagentRunId } = event;
  if (!isString(subagentRunId)) return [];
  if (isString(event.parentToolCallId)) {
    memory.callOfSubagent.set(subagentRunId, event.parentToolCallId);
    return [];
  }
  const within = isString(event.parentSubagentRunId) ? memory.callOfSubagent.get(event.parentSubagentRunId) : undefined;
  memory.callOfSubagent.set(subagentRunId, subagentRunId);
  memory.madeUpCalls.set(subagentRunId, within);
  const call = { type: "tool-call", id: subagentRunId, name: isString(event.name) ? event.name : "subagent", input: {} };
  if (isString(event.description)) call.input = { description: event.description };
  if (isString(event.parentMessageId)) call.messageId = event.parentMessageId;
  return emit([call], within);
}

// SUBAGENT_FINISHED → `within`: finish {reason: "stop"} (+ the made-up call's tool-result). A
// suspended sub-agent's run ends, but its open calls (interrupts) stay open.
function subagentFinished(memory, event) {
  const call = isString(event.subagentRunId) ? memory.callOfSubagent.get(event.subagentRunId) : undefined;
  if (call === undefined) return [];
  const actions = [...closeLane(memory, event.subagentRunId), partAction({ type: "finish", reason: "stop" }, call)];
  const suspended = isRecord(event.outcome) && event.outcome.type === "suspended";
  if (memory.madeUpCalls.has(event.subagentRunId) && !suspended) {
    const output = event.result === undefined ? null : event.result;
    actions.push(partAction({ type: "tool-result", id: call, output }, memory.madeUpCalls.get(event.subagentRunId)));
  }
  return actions;
}

// SUBAGENT_ERROR → `within`: error {error: message} (+ the made-up call's tool-error).
function subagentError(memory, event) {
  const call = isString(event.subagentRunId) ? memory.callOfSubagent.get(event.subagentRunId) : undefined;
  if (call === undefined) return [];
  const message = isString(event.message) ? event.message : "The sub-agent failed";
  const actions = [...closeLane(memory, event.subagentRunId), partAction({ type: "error", error: message }, call)];
  if (memory.madeUpCalls.has(event.subagentRunId)) {
    actions.push(partAction({ type: "tool-error", id: call, error: { message } }, memory.madeUpCalls.get(event.subagentRunId)));
  }
  return actions;
}

// Every AG-UI 1.0 event type and its handler. RUN_STARTED, STEP_STARTED, REASONING_START,
// REASONING_END, RAW and CUSTOM map to nothing (§2b: "—").
const handlers = {
  RUN_STARTED: ignored,
  RUN_FINISHED: runFinished,
  RUN_ERROR: runError,
  STEP_STARTED: ignored,
  STEP_FINISHED: stepFinished,

  TEXT_MESSAGE_START: textMessageStart,
  TEXT_MESSAGE_CONTENT: textMessageContent,
  TEXT_MESSAGE_END: textMessageEnd,
  TEXT_MESSAGE_CHUNK: textMessageChunk,

  TOOL_CALL_START: toolCallStart,
  TOOL_CALL_ARGS: toolCallArgs,
  TOOL_CALL_END: toolCallEnd,
  TOOL_CALL_CHUNK: toolCallChunk,
  TOOL_CALL_RESULT: toolCallResult,

  REASONING_START: ignored,
  REASONING_END: ignored,
  REASONING_MESSAGE_START: reasoningMessageStart,
  REASONING_MESSAGE_CONTENT: reasoningMessageContent,
  REASONING_MESSAGE_END: reasoningMessageEnd,
  REASONING_MESSAGE_CHUNK: reasoningMessageChunk,
  REASONING_ENCRYPTED_VALUE: reasoningEncryptedValue,

  STATE_SNAPSHOT: stateSnapshot,
  STATE_DELTA: stateDelta,
  MESSAGES_SNAPSHOT: messagesSnapshot,
  ACTIVITY_SNAPSHOT: activitySnapshot,
  ACTIVITY_DELTA: activityDelta,
  RAW: ignored,
  CUSTOM: ignored,

  SUBAGENT_STARTED: subagentStarted,
  SUBAGENT_FINISHED: subagentFinished,
  SUBAGENT_ERROR: subagentError,
};

// Events that end the open chunk stream of their lane before they apply (as @ag-ui/client's
// transformChunks does); run-level ones end every lane themselves.
const closesLane = new Set([
  "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
  "TOOL_CALL_RESULT", "STATE_SNAPSHOT", "STATE_DELTA", "CUSTOM", "STEP_STARTED", "STEP_FINISHED", "REASONING_START",
  "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END",
]);

// An event this translator made up from a chunk: its lane is already as it should be.
const apply = (memory, event) => handlers[event.type](memory, event);

export function createAgUiTranslator() {
  const memory = newMemory();
  return function translate(event) {
    if (!isRecord(event) || !isString(event.type) || !Object.prototype.hasOwnProperty.call(handlers, event.type)) return [];
    const before = memory.lanes.size > 0 && closesLane.has(event.type) ? closeLane(memory, owner(event)) : [];
    const actions = handlers[event.type](memory, event);
    return before.length ? [...before, ...actions] : actions;
  };
}
