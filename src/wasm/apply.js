// Applies the core's patches (src/core/patch.rs) to a session state, copying only the objects
// on each patch's path, as automerge's applyPatches does: every untouched message, part and
// nested object stays the very same object, and `state` itself is not touched. It runs in
// JavaScript so a step crosses the wasm boundary once; the patches arrive encoded as numbers
// by src/wasm/write.rs, which documents the encoding. Texts and JSON payloads are taken from
// the action, so they arrive exactly as given.
//
// Some patches carry operations on JSON values (merging metadata, replacing or patching data and
// agentState, a snapshot's messages): those look before they copy, and change nothing when the
// values say so; when no patch of a step changed anything, the state itself comes back.
import { applyJsonPatch, jsonEqual, mergeJson } from "./json.js";
import {
  CHANGE_APPROVAL_ASKED, CHANGE_APPROVED, CHANGE_CALLED, CHANGE_CANCEL, CHANGE_DENIED, CHANGE_ERROR,
  CHANGE_INPUT_INVALID, CHANGE_INPUT_PARSED, CHANGE_PHASE, CHANGE_PROGRESS, CHANGE_RESULT, DENIED, DENIED_CODE,
  INVALID_INPUT, INVALID_INPUT_CODE, MADE_UP_ID_PREFIX, NEW_MESSAGE_ASSISTANT_WITH_METADATA, NEW_MESSAGE_USER,
  NEW_PART_REASONING, NEW_PART_STEP, NEW_PART_STREAMING_TOOL, NEW_PART_TEXT, NEW_PART_TOOL, PATCH_AGENT_STATE,
  PATCH_APPEND_INPUT, PATCH_APPEND_TEXT, PATCH_CUT_PARTS, PATCH_ENQUEUE, PATCH_LOAD, PATCH_MERGE_METADATA,
  PATCH_PUSH_MESSAGE, PATCH_PUSH_PART, PATCH_RESET, PATCH_SEND_QUEUE, PATCH_SET_CALL, PATCH_SET_STATUS,
  PATCH_SNAPSHOT, PATCH_SOURCE, PATCH_START_AGENT, PATCH_TRUNCATE, PATCH_UNQUEUE, PATCH_UPDATE_DATA,
  PATCH_SET_ASIDE, PATCH_SWITCH_BRANCH, PATCH_KEEP_FORKS, PATCH_PREPEND, STATUSES, TOOL_STATES,
} from "./protocol.js";

// Objects a step makes before it looks them up in a Set: a step of one patch makes a few, and a
// short array costs less to make and search than a Set and the hashes of what it holds.
const FEW = 16;

const NO_OPS = new Uint32Array(0);

// One application: the objects it made (changed in place rather than copied again: a short
// list, then a Set, as a batch can make thousands) and its place in the encoded patches.
class Step {
  constructor() {
    this.ops = NO_OPS;
    this.at = 0;
    this.few = [];
    this.many = null;
  }

  // Starts applying `ops`, having made nothing (NO_OPS: done, holding nothing made).
  start(ops) {
    this.ops = ops;
    this.at = 0;
    this.few.length = 0;
    this.many = null;
  }

  // Goes on with `ops`, the next patches of the same application: what it made stays its own.
  resume(ops) {
    this.ops = ops;
    this.at = 0;
  }

  next() {
    return this.ops[this.at++];
  }

  made(object) {
    if (this.many !== null) this.many.add(object);
    else if (this.few.push(object) > FEW) this.many = new Set(this.few);
    return object;
  }

  fresh(object) {
    return this.many !== null ? this.many.has(object) : this.few.includes(object);
  }

  own(object) {
    return this.fresh(object) ? object : this.made({ ...object });
  }

  ownList(list) {
    return this.fresh(list) ? list : this.made(list.slice());
  }

  messages(run) {
    return (run.messages = this.ownList(run.messages));
  }

  message(run, index) {
    const messages = this.messages(run);
    return (messages[index] = this.own(messages[index]));
  }

  parts(message) {
    return (message.parts = this.ownList(message.parts));
  }

