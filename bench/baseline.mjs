// The benchmark's point of comparison: the session reducer of SPEC.md written by hand in
// JavaScript, the way a competent user of a React chat widget would write it. Plain objects,
// spreads, and a scan of the message tree whenever a call must be found. It keeps what the SPEC
// asks of a `useReducer` reducer (no mutation, the same object back when nothing changes,
// untouched messages and parts shared), and nothing more clever: no index kept with the state.
// Input is trusted as typed, so bad input is not validated beyond an unknown action type.

const isOpen = (part) => part.state === "running" || part.state === "awaiting-confirmation";
const isFinished = (part) => part.state === "done" || part.state === "error";
export const isCancelled = (error) => error.code === "cancelled";

export function sessionReducer(state, action) {
  switch (action.type) {
    case "send":
      return {
        messages: [
          ...state.messages,
          { id: action.id, role: "user", parts: [{ type: "text", text: action.text }] },
        ],
        status: "streaming",
      };
    case "part":
      return action.within === undefined
        ? streamPart(state, action.part, state)
        : streamPartWithin(state, action.within, action.part);
    case "toolPhase":
      return setToolPhase(state, action);
    case "stop": {
      const messages = cancelOpenCalls(state.messages);
      if (messages === state.messages && state.status === "idle") return state;
      return { messages, status: "idle" };
    }
    case "retry": {
      if (!state.messages.some((message) => message.role === "user")) return state;
      const messages = resumable(state.messages);
      const unchanged = state.status === "streaming" && messages.length === state.messages.length &&
        messages.every((message, i) => message === state.messages[i]);
      return unchanged ? state : { messages, status: "streaming" };
    }
    case "reset":
      if (state.messages.length === 0 && state.status === "idle") return state;
      return { messages: [], status: "idle" };
    default:
      throw new TypeError(`action.type: unknown action type ${JSON.stringify(action.type)}`);
  }
}

export function resumable(messages) {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) return [...messages];
  for (let i = messages.length - 1; i > lastUser; i--) {
    const message = messages[i];
    const call = message.parts.findLastIndex((part) => part.type === "tool" && isFinished(part));
    if (call < 0) continue;
    const kept = call === message.parts.length - 1
      ? message
      : { ...message, parts: message.parts.slice(0, call + 1) };
    return [...messages.slice(0, i), kept];
  }
  return messages.slice(0, lastUser + 1);
}

// `run` is the conversation or a sub-agent's run in it; `conversation` is the whole tree, where
// call ids are unique.
function streamPart(run, part, conversation) {
  if (run.status !== "streaming") return run;
  switch (part.type) {
    case "message-start":
      if (run.messages.some((message) => message.id === part.messageId)) return run;
      return {
        ...run,
        messages: [...run.messages, { id: part.messageId, role: "assistant", parts: [] }],
      };
    case "text-delta":
      return addToMessage(run, part.messageId, (parts) => appendText(parts, part.text));
    case "reasoning": {
      const reasoning = { type: "reasoning", text: part.text };
      if (part.metadata !== undefined) reasoning.metadata = part.metadata;
      return addToMessage(run, part.messageId, (parts) => [...parts, reasoning]);
    }
    case "tool-call": {
      if (hasCall(conversation.messages, part.id)) return run;
      const call = { type: "tool", id: part.id, name: part.name, input: part.input, state: "running" };
      return addToMessage(run, part.messageId, (parts) => [...parts, call]);
    }
    case "tool-result":
      return withMessages(run, updateCall(run.messages, part.id, (call) =>
        isOpen(call) ? closeCall(call, { state: "done", output: part.output }) : call));
    case "tool-error":
      return withMessages(run, updateCall(run.messages, part.id, (call) =>
        isOpen(call)
          ? closeCall(call, { state: isCancelled(part.error) ? "cancelled" : "error", error: part.error })
          : call));
    case "finish":
      return {
        ...run,
        messages: part.reason === "aborted" ? cancelOpenCalls(run.messages) : run.messages,
        status: "idle",
      };
    case "error": {
      const error = { message: part.error };
      if (part.code !== undefined) error.code = part.code;
      return { ...run, messages: cancelOpenCalls(run.messages), status: "error", error };
    }
    default: // step-finish, and part types from newer adapters
      return run;
  }
}

function streamPartWithin(state, callId, part) {
  if (state.status !== "streaming") return state;
  return withMessages(state, updateCall(state.messages, callId, (call) => {
    if (!isOpen(call)) return call;
    const run = call.agent ?? { messages: [], status: "streaming" };
    const next = streamPart(run, part, state);
    return next === run ? call : { ...call, agent: next };
  }));
}

