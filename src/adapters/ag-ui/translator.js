// AG-UI 1.0 events as session actions, one translator per stream (a stream may carry several
// runs). Each event type has one handler below, named for it, implementing its row of the
// mapping "AG-UI events → actions" (research/protocols.md §2b, beside the SPEC); `handlers` at
// the end lists them. A stream the protocol says must fail ends the run in an `error` part
// saying what was wrong (`fail`), and the translator ignores the rest of the stream.
import { isRecord, isSessionErrorCode, isString, knownPatch, partAction } from "../shared/fields.js";
import { interruptParts, isInterrupt } from "./interrupts.js";
import { fromAgUiMessages } from "./messages.js";

const withMetadata = (part, event) => (event.metadata === undefined ? part : { ...part, metadata: event.metadata });
const agUiMetadata = (fields) => ({ "ag-ui": fields });

// What the translator knows of the current run; a RUN_STARTED after a finished run starts anew.
function newRun() {
  return {
    // "running", "finished" (RUN_FINISHED), "errored" (RUN_ERROR) or "failed" (by `fail`).
    state: "running",
    // The entity each lane (the parent agent, or a sub-agent) has open through *_CHUNK events.
    lanes: new Map(),
    // Who opened each streamed entity: its subagentRunId, or undefined for the parent agent.
    owners: { message: new Map(), tool: new Map(), reasoning: new Map(), activity: new Map() },
    // The entities started and not yet ended, and the sub-agents started and not yet finished.
    open: { message: new Set(), tool: new Set(), reasoning: new Set(), subagent: new Set() },
  };
}

// What a translator remembers of the events it has seen; every handler gets it.
function newMemory(options) {
  const held = isRecord(options) && Array.isArray(options.messages) ? options.messages : undefined;
  return {
    run: newRun(),
    runId: undefined,
    // subagentRunId -> the call whose nested run holds that sub-agent's events.
    callOfSubagent: new Map(),
    // subagentRunId -> where the call made up for a sub-agent without a parent call lives.
    madeUpCalls: new Map(),
    // Streamed messages the session cannot hold as they stream: user messages (collected and
    // added whole at their end) and system or developer ones (dropped).
    userTexts: new Map(),
    dropped: new Set(),
    // The ids of the messages the session held when the stream began (the app says, or undefined),
    // and of those this stream wrote to; the last assistant message (where the usage goes).
    held: held && new Set(held.filter(isRecord).map((message) => message.id)),
    known: new Set(),
    lastAssistantId: undefined,
    // Call id -> the name its TOOL_CALL_START gave it.
    names: new Map(),
    // The reasoning message of a pre-1.0 THINKING_TEXT_MESSAGE_*, and how many there were.
    thinking: undefined,
    thoughts: 0,
    // With `replay`: the messages this stream has named (each was emptied when first named).
    named: isRecord(options) && options.replay === true ? new Set() : undefined,
  };
}

const withinOf = (memory, event) => (isString(event.subagentRunId) ? memory.callOfSubagent.get(event.subagentRunId) : undefined);
const owner = (event) => (isString(event.subagentRunId) ? event.subagentRunId : undefined);
const emit = (parts, within) => parts.map((part) => partAction(part, within));
const ignored = () => [];

// Ends the run for a stream the protocol says must fail, keeping what arrived before.
function fail(memory, message) {
  memory.run.state = "failed";
  memory.run.lanes.clear();
  return [partAction({ type: "error", error: message })];
}

// A replayed stream (a reconnect) starts each message over: the first event naming a message
// empties it, so what the replay carries again replaces what the session held instead of doubling.
function startOver(memory, messageId, within) {
  if (memory.named === undefined || memory.named.has(messageId)) return [];
  memory.named.add(messageId);
  return emit([{ type: "snapshot", messages: [{ id: messageId, role: "assistant", parts: [] }] }], within);
}

function wrote(memory, messageId, within) {
  memory.known.add(messageId);
  if (within === undefined) memory.lastAssistantId = messageId;
}

