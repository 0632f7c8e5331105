// Random actions for the differential fuzz (tests/fuzz/run.mjs): valid actions over small
// alphabets, so that ids, names and messages collide and the SPEC's edge cases (replays, unknown
// ids, closed calls, nested runs) come up often, and hostile input of every shape JavaScript
// allows. Everything is drawn from a seeded generator: a seed replays the same run.

import { sessionReducer } from "../../bench/baseline.mjs";

// mulberry32: small, fast and good enough to explore with.
export function createRandom(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n) => Math.floor(next() * n);
  return {
    below,
    chance: (p) => next() < p,
    pick: (options) => options[below(options.length)],
    // An optional field: absent or one of the options.
    maybe: (p, make) => (next() < p ? make() : undefined),
  };
}

// The features of SPEC v2 and v3 that the package under test has: "calls" (issue 8), "data"
// (issue 9), and of issue 21 "branches" (edit, regenerate, switchBranch) and "queue" (the
// queue, send with parts, load, steps).
export const FEATURES = ["calls", "data", "branches", "queue"];

const CALL_IDS = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];
const MESSAGE_IDS = ["m1", "m2", "u1", "assistant-1", "assistant-2"];
const USER_IDS = ["u1", "u2", "m1"];
const TOOL_NAMES = ["search", "delegate", "confirm"];
const APPROVAL_IDS = ["p1", "p2"];
const TEXTS = ["a", "bc", "", " ", "😀", "\uD800", "é\n"];
const INPUT_PIECES = ['{"q":', "1}", "[1,", "2]", " ", "", "nul", "l", '"x"', "{", "}", "\n", "\t", "\u00a0"];
const DATA_NAMES = ["weather", "source"];
const POINTERS = ["", "/a", "/b", "/a/b", "/list", "/list/0", "/list/1", "/list/-", "/a~1b", "/~0", "/0", "/01"];
const PATCH_OPS = ["add", "remove", "replace", "move", "copy", "test"];
const ERROR_CODES = ["chat_disabled", "rate_limited", "bad_request", "network"];
const FINISH_REASONS = [undefined, "stop", "aborted", "length", "tool-calls", "content-filter", "other"];
const EDIT_IDS = ["u1", "e1", "e2"];

const withFields = (object, fields) => {
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) object[key] = value;
  return object;
};

// A JSON value, small and often colliding; own `__proto__` keys come through JSON.parse, as
// they do from the network.
export function jsonValue(random, depth = 0) {
  const kind = random.below(depth > 2 ? 6 : 9);
  switch (kind) {
    case 0: return null;
    case 1: return random.chance(0.5);
    case 2: return random.pick([0, 1, -1.5, 1e21]);
    case 3: return random.pick(["", "x", "😀", "\uDC00"]);
    case 4: return random.pick([1, "x"]);
    case 5: return random.chance(0.5) ? {} : [];
    case 6: return Array.from({ length: random.below(3) }, () => jsonValue(random, depth + 1));
    case 7: {
      const object = {};
      for (const key of ["a", "b", "list", "a/b", "~"]) if (random.chance(0.4)) object[key] = jsonValue(random, depth + 1);
      return object;
    }
    default:
      return random.chance(0.2)
        ? JSON.parse(`{"__proto__": ${JSON.stringify(jsonValue(random, depth + 1)) ?? "null"}}`)
        : { a: jsonValue(random, depth + 1) };
  }
}

function jsonPatch(random) {
  return Array.from({ length: 1 + random.below(3) }, () => {
    const op = random.pick(PATCH_OPS);
    const operation = { op, path: random.pick(POINTERS) };
    if (op === "move" || op === "copy") operation.from = random.pick(POINTERS);
    if (op === "add" || op === "replace" || op === "test") operation.value = jsonValue(random);
    return operation;
  });
}

// Every call in `messages`, nested ones included, in document order.
export function callsIn(messages, into = []) {
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== "tool") continue;
      into.push(part);
      if (part.agent !== undefined) callsIn(part.agent.messages, into);
    }
  }
  return into;
}

const clone = (value) => JSON.parse(JSON.stringify(value));

