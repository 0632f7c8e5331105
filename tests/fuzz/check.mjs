// The fuzz's checks of one reducer call against the baseline's: the same JSON, the same object
// exactly when the baseline's is the same, sharing wherever the baseline shares, coded errors;
// and of every state, SPEC v3's invariants.

const isObject = (value) => value !== null && typeof value === "object";

export function show(value) {
  if (typeof value === "bigint" || typeof value === "symbol" || typeof value === "function") return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (error) {
    return `<${error.message}>`;
  }
}

// The first place where `actual` differs from `expected` as JSON data (keys in any order; a key
// holding `undefined` is a key), or undefined when they are equal.
export function firstDifference(expected, actual, path = "state") {
  if (expected === actual) return undefined;
  if (!isObject(expected) || !isObject(actual) || Array.isArray(expected) !== Array.isArray(actual)) {
    return `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (expected.length !== actual.length) {
      return `${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const found = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(expected)) {
    if (!Object.hasOwn(actual, key)) return `${path}.${key}: missing (expected ${show(expected[key])})`;
    const found = firstDifference(expected[key], actual[key], `${path}.${key}`);
    if (found !== undefined) return found;
  }
  const extra = Object.keys(actual).find((key) => !Object.hasOwn(expected, key));
  return extra === undefined ? undefined : `${path}.${extra}: unexpected ${show(actual[extra])}`;
}

// Where the baseline kept an object from the previous state (the same object at the same place),
// the package must have kept its own: returns the first place where it did not. A value the
// action gives, written in its place, is not a copy: values in actions are kept by reference,
// and an opaque value written again is not compared with the one it replaces (docs/decisions.md).
// Nor is a place where the baseline kept a value some action gave (`given` holds them all): the
// baseline may hold one such value in two places (an action dispatched twice) where the package
// holds two copies, and when the places shift (an unqueue) the two cannot be told apart.
export function lostSharing(expectedBefore, expectedAfter, before, after, given, path = "state") {
  if (expectedAfter === expectedBefore) {
    return after === before || !isObject(after) || given.has(after) || given.has(expectedAfter) ? undefined : path;
  }
  if (![expectedBefore, expectedAfter, before, after].every(isObject)) return undefined;
  for (const key of Object.keys(expectedAfter)) {
    if (!Object.hasOwn(expectedBefore, key) || !Object.hasOwn(before, key) || !Object.hasOwn(after, key)) continue;
    const found = lostSharing(expectedBefore[key], expectedAfter[key], before[key], after[key], given, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

// Every object inside `value`, itself included.
export function objectsIn(value, into = new Set()) {
  if (isObject(value) && !into.has(value)) {
    into.add(value);
    for (const key of Object.keys(value)) objectsIn(value[key], into);
  }
  return into;
}

// What is wrong with an error thrown for bad input, or undefined: it must be an Error with a
// `code`, and one of bad input (code "invalid") has a `path` that its message starts with.
export function wrongErrorShape(error) {
  if (!(error instanceof Error)) return `threw ${show(error)}, not an Error`;
  if (typeof error.code !== "string") return `an Error without a code: ${error.constructor.name}: ${error.message}`;
  if (error.code === "invalid" && (typeof error.path !== "string" || !error.message.startsWith(error.path))) {
    return `code "invalid" without a path that the message starts with: path ${show(error.path)}, message ${show(error.message)}`;
  }
  return undefined;
}

export function deepFreeze(value) {
  if (isObject(value) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

// ---- SPEC v3

const OPEN_STATES = ["input-streaming", "running", "awaiting-confirmation"];
export const MAX_BRANCH_DEPTH = 64;

function hasOpenCall(messages) {
  return messages.some((message) => message.parts.some((part) => part.type === "tool" &&
    (OPEN_STATES.includes(part.state) || (part.agent !== undefined && hasOpenCall(part.agent.messages)))));
}

// The first of SPEC v3's invariants that `state` breaks, in words, or undefined: forks absent or
// non-empty, one per `after`, in path order, each with two alternatives or more and null exactly
// at `active`, nested at most 64 deep, no open call in a branch; the queue absent or non-empty.
export function brokenInvariant(state) {
  return brokenForks(state.forks, state.messages, "state.forks", 1) ?? brokenQueue(state.queue);
}

// `forks` held beside `messages`; their branches are at `depth`.
function brokenForks(forks, messages, path, depth) {
  if (forks === undefined) return undefined;
  if (!Array.isArray(forks) || forks.length === 0) return `${path}: ${show(forks)} (absent, never empty)`;
  if (depth > MAX_BRANCH_DEPTH) return `${path}: branches at depth ${depth}, deeper than ${MAX_BRANCH_DEPTH}`;
  const afters = new Set();
  let at = -1; // where the previous fork's `after` is on the path
  for (const [k, fork] of forks.entries()) {
    const where = `${path}[${k}]`;
    if (afters.has(fork.after)) return `${where}: a second fork after ${show(fork.after)}`;
    afters.add(fork.after);
    if (fork.after === null && k > 0) return `${where}.after: null, not first`;
    if (fork.after !== null) {
      // An `after` names the first message with its id (docs/decisions.md).
      const found = messages.findIndex((message) => message.id === fork.after);
      if (found < 0) return `${where}.after: ${show(fork.after)}, no message of the path`;
      if (found <= at) return `${where}.after: ${show(fork.after)}, before the previous fork's (path order)`;
      at = found;
    }
    const { active, alternatives } = fork;
    if (!Array.isArray(alternatives) || alternatives.length < 2) return `${where}.alternatives: fewer than two`;
    if (!Number.isInteger(active) || active < 0 || active >= alternatives.length) return `${where}.active: ${show(active)} out of range`;
    for (const [i, branch] of alternatives.entries()) {
      const inBranch = `${where}.alternatives[${i}]`;
      if ((branch === null) !== (i === active)) return `${inBranch}: ${branch === null ? "null, not at active" : "a branch at active"}`;
      if (branch === null) continue;
      if (!Array.isArray(branch.messages)) return `${inBranch}.messages: ${show(branch.messages)}`;
      if (hasOpenCall(branch.messages)) return `${inBranch}: an open call in a branch`;
      const broken = brokenForks(branch.forks, branch.messages, `${inBranch}.forks`, depth + 1);
      if (broken !== undefined) return broken;
    }
  }
  return undefined;
}

function brokenQueue(queue) {
  if (queue === undefined) return undefined;
  if (!Array.isArray(queue) || queue.length === 0) return `state.queue: ${show(queue)} (absent, never empty)`;
  const wrong = queue.findIndex((queued) => typeof queued.id !== "string" || typeof queued.text !== "string" ||
    (queued.parts !== undefined && (!Array.isArray(queued.parts) || queued.parts.length === 0)));
  return wrong < 0 ? undefined : `state.queue[${wrong}]: ${show(queue[wrong])}`;
}

// SPEC v3's identity through branch actions, or undefined: a message set aside without an open
// call is the very object in its branch; a branch brought back by switchBranch gives back its
// very messages and forks; and switching back again gives the messages that were left (===).
export function lostBranchIdentity(action, before, after, reduce, held = before?.messages) {
  if (action.type === "batch" && action.actions.length === 2 && action.actions[0].type === "stop" && before !== undefined) {
    // A stop, then the branch action (the generator's way past a streaming reply): the messages
    // the stop copied (it cancelled their calls) are not those the batch's own stop made.
    return lostBranchIdentity(action.actions[1], reduce(before, action.actions[0]), after, reduce, new Set(before.messages));
  }
  const mustKeep = (message) => (held instanceof Set ? held.has(message) : true) && !hasOpenCall([message]);
  if (before === undefined || after === before || !["edit", "regenerate", "switchBranch"].includes(action.type)) return undefined;
  const fork = action.type === "switchBranch" ? before.forks?.find((held) => held.after === action.after) : undefined;
  const chosen = fork?.alternatives[action.to];
  if (action.type === "switchBranch" && (chosen === undefined || chosen === null || before.status === "streaming")) return undefined; // ignored
  const kept = new Set(after.messages);
  for (const fork of after.forks ?? []) {
    for (const branch of fork.alternatives) for (const message of branch?.messages ?? []) kept.add(message);
  }
  const copied = before.messages.findIndex((message) => !kept.has(message) && mustKeep(message));
  if (copied >= 0) return `state.messages[${copied}] was copied as it was set aside`;
  if (action.type !== "switchBranch") return undefined;
  const start = after.messages.length - chosen.messages.length;
  const copy = chosen.messages.findIndex((message, i) => after.messages[start + i] !== message);
  if (copy >= 0) return `the branch's messages[${copy}] came back as a copy`;
  const forkCopy = (chosen.forks ?? []).findIndex((held) => !after.forks.includes(held));
  if (forkCopy >= 0) return `the branch's forks[${forkCopy}] came back as a copy`;
  const back = reduce(after, { type: "switchBranch", after: action.after, to: fork.active });
  const other = before.messages.findIndex((message, i) => back.messages[i] !== message && mustKeep(message));
  if (back.messages.length !== before.messages.length || other >= 0) {
    return `switching back: messages[${other}] is not the object it was (${back.messages.length} messages, ${before.messages.length} before)`;
  }
  return undefined;
}

// SPEC v4 prepend: the messages and forks held keep their identity (but the fork at the start,
// which now follows the last message prepended), the given messages not held go in front as the
// very objects given, the skipped ones (held already) do not, and status, error and queue stay.
export function lostPrependIdentity(action, before, after) {
  if (action.type !== "prepend" || before === undefined || after === before) return undefined;
  const heldIds = new Set(before.messages.map((message) => message.id));
  const pending = [...(before.forks ?? [])];
  while (pending.length > 0) {
    for (const branch of pending.pop().alternatives) {
      for (const message of branch?.messages ?? []) heldIds.add(message.id);
      pending.push(...(branch?.forks ?? []));
    }
  }
  const page = action.messages.filter((message) => !heldIds.has(message.id) && heldIds.add(message.id));
  if (after.messages.length !== page.length + before.messages.length) return `${after.messages.length} messages, not ${page.length} + ${before.messages.length}`;
  const given = page.findIndex((message, i) => after.messages[i] !== message);
  if (given >= 0) return `messages[${given}] is not the given message`;
  const held = before.messages.findIndex((message, i) => after.messages[page.length + i] !== message);
  if (held >= 0) return `the held messages[${held}] is not the object it was`;
  for (const key of ["status", "error", "queue", "agentState"]) if (after[key] !== before[key]) return `${key} changed`;
  const forks = before.forks ?? [];
  const offset = (after.forks ?? []).length - forks.length;
  for (const [i, fork] of forks.entries()) {
    const now = after.forks[offset + i];
    if (i === 0 && fork.after === null) {
      if (now.after !== page[page.length - 1].id) return `the fork at the start follows ${show(now.after)}, not the last message prepended`;
      if (now.alternatives !== fork.alternatives) return "the moved fork's alternatives were copied";
    } else if (now !== fork) return `the held forks[${i}] is not the object it was`;
  }
  return undefined;
}