// Ends what a lane has open, as the matching *_END event would.
function closeLane(memory, laneOwner) {
  const open = memory.run.lanes.get(laneOwner);
  if (!open) return [];
  memory.run.lanes.delete(laneOwner);
  const base = laneOwner === undefined ? {} : { subagentRunId: laneOwner };
  const end = { text: "TEXT_MESSAGE_END", tool: "TOOL_CALL_END", reasoning: "REASONING_MESSAGE_END" }[open.kind];
  return apply(memory, { ...base, type: end, [open.kind === "tool" ? "toolCallId" : "messageId"]: open.id });
}
const closeAllLanes = (memory) => [...memory.run.lanes.keys()].flatMap((laneOwner) => closeLane(memory, laneOwner));

// The fields a continuation chunk may repeat only with its opener's value.
const chunkFields = { text: ["role"], tool: ["toolCallName", "parentMessageId"], reasoning: [] };

// A *_CHUNK event: a new id opens an entity (closing the lane's open one), no id continues it.
function chunk(memory, event, kind, idField, start, content) {
  const laneOwner = owner(event);
  const open = memory.run.lanes.get(laneOwner);
  const id = event[idField];
  const actions = [];
  let current;
  if (isString(id) && !(open?.kind === kind && open.id === id)) {
    actions.push(...closeLane(memory, laneOwner));
    const opened = start(id);
    if (opened === undefined) return actions;
    actions.push(...apply(memory, opened));
    if (memory.run.state === "failed") return actions;
    memory.run.lanes.set(laneOwner, { kind, id, opener: event });
    current = id;
  } else if (open?.kind === kind && (id === undefined || id === open.id)) {
    const conflict = chunkFields[kind].find((field) => isString(event[field]) && isString(open.opener[field]) && event[field] !== open.opener[field]);
    if (conflict) return fail(memory, `${event.type}: ${conflict} '${event[conflict]}' does not match the open stream's ${conflict} '${open.opener[conflict]}'`);
    current = open.id;
  } else {
    return actions;
  }
  if (isString(event.delta) && event.delta !== "") actions.push(...apply(memory, content(current)));
  return actions;
}

// RUN_STARTED: after a finished or failed run (RUN_FINISHED, RUN_ERROR), `continue`: the next
// run's parts apply. Given the messages the session held (createAgUiTranslator's option), the
// `input.messages` it does not hold are added first, in one snapshot.
function runStarted(memory, event) {
  const actions = [];
  if (memory.run.state !== "running") {
    memory.run = newRun();
    actions.push({ type: "continue" });
  }
  if (isString(event.runId)) memory.runId = event.runId;
  const input = isRecord(event.input) ? event.input : {};
  if (memory.held && Array.isArray(input.messages)) {
    const added = fromAgUiMessages(input.messages).filter((message) => !memory.held.has(message.id) && !memory.known.has(message.id));
    for (const message of added) memory.known.add(message.id);
    if (added.length > 0) actions.push(partAction({ type: "snapshot", messages: added }));
  }
  return actions;
}

// What makes a RUN_FINISHED fail: something of the run still open, or a malformed outcome.
function finishProblem(memory, outcome) {
  const stillOpen = [["text messages", "message"], ["reasoning messages", "reasoning"], ["tool calls", "tool"], ["subagents", "subagent"]];
  for (const [what, kind] of stillOpen) {
    const ids = memory.run.open[kind];
    if (ids.size > 0) return `Cannot send 'RUN_FINISHED' while ${what} are still active: ${[...ids].join(", ")}`;
  }
  if (outcome === undefined || outcome === null) return undefined;
  if (!isRecord(outcome)) return `RUN_FINISHED.outcome: expected object, received ${Array.isArray(outcome) ? "array" : typeof outcome}`;
  const ids = new Set();
  for (const interrupt of Array.isArray(outcome.interrupts) ? outcome.interrupts.filter(isInterrupt) : []) {
    if (ids.has(interrupt.id)) return `RUN_FINISHED.outcome: two interrupts carrying the id '${interrupt.id}'`;
    ids.add(interrupt.id);
  }
  return undefined;
}