// A snapshot of the messages: some held ones as they are, some changed, some new, in any order.
function snapshotMessages(random, messages) {
  const given = [];
  for (const message of messages) {
    if (!random.chance(0.6)) continue;
    const copy = clone(message);
    if (random.chance(0.4) && copy.parts.length > 0) {
      const part = copy.parts[random.below(copy.parts.length)];
      if (typeof part.text === "string") part.text += "!";
      else copy.parts.pop();
    }
    if (random.chance(0.2)) copy.parts.push({ type: "text", text: random.pick(TEXTS) });
    given.push(copy);
  }
  if (random.chance(0.4)) {
    const parts = random.chance(0.5)
      ? [{ type: "text", text: "new" }]
      : [{ type: "tool", id: random.pick(CALL_IDS), name: random.pick(TOOL_NAMES), input: {}, state: random.pick(["running", "done"]) }];
    given.push({ id: random.pick(["s1", "s2", ...MESSAGE_IDS]), role: random.pick(["assistant", "assistant", "user"]), parts });
  }
  if (random.chance(0.2)) given.reverse();
  // One message per id: the SPEC does not say which of two with one id a snapshot means.
  return given.filter((message, i) => given.findIndex((other) => other.id === message.id) === i);
}

export const isOpenCall = (call) => ["input-streaming", "running", "awaiting-confirmation"].includes(call.state);

// Ids and names aimed at the calls of `state`, open ones most, so that answers, phases and
// nested runs find something; otherwise from the alphabets.
function targets(random, state) {
  const calls = callsIn(state.messages);
  const open = calls.filter(isOpenCall);
  const approvals = calls.flatMap((call) => (call.approval === undefined ? [] : [call.approval.id]));
  const aim = (options, fallback) => {
    const roll = random.below(10);
    if (roll < 5 && open.length > 0) return options(random.pick(open));
    if (roll < 7 && calls.length > 0) return options(random.pick(calls));
    return random.pick(fallback);
  };
  return {
    open: open.length,
    callId: () => aim((call) => call.id, CALL_IDS),
    name: () => aim((call) => call.name, TOOL_NAMES),
    approvalId: () => (approvals.length > 0 && random.chance(0.6) ? random.pick(approvals) : random.pick(APPROVAL_IDS)),
  };
}