  part(run, message, index) {
    const parts = this.parts(this.message(run, message));
    return (parts[index] = this.own(parts[index]));
  }

  // A run: its depth, then (message, part) of each call on the way down.
  run(root, depth = this.next()) {
    let node = root;
    for (let level = 0; level < depth; level++) {
      const call = this.part(node, this.next(), this.next());
      node = call.agent = this.own(call.agent);
    }
    return node;
  }

  // A call: its depth, then (message, part) of each call on the way down, itself last.
  call(root) {
    const holder = this.run(root, this.next() - 1);
    return this.part(holder, this.next(), this.next());
  }

  // A run read without copying anything (for a patch that may change nothing); `copy()` then
  // reads it again, copying the nodes on its path.
  peekRun(root) {
    const start = this.at;
    let node = root;
    for (let level = this.next(); level > 0; level--) node = node.messages[this.next()].parts[this.next()].agent;
    return {
      node,
      copy: () => {
        const resume = this.at;
        this.at = start;
        const run = this.run(root);
        this.at = resume;
        return run;
      },
    };
  }
}

// A part made from the action's stream part, by its kind (src/core/protocol.rs `new_part`),
// carrying the part's metadata when it has some.
function newPart(kind, part) {
  // A step part carries nothing of the stream part.
  if (kind === NEW_PART_STEP) return { type: "step" };
  /** @type {{ [field: string]: unknown }} */
  let added;
  if (kind === NEW_PART_TEXT) added = { type: "text", text: part.text };
  else if (kind === NEW_PART_REASONING) added = { type: "reasoning", text: part.text };
  else if (kind === NEW_PART_TOOL) added = { type: "tool", id: part.id, name: part.name, input: part.input, state: "running" };
  else if (kind === NEW_PART_STREAMING_TOOL) {
    added = { type: "tool", id: part.id, name: part.name, input: null, inputText: part.text, state: "input-streaming" };
  } else {
    // NEW_PART_DATA, the one kind left.
    added = { type: "data", name: part.name };
    if (part.id !== undefined) added.id = part.id;
    added.data = part.data;
  }
  if (part.metadata !== undefined) added.metadata = part.metadata;
  return added;
}

// A snapshot's message in place of the held one: the held one when equal, else the given one
// sharing each equal part at the same place.
function reconcile(held, given) {
  if (jsonEqual(held, given)) return held;
  if (!Array.isArray(held.parts) || !Array.isArray(given.parts)) return given;
  const parts = given.parts.map((part, index) => (jsonEqual(part, held.parts[index]) ? held.parts[index] : part));
  return parts.some((part, index) => part !== given.parts[index]) ? { ...given, parts } : given;
}

// The one patch a streaming reply makes per delta, `AppendText` at the root, written out: the
// same copies as `applyPatches` makes. Each object is copied by a spread alone and its one new
// field then assigned: V8 (Node 20) copies `{ ...object }` by its fastest path and then writes
// a field the copy already has in place, whereas `{ ...object, field }` defines the field anew;
// together the copies take a third less time (docs/performance.md). The result is the same: a
// plain object with every own field of the original (short of a setter of that name on
// Object.prototype, which assigning a field the original only inherits would call).
export function appendText(state, message, part, text) {
  const messages = state.messages.slice();
  const owner = messages[message];
  const parts = owner.parts.slice();
  const appended = { ...parts[part] };
  appended.text = parts[part].text + text;
  parts[part] = appended;
  const changed = { ...owner };
  changed.parts = parts;
  messages[message] = changed;
  const next = { ...state };
  next.messages = messages;
  return next;
}

// The call at an encoded path (as `Step.call` reads one) in a state, without copying.
function callAt(state, path) {
  let node = state;
  let at = 1;
  for (let level = 1; level < path[0]; level++, at += 2) node = node.messages[path[at]].parts[path[at + 1]].agent;
  return node.messages[path[at]].parts[path[at + 1]];
}