// RUN_FINISHED: success → finish {reason: "stop"} (+ message-metadata {usage}); interrupt → its
// calls to the human (tool-call, tool-approval-request), then finish; cancelled → finish "aborted".
function runFinished(memory, event) {
  const within = withinOf(memory, event);
  const actions = closeAllLanes(memory);
  const problem = finishProblem(memory, event.outcome);
  if (problem) return [...actions, ...fail(memory, problem)];
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
  if (within === undefined) memory.run.state = "finished";
  // A success leaves its pending (client-side) calls open: they wait for the app's answers.
  actions.push(partAction({ type: "finish", reason: outcome.type === "cancelled" ? "aborted" : "stop" }, within));
  return actions;
}

// RUN_ERROR → error {error: message}, `code` kept only when it is one of the SPEC's four; after
// a finished run, `continue` first, so the failure reported late still lands.
function runError(memory, event) {
  const within = withinOf(memory, event);
  const error = { type: "error", error: isString(event.message) ? event.message : "The run failed" };
  if (isSessionErrorCode(event.code)) error.code = event.code;
  const actions = closeAllLanes(memory);
  if (within === undefined) {
    if (memory.run.state === "finished") actions.push({ type: "continue" });
    memory.run.state = "errored";
  }
  actions.push(partAction(error, within));
  return actions;
}

// STEP_FINISHED → step-finish.
const stepFinished = (memory, event) => emit([{ type: "step-finish" }], withinOf(memory, event));