// A stream part; `state` is the baseline's state.
function streamPart(random, features, state) {
  const metadata = () => (features.data ? random.maybe(0.25, () => jsonValue(random)) : undefined);
  const messageId = () => random.maybe(0.3, () => random.pick(MESSAGE_IDS));
  const { open, callId, name, approvalId } = targets(random, state);
  const kinds = ["message-start", "text-delta", "text-delta", "text-delta", "reasoning", "tool-call", "tool-call",
    "tool-call", "tool-result", "tool-result", "tool-error", "step-finish", "finish", "error", "unknown"];
  if (features.calls) {
    kinds.push("tool-input-delta", "tool-input-delta", "tool-input-delta", "tool-input-end", "tool-input-end",
      "tool-approval-request", "tool-approval-request", "tool-approval-response", "tool-approval-response", "reasoning-delta");
  }
  if (features.data) kinds.push("data", "data", "message-metadata", "snapshot", "agent-state", "agent-state");
  if (features.queue) kinds.push("step-start", "step-start", "step-reset");
  // Open calls wait for answers.
  if (open > 0) kinds.push("tool-result", "tool-result", "tool-error", ...(features.calls ? ["tool-input-end", "tool-approval-request", "tool-approval-response"] : []));
  switch (random.pick(kinds)) {
    case "message-start":
      return withFields({ type: "message-start", messageId: random.pick(MESSAGE_IDS) }, { metadata: metadata() });
    case "text-delta":
      return withFields({ type: "text-delta", text: random.pick(TEXTS) }, { messageId: messageId(), metadata: metadata() });
    case "reasoning":
      return withFields({ type: "reasoning", text: random.pick(TEXTS) },
        { messageId: messageId(), metadata: random.maybe(0.3, () => jsonValue(random)) });
    case "reasoning-delta":
      return withFields({ type: "reasoning-delta", text: random.pick(TEXTS) }, { messageId: messageId(), metadata: metadata() });
    case "tool-call":
      return withFields({ type: "tool-call", id: callId(), name: random.pick(TOOL_NAMES), input: jsonValue(random) },
        { messageId: messageId(), metadata: metadata() });
    case "tool-input-delta":
      return withFields({ type: "tool-input-delta", id: callId(), text: random.pick(INPUT_PIECES) },
        { messageId: messageId(), name: random.maybe(0.6, () => random.pick(TOOL_NAMES)), metadata: metadata() });
    case "tool-input-end":
      return withFields({ type: "tool-input-end", id: callId() }, { metadata: metadata() });
    case "tool-result":
      return withFields({ type: "tool-result", id: callId(), output: jsonValue(random) }, {
        preliminary: features.calls ? random.maybe(0.3, () => random.chance(0.8)) : undefined,
        metadata: metadata(),
      });
    case "tool-error":
      return withFields({
        type: "tool-error", id: callId(),
        error: withFields({ message: random.pick(["failed", ""]) }, { code: random.maybe(0.5, () => random.pick(["cancelled", "boom"])) }),
      }, { metadata: metadata() });
    case "tool-approval-request": {
      const byName = random.chance(0.3);
      return withFields({ type: "tool-approval-request" }, {
        id: byName ? undefined : callId(),
        name: byName || random.chance(0.2) ? name() : undefined,
        approvalId: random.maybe(0.5, () => random.pick(APPROVAL_IDS)),
        prompt: random.maybe(0.6, () => random.pick(["Allow?", "\uD800?"])),
        automatic: random.maybe(0.2, () => random.chance(0.5)),
        details: random.maybe(0.3, () => jsonValue(random)),
      });
    }
    case "tool-approval-response": {
      const byApproval = random.chance(0.4);
      return withFields({ type: "tool-approval-response", approved: random.chance(0.6) }, {
        id: byApproval ? undefined : callId(),
        approvalId: byApproval || random.chance(0.2) ? approvalId() : undefined,
        reason: random.maybe(0.3, () => random.pick(["ok", "no"])),
        input: random.maybe(0.2, () => jsonValue(random)),
        output: random.maybe(0.3, () => jsonValue(random)),
      });
    }
    case "data": {
      const id = random.maybe(0.7, () => random.pick(["d1", "d2"]));
      const patch = id !== undefined && random.chance(0.4);
      return withFields({ type: "data", name: random.pick(DATA_NAMES) }, {
        messageId: messageId(), id,
        data: patch ? undefined : jsonValue(random),
        patch: patch ? jsonPatch(random) : undefined,
        metadata: metadata(),
      });
    }
    case "message-metadata":
      return withFields({ type: "message-metadata", metadata: jsonValue(random) }, { messageId: messageId() });
    case "snapshot":
      return withFields({ type: "snapshot", messages: snapshotMessages(random, state.messages) },
        { exact: random.maybe(0.4, () => random.chance(0.7)) });
    case "agent-state":
      return random.chance(0.4)
        ? { type: "agent-state", snapshot: jsonValue(random) }
        : { type: "agent-state", patch: jsonPatch(random) };
    case "step-finish":
      return { type: "step-finish" };
    case "step-start":
    case "step-reset":
      return withFields({ type: random.pick(["step-start", "step-reset"]) }, { messageId: messageId() });
    case "finish":
      return withFields({ type: "finish" }, { reason: random.pick(FINISH_REASONS) });
    case "error":
      return withFields({ type: "error", error: random.pick(["lost", ""]) }, { code: random.maybe(0.7, () => random.pick(ERROR_CODES)) });
    default:
      return { type: random.pick(["data-weather", "source-url", "text-start"]), id: "x" };
  }
}

// A valid action for `state` (the baseline's); `seen` gives a state met earlier, to load.
export function validAction(random, features, state, seen = () => undefined) {
  let action;
  do action = anyAction(random, features, state, seen);
  while (!agreesWithPackage(features, state, action));
  return action;
}