// A step's patches applied as the core logs them, once a call's streamed input must be read
// (tool-input-end): the text is read from the state so far, and each later read and the final
// state go on from there. Applying the step's earlier patches again for each read would cost a
// batch that ends n inputs n times its patches. `inputs`: the inputs parseInput parsed, in the
// order of the patches that set them.
export function startDraft(state, top, leaves) {
  const draft = new Application(new Step());
  draft.begin(state, top, leaves, []);
  return draft;
}

// `ops`, the patches logged since the draft's last ones (`restart`: all of the step's, as the
// core took some back), applied; then the streamed input of the call at `path`, parsed as
// JSON.parse parses it, blank text (JSON's white space only) as {}, and added to the draft's
// inputs: false when it is not JSON. It is parsed here, once, at tool-input-end: the text never
// crosses into the module.
export function parseInput(draft, ops, restart, path) {
  draft.applyNext(ops, restart);
  const text = callAt(draft.root, path).inputText ?? "";
  let input = {};
  if (!/^[ \t\n\r]*$/.test(text)) {
    try {
      input = JSON.parse(text);
    } catch {
      return false;
    }
  }
  draft.inputs.push(input);
  return true;
}

// The next state: the draft with the step's last patches applied (as parseInput takes them).
export function finishDraft(draft, ops, restart) {
  draft.applyNext(ops, restart);
  return draft.result();
}

// `messages` cut as Retry cuts it: the first `kept`, and of the last one the first `parts - 1`
// parts when `parts` is not 0, in a copy of that message. The copy is made by spreading, which
// keeps every own field as data (a `__proto__` field of a parsed message included; Object.assign
// would make it the prototype).
export function cutMessages(messages, kept, parts) {
  const list = messages.slice(0, kept);
  if (parts > 0) {
    const last = list[kept - 1];
    list[kept - 1] = { ...last, parts: last.parts.slice(0, parts - 1) };
  }
  return list;
}

// One application of patches to `state`: where it stands between the calls that continue it (a
// draft's), and what it made so far.
class Application {
  constructor(step) {
    this.step = step;
    this.state = undefined;
    this.top = undefined;
    this.leaves = undefined;
    this.inputs = undefined;
    this.action = undefined;
    this.part = undefined;
    this.parsed = 0;
    this.root = undefined;
    this.changed = false;
    this.loaded = undefined;
  }

  // Starts over from `state`, the step's action `top` (`leaves`: a batch's actions, which the
  // Source patch switches between) and `inputs`, having applied and made nothing.
  begin(state, top, leaves, inputs) {
    this.step.start(NO_OPS);
    this.state = state;
    this.top = top;
    this.leaves = leaves;
    this.inputs = inputs;
    this.action = leaves === undefined ? top : leaves[0];
    this.part = this.action?.part;
    this.parsed = 0;
    this.root = this.step.own(state);
    this.changed = false;
    this.loaded = undefined;
  }

  // Applies `ops`, the patches logged since the last ones it applied (`restart`: all of the
  // step's, from `state` again, as the core took some back).
  applyNext(ops, restart) {
    if (restart) this.begin(this.state, this.top, this.leaves, this.inputs);
    this.step.resume(ops);
    apply(this);
  }

  // `state` itself when no patch changed anything (the state a `load` gave, after one).
  result() {
    return this.changed ? this.root : this.loaded ?? this.state;
  }

  // Holds nothing of the caller's.
  clear() {
    this.step.start(NO_OPS);
    this.state = this.top = this.leaves = this.inputs = this.action = this.part = this.root = this.loaded = undefined;
  }
}

// The Application the next step uses, kept rather than one made per call: a Step made per call
// let full collections drop its methods' optimized code (49637e0). A step under way (a getter of
// the caller's may call the reducer inside one) makes its own.
/** @type {Application | null} */
let spare = new Application(new Step());

// A step's patches applied at once, when no input was parsed on the way (no draft). `leaves`: a
// batch's actions; undefined otherwise.
export function applyPatches(state, top, leaves, ops) {
  const application = spare ?? new Application(new Step());
  spare = null;
  try {
    application.begin(state, top, leaves, undefined);
    application.applyNext(ops, false);
    return application.result();
  } finally {
    application.clear();
    spare = application;
  }
}