// TEXT_MESSAGE_START (assistant) → message-start {messageId, metadata}; a user message is
// collected until its end, a system or developer one dropped.
function textMessageStart(memory, event) {
  if (!isString(event.messageId)) return [];
  memory.run.open.message.add(event.messageId);
  const within = withinOf(memory, event);
  if (event.role === "user") memory.userTexts.set(event.messageId, { text: "", metadata: event.metadata });
  else if (event.role === "system" || event.role === "developer") memory.dropped.add(event.messageId);
  else {
    wrote(memory, event.messageId, within);
    return [...startOver(memory, event.messageId, within), ...emit([withMetadata({ type: "message-start", messageId: event.messageId }, event)], within)];
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
  if (!isString(messageId)) return [];
  memory.run.open.message.delete(messageId);
  if (memory.dropped.delete(messageId)) return [];
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
// reference fold does. A call's name never changes: a start renaming it fails the run (an
// approval could show one tool and run another).
function toolCallStart(memory, event) {
  const { toolCallId: id, toolCallName: name } = event;
  if (!isString(id) || !isString(name)) return [];
  const before = memory.names.get(id);
  if (before !== undefined && before !== name) return fail(memory, `TOOL_CALL_START: tool call '${id}' already exists with name '${before}', not '${name}'`);
  memory.names.set(id, name);
  memory.run.open.tool.add(id);
  const within = withinOf(memory, event);
  const messageId = isString(event.parentMessageId) ? event.parentMessageId : id;
  wrote(memory, messageId, within);
  return [...startOver(memory, messageId, within), ...emit([withMetadata({ type: "tool-input-delta", messageId, id, name, text: "" }, event)], within)];
}

// TOOL_CALL_ARGS → tool-input-delta {id, text: delta}.
const toolCallArgs = (memory, event) =>
  isString(event.toolCallId) && isString(event.delta)
    ? emit([withMetadata({ type: "tool-input-delta", id: event.toolCallId, text: event.delta }, event)], withinOf(memory, event))
    : [];

// TOOL_CALL_END → tool-input-end {id} (the reducer parses the input).
function toolCallEnd(memory, event) {
  if (!isString(event.toolCallId)) return [];
  memory.run.open.tool.delete(event.toolCallId);
  return emit([withMetadata({ type: "tool-input-end", id: event.toolCallId }, event)], withinOf(memory, event));
}

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
  memory.run.open.reasoning.add(event.messageId);
  const within = withinOf(memory, event);
  return [...startOver(memory, event.messageId, within), ...emit([withMetadata({ type: "reasoning", messageId: event.messageId, text: "" }, event)], within)];
}

// REASONING_MESSAGE_CONTENT → reasoning-delta {messageId, text: delta}.
function reasoningMessageContent(memory, event) {
  if (!isString(event.messageId) || !isString(event.delta)) return [];
  memory.known.add(event.messageId);
  return emit([{ type: "reasoning-delta", messageId: event.messageId, text: event.delta }], withinOf(memory, event));
}

// REASONING_MESSAGE_END → message-metadata when it carries metadata for a message this run wrote.
function reasoningMessageEnd(memory, event) {
  if (!isString(event.messageId)) return [];
  memory.run.open.reasoning.delete(event.messageId);
  return event.metadata !== undefined && memory.known.has(event.messageId)
    ? emit([{ type: "message-metadata", messageId: event.messageId, metadata: event.metadata }], withinOf(memory, event))
    : [];
}

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

// THINKING_TEXT_MESSAGE_* (before AG-UI 1.0) → as REASONING_MESSAGE_*, as @ag-ui/client translates
// them, the message id made up from the run's; THINKING_START and THINKING_END map to nothing.
function thinkingMessage(memory, event) {
  const type = event.type.replace("THINKING_TEXT", "REASONING");
  if (type === "REASONING_MESSAGE_START") memory.thinking = `${memory.runId ?? "run"}-thinking-${++memory.thoughts}`;
  const messageId = memory.thinking;
  if (type === "REASONING_MESSAGE_END") memory.thinking = undefined;
  return messageId === undefined ? [] : apply(memory, { ...event, type, messageId });
}

// STATE_SNAPSHOT → agent-state {snapshot}.
const stateSnapshot = (memory, event) =>
  event.snapshot === undefined ? [] : emit([{ type: "agent-state", snapshot: event.snapshot }], withinOf(memory, event));

// STATE_DELTA → agent-state {patch: delta}, without operations of an unknown `op`; a delta that
// is not then a JSON Patch is dropped, as @ag-ui/client leaves its state as it was.
function stateDelta(memory, event) {
  const patch = knownPatch(event.delta);
  return patch ? emit([{ type: "agent-state", patch }], withinOf(memory, event)) : [];
}

// MESSAGES_SNAPSHOT → snapshot {messages: fromAgUiMessages(messages), exact: true}: the snapshot
// is the run's conversation, so what it leaves out goes.
function messagesSnapshot(memory, event) {
  if (!Array.isArray(event.messages)) return [];
  const messages = fromAgUiMessages(event.messages);
  for (const message of messages) memory.known.add(message.id);
  return [...closeAllLanes(memory), partAction({ type: "snapshot", messages, exact: true }, withinOf(memory, event))];
}

// ACTIVITY_SNAPSHOT → snapshot {messages: [{id: messageId, parts: [data {name: activityType,
// id: messageId, data: content}]}]}: an activity is a message of its own, which replaces any
// message of that id; with `replace: false`, a message of that id stays as it is.
function activitySnapshot(memory, event) {
  const { messageId, activityType } = event;
  if (!isString(messageId) || !isString(activityType) || event.content === undefined) return [];
  if (event.replace === false && (memory.known.has(messageId) || memory.held?.has(messageId))) return [];
  memory.known.add(messageId);
  const message = { id: messageId, role: "assistant", parts: [{ type: "data", name: activityType, id: messageId, data: event.content }] };
  return emit([{ type: "snapshot", messages: [message] }], withinOf(memory, event));
}

// ACTIVITY_DELTA → data {messageId, name: activityType, id: messageId, patch} (a patch as for
// STATE_DELTA).
function activityDelta(memory, event) {
  const { messageId, activityType } = event;
  const patch = knownPatch(event.patch);
  if (!isString(messageId) || !isString(activityType) || !patch) return [];
  return emit([{ type: "data", messageId, name: activityType, id: messageId, patch }], withinOf(memory, event));
}

// SUBAGENT_STARTED → with parentToolCallId, the sub-agent's events go `within` that call; without,
// tool-call {id: subagentRunId, name, input: {description}} first, answered when it finishes.
function subagentStarted(memory, event) {
  const { subagentRunId } = event;
  if (!isString(subagentRunId)) return [];
  memory.run.open.subagent.add(subagentRunId);
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
  memory.run.open.subagent.delete(event.subagentRunId);
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
  memory.run.open.subagent.delete(event.subagentRunId);
  const call = isString(event.subagentRunId) ? memory.callOfSubagent.get(event.subagentRunId) : undefined;
  if (call === undefined) return [];
  const message = isString(event.message) ? event.message : "The sub-agent failed";
  const actions = [...closeLane(memory, event.subagentRunId), partAction({ type: "error", error: message }, call)];
  if (memory.madeUpCalls.has(event.subagentRunId)) {
    actions.push(partAction({ type: "tool-error", id: call, error: { message } }, memory.madeUpCalls.get(event.subagentRunId)));
  }
  return actions;
}

// Every AG-UI 1.0 event type and its handler, and the retired THINKING_* ones. STEP_STARTED,
// REASONING_START, REASONING_END, RAW and CUSTOM map to nothing (§2b: "—").
const handlers = {
  RUN_STARTED: runStarted,
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
  THINKING_START: ignored,
  THINKING_END: ignored,
  THINKING_TEXT_MESSAGE_START: thinkingMessage,
  THINKING_TEXT_MESSAGE_CONTENT: thinkingMessage,
  THINKING_TEXT_MESSAGE_END: thinkingMessage,

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

// Event type -> the kind of streamed entity it is about, and whether it opens one (read once
// from the types' names).
const kinds = { TEXT_MESSAGE: "message", TOOL_CALL: "tool", REASONING_MESSAGE: "reasoning", ACTIVITY: "activity" };
let entities;

// The entity table, made on first use: made at load, it would keep the whole translator in the
// bundle of an app that imports only readAgUiStream from this subpath.
function entityOf(type) {
  entities ??= entityTable();
  return entities.get(type);
}

function entityTable() {
  const table = new Map();
  for (const type of Object.keys(handlers)) {
    const match = /^(TEXT_MESSAGE|TOOL_CALL|REASONING_MESSAGE|ACTIVITY)_(START|SNAPSHOT|CONTENT|ARGS|DELTA|END)$/.exec(type);
    if (match) table.set(type, { kind: kinds[match[1]], opens: match[2] === "START" || match[2] === "SNAPSHOT" });
  }
  return table;
}
const entityNames = { message: "message", tool: "tool call", reasoning: "reasoning message", activity: "activity" };

// An event as attributed by its entity's opener: one without subagentRunId belongs to the
// opener's sub-agent; one naming another sub-agent is a problem (a string saying so).
function attributed(memory, event) {
  const entity = entityOf(event.type);
  if (!entity) return event;
  const { kind } = entity;
  const id = event[kind === "tool" ? "toolCallId" : "messageId"];
  if (!isString(id)) return event;
  const owners = memory.run.owners[kind];
  const claimed = owner(event);
  if (!owners.has(id)) {
    if (entity.opens) owners.set(id, claimed);
    return event;
  }
  const opener = owners.get(id);
  if (claimed === undefined) return opener === undefined ? event : { ...event, subagentRunId: opener };
  if (claimed === opener) return event;
  return `Cannot send '${event.type}': subagentRunId '${claimed}' does not match the ${entityNames[kind]} '${id}' opener's subagent '${opener ?? "(the parent agent)"}'`;
}

// An event, as given or made up from a chunk, through its handler.
function apply(memory, event) {
  const attributedEvent = attributed(memory, event);
  return isString(attributedEvent) ? fail(memory, attributedEvent) : handlers[event.type](memory, attributedEvent);
}

/** See index.d.ts. */
export function createAgUiTranslator(options) {
  const memory = newMemory(options);
  return function translate(event) {
    if (memory.run.state === "failed" || !isRecord(event) || !isString(event.type) || !Object.prototype.hasOwnProperty.call(handlers, event.type)) return [];
    const before = memory.run.lanes.size > 0 && closesLane.has(event.type) ? closeLane(memory, owner(event)) : [];
    const actions = apply(memory, event);
    return before.length ? [...before, ...actions] : actions;
  };
}
