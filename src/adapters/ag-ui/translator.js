// AG-UI 1.0 events as session actions, one translator per run.
import { isJsonPatch, isRecord, isSessionErrorCode, isString, partAction } from "../shared/fields.js";
import { interruptParts, isInterrupt } from "./interrupts.js";
import { fromAgUiMessages } from "./messages.js";

const withMetadata = (part, event) => (event.metadata === undefined ? part : { ...part, metadata: event.metadata });
const agUiMetadata = (fields) => ({ "ag-ui": fields });

export function createAgUiTranslator() {
  // subagentRunId -> the call whose nested run holds that sub-agent's events.
  const callOfSubagent = new Map();
  // subagentRunId -> where the call made up for a sub-agent without a parent call lives.
  const madeUpCalls = new Map();
  // The entity each lane (the parent agent, or a sub-agent) has open through *_CHUNK events.
  const lanes = new Map();
  // Streamed messages the session cannot hold as they stream: user messages (collected and
  // added whole at their end) and system or developer ones (dropped).
  const userTexts = new Map();
  const dropped = new Set();
  // Message ids this run wrote to, and the last assistant message (where the usage goes).
  const known = new Set();
  const activities = new Set();
  let lastAssistantId;

  const withinOf = (event) => (isString(event.subagentRunId) ? callOfSubagent.get(event.subagentRunId) : undefined);
  const owner = (event) => (isString(event.subagentRunId) ? event.subagentRunId : undefined);
  const emit = (parts, within) => parts.map((part) => partAction(part, within));

  function wrote(messageId, within) {
    known.add(messageId);
    if (within === undefined) lastAssistantId = messageId;
  }

  // Ends what a lane has open, as the matching *_END event would.
  function closeLane(laneOwner) {
    const open = lanes.get(laneOwner);
    if (!open) return [];
    lanes.delete(laneOwner);
    const base = laneOwner === undefined ? {} : { subagentRunId: laneOwner };
    const end = { text: "TEXT_MESSAGE_END", tool: "TOOL_CALL_END", reasoning: "REASONING_MESSAGE_END" }[open.kind];
    return apply({ ...base, type: end, [open.kind === "tool" ? "toolCallId" : "messageId"]: open.id });
  }
  const closeAllLanes = () => [...lanes.keys()].flatMap(closeLane);

  // A *_CHUNK event: a new id opens an entity (closing the lane's open one), no id continues it.
  function chunk(event, kind, idField, start, content) {
    const laneOwner = owner(event);
    const open = lanes.get(laneOwner);
    const id = event[idField];
    const actions = [];
    let current;
    if (isString(id) && !(open?.kind === kind && open.id === id)) {
      actions.push(...closeLane(laneOwner));
      const opened = start(id);
      if (opened === undefined) return actions;
      actions.push(...apply(opened));
      lanes.set(laneOwner, { kind, id });
      current = id;
    } else if (id === undefined && open?.kind === kind) {
      current = open.id;
    } else if (isString(id)) {
      current = id;
    } else {
      return actions;
    }
    if (isString(event.delta) && event.delta !== "") actions.push(...apply(content(current)));
    return actions;
  }

  function finishRun(event) {
    const within = withinOf(event);
    const actions = closeAllLanes();
    const outcome = isRecord(event.outcome) ? event.outcome : {};
    if (outcome.type === "interrupt" && Array.isArray(outcome.interrupts)) {
      for (const interrupt of outcome.interrupts.filter(isInterrupt)) {
        const interruptWithin = isString(interrupt.subagentRunId) ? callOfSubagent.get(interrupt.subagentRunId) : within;
        actions.push(...emit(interruptParts(interrupt), interruptWithin));
      }
    }
    if (Array.isArray(event.usage) && lastAssistantId !== undefined && within === undefined) {
      actions.push(partAction({ type: "message-metadata", messageId: lastAssistantId, metadata: agUiMetadata({ usage: event.usage }) }));
    }
    // A success leaves its pending (client-side) calls open: they wait for the app's answers.
    actions.push(partAction({ type: "finish", reason: outcome.type === "cancelled" ? "aborted" : "stop" }, within));
    return actions;
  }

  const translators = {
    RUN_STARTED: () => [],
    RUN_FINISHED: finishRun,
    RUN_ERROR: (event) => {
      const error = { type: "error", error: isString(event.message) ? event.message : "The run failed" };
      if (isSessionErrorCode(event.code)) error.code = event.code;
      return [...closeAllLanes(), partAction(error, withinOf(event))];
    },
    STEP_STARTED: () => [],
    STEP_FINISHED: (event) => emit([{ type: "step-finish" }], withinOf(event)),

    TEXT_MESSAGE_START: (event) => {
      if (!isString(event.messageId)) return [];
      const within = withinOf(event);
      if (event.role === "user") userTexts.set(event.messageId, { text: "", metadata: event.metadata });
      else if (event.role === "system" || event.role === "developer") dropped.add(event.messageId);
      else {
        wrote(event.messageId, within);
        return emit([withMetadata({ type: "message-start", messageId: event.messageId }, event)], within);
      }
      return [];
    },
    TEXT_MESSAGE_CONTENT: (event) => {
      const { messageId } = event;
      if (!isString(messageId) || !isString(event.delta) || dropped.has(messageId)) return [];
      const user = userTexts.get(messageId);
      if (user) {
        user.text += event.delta;
        return [];
      }
      const within = withinOf(event);
      wrote(messageId, within);
      // The most frequent event: built directly.
      const delta = partAction({ type: "text-delta", messageId, text: event.delta }, within);
      if (event.metadata === undefined) return [delta];
      return [delta, partAction({ type: "message-metadata", messageId, metadata: event.metadata }, within)];
    },
    TEXT_MESSAGE_END: (event) => {
      const { messageId } = event;
      if (!isString(messageId) || dropped.delete(messageId)) return [];
      const within = withinOf(event);
      const user = userTexts.get(messageId);
      if (user) {
        userTexts.delete(messageId);
        const message = { id: messageId, role: "user", parts: user.text === "" ? [] : [{ type: "text", text: user.text }] };
        if (isRecord(user.metadata)) message.metadata = user.metadata;
        return emit([{ type: "snapshot", messages: [message] }], within);
      }
      return event.metadata === undefined ? [] : emit([{ type: "message-metadata", messageId, metadata: event.metadata }], within);
    },
    TEXT_MESSAGE_CHUNK: (event) =>
      chunk(
        event,
        "text",
        "messageId",
        (messageId) => ({ ...event, type: "TEXT_MESSAGE_START", messageId, delta: undefined }),
        (messageId) => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: event.delta, subagentRunId: event.subagentRunId }),
      ),

    // A call without a parent message gets a message of its own, keyed by the call id, as
    // @ag-ui/client's reference fold does.
    TOOL_CALL_START: (event) => {
      if (!isString(event.toolCallId) || !isString(event.toolCallName)) return [];
      const within = withinOf(event);
      const messageId = isString(event.parentMessageId) ? event.parentMessageId : event.toolCallId;
      wrote(messageId, within);
      const start = { type: "tool-input-delta", messageId, id: event.toolCallId, name: event.toolCallName, text: "" };
      return emit([withMetadata(start, event)], within);
    },
    TOOL_CALL_ARGS: (event) =>
      isString(event.toolCallId) && isString(event.delta)
        ? emit([withMetadata({ type: "tool-input-delta", id: event.toolCallId, text: event.delta }, event)], withinOf(event))
        : [],
    TOOL_CALL_END: (event) =>
      isString(event.toolCallId) ? emit([withMetadata({ type: "tool-input-end", id: event.toolCallId }, event)], withinOf(event)) : [],
    TOOL_CALL_CHUNK: (event) =>
      chunk(
        event,
        "tool",
        "toolCallId",
        (toolCallId) =>
          isString(event.toolCallName)
            ? { type: "TOOL_CALL_START", toolCallId, toolCallName: event.toolCallName, parentMessageId: event.parentMessageId, subagentRunId: event.subagentRunId, metadata: event.metadata }
            : undefined,
        (toolCallId) => ({ type: "TOOL_CALL_ARGS", toolCallId, delta: event.delta, subagentRunId: event.subagentRunId }),
      ),
    // The tool message's id goes with the result, so the request builder gives it back.
    TOOL_CALL_RESULT: (event) => {
      if (!isString(event.toolCallId)) return [];
      const result = { type: "tool-result", id: event.toolCallId, output: event.content === undefined ? null : event.content };
      if (isString(event.messageId)) result.metadata = agUiMetadata({ toolMessageId: event.messageId });
      return emit([result], withinOf(event));
    },

    REASONING_START: () => [],
    REASONING_END: () => [],
    // An AG-UI reasoning message becomes an assistant message holding one reasoning part.
    REASONING_MESSAGE_START: (event) => {
      if (!isString(event.messageId)) return [];
      known.add(event.messageId);
      return emit([withMetadata({ type: "reasoning", messageId: event.messageId, text: "" }, event)], withinOf(event));
    },
    REASONING_MESSAGE_CONTENT: (event) => {
      if (!isString(event.messageId) || !isString(event.delta)) return [];
      known.add(event.messageId);
      return emit([{ type: "reasoning-delta", messageId: event.messageId, text: event.delta }], withinOf(event));
    },
    REASONING_MESSAGE_END: (event) =>
      isString(event.messageId) && event.metadata !== undefined && known.has(event.messageId)
        ? emit([{ type: "message-metadata", messageId: event.messageId, metadata: event.metadata }], withinOf(event))
        : [],
    REASONING_MESSAGE_CHUNK: (event) =>
      chunk(
        event,
        "reasoning",
        "messageId",
        (messageId) => ({ type: "REASONING_MESSAGE_START", messageId, subagentRunId: event.subagentRunId, metadata: event.metadata }),
        (messageId) => ({ type: "REASONING_MESSAGE_CONTENT", messageId, delta: event.delta, subagentRunId: event.subagentRunId }),
      ),
    // Kept with the message or call it belongs to, for the next request. A call takes it only
    // while its input streams (a finished call's metadata has no part to change it: a gap).
    REASONING_ENCRYPTED_VALUE: (event) => {
      if (!isString(event.entityId) || !isString(event.encryptedValue)) return [];
      const metadata = agUiMetadata({ encryptedValue: event.encryptedValue });
      const within = withinOf(event);
      if (event.subtype === "tool-call") return emit([{ type: "tool-input-delta", id: event.entityId, text: "", metadata }], within);
      if (event.subtype === "message" && known.has(event.entityId)) {
        return emit([{ type: "message-metadata", messageId: event.entityId, metadata }], within);
      }
      return [];
    },

    STATE_SNAPSHOT: (event) => (event.snapshot === undefined ? [] : emit([{ type: "agent-state", snapshot: event.snapshot }], withinOf(event))),
    STATE_DELTA: (event) => (isJsonPatch(event.delta) ? emit([{ type: "agent-state", patch: event.delta }], withinOf(event)) : []),
    MESSAGES_SNAPSHOT: (event) =>
      Array.isArray(event.messages)
        ? [...closeAllLanes(), partAction({ type: "snapshot", messages: fromAgUiMessages(event.messages) }, withinOf(event))]
        : [],
    // An activity is an assistant message (its id) holding one data part (the same id).
    ACTIVITY_SNAPSHOT: (event) => {
      const { messageId, activityType } = event;
      if (!isString(messageId) || !isString(activityType) || event.content === undefined) return [];
      // `replace: false` keeps an activity this run already has.
      if (event.replace === false && activities.has(messageId)) return [];
      activities.add(messageId);
      known.add(messageId);
      return emit([{ type: "data", messageId, name: activityType, id: messageId, data: event.content }], withinOf(event));
    },
    ACTIVITY_DELTA: (event) => {
      const { messageId, activityType } = event;
      if (!isString(messageId) || !isString(activityType) || !isJsonPatch(event.patch)) return [];
      return emit([{ type: "data", messageId, name: activityType, id: messageId, patch: event.patch }], withinOf(event));
    },
    RAW: () => [],
    CUSTOM: () => [],

    // A sub-agent's events go `within` the call that started it; a sub-agent without one gets
    // a call of its own, answered when it finishes.
    SUBAGENT_STARTED: (event) => {
      const { subagentRunId } = event;
      if (!isString(subagentRunId)) return [];
      if (isString(event.parentToolCallId)) {
        callOfSubagent.set(subagentRunId, event.parentToolCallId);
        return [];
      }
      const within = isString(event.parentSubagentRunId) ? callOfSubagent.get(event.parentSubagentRunId) : undefined;
      callOfSubagent.set(subagentRunId, subagentRunId);
      madeUpCalls.set(subagentRunId, within);
      const call = { type: "tool-call", id: subagentRunId, name: isString(event.name) ? event.name : "subagent", input: {} };
      if (isString(event.description)) call.input = { description: event.description };
      if (isString(event.parentMessageId)) call.messageId = event.parentMessageId;
      return emit([call], within);
    },
    // A suspended sub-agent's run ends, but its open calls (interrupts) stay open.
    SUBAGENT_FINISHED: (event) => {
      const call = isString(event.subagentRunId) ? callOfSubagent.get(event.subagentRunId) : undefined;
      if (call === undefined) return [];
      const actions = [...closeLane(event.subagentRunId), partAction({ type: "finish", reason: "stop" }, call)];
      const suspended = isRecord(event.outcome) && event.outcome.type === "suspended";
      if (madeUpCalls.has(event.subagentRunId) && !suspended) {
        const output = event.result === undefined ? null : event.result;
        actions.push(partAction({ type: "tool-result", id: call, output }, madeUpCalls.get(event.subagentRunId)));
      }
      return actions;
    },
    SUBAGENT_ERROR: (event) => {
      const call = isString(event.subagentRunId) ? callOfSubagent.get(event.subagentRunId) : undefined;
      if (call === undefined) return [];
      const message = isString(event.message) ? event.message : "The sub-agent failed";
      const actions = [...closeLane(event.subagentRunId), partAction({ type: "error", error: message }, call)];
      if (madeUpCalls.has(event.subagentRunId)) {
        actions.push(partAction({ type: "tool-error", id: call, error: { message } }, madeUpCalls.get(event.subagentRunId)));
      }
      return actions;
    },
  };

  // Events that end the open chunk stream of their lane before they apply (as @ag-ui/client's
  // transformChunks does); run-level ones end every lane themselves.
  const closesLane = new Set([
    "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END",
    "TOOL_CALL_RESULT", "STATE_SNAPSHOT", "STATE_DELTA", "CUSTOM", "STEP_STARTED", "STEP_FINISHED", "REASONING_START",
    "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END",
  ]);

  // An event this translator made up from a chunk: its lane is already as it should be.
  const apply = (event) => translators[event.type](event);

  function translate(event) {
    if (!isRecord(event) || !isString(event.type) || !Object.prototype.hasOwnProperty.call(translators, event.type)) return [];
    const before = lanes.size > 0 && closesLane.has(event.type) ? closeLane(owner(event)) : [];
    const actions = translators[event.type](event);
    return before.length ? [...before, ...actions] : actions;
  }
  return translate;
}