// Applies the step's patches from where `application` stands to the end of its ops, each by its
// code (src/core/protocol.rs `patch`) and with its fields read from the step. Those on JSON values
// look before they copy and say whether they changed the state; the others always change it.
function apply(application) {
  const { step } = application;
  while (step.at < step.ops.length) {
    const { root, part } = application;
    const code = step.next();
    let changed = true;
    switch (code) {
      case PATCH_PUSH_MESSAGE:
        pushMessage(step, root, application.action, part);
        break;
      case PATCH_PUSH_PART:
        pushPart(step, root, part);
        break;
      case PATCH_APPEND_TEXT:
        appendToText(step, root, part);
        break;
      case PATCH_SET_STATUS:
        setStatus(step, root, part);
        break;
      case PATCH_SET_CALL:
        setCall(step, root, application);
        break;
      case PATCH_START_AGENT:
        startAgent(step, root);
        break;
      case PATCH_TRUNCATE:
        truncate(step, root);
        break;
      case PATCH_RESET:
        reset(application);
        break;
      case PATCH_APPEND_INPUT:
        appendInput(step, root, part);
        break;
      case PATCH_MERGE_METADATA:
        changed = mergeMetadata(step, root, part);
        break;
      case PATCH_UPDATE_DATA:
        changed = updateData(step, root, part);
        break;
      case PATCH_AGENT_STATE:
        changed = setAgentState(step, root, part);
        break;
      case PATCH_SNAPSHOT:
        changed = reconcileSnapshot(step, root, part);
        break;
      case PATCH_SOURCE:
        takeSource(application);
        changed = false;
        break;
      case PATCH_SET_ASIDE:
        setAside(step, root);
        break;
      case PATCH_SWITCH_BRANCH:
        switchBranch(step, root);
        break;
      case PATCH_KEEP_FORKS:
        keepForks(step, root);
        break;
      case PATCH_ENQUEUE:
        enqueue(step, root, application.action);
        break;
      case PATCH_SEND_QUEUE:
        sendQueue(step, root);
        break;
      case PATCH_UNQUEUE:
        unqueue(step, root);
        break;
      case PATCH_LOAD:
        load(application);
        changed = false;
        break;
      case PATCH_CUT_PARTS:
        cutParts(step, root);
        break;
      case PATCH_PREPEND:
        prepend(step, root, application.action);
        break;
      default:
        throw new Error(`chat-session-reducer: unknown patch code ${code}`);
    }
    if (changed) application.changed = true;
  }
}

// Patch::PushMessage (SPEC "Actions": send; "Stream parts": message-start and the targeting of
// text-delta): the action's user message, or an assistant message whose id is the part's
// messageId, else the one the core makes up from the message's index (src/core/reducer.rs
// resolve_target), with the part's metadata for NEW_MESSAGE_ASSISTANT_WITH_METADATA.
function pushMessage(step, root, action, part) {
  const messages = step.messages(step.run(root));
  const kind = step.next();
  /** @type {{ [field: string]: unknown }} */
  let message;
  if (kind === NEW_MESSAGE_USER) {
    message = userMessage(step, action);
  } else {
    message = { id: part.messageId ?? MADE_UP_ID_PREFIX + messages.length, role: "assistant", parts: step.made([]) };
    if (kind === NEW_MESSAGE_ASSISTANT_WITH_METADATA) message.metadata = part.metadata;
  }
  messages.push(step.made(message));
}

// A user message made from `send` or a queued message: its text, then its parts (the given
// objects), and its metadata when it has some.
function userMessage(step, { id, text, parts, metadata }) {
  const all = step.made([step.made({ type: "text", text })]);
  if (parts !== undefined) all.push(...parts);
  /** @type {{ [field: string]: unknown }} */
  const message = { id, role: "user", parts: all };
  if (metadata !== undefined) message.metadata = metadata;
  return message;
}