// The baseline follows SPEC v3. Without the "queue" feature the package follows v2, where a
// `send` while streaming appends and step parts are unknown; without "calls" it follows v1, where `send`
// cancels nothing and an answer to a call is ignored unless its run is streaming. Actions on
// which the versions differ are not generated. (A batch is made of actions that agree.)
export function agreesWithPackage(features, state, action) {
  if (action.type === "batch") {
    let inner = state;
    for (const each of action.actions) {
      if (!agreesWithPackage(features, inner, each)) return false;
      inner = sessionReducer(inner, each);
    }
    return true;
  }
  // A prepend whose call id the state holds is bad input (tested on its own), not generated.
  if (action.type === "prepend") return !takesACallId(state, action);
  if (!features.queue) {
    if (action.type === "send" && state.status === "streaming") return false;
    if (action.type === "part" && ["step-start", "step-reset"].includes(action.part.type)) return false;
  }
  if (features.calls) return true;
  if (action.type === "send") return state.status === "streaming" || !callsIn(state.messages).some(isOpenCall);
  if (action.type !== "part" || !["tool-result", "tool-error"].includes(action.part.type)) return true;
  if (state.status !== "streaming") return false;
  const holder = action.within === undefined ? undefined : callsIn(state.messages).find((call) => call.id === action.within);
  return holder?.agent === undefined || holder.agent.status === "streaming";
}

function anyAction(random, features, state, seen) {
  // A run that ended goes on more often than it would by chance.
  if (state.status !== "streaming" && random.chance(0.2)) {
    return features.calls ? { type: "continue" } : { type: "send", id: random.pick(USER_IDS), text: random.pick(TEXTS) };
  }
  if ((features.branches || features.queue) && random.chance(0.12)) return v3Action(random, features, state, seen);
  if (features.branches && random.chance(0.04)) return prependAction(random, state);
  // A conversation with alternatives: the user looks at them.
  if (features.branches && state.forks !== undefined && random.chance(0.06)) return switchAction(random, state);
  const roll = random.below(100);
  if (roll < 70) {
    // A nested part is aimed at the run behind the call it is within.
    const within = random.chance(0.3) ? targets(random, state).callId() : undefined;
    const run = within === undefined ? state : callsIn(state.messages).find((call) => call.id === within)?.agent;
    const part = streamPart(random, features, run ?? { messages: [], status: "streaming" });
    return within === undefined ? { type: "part", part } : { type: "part", part, within };
  }
  if (roll < 76) return features.queue ? sendAction(random) : { type: "send", id: random.pick(USER_IDS), text: random.pick(TEXTS) };
  if (roll < 83) {
    return withFields({ type: "toolPhase", name: targets(random, state).name(), state: random.pick(["running", "awaiting-confirmation"]) },
      { prompt: random.maybe(0.6, () => random.pick(["Go?", "Sure?"])) });
  }
  if (roll < 87) return { type: "stop" };
  if (roll < 90) return { type: "retry" };
  if (roll < 91) return { type: "reset" };
  if (features.calls && roll < 95) return { type: "continue" };
  if (features.data && roll < 98) {
    const actions = [];
    let inner = state;
    for (let i = random.below(5); i > 0; i--) {
      // Each aimed at the state it will meet.
      const action = validAction(random, features, inner, seen);
      actions.push(action);
      inner = sessionReducer(inner, action);
    }
    return { type: "batch", actions };
  }
  if (features.data) return { type: random.pick(["@@redux/INIT.x.y", "other/slice"]) };
  return random.chance(0.5) ? { type: "stop" } : { type: "retry" };
}

// ---- SPEC v3

// A send, now and then with parts (text and data parts: a file, a source) and metadata.
function sendAction(random) {
  const parts = random.maybe(0.3, () => Array.from({ length: random.below(3) }, () => userPart(random)));
  return withFields({ type: "send", id: random.pick(USER_IDS), text: random.pick(TEXTS) },
    { parts, metadata: random.maybe(0.2, () => jsonValue(random)) });
}

function userPart(random) {
  switch (random.below(4)) {
    case 0: return withFields({ type: "text", text: random.pick(TEXTS) }, { metadata: random.maybe(0.2, () => jsonValue(random)) });
    case 1: return { type: "data", name: "file", data: withFields({ mediaType: "image/png", url: "data:image/png;base64,AA==" }, { filename: random.maybe(0.5, () => "a.png") }) };
    case 2: return { type: "data", name: "source", id: random.pick(["s1", "s2"]), data: { url: "https://example.com" } };
    default: return { type: "data", name: random.pick(DATA_NAMES), data: jsonValue(random) };
  }
}

const idsOf = (messages, role) => messages.filter((message) => role === undefined || message.role === role).map((message) => message.id);

