// What this module knows about the last states it returned (a bounded list, most recently used
// first: a WeakMap would do, but its entries make every garbage collection slower, and a
// streaming reply makes a state per delta):
// - `session`: the id of the Rust session behind the state (src/wasm/recent.rs), or -1;
// - `appendMessage`, `appendPart`: where a plain text delta (some text, no within, no messageId
//   or the last message's) goes when all it does is append to a text part, as the core computed
//   it for this state (`appendMessage` -1: not so simple);
// - the last action applied to the state and its result `next`, because React calls a reducer
//   twice with the same arguments (Strict Mode) and must get the same object: for plain text
//   deltas, the text they `appended` (the same text again is the same delta); for any other
//   action, the `action` and its `fields` as they were then, so that the same object with
//   fields since reassigned (a reused action) is applied afresh;
// - `used`: the reducer call that last asked about the state (see IDLE_CALLS).
// The states are immutable, so these facts stay true; a state no longer listed, or a session id
// Rust no longer holds, only means the state is read again.
import { appendText, applyPatches, finishDraft } from "./apply.js";

const KEPT = 16;
const known = [];

// A state not asked about in the last 64 reducer calls is forgotten. A conversation in use never
// pushes another out of the list (its states replace each other in it), so without this a
// conversation the app had let go of stayed listed, every object of it kept alive, until enough
// new conversations came; and the more the page's heap holds, the slower all its copying runs
// (docs/performance.md). React repeats a step at once (Strict Mode) or within a render; a state
// asked about later is only read again.
const IDLE_CALLS = 64;
let calls = 0;

// A reducer call begins: the least recently used state goes if it has been idle too long.
function tick() {
  calls++;
  const oldest = known[known.length - 1];
  if (oldest !== undefined && calls - oldest.used > IDLE_CALLS) known.pop();
}

// The facts of a state, moved to the front: the states in use are the last to be forgotten. A
// streaming reply asks for the front one each delta, so that is looked at first, and the loops
// take no closure (this runs once per delta: see docs/performance.md).
function factsOf(state) {
  const front = known[0];
  if (front === undefined) return undefined;
  if (front.state === state) {
    front.used = calls;
    return front;
  }
  for (let index = 1; index < known.length; index++) {
    const facts = known[index];
    if (facts.state !== state) continue;
    facts.used = calls;
    moveToFront(index, facts);
    return facts;
  }
  return undefined;
}

// The list is short and changed once per delta: moved by hand, which the engine compiles, rather
// than by `splice` and `unshift`, which call into its runtime.
function moveToFront(index, facts) {
  for (let at = index; at > 0; at--) known[at] = known[at - 1];
  known[0] = facts;
}

function remove(index) {
  for (let at = index + 1; at < known.length; at++) known[at - 1] = known[at];
  known.pop();
}

// What is known of one state (see above). One class: every record has one shape, its fields in
// the object itself (an object literal grown field by field keeps its later ones in a separate
// store), so the reads on a delta's path stay monomorphic and direct.
class Facts {
  constructor() {
    this.state = undefined;
    this.session = -1;
    this.appendMessage = -1;
    this.appendPart = -1;
    this.action = undefined;
    this.fields = undefined;
    this.appended = undefined;
    this.next = undefined;
    this.used = 0;
  }
}

// `record` now describes `state`, which has no successor yet. `appendMessage` -1: a plain text
// delta does not simply append to `state`.
function describe(record, state, session, appendMessage, appendPart) {
  record.state = state;
  record.session = session;
  record.appendMessage = appendMessage;
  record.appendPart = appendPart;
  record.action = record.fields = record.appended = record.next = undefined;
  record.used = calls;
  return record;
}

// `record` is a forgotten state's facts object, reused rather than a new one made.
function keep(state, session, appendMessage, appendPart, record = new Facts()) {
  if (known.length === KEPT) known.pop();
  known.push(record);
  moveToFront(known.length - 1, record);
  return describe(record, state, session, appendMessage, appendPart);
}

// What an action's answer depends on, to the depth a reused action is changed at: its own fields,
// its part's and those of a batch's actions, compared by value (texts, ids) or by reference
// (payloads, which a state holds as given). docs/decisions.md says what deeper changes are not
// seen.
function fieldsOf(action, fields = []) {
  for (const key in action) fields.push(key, action[key]);
  for (const key in action.part) fields.push(key, action.part[key]);
  if (Array.isArray(action.actions)) for (const each of action.actions) fieldsOf(each, fields);
  return fields;
}

function sameAction(facts, action) {
  if (facts.action !== action) return false;
  const fields = fieldsOf(action);
  return fields.length === facts.fields.length && fields.every((field, index) => Object.is(field, facts.fields[index]));
}

// `state` has a successor now, so its predecessor's facts go: React repeats a step (Strict Mode)
// right away, never after the next one. Otherwise the last 16 states of a streaming reply would
// outlive young-generation collections, each with its copy of the message list; forgotten, they
// die young (docs/performance.md).
// Returns the predecessor's facts object, or undefined.
function forgetPredecessor(state) {
  for (let index = 0; index < known.length; index++) {
    const facts = known[index];
    if (facts.next !== state || facts.state === state) continue;
    remove(index);
    return facts;
  }
  return undefined;
}

