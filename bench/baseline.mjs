// The benchmark's point of comparison and the fuzz's independent implementation: the session
// reducer of SPEC.md (v4) written by hand in JavaScript, the way a competent user of a React chat
// widget would write it. Plain objects, spreads, and a scan of the message tree whenever a call
// must be found. It keeps what the SPEC asks of a `useReducer` reducer (no mutation, the same
// object back when nothing changes, untouched messages and parts shared), and nothing more
// clever: no index kept with the state. Input is trusted as typed, so bad input is not validated.
import { NOT_APPLIED, applyJsonPatch, jsonEqual } from "./json-patch.mjs";

const OPEN_STATES = ["input-streaming", "running", "awaiting-confirmation"];
const isOpen = (part) => OPEN_STATES.includes(part.state);
const isFinished = (part) => part.state === "done" || part.state === "error";
const isTool = (part) => part.type === "tool";
export const isCancelled = (error) => error.code === "cancelled";

// Parts that answer a call: they apply whatever the run's status (SPEC v2).
const ANSWERS = ["tool-result", "tool-error", "tool-approval-response"];
const EMPTY = Object.freeze({ messages: Object.freeze([]), status: "idle" });

export function sessionReducer(state = EMPTY, action) {
  switch (action.type) {
    case "send":
      return state.status === "streaming" ? enqueue(state, action) : sendTurn(state, [...(state.queue ?? []), action]);
    case "part": {
      const next = action.within === undefined
        ? streamPart(state, action.part, state)
        : streamPartWithin(state, action.within, action.part);
      return action.within === undefined ? afterTopLevelPart(state, action.part, next) : next;
    }
    case "toolPhase":
      return setToolPhase(state, action);
    case "stop": {
      const messages = cancelOpenCalls(state.messages);
      if (messages === state.messages && state.status === "idle") return state;
      return { ...withoutError(state), messages, status: "idle" };
    }
    case "retry": {
      if (!state.messages.some((message) => message.role === "user")) return state;
      const messages = resumable(state.messages);
      const unchanged = state.status === "streaming" && messages.length === state.messages.length &&
        messages.every((message, i) => message === state.messages[i]);
      // What retry cuts is dropped, the forks after it too (SPEC v3).
      return unchanged ? state : withForksOnPath({ ...withoutError(state), messages, status: "streaming" });
    }
    case "reset":
      if (state.messages.length === 0 && state.status === "idle" && state.agentState === undefined &&
        state.forks === undefined && state.queue === undefined) return state;
      return { messages: [], status: "idle" };
    case "continue":
      return state.status === "streaming" ? state : { ...withoutError(state), status: "streaming" };
    case "batch":
      return action.actions.reduce((current, inner) => sessionReducer(current, inner), state);
    case "edit":
      return edit(state, action);
    case "regenerate":
      return regenerate(state, action);
    case "switchBranch":
      return switchBranch(state, action);
    case "unqueue":
      return unqueue(state, action);
    case "load":
      return load(action.state);
    case "prepend":
      return prepend(state, action);
    default: // Redux's own actions (`@@redux/INIT…`) and other reducers' actions
      return state;
  }
}

export function resumable(messages) {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) return [...messages];
  for (let i = messages.length - 1; i > lastUser; i--) {
    const message = messages[i];
    const call = message.parts.findLastIndex((part) => isTool(part) && isFinished(part));
    if (call < 0) continue;
    const kept = call === message.parts.length - 1
      ? message
      : { ...message, parts: message.parts.slice(0, call + 1) };
    return [...messages.slice(0, i), kept];
  }
  return messages.slice(0, lastUser + 1);
}

function withoutError(run) {
  const { error: _cleared, ...rest } = run;
  return rest;
}