// One of v3's actions, aimed mostly at what `state` holds: its user messages, replies, forks
// and queue; sometimes at ids it does not hold and indexes out of range.
function v3Action(random, features, state, seen) {
  const { messages, forks = [], queue = [] } = state;
  const aimed = (ids, fallback) => (ids.length > 0 && random.chance(0.8) ? random.pick(ids) : random.pick(fallback));
  const roll = features.queue ? (features.branches ? random.below(100) : 78 + random.below(22)) : random.below(78);
  if (roll < 28) {
    return { type: "edit", messageId: aimed(idsOf(messages, "user"), [...MESSAGE_IDS, ...USER_IDS]), id: random.pick(EDIT_IDS), text: random.pick(TEXTS) };
  }
  if (roll < 46) {
    return random.chance(0.4)
      ? { type: "regenerate" }
      : { type: "regenerate", messageId: aimed(idsOf(messages, "assistant"), [...MESSAGE_IDS, ...USER_IDS]) };
  }
  if (roll < 78) return switchAction(random, state);
  if (roll < 88) return { type: "unqueue", id: aimed(queue.map((queued) => queued.id), USER_IDS) };
  const loaded = features.branches && random.chance(0.1) ? deepBranches(random) : seen();
  return loaded === undefined ? { type: "stop" } : { type: "load", state: loaded };
}

// ---- SPEC v4

const HISTORY_IDS = ["h1", "h2", "h3", "h4"];
const HISTORY_CALL_IDS = ["hc1", "hc2", "hc3", ...CALL_IDS];

// A page of older history for `state`: messages with closed calls only, whose call ids `state`
// does not hold (a taken one is bad input, tested on its own); some ids the conversation holds
// (its path's, its branches': skipped) or the page repeats; now and then forks after its messages.
function prependAction(random, state) {
  const taken = new Set(callsIn(state.messages).map((call) => call.id));
  const held = [...idsOf(state.messages), ...(state.forks ?? []).flatMap((fork) => fork.alternatives.flatMap((branch) => idsOf(branch?.messages ?? [])))];
  const messages = Array.from({ length: random.below(5) }, () => {
    const id = held.length > 0 && random.chance(0.25) ? random.pick(held) : random.pick([...HISTORY_IDS, ...MESSAGE_IDS]);
    return historyMessage(random, id, taken);
  });
  const ids = messages.map((message) => message.id);
  const forks = [];
  for (const [index, id] of ids.entries()) {
    if (ids.indexOf(id) !== index || !random.chance(0.2)) continue; // an `after` names the first with its id
    forks.push({ after: id, active: 1, alternatives: [{ messages: [historyMessage(random, "hb", new Set())] }, null] });
  }
  if (random.chance(0.1)) forks.unshift({ after: null, active: 0, alternatives: [null, { messages: [historyMessage(random, "hb0", new Set())] }] });
  return forks.length > 0 ? { type: "prepend", messages, forks } : { type: "prepend", messages };
}

function takesACallId(state, action) {
  try {
    sessionReducer(state, action);
    return false;
  } catch {
    return true;
  }
}

function historyMessage(random, id, taken) {
  const role = random.chance(0.4) ? "user" : "assistant";
  const parts = [{ type: "text", text: random.pick(TEXTS) }];
  const free = HISTORY_CALL_IDS.filter((callId) => !taken.has(callId));
  if (role === "assistant" && free.length > 0 && random.chance(0.5)) {
    const callId = random.pick(free);
    taken.add(callId);
    const state = random.pick(["done", "error", "cancelled"]);
    const call = { type: "tool", id: callId, name: random.pick(TOOL_NAMES), input: jsonValue(random), state };
    if (state === "done") call.output = jsonValue(random);
    else call.error = state === "error" ? { message: "failed" } : { message: "stopped", code: "cancelled" };
    parts.push(call);
  }
  return { id, role, parts };
}

// A switchBranch, mostly to an index of a fork `state` holds.
function switchAction(random, state) {
  const forks = state.forks ?? [];
  const fork = forks.length > 0 && random.chance(0.85) ? random.pick(forks) : undefined;
  const after = fork?.after ?? random.pick([null, ...MESSAGE_IDS, ...USER_IDS]);
  const count = fork?.alternatives.length ?? 2;
  const other = fork === undefined ? 0 : (fork.active + 1 + random.below(count - 1)) % count; // not the active one
  const to = random.chance(0.8) ? (random.chance(0.7) ? other : random.below(count)) : random.pick([count, -1, 64, fork?.active ?? 0]);
  // A switch while streaming is ignored: most come after the user stopped the reply.
  const stopFirst = state.status === "streaming" && random.chance(0.7);
  return stopFirst ? { type: "batch", actions: [{ type: "stop" }, { type: "switchBranch", after, to }] } : { type: "switchBranch", after, to };
}