// Recognises the action a streaming reply sends most: a text delta without metadata (which has
// its own work to do). Returns -1, or flags: 1 the text is empty, 2 a messageId, 4 a within.
function textDeltaShape(action) {
  if (typeof action !== "object" || action === null || action.type !== "part") return -1;
  const { part, within } = action;
  if (typeof part !== "object" || part === null || part.type !== "text-delta") return -1;
  const { text, messageId } = part;
  if (typeof text !== "string" || part.metadata !== undefined) return -1;
  if (messageId !== undefined && typeof messageId !== "string") return -1;
  if (within !== undefined && typeof within !== "string") return -1;
  return (text === "" ? 1 : 0) | (messageId === undefined ? 0 : 2) | (within === undefined ? 0 : 4);
}

// The text a plain delta appends to the last text part of `messages[message]`: some text
// (flags 0), or some text for that very message (flags 2: a messageId). Otherwise undefined.
function plainText(state, message, action) {
  const shape = textDeltaShape(action);
  if (shape !== 0 && !(shape === 2 && action.part.messageId === state.messages[message].id)) return undefined;
  return action.part.text;
}

// The same for a batch of nothing but plain deltas (a frame's worth of a streamed reply): their
// texts, joined, appended at once.
function appendedText(state, message, action) {
  if (action.type !== "batch") return plainText(state, message, action);
  const { actions } = action;
  if (!Array.isArray(actions) || actions.length === 0) return undefined;
  let text = "";
  for (const each of actions) {
    const more = plainText(state, message, each);
    if (more === undefined) return undefined;
    text += more;
  }
  return text;
}

// The next state when it needs no Rust work: the same action again, or plain text deltas (one,
// or a batch of them) appended where the core said they go. Otherwise undefined.
export function shortcut(state, action) {
  tick();
  const facts = factsOf(state);
  if (facts === undefined) return undefined;
  let text, next;
  try {
    if (sameAction(facts, action)) return facts.next;
    if (facts.appendMessage < 0) return undefined;
    text = appendedText(state, facts.appendMessage, action);
    if (text === undefined) return undefined;
    if (facts.appended === text) return facts.next;
    next = appendText(state, facts.appendMessage, facts.appendPart, text);
  } catch {
    // The state was changed in place since it was made, or the action's getters throw: the
    // module's own path says what is wrong.
    return undefined;
  }
  facts.action = facts.fields = undefined;
  facts.appended = text;
  facts.next = next;
  const second = known[1];
  if (known[0] === facts && second !== undefined && second.next === state) {
    // A streaming reply: `state` is the front state and the second made it. The second's record,
    // forgotten now, becomes `next`'s, and the two swap places: constant work, once per delta.
    known[0] = describe(second, next, facts.session, facts.appendMessage, facts.appendPart);
    known[1] = facts;
  } else {
    keep(next, facts.session, facts.appendMessage, facts.appendPart, forgetPredecessor(state));
  }
  return next;
}

// The id of the Rust session behind `state` (-1: none, it is read in full), which
// `sessionReducer` (src/main/session-reducer.js) hands the module with the action it read, once
// `shortcut` had no answer.
export function sessionOf(state) {
  return factsOf(state)?.session ?? -1;
}

// A step's result, made and recorded in the one call the module makes for it: its patches
// applied to `state` (apply.js), then what is known of the new state (`remember`).
export function applyStep(state, action, leaves, ops, session, message, part) {
  const next = applyPatches(state, action, leaves, ops);
  remember(state, action, next, session, message, part);
  return next;
}

// The same for a step that parsed streamed inputs on the way: its draft finished.
export function finishStep(state, action, draft, ops, restart, session, message, part) {
  const next = finishDraft(draft, ops, restart);
  remember(state, action, next, session, message, part);
  return next;
}

// Records that `action` made `next` from `state`, and what is known of `next`. `message` is -1
// when a plain text delta would not simply append.
export function remember(state, action, next, session, message, part) {
  const before = factsOf(state) ?? keep(state, -1, -1, -1);
  // Read first: an action whose getters now throw is simply not remembered.
  let fields;
  try {
    fields = fieldsOf(action);
  } catch {}
  before.action = fields === undefined ? undefined : action;
  before.fields = fields;
  before.appended = undefined;
  before.next = next;
  const after = next === state ? before : keep(next, session, message, part, forgetPredecessor(state));
  after.session = session;
  after.appendMessage = message;
  after.appendPart = part;
}

// The state `sessionReducer` takes for `undefined` (Redux's first call): one object, so that the
// same action on `undefined` twice gives the same state (React's Strict Mode), and frozen, since
// it is shared.
// Frozen, it is a SessionState still: the reducer never changes a state it is given.
const EMPTY_STATE = /** @type {import("chat-session-reducer").SessionState} */ (Object.freeze({
  messages: Object.freeze(/** @type {import("chat-session-reducer").AgentMessage[]} */ ([])),
  status: "idle",
}));

export function emptyState() {
  return EMPTY_STATE;
}