// Patch::PushPart (SPEC "Stream parts": text-delta, reasoning, reasoning-delta, tool-call,
// tool-input-delta, data): a part made from the action's part.
function pushPart(step, root, part) {
  const owner = step.message(step.run(root), step.next());
  step.parts(owner).push(step.made(newPart(step.next(), part)));
}

// Patch::AppendText (SPEC "Stream parts": text-delta, reasoning-delta): the part's text appended.
function appendToText(step, root, part) {
  const target = step.run(root);
  step.part(target, step.next(), step.next()).text += part.text;
}

// Patch::SetStatus (SPEC "Actions": send, stop, retry; "Stream parts": finish, error): the
// error is the action's part's when the status is "error", and goes otherwise.
function setStatus(step, root, part) {
  const target = step.run(root);
  const status = STATUSES[step.next()];
  target.status = status;
  if (status === "error") {
    target.error = part.code === undefined ? { message: part.error } : { message: part.error, code: part.code };
  } else delete target.error;
}

// Patch::SetCall (mirrors Editor::set_call, src/core/edit.rs): the call's state, then the fields
// its change (src/core/protocol.rs `call_change`) writes, from the action and its part.
function setCall(step, root, application) {
  const { action, part } = application;
  const target = step.call(root);
  target.state = TOOL_STATES[step.next()];
  const change = step.next();
  switch (change) {
    case CHANGE_PHASE:
      setPhase(target, action);
      break;
    case CHANGE_RESULT:
      setResult(target, part);
      break;
    case CHANGE_ERROR:
      setError(target, part);
      break;
    case CHANGE_CANCEL: // nothing else changes
      break;
    case CHANGE_PROGRESS:
      setProgress(target, part);
      break;
    case CHANGE_CALLED:
      setCalled(target, part);
      break;
    case CHANGE_INPUT_PARSED:
      setParsedInput(target, application);
      break;
    case CHANGE_INPUT_INVALID:
      setInvalidInput(target);
      break;
    case CHANGE_APPROVAL_ASKED:
      askApproval(target, part);
      break;
    case CHANGE_APPROVED:
      approve(target, part);
      break;
    case CHANGE_DENIED:
      deny(target, part);
      break;
    default:
      throw new Error(`chat-session-reducer: unknown call change ${change}`);
  }
}

// Patch::StartAgent (SPEC "Actions": part with within, its first part): the call's sub-agent run.
function startAgent(step, root) {
  step.call(root).agent = step.made({ messages: step.made([]), status: "streaming" });
}

// Patch::Truncate (SPEC "Actions": retry): the number of messages kept, then 1 + the parts kept
// of the last one (0: all), as resumable cuts them.
function truncate(step, root) {
  const kept = step.next();
  const parts = step.next();
  root.messages = step.made(cutMessages(root.messages, kept, parts));
  if (parts > 0) step.made(step.made(root.messages[kept - 1]).parts);
}

// Patch::Reset (SPEC "Actions": reset): the empty session.
function reset(application) {
  const { step } = application;
  application.root = step.made({ messages: step.made([]), status: "idle" });
}

// Patch::AppendInput (SPEC "Stream parts": tool-input-delta): the part's text appended to the
// call's inputText.
function appendInput(step, root, part) {
  const target = step.call(root);
  target.inputText = (target.inputText ?? "") + part.text;
}

// Patch::MergeMetadata (SPEC "Stream parts": message-metadata, and a part's metadata on the
// message it targets): the part's metadata merged into the message, or into its part `1 + part`.
function mergeMetadata(step, root, part) {
  const run = step.peekRun(root);
  const message = step.next();
  const index = step.next() - 1;
  const held = run.node.messages[message];
  const target = index < 0 ? held : held.parts[index];
  const merged = mergeJson(target.metadata, part.metadata);
  if (merged === target.metadata) return false;
  const copy = run.copy();
  (index < 0 ? step.message(copy, message) : step.part(copy, message, index)).metadata = merged;
  return true;
}