// A conversation whose forks nest 62 to 64 deep (a JSON copy, or the same frozen object again):
// an edit or a switch there meets the nesting limit.
const deepStates = new Map();
function deepBranches(random) {
  const depth = 62 + random.below(3);
  if (!deepStates.has(depth)) {
    let state = { messages: [], status: "idle" };
    for (let i = 0; i <= depth + 1; i++) {
      state = [{ type: "send", id: `u${i}`, text: "q" }, { type: "part", part: { type: "message-start", messageId: `m${i}` } },
        { type: "part", part: { type: "finish" } }].reduce(sessionReducer, state);
    }
    for (let i = depth + 1; i >= 2; i--) {
      state = sessionReducer(sessionReducer(state, { type: "edit", messageId: `u${i}`, id: `e${i}`, text: "e" }), { type: "stop" });
    }
    deepStates.set(depth, Object.freeze(clone(state)));
  }
  return random.chance(0.5) ? clone(deepStates.get(depth)) : deepStates.get(depth);
}

// A hostile input of one of `kinds`, built from a valid action and the current state:
// "malformed" (a wrong value or a missing field somewhere), "getters" (a getter that throws),
// "proxies" (a Proxy whose traps throw), "lengths" (an array claiming a huge length).
// Returns { state, action } to pass to the reducer and what was done, in words.
export function hostileCall(random, kinds, state, action) {
  const kind = random.pick(kinds);
  const onState = random.chance(0.25);
  const name = onState ? "state" : "action";
  const target = clone(onState ? state : action);
  const place = randomPlace(random, target, name);
  const call = (value, what) => ({
    state: onState ? value : state,
    action: onState ? action : value,
    description: `${what} at ${place?.path ?? name}, in ${show(onState ? state : action)}`,
  });
  switch (kind) {
    case "malformed": {
      const junk = random.pick([null, 7, "x", [], {}, true, -0, NaN, undefined, 2 ** 53, 1n, Symbol("s"), () => 1]);
      if (place === undefined) return call(junk, show(junk));
      if (random.chance(0.3) && !Array.isArray(place.object)) {
        delete place.object[place.key];
        return call(target, "a field removed");
      }
      place.object[place.key] = junk;
      return call(target, show(junk));
    }
    case "getters": {
      const getter = { get() { throw new HostileError(); }, enumerable: true };
      if (place === undefined) return call(Object.defineProperty({}, "type", getter), "a getter that throws");
      Object.defineProperty(place.object, place.key, getter);
      return call(target, "a getter that throws");
    }
    case "proxies": {
      const trap = () => { throw new HostileError(); };
      const proxy = (value) => new Proxy(value, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
      if (place === undefined) return call(proxy(target), "a Proxy that throws");
      place.object[place.key] = proxy(Object(place.object[place.key]));
      return call(target, "a Proxy that throws");
    }
    default: { // "lengths"
      const huge = [];
      huge.length = random.pick([2 ** 20, 2 ** 28, 2 ** 30, 2 ** 32 - 1]);
      const what = `an empty array of length ${huge.length}`;
      if (place !== undefined) {
        place.object[place.key] = huge;
        return call(target, what);
      }
      return onState ? call({ messages: huge, status: "idle" }, what) : call({ type: "batch", actions: huge }, what);
    }
  }
}

// Thrown by the hostile getters and traps.
export class HostileError extends Error {}

// A random { object, key, path } inside `value` (undefined: the value itself, named `path`).
function randomPlace(random, value, path) {
  let place;
  let current = value;
  while (current !== null && typeof current === "object" && (place === undefined || random.chance(0.6))) {
    const keys = Object.keys(current);
    if (keys.length === 0) break;
    const key = random.pick(keys);
    place = { object: current, key, path: `${place?.path ?? path}.${key}` };
    current = current[key];
  }
  return place;
}

const show = (value) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};