function setToolPhase(state, { name, state: phase, prompt }) {
  const messages = updateNewestOpenCall(state.messages, name, (call) => {
    if (call.state === phase && call.prompt === prompt) return call;
    const { prompt: _removed, ...rest } = call;
    return prompt === undefined ? { ...rest, state: phase } : { ...rest, state: phase, prompt };
  });
  return messages === undefined ? state : withMessages(state, messages);
}

// The target message of text-delta, reasoning and tool-call, given `addParts(parts) => parts`.
function addToMessage(run, messageId, addParts) {
  const { messages } = run;
  let index;
  let id;
  if (messageId === undefined) {
    index = messages.at(-1)?.role === "assistant" ? messages.length - 1 : -1;
    id = `assistant-${messages.length}`;
  } else {
    index = messages.findLastIndex((message) => message.id === messageId);
    if (index >= 0 && messages[index].role !== "assistant") return run;
    id = messageId;
  }
  if (index < 0) {
    return { ...run, messages: [...messages, { id, role: "assistant", parts: addParts([]) }] };
  }
  const message = messages[index];
  return { ...run, messages: messages.with(index, { ...message, parts: addParts(message.parts) }) };
}

function appendText(parts, text) {
  const last = parts.at(-1);
  if (last?.type !== "text") return [...parts, { type: "text", text }];
  return parts.with(parts.length - 1, { ...last, text: last.text + text });
}

function withMessages(run, messages) {
  return messages === run.messages ? run : { ...run, messages };
}

// A call leaves the open states: its prompt goes, and a sub-agent run still streaming behind it
// ends as `stop` ends a run.
function closeCall(call, changes) {
  const { prompt: _removed, ...rest } = call;
  const next = { ...rest, ...changes };
  if (call.agent?.status === "streaming") next.agent = endRun(call.agent);
  return next;
}

function endRun(run) {
  const messages = cancelOpenCalls(run.messages);
  if (messages === run.messages && run.status !== "streaming") return run;
  return { ...run, messages, status: run.status === "streaming" ? "idle" : run.status };
}

// Every open call, nested ones included, becomes cancelled; every nested run still streaming ends.
function cancelOpenCalls(messages) {
  let changed = false;
  const next = messages.map((message) => {
    let partsChanged = false;
    const parts = message.parts.map((part) => {
      if (part.type !== "tool") return part;
      const agent = part.agent && endRun(part.agent);
      if (!isOpen(part) && agent === part.agent) return part;
      partsChanged = true;
      const cancelled = isOpen(part) ? { ...part, state: "cancelled" } : { ...part };
      if (agent !== part.agent) cancelled.agent = agent;
      return cancelled;
    });
    if (!partsChanged) return message;
    changed = true;
    return { ...message, parts };
  });
  return changed ? next : messages;
}

function hasCall(messages, id) {
  return messages.some((message) => message.parts.some((part) =>
    part.type === "tool" && (part.id === id || (part.agent !== undefined && hasCall(part.agent.messages, id)))));
}

// Applies `update` to the call with that id anywhere in the tree, newest messages first (ids are
// unique). Returns the same array when there is no such call or `update` changed nothing.
function updateCall(messages, id, update) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    for (let j = message.parts.length - 1; j >= 0; j--) {
      const part = message.parts[j];
      if (part.type !== "tool") continue;
      let next = part;
      if (part.id === id) {
        next = update(part);
      } else if (part.agent !== undefined) {
        const nested = updateCall(part.agent.messages, id, update);
        if (nested !== part.agent.messages) next = { ...part, agent: { ...part.agent, messages: nested } };
      }
      if (next !== part) return messages.with(i, { ...message, parts: message.parts.with(j, next) });
      if (part.id === id) return messages;
    }
  }
  return messages;
}

// Applies `update` to the newest open call of that name: the last in document order, where the
// calls of a sub-agent run come right after the call that holds it. Returns undefined when there
// is no such call, else the messages (the same array when `update` changed nothing).
function updateNewestOpenCall(messages, name, update) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    for (let j = message.parts.length - 1; j >= 0; j--) {
      const part = message.parts[j];
      if (part.type !== "tool") continue;
      let next;
      if (part.agent !== undefined) {
        const nested = updateNewestOpenCall(part.agent.messages, name, update);
        if (nested !== undefined) {
          if (nested === part.agent.messages) return messages;
          next = { ...part, agent: { ...part.agent, messages: nested } };
        }
      }
      if (next === undefined && part.name === name && isOpen(part)) next = update(part);
      if (next === undefined) continue;
      if (next === part) return messages;
      return messages.with(i, { ...message, parts: message.parts.with(j, next) });
    }
  }
  return undefined;
}