// Patch::UpdateData (SPEC "Stream parts": data with an id): the data part takes the part's data
// (or its patch applied), then its metadata merged; a patch that does not apply changes nothing.
function updateData(step, root, part) {
  const run = step.peekRun(root);
  const message = step.next();
  const index = step.next();
  const held = run.node.messages[message].parts[index];
  const data =
    part.patch !== undefined ? applyJsonPatch(held.data, part.patch) : jsonEqual(held.data, part.data) ? held.data : part.data;
  if (data === undefined) return false;
  const metadata = part.metadata === undefined ? held.metadata : mergeJson(held.metadata, part.metadata);
  if (data === held.data && metadata === held.metadata) return false;
  const target = step.part(run.copy(), message, index);
  target.data = data;
  if (metadata !== undefined) target.metadata = metadata;
  return true;
}

// Patch::AgentState (SPEC "Stream parts": agent-state): the part's snapshot, or its patch
// applied (to {} when there is none).
function setAgentState(step, root, part) {
  const run = step.peekRun(root);
  const next = nextAgentState(run.node.agentState, part);
  if (next === run.node.agentState) return false;
  run.copy().agentState = next;
  return true;
}

// Patch::Snapshot (SPEC "Stream parts": snapshot): the run's messages, one per slot: the held
// message at 1 + its first index, replaced by the part's message at 1 + its second (0: none).
function reconcileSnapshot(step, root, part) {
  const run = step.peekRun(root);
  const held = run.node.messages;
  const messages = [];
  for (let slots = step.next(); slots > 0; slots--) {
    const at = step.next() - 1;
    const given = step.next() - 1;
    if (given < 0) messages.push(held[at]);
    else messages.push(at < 0 ? part.messages[given] : reconcile(held[at], part.messages[given]));
  }
  if (messages.length === held.length && messages.every((message, index) => message === held[index])) return false;
  run.copy().messages = step.made(messages);
  return true;
}

// Patch::Source (SPEC "Actions": batch): the batch's action the next patches take their values
// from.
function takeSource(application) {
  application.action = application.leaves[application.step.next()];
  application.part = application.action.part;
}

// Patch::SetAside (SPEC v3 "Actions": edit, regenerate): the root's messages after the first
// `kept`, with its forks after the first `forksKept` (trimmed: branchOf), become a branch in
// the live slot of the fork after the last message kept (made when `created`), which gets a new
// live alternative, appended and made active.
function setAside(step, root) {
  const kept = step.next();
  const forksKept = step.next();
  const created = step.next() === 1;
  const messages = step.messages(root);
  const held = root.forks ?? [];
  const branch = branchOf(step, messages.splice(kept), held.slice(forksKept));
  const forks = held.slice(0, forksKept);
  if (created) forks.push({ after: kept === 0 ? null : messages[kept - 1].id, active: 1, alternatives: [branch, null] });
  else {
    const fork = forks[forksKept - 1];
    const alternatives = fork.alternatives.slice();
    alternatives[fork.active] = branch;
    forks[forksKept - 1] = { ...fork, active: alternatives.push(null) - 1, alternatives };
  }
  root.forks = forks;
}

// Patch::SwitchBranch (SPEC v3 "Actions": switchBranch): the root's messages after the first
// `kept`, with its forks after fork `index` (trimmed: branchOf), become the branch at the
// fork's active slot, and its alternative `to` the live tail: its very objects, so a UI switching
// back re-renders nothing.
function switchBranch(step, root) {
  const index = step.next();
  const kept = step.next();
  const to = step.next();
  const held = root.forks;
  const fork = held[index];
  const target = fork.alternatives[to];
  const alternatives = fork.alternatives.slice();
  alternatives[fork.active] = branchOf(step, root.messages.slice(kept), held.slice(index + 1));
  alternatives[to] = null;
  root.messages = step.made(root.messages.slice(0, kept).concat(target.messages));
  root.forks = held.slice(0, index).concat({ ...fork, active: to, alternatives }, target.forks ?? []);
}