// `run` is the conversation or a sub-agent's run in it; `conversation` is the whole tree, where
// call ids are unique.
function streamPart(run, part, conversation) {
  if (run.status !== "streaming" && !ANSWERS.includes(part.type)) return run;
  switch (part.type) {
    case "text-delta":
      if (part.text === "" && part.metadata === undefined) return run;
      return addToMessage(run, part.messageId, (parts) => appendText(parts, part));
    case "message-start": // targeted as a text-delta with its id; it creates the message
    case "message-metadata":
      return mergeIntoMessage(run, part);
    case "reasoning":
      return addToMessage(run, part.messageId, (parts) =>
        [...parts, withMetadata({ type: "reasoning", text: part.text }, part.metadata)]);
    case "reasoning-delta":
      if (part.text === "" && part.metadata === undefined) return run;
      return addToMessage(run, part.messageId, (parts) => appendReasoning(parts, part));
    case "tool-call":
      return callTool(run, part, conversation);
    case "tool-input-delta":
      return streamToolInput(run, part, conversation);
    case "tool-input-end":
      return withMessages(run, updateCall(run.messages, part.id, (call) =>
        call.state === "input-streaming" ? withMetadata(endToolInput(call), part.metadata) : call));
    case "tool-result":
      return withMessages(run, updateCall(run.messages, part.id, (call) => {
        if (!isOpen(call)) return call;
        // Opaque values are written, not compared (docs/decisions.md).
        const next = part.preliminary === true
          ? { ...call, output: part.output }
          : closeCall(call, { state: "done", output: part.output });
        return withMetadata(next, part.metadata);
      }));
    case "tool-error":
      return withMessages(run, updateCall(run.messages, part.id, (call) =>
        isOpen(call)
          ? withMetadata(closeCall(call, {
            state: isCancelled(part.error) ? "cancelled" : "error",
            error: part.error,
          }), part.metadata)
          : call));
    case "tool-approval-request":
      return requestApproval(run, part);
    case "tool-approval-response":
      return answerApproval(run, part);
    case "data":
      return putData(run, part);
    case "snapshot":
      return applySnapshot(run, part, conversation);
    case "agent-state":
      return setAgentState(run, part);
    case "step-start":
      return addToMessage(run, part.messageId, (parts) => (parts.at(-1)?.type === "step" ? parts : [...parts, { type: "step" }]));
    case "step-reset":
      return resetStep(run, part);
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

// A step-reset: the target's parts after its last step part go; it never creates a message.
function resetStep(run, { messageId }) {
  const index = targetIndex(run.messages, messageId);
  if (index < 0) return run;
  const message = run.messages[index];
  const step = message.parts.findLastIndex((part) => part.type === "step");
  if (step === message.parts.length - 1) return run;
  return withMessages(run, run.messages.with(index, { ...message, parts: message.parts.slice(0, step + 1) }));
}

// What a top-level part does beyond its run (SPEC v3): a finish sends the queue when no call
// waits; an exact snapshot drops the forks whose message it removed.
function afterTopLevelPart(before, part, next) {
  if (part.type === "finish" && part.reason !== "aborted" && before.status === "streaming" &&
    next.queue !== undefined && !hasOpenCall(next.messages)) {
    return sendTurn(next, next.queue);
  }
  if (part.type === "snapshot" && part.exact === true && next !== before) return withForksOnPath(next);
  return next;
}

// ---- SPEC v3: the queue, send with parts and metadata, load

const userMessage = ({ id, text, parts, metadata }) => {
  const message = { id, role: "user", parts: [{ type: "text", text }, ...(parts ?? [])] };
  if (metadata !== undefined) message.metadata = metadata;
  return message;
};

// `send` while streaming: the message waits in the queue.
function enqueue(state, { id, text, parts, metadata }) {
  const queued = { id, text };
  if (parts !== undefined && parts.length > 0) queued.parts = parts;
  if (metadata !== undefined) queued.metadata = metadata;
  return { ...state, queue: [...(state.queue ?? []), queued] };
}

// One turn of user messages (the queue, then the message sent): open calls cancelled first.
function sendTurn(state, sends) {
  const { queue: _sent, ...rest } = withoutError(state);
  const messages = [...cancelOpenCalls(state.messages), ...sends.map(userMessage)];
  return { ...rest, messages, status: "streaming" };
}

function unqueue(state, { id }) {
  const index = state.queue?.findIndex((queued) => queued.id === id) ?? -1;
  if (index < 0) return state;
  if (state.queue.length === 1) {
    const { queue: _removed, ...rest } = state;
    return rest;
  }
  return { ...state, queue: state.queue.toSpliced(index, 1) };
}

// The v3 load rule: a conversation stored while streaming is stopped; otherwise only the calls
// whose nested run still streams are cancelled; nothing to stop: the given object itself.
function load(given) {
  if (given.status === "streaming") return sessionReducer(given, { type: "stop" });
  return withMessages(given, cancelStreamingSubRuns(given.messages));
}

// ---- SPEC v4: older history put in front

// The given messages whose id the conversation (path or branches) or an earlier given one holds
// are skipped; a call id the path or an earlier given message holds throws (the fuzz makes
// none). The given forks go in front but those after a skipped message and the one after the
// last message prepended when the conversation's fork at the start moves there.
function prepend(state, { messages: given, forks: givenForks = [] }) {
  const held = new Set([...state.messages.map((message) => message.id), ...branchIds(state.forks ?? [])]);
  const calls = new Set(callIds(state.messages));
  const page = [];
  for (const message of given) {
    if (held.has(message.id)) continue;
    held.add(message.id);
    for (const id of callIds([message])) {
      if (calls.has(id)) throw new TypeError(`prepend: the call id ${id} is taken`);
      calls.add(id);
    }
    page.push(message);
  }
  if (page.length === 0) return state;
  const kept = new Set(page.map((message) => message.id));
  const last = page[page.length - 1].id;
  const forks = state.forks ?? [];
  const moved = forks[0]?.after === null;
  const firstKept = page[0] === given[0];
  const newForks = givenForks.filter((fork) => (fork.after === null ? firstKept : kept.has(fork.after) && !(moved && fork.after === last)));
  const heldForks = moved ? [{ ...forks[0], after: last }, ...forks.slice(1)] : forks;
  const next = { ...state, messages: [...page, ...state.messages] };
  return newForks.length + heldForks.length > 0 ? { ...next, forks: [...newForks, ...heldForks] } : next;
}

function branchIds(forks, into = []) {
  for (const fork of forks) {
    for (const branch of fork.alternatives) {
      if (branch === null) continue;
      for (const message of branch.messages) into.push(message.id);
      branchIds(branch.forks ?? [], into);
    }
  }
  return into;
}

function cancelStreamingSubRuns(messages) {
  return mapCalls(messages, (call) => {
    if (call.agent === undefined) return call;
    if (isOpen(call) && call.agent.status === "streaming") return { ...call, state: "cancelled", agent: endRun(call.agent) };
    const nested = cancelStreamingSubRuns(call.agent.messages);
    return nested === call.agent.messages ? call : { ...call, agent: { ...call.agent, messages: nested } };
  });
}

// `messages` with `update` applied to each top-level call of theirs; the same array when it
// changed none.
function mapCalls(messages, update) {
  let changed = false;
  const next = messages.map((message) => {
    const parts = message.parts.map((part) => (isTool(part) ? update(part) : part));
    if (parts.every((part, i) => part === message.parts[i])) return message;
    changed = true;
    return { ...message, parts };
  });
  return changed ? next : messages;
}

// ---- SPEC v3: branches

// Branches nest at most this deep; forks inside a branch this deep are dropped.
export const MAX_BRANCH_DEPTH = 64;
const MISSING = -2;

// Where a fork's `after` is on `messages`: -1 for null, MISSING when no message has that id. An
// `after` names the first message with its id (docs/decisions.md).
function positionOf(messages, after) {
  if (after === null) return -1;
  const index = messages.findIndex((message) => message.id === after);
  return index < 0 ? MISSING : index;
}

// Whether the message before `start` repeats the id of an earlier one: a fork after it would
// name that earlier one, so an edit or regenerate there is ignored (docs/decisions.md).
function repeatsAnId(messages, start) {
  const last = messages[start - 1];
  return last !== undefined && messages.findIndex((message) => message.id === last.id) < start - 1;
}

function withForks(state, forks) {
  if (forks.length > 0) return { ...state, forks };
  const { forks: _none, ...rest } = state;
  return rest;
}

// The forks whose `after` is still on the path, in path order (the same state when all are).
function withForksOnPath(state) {
  if (state.forks === undefined) return state;
  const placed = state.forks.map((fork) => ({ fork, at: positionOf(state.messages, fork.after) }))
    .filter(({ at }) => at !== MISSING)
    .sort((a, b) => a.at - b.at);
  if (placed.length === state.forks.length && placed.every(({ fork }, i) => fork === state.forks[i])) return state;
  return withForks(state, placed.map(({ fork }) => fork));
}

// The forks of a branch at `depth` (a fork of `forks` holds branches of depth 1): those whose
// branches would be deeper than the limit are dropped.
function limitNesting(forks, depth) {
  if (forks.length === 0) return forks;
  if (depth >= MAX_BRANCH_DEPTH) return [];
  let changed = false;
  const next = forks.map((fork) => {
    const alternatives = fork.alternatives.map((branch) => (branch === null ? null : limitBranch(branch, depth + 1)));
    if (alternatives.every((branch, i) => branch === fork.alternatives[i])) return fork;
    changed = true;
    return { ...fork, alternatives };
  });
  return changed ? next : forks;
}

function limitBranch(branch, depth) {
  if (branch.forks === undefined) return branch;
  const forks = limitNesting(branch.forks, depth);
  if (forks === branch.forks) return branch;
  if (forks.length > 0) return { ...branch, forks };
  const { forks: _dropped, ...rest } = branch;
  return rest;
}

// Cuts the path before `start`: the tail, with its open calls cancelled and the forks inside it,
// becomes a branch (depth 1); returns it with the messages and forks that stay.
function setAside(state, start) {
  const forks = state.forks ?? [];
  const inTail = (fork) => positionOf(state.messages, fork.after) >= start;
  const branch = { messages: cancelOpenCalls(state.messages.slice(start)) };
  const tailForks = limitNesting(forks.filter(inTail), 1);
  if (tailForks.length > 0) branch.forks = tailForks;
  return { branch, messages: state.messages.slice(0, start), forks: forks.filter((fork) => !inTail(fork)) };
}

// The branch takes the live slot of the fork `after` (created when absent, the branch at index
// 0), and a new live alternative is appended and made active.
function keepAsAlternative(forks, after, branch) {
  const index = forks.findIndex((fork) => fork.after === after);
  if (index < 0) return [...forks, { after, active: 1, alternatives: [branch, null] }];
  const fork = forks[index];
  const alternatives = [...fork.alternatives.with(fork.active, branch), null];
  return forks.with(index, { ...fork, active: alternatives.length - 1, alternatives });
}

// SPEC v3 "Actions": edit.
function edit(state, { messageId, id, text }) {
  const index = state.messages.findLastIndex((message) => message.id === messageId && message.role === "user");
  if (index < 0 || repeatsAnId(state.messages, index)) return state;
  const after = index === 0 ? null : state.messages[index - 1].id;
  const { branch, messages, forks } = setAside(state, index);
  const user = { id, role: "user", parts: [{ type: "text", text }] };
  return { ...withoutError(state), messages: [...messages, user], status: "streaming", forks: keepAsAlternative(forks, after, branch) };
}

// SPEC v3 "Actions": regenerate.
function regenerate(state, { messageId }) {
  let end = state.messages.length;
  if (messageId !== undefined) {
    end = state.messages.findLastIndex((message) => message.id === messageId && message.role === "assistant");
    if (end < 0) return state;
  }
  const user = state.messages.findLastIndex((message, i) => i < end && message.role === "user");
  if (user < 0 || repeatsAnId(state.messages, user + 1)) return state;
  if (user === state.messages.length - 1) {
    // Nothing to set aside: retry without cutting.
    return state.status === "streaming" ? state : { ...withoutError(state), status: "streaming" };
  }
  const { branch, messages, forks } = setAside(state, user + 1);
  return { ...withoutError(state), messages, status: "streaming", forks: keepAsAlternative(forks, state.messages[user].id, branch) };
}

// SPEC v3 "Actions": switchBranch.
function switchBranch(state, { after, to }) {
  const index = state.forks?.findIndex((fork) => fork.after === after) ?? -1;
  if (index < 0 || state.status === "streaming") return state;
  const fork = state.forks[index];
  if (to < 0 || to >= fork.alternatives.length || to === fork.active) return state;
  const { branch: left, messages, forks } = setAside(state, positionOf(state.messages, after) + 1);
  const chosen = fork.alternatives[to];
  const alternatives = fork.alternatives.with(fork.active, left).with(to, null);
  return {
    ...withoutError(state),
    messages: [...messages, ...chosen.messages],
    status: "idle",
    forks: [...forks.map((held) => (held === fork ? { ...fork, active: to, alternatives } : held)), ...(chosen.forks ?? [])],
  };
}

function streamPartWithin(state, callId, part) {
  if (state.status !== "streaming" && !ANSWERS.includes(part.type)) return state;
  return withMessages(state, updateCall(state.messages, callId, (call) => {
    if (!isOpen(call)) return call;
    const run = call.agent ?? { messages: [], status: "streaming" };
    const next = streamPart(run, part, state);
    return next === run ? call : { ...call, agent: next };
  }));
}

function setToolPhase(state, { name, state: phase, prompt }) {
  const messages = updateNewestCall(state.messages, (call) => call.name === name && isPickable(call),
    (call) => (call.state === phase && call.prompt === prompt ? call : withPrompt(call, phase, prompt)));
  return messages === undefined ? state : withMessages(state, messages);
}

// toolPhase and approval requests pick an open call whose input is complete.
const isPickable = (call) => isOpen(call) && call.state !== "input-streaming";

function withPrompt(call, state, prompt) {
  const { prompt: _removed, ...rest } = call;
  return prompt === undefined ? { ...rest, state } : { ...rest, state, prompt };
}

// Merging metadata (SPEC v2): plain objects key by key, recursively; any other value replaces.
function mergeMetadata(held, given) {
  if (!isPlainObject(held) || !isPlainObject(given)) return given;
  let merged = held;
  for (const [key, value] of Object.entries(given)) {
    const next = Object.hasOwn(held, key) ? mergeMetadata(held[key], value) : value;
    if (!Object.hasOwn(held, key) || next !== held[key]) merged = { ...merged, [key]: next };
  }
  return merged;
}

const isPlainObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

// `node` (a message or a part) with `metadata` merged into its own; the same node when that
// changes nothing.
function withMetadata(node, metadata) {
  if (metadata === undefined) return node;
  const merged = mergeMetadata(node.metadata, metadata);
  return merged === node.metadata ? node : { ...node, metadata: merged };
}

// Where a text-delta goes, and the parts targeted like it: the index of the target message,
// CREATE when it is to be appended, IGNORE when a user message has that id.
const CREATE = -1;
const IGNORE = -2;
function targetIndex(messages, messageId) {
  if (messageId === undefined) return messages.at(-1)?.role === "assistant" ? messages.length - 1 : CREATE;
  const index = messages.findLastIndex((message) => message.id === messageId);
  return index >= 0 && messages[index].role !== "assistant" ? IGNORE : index;
}

const createdMessage = (messages, messageId) =>
  ({ id: messageId ?? `assistant-${messages.length}`, role: "assistant", parts: [] });

// Adds to the parts of the target message, given `addParts(parts) => parts`. A target that does
// not exist yet is created only when something is added to it.
function addToMessage(run, messageId, addParts) {
  const { messages } = run;
  const index = targetIndex(messages, messageId);
  if (index === IGNORE) return run;
  if (index === CREATE) {
    const parts = addParts([]);
    return parts.length === 0 ? run : { ...run, messages: [...messages, { ...createdMessage(messages, messageId), parts }] };
  }
  const message = messages[index];
  const parts = addParts(message.parts);
  return parts === message.parts ? run : { ...run, messages: messages.with(index, { ...message, parts }) };
}

function mergeIntoMessage(run, { messageId, metadata }) {
  const { messages } = run;
  const index = targetIndex(messages, messageId);
  if (index === IGNORE) return run;
  if (index === CREATE) return { ...run, messages: [...messages, withMetadata(createdMessage(messages, messageId), metadata)] };
  const next = withMetadata(messages[index], metadata);
  return next === messages[index] ? run : { ...run, messages: messages.with(index, next) };
}

function appendText(parts, { text, metadata }) {
  const last = parts.at(-1);
  if (last?.type !== "text") return [...parts, withMetadata({ type: "text", text }, metadata)];
  if (text === "") {
    const next = withMetadata(last, metadata);
    return next === last ? parts : parts.with(parts.length - 1, next);
  }
  return parts.with(parts.length - 1, withMetadata({ ...last, text: last.text + text }, metadata));
}

function appendReasoning(parts, { text, metadata }) {
  const last = parts.at(-1);
  if (last?.type !== "reasoning") return [...parts, withMetadata({ type: "reasoning", text }, metadata)];
  const next = withMetadata(text === "" ? last : { ...last, text: last.text + text }, metadata);
  return next === last ? parts : parts.with(parts.length - 1, next);
}

function callTool(run, part, conversation) {
  if (hasCall(conversation.messages, part.id)) {
    // Only a call whose input was streaming takes the complete call.
    return withMessages(run, updateCall(run.messages, part.id, (call) =>
      call.state === "input-streaming"
        ? withMetadata({ ...call, name: part.name, input: part.input, state: "running" }, part.metadata)
        : call));
  }
  const call = withMetadata({ type: "tool", id: part.id, name: part.name, input: part.input, state: "running" },
    part.metadata);
  return addToMessage(run, part.messageId, (parts) => [...parts, call]);
}

function streamToolInput(run, part, conversation) {
  if (hasCall(conversation.messages, part.id)) {
    return withMessages(run, updateCall(run.messages, part.id, (call) => {
      if (call.state !== "input-streaming") return call;
      const next = part.text === "" ? call : { ...call, inputText: (call.inputText ?? "") + part.text };
      return withMetadata(next, part.metadata);
    }));
  }
  if (part.name === undefined) return run;
  const call = withMetadata({
    type: "tool", id: part.id, name: part.name, input: null, inputText: part.text, state: "input-streaming",
  }, part.metadata);
  return addToMessage(run, part.messageId, (parts) => [...parts, call]);
}

// The streamed input is parsed once, when it is complete, as JSON.parse parses it.
function endToolInput(call) {
  const text = call.inputText ?? "";
  if (/^[ \t\n\r]*$/.test(text)) return { ...call, input: {}, state: "running" };
  try {
    return { ...call, input: JSON.parse(text), state: "running" };
  } catch {
    return closeCall(call, {
      state: "error",
      error: { message: "The tool input is not valid JSON", code: "invalid_input" },
    });
  }
}

function requestApproval(run, part) {
  const ask = (call) => {
    const approval = { id: part.approvalId ?? call.id };
    if (part.automatic !== undefined) approval.automatic = part.automatic;
    if (part.details !== undefined) approval.details = part.details;
    const asked = { ...withPrompt(call, "awaiting-confirmation", part.prompt), approval };
    return part.details === undefined ? keepIfSame(call, asked) : asked;
  };
  const messages = part.id !== undefined
    ? updateCall(run.messages, part.id, (call) => (isPickable(call) ? ask(call) : call))
    : updateNewestCall(run.messages, (call) => call.name === part.name && isPickable(call), ask);
  return messages === undefined ? run : withMessages(run, messages);
}

function answerApproval(run, part) {
  const answer = (call) => {
    const { reason: _previous, ...approval } = call.approval ?? { id: call.id };
    approval.approved = part.approved;
    if (part.reason !== undefined) approval.reason = part.reason;
    const { prompt: _asked, ...rest } = call;
    if (!part.approved) {
      const error = { message: part.reason ?? "Denied by the user", code: "denied" };
      return closeCall({ ...rest, approval }, { state: "error", error });
    }
    const approved = part.input === undefined ? { ...rest, approval } : { ...rest, approval, input: part.input };
    if (part.output !== undefined) return closeCall(approved, { state: "done", output: part.output });
    return part.input === undefined ? keepIfSame(call, { ...approved, state: "running" }) : { ...approved, state: "running" };
  };
  const messages = part.id !== undefined
    ? updateCall(run.messages, part.id, (call) => (isOpen(call) ? answer(call) : call))
    : updateNewestCall(run.messages, (call) => isOpen(call) && call.approval?.id === part.approvalId, answer);
  return messages === undefined ? run : withMessages(run, messages);
}

// `next` built from `call` as a copy: `call` itself when no field differs (the approval compared
// field by field, as it is rebuilt each time). Used where no opaque value is written: those
// (`details`, `input`, `output`) are written again, not compared.
function keepIfSame(call, next) {
  const keys = Object.keys(next);
  const same = keys.length === Object.keys(call).length && keys.every((key) =>
    next[key] === call[key] || (key === "approval" && call.approval !== undefined &&
      shallowEqual(next.approval, call.approval)));
  return same ? call : next;
}

function shallowEqual(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

function putData(run, part) {
  if (part.id === undefined) {
    const data = withMetadata({ type: "data", name: part.name, data: part.data }, part.metadata);
    return addToMessage(run, part.messageId, (parts) => [...parts, data]);
  }
  return addToMessage(run, part.messageId, (parts) => {
    const index = parts.findLastIndex((held) => held.type === "data" && held.name === part.name && held.id === part.id);
    if (index < 0) {
      if (part.patch !== undefined) return parts; // nothing to patch
      return [...parts, withMetadata({ type: "data", name: part.name, id: part.id, data: part.data }, part.metadata)];
    }
    const held = parts[index];
    const data = part.patch === undefined ? part.data : applyJsonPatch(held.data, part.patch);
    if (data === NOT_APPLIED) return parts;
    const next = withMetadata(data === held.data ? held : { ...held, data }, part.metadata);
    return next === held ? parts : parts.with(index, next);
  });
}

function setAgentState(run, { snapshot, patch }) {
  if (snapshot !== undefined) return snapshot === run.agentState ? run : { ...run, agentState: snapshot };
  const held = run.agentState === undefined ? {} : run.agentState;
  const next = applyJsonPatch(held, patch);
  return next === NOT_APPLIED || next === held ? run : { ...run, agentState: next };
}

// Reconciles the run's messages with a snapshot by id, keeping every held message and part that
// equals (as JSON) what the snapshot gives at its place.
function applySnapshot(run, { messages: given, exact }, conversation) {
  const held = run.messages;
  const reconcile = (message, previous) => {
    if (previous === undefined) return message;
    if (jsonEqual(message, previous)) return previous;
    let reused = false;
    const parts = message.parts.map((part, i) => {
      if (i >= previous.parts.length || !jsonEqual(part, previous.parts[i])) return part;
      reused = true;
      return previous.parts[i];
    });
    return reused ? { ...message, parts } : message;
  };
  let messages;
  if (exact) {
    const byId = new Map(held.map((message) => [message.id, message]));
    messages = given.map((message) => reconcile(message, byId.get(message.id)));
  } else {
    messages = [...held];
    for (const message of given) {
      const index = messages.findLastIndex((kept) => kept.id === message.id);
      if (index < 0) messages.push(message);
      else messages[index] = reconcile(message, messages[index]);
    }
  }
  if (messages.length === held.length && messages.every((message, i) => message === held[i])) return run;
  // Call ids stay unique in the whole conversation: those outside this run, and those it will hold.
  const ids = callIds(messages);
  const heldHere = new Set(callIds(held));
  const elsewhere = callIds(conversation.messages).filter((id) => !heldHere.has(id));
  if (new Set([...ids, ...elsewhere]).size !== ids.length + elsewhere.length) return run;
  return { ...run, messages };
}

function callIds(messages, into = []) {
  for (const message of messages) {
    for (const part of message.parts) {
      if (!isTool(part)) continue;
      into.push(part.id);
      if (part.agent !== undefined) callIds(part.agent.messages, into);
    }
  }
  return into;
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
      if (!isTool(part)) return part;
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

function hasOpenCall(messages) {
  return messages.some((message) => message.parts.some((part) =>
    isTool(part) && (isOpen(part) || (part.agent !== undefined && hasOpenCall(part.agent.messages)))));
}

function hasCall(messages, id) {
  return messages.some((message) => message.parts.some((part) =>
    isTool(part) && (part.id === id || (part.agent !== undefined && hasCall(part.agent.messages, id)))));
}

// Applies `update` to the call with that id anywhere in the tree, newest messages first (ids are
// unique). Returns the same array when there is no such call or `update` changed nothing.
function updateCall(messages, id, update) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    for (let j = message.parts.length - 1; j >= 0; j--) {
      const part = message.parts[j];
      if (!isTool(part)) continue;
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

// Applies `update` to the newest call that `matches`: the last in document order, where the
// calls of a sub-agent run come right after the call that holds it. Returns undefined when no
// call matches, else the messages (the same array when `update` changed nothing).
function updateNewestCall(messages, matches, update) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    for (let j = message.parts.length - 1; j >= 0; j--) {
      const part = message.parts[j];
      if (!isTool(part)) continue;
      let next;
      if (part.agent !== undefined) {
        const nested = updateNewestCall(part.agent.messages, matches, update);
        if (nested !== undefined) {
          if (nested === part.agent.messages) return messages;
          next = { ...part, agent: { ...part.agent, messages: nested } };
        }
      }
      if (next === undefined && matches(part)) next = update(part);
      if (next === undefined) continue;
      if (next === part) return messages;
      return messages.with(i, { ...message, parts: message.parts.with(j, next) });
    }
  }
  return undefined;
}
