// What this module knows about the last states it returned (a bounded list, newest first: a
// WeakMap would do, but its entries make every garbage collection slower, and a streaming
// reply makes a state per delta):
// - `session`: the id of the Rust session behind the state (src/wasm/recent.rs), or -1;
// - `appendAt`: where a plain text delta (some text, no within, no messageId or the last
//   message's) goes when all it does is append to a text part, [message, part] as the core
//   computed it for this state (null: not so simple);
// - `action` and `next`: the last action applied to the state and its result, because React
//   calls a reducer twice with the same arguments (Strict Mode) and must get the same object.
// The states are immutable, so these facts stay true; a state no longer listed, or a session id
// Rust no longer holds, only means the state is read again.
import { appendText } from "./apply.js";
import { textDeltaShape } from "./text_delta.js";

const KEPT = 16;
const known = [];

// The facts of a state, moved to the front: the states in use are the last to be forgotten.
function factsOf(state) {
  const index = known.findIndex((facts) => facts.state === state);
  if (index <= 0) return known[index];
  const [facts] = known.splice(index, 1);
  known.unshift(facts);
  return facts;
}

function keep(facts) {
  if (known.length === KEPT) known.pop();
  known.unshift(facts);
  return facts;
}

// `state` has a successor now, so its predecessor's facts go: React repeats a step (Strict Mode)
// right away, never after the next one. Otherwise the last 16 states of a streaming reply would
// outlive young-generation collections, each with its copy of the message list; forgotten, they
// die young (a 20,000-delta reply at 2,000 turns: 22 MB copied by the collector instead of 127).
function forgetPredecessor(state) {
  const index = known.findIndex((facts) => facts.next === state && facts.state !== state);
  if (index >= 0) known.splice(index, 1);
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
  const facts = factsOf(state);
  if (facts === undefined) return undefined;
  if (facts.action === action) return facts.next;
  if (facts.appendAt === null) return undefined;
  const [message, part] = facts.appendAt;
  let next;
  try {
    const text = appendedText(state, message, action);
    if (text === undefined) return undefined;
    next = appendText(state, message, part, text);
  } catch {
    // The state was changed in place since it was made: the module's own path says so.
    return undefined;
  }
  facts.action = action;
  facts.next = next;
  forgetPredecessor(state);
  keep({ state: next, session: facts.session, appendAt: facts.appendAt, action: undefined, next: undefined });
  return next;
}

export function sessionOf(state) {
  return factsOf(state)?.session ?? -1;
}

// Records that `action` made `next` from `state`, and what is known of `next`. `message` is -1
// when a plain text delta would not simply append.
export function remember(state, action, next, session, message, part) {
  const before = factsOf(state) ?? keep({ state, session: -1, appendAt: null });
  before.action = action;
  before.next = next;
  const appendAt = message < 0 ? null : [message, part];
  if (next !== state) forgetPredecessor(state);
  const after = next === state ? before : keep({ state: next, action: undefined, next: undefined });
  after.session = session;
  after.appendAt = appendAt;
}