// A branch of `messages` and the `forks` set aside with them, trimmed where the core trimmed
// them (src/core/edit.rs trim_to: one level down, their branches would nest too deep): the number
// trimmed, then each one's index and its trim.
function branchOf(step, messages, forks) {
  for (let count = step.next(); count > 0; count--) {
    const index = step.next();
    forks[index] = trimmed(step, forks[index]);
  }
  return forks.length > 0 ? { messages, forks } : { messages };
}

// A fork with the forks dropped that trim_to dropped below it: the number of its branches
// changed, then for each its index, the number of its forks changed, and for each its index then
// 0 (dropped) or 1 and its own trim. At most MAX_BRANCH_NESTING levels, as the core encodes them.
function trimmed(step, fork) {
  const alternatives = fork.alternatives.slice();
  for (let branches = step.next(); branches > 0; branches--) {
    const at = step.next();
    const { forks, ...branch } = alternatives[at];
    const inner = forks.slice();
    for (let changed = step.next(); changed > 0; changed--) {
      const index = step.next();
      inner[index] = step.next() === 0 ? null : trimmed(step, inner[index]);
    }
    const kept = inner.filter((each) => each !== null);
    if (kept.length > 0) branch.forks = kept;
    alternatives[at] = branch;
  }
  return { ...fork, alternatives };
}

// Patch::KeepForks (SPEC v3 "Actions": retry, snapshot): the root's forks become these of them,
// in this order (none: the field goes).
function keepForks(step, root) {
  const held = root.forks;
  const forks = [];
  for (let count = step.next(); count > 0; count--) forks.push(held[step.next()]);
  if (forks.length > 0) root.forks = forks;
  else delete root.forks;
}

// Patch::Enqueue (SPEC v3 "Actions": send while streaming): the action's message queued, its
// parts and metadata when it has them.
function enqueue(step, root, action) {
  const { id, text, parts, metadata } = action;
  /** @type {{ [field: string]: unknown }} */
  const queued = { id, text };
  if (parts !== undefined && parts.length > 0) queued.parts = parts;
  if (metadata !== undefined) queued.metadata = metadata;
  const queue = root.queue === undefined ? step.made([]) : step.ownList(root.queue);
  queue.push(step.made(queued));
  root.queue = queue;
}

// Patch::SendQueue (SPEC v3 "Actions": send when not streaming, finish with a queue): each
// queued message appended as a user message, in order; the queue goes.
function sendQueue(step, root) {
  const messages = step.messages(root);
  for (const queued of root.queue) messages.push(step.made(userMessage(step, queued)));
  delete root.queue;
}

// Patch::Unqueue (SPEC v3 "Actions": unqueue): the queued message at the index goes, and the
// queue with its last one.
function unqueue(step, root) {
  const queue = step.ownList(root.queue);
  queue.splice(step.next(), 1);
  if (queue.length === 0) delete root.queue;
  else root.queue = queue;
}

// Patch::Load (SPEC v3 "Actions": load): the action's state is the base of what follows, and the
// result itself when nothing follows that changes it.
function load(application) {
  application.loaded = application.action.state;
  application.root = application.step.own(application.loaded);
  application.changed = false;
}

// Patch::Prepend (SPEC v4 "Actions": prepend): the action's messages but the skipped ones, then
// the held ones; its forks but the dropped ones, then the held ones, the first of which follows
// the last message prepended when it moved there. The given objects go in as they are.
function prepend(step, root, action) {
  const page = without(action.messages, step);
  const forks = without(action.forks ?? [], step);
  const moved = step.next() === 1;
  root.messages = step.made(page.concat(root.messages));
  // The held forks' array stays when nothing joins or changes it.
  if (forks.length === 0 && !moved) return;
  const all = forks.concat(root.forks ?? []);
  if (moved) all[forks.length] = step.made({ ...all[forks.length], after: page[page.length - 1].id });
  root.forks = step.made(all);
}

// The items of `list` but those at the indexes the patch lists next (ascending).
function without(list, step) {
  let count = step.next();
  if (count === 0) return list.slice();
  const kept = [];
  let next = step.next();
  for (let index = 0; index < list.length; index++) {
    if (index === next) {
      next = --count > 0 ? step.next() : -1;
    } else kept.push(list[index]);
  }
  return kept;
}

// Patch::CutParts (SPEC v3 "Stream parts": step-reset): the message keeps its first `keep` parts.
function cutParts(step, root) {
  const message = step.message(step.run(root), step.next());
  step.parts(message).length = step.next();
}

// A run's agentState after an agent-state part: its snapshot, or its patch applied (to {} when
// there is none); `held` itself when that changes nothing or the patch does not apply.
function nextAgentState(held, part) {
  if (part.patch === undefined) return jsonEqual(held, part.snapshot) ? held : part.snapshot;
  const base = held === undefined ? {} : held;
  const next = applyJsonPatch(base, part.patch);
  return next === undefined || next === base ? held : next;
}

// Whether the agent-state patch of `action` (or of the batch's action `leaf`) gives a run that
// has no agentState one: the core asks, as it decides whether the run changes (src/core/edit.rs,
// PatchSetsState).
export function patchSetsAgentState(action, leaves, leaf) {
  const { part } = leaves === undefined ? action : leaves[leaf];
  return nextAgentState(undefined, part) !== undefined;
}

// The SetCall changes (src/core/patch.rs CallChange), each writing its fields besides the state
// on a call the step owns, as Editor::set_call writes them (src/core/edit.rs).

// CallChange::Phase (SPEC "Actions": toolPhase): its prompt, or none.
function setPhase(target, action) {
  setOptional(target, "prompt", action.prompt);
}

// CallChange::Result (SPEC "Stream parts": tool-result): its output; the prompt goes.
function setResult(target, part) {
  target.output = part.output;
  delete target.prompt;
}

// CallChange::Error (SPEC "Stream parts": tool-error): its error; the prompt goes.
function setError(target, part) {
  const { message, code } = part.error;
  target.error = code === undefined ? { message } : { message, code };
  delete target.prompt;
}

// CallChange::Progress (SPEC "Stream parts": tool-result with preliminary): its output only.
function setProgress(target, part) {
  target.output = part.output;
}

// CallChange::Called (SPEC "Stream parts": tool-call completing a streamed input): its name and
// input.
function setCalled(target, part) {
  target.name = part.name;
  target.input = part.input;
}

// CallChange::InputParsed (SPEC "Stream parts": tool-input-end): the next input parseInput
// parsed, in the order of the patches that set them.
function setParsedInput(target, application) {
  target.input = application.inputs[application.parsed++];
}

// CallChange::InputInvalid (SPEC "Stream parts": tool-input-end on text that is not JSON).
function setInvalidInput(target) {
  target.error = { message: INVALID_INPUT, code: INVALID_INPUT_CODE };
}

// CallChange::ApprovalAsked (SPEC "Stream parts": tool-approval-request): its prompt, or none,
// and the approval asked.
function askApproval(target, part) {
  setOptional(target, "prompt", part.prompt);
  const approval = { id: part.approvalId ?? target.id };
  setOptional(approval, "automatic", part.automatic);
  setOptional(approval, "details", part.details);
  target.approval = approval;
}

// CallChange::Approved (SPEC "Stream parts": tool-approval-response, approved): the answer, and
// the part's input and output when it has them.
function approve(target, part) {
  answer(target, part, true);
  if (part.input !== undefined) target.input = part.input;
  if (part.output !== undefined) target.output = part.output;
}

// CallChange::Denied (SPEC "Stream parts": tool-approval-response, refused): the answer, and the
// denial as its error.
function deny(target, part) {
  answer(target, part, false);
  target.error = { message: part.reason ?? DENIED, code: DENIED_CODE };
}

// The call's approval (made as { id: the call id } when it has none) gets the answer; the
// question goes.
function answer(target, part, approved) {
  const approval = { ...(target.approval ?? { id: target.id }), approved };
  setOptional(approval, "reason", part.reason);
  target.approval = approval;
  delete target.prompt;
}

function setOptional(object, key, value) {
  if (value === undefined) delete object[key];
  else object[key] = value;
}
