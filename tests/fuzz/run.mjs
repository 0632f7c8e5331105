// `npm run fuzz -- [seed] [count]`: the differential fuzz of the built package (pkg/) against the
// independent reducer written from SPEC.md (bench/baseline.mjs). Random action sequences (see
// generate.mjs) from empty sessions, branching back to older states (time travel, a React
// rebase), now and then restarting from a JSON copy of the state (a literal the module did not
// make), with React Strict Mode's double call, deep-frozen inputs and hostile input mixed in.
// After every valid action: the package's state equals the baseline's as JSON, it is the same
// object whenever the baseline's is, it keeps every object the baseline keeps, its inputs are
// unchanged, and the double call gives the same object; the state keeps SPEC v3's invariants
// (check.mjs), and branch actions keep the objects they move. After hostile input: a coded Error,
// and the next valid action still gives the right answer. Differences are replayed without the
// randomness around them and shrunk to a minimal reproduction.
//
// Options: --features=calls,data,branches,queue (the SPEC v2 and v3 features to generate; default: those the
// package accepts; "none" for v1 only), --hostile=malformed,getters,proxies,lengths (default: all;
// "none" for no hostile input), --package=path/to/index.js (default: pkg/index.js), --strict
// (the differences listed in known.mjs count too). Exits 1 when it finds a difference.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

import * as baseline from "../../bench/baseline.mjs";
import { brokenInvariant, deepFreeze, firstDifference, lostBranchIdentity, lostPrependIdentity, lostSharing, objectsIn, show, wrongErrorShape } from "./check.mjs";
import { FEATURES, HostileError, agreesWithPackage, createRandom, hostileCall, validAction } from "./generate.mjs";
import { KNOWN } from "./known.mjs";

const HOSTILE_KINDS = ["malformed", "getters", "proxies", "lengths"];
const RATES = { reuse: 0.05, hostile: 0.03, strict: 0.15, freeze: 0.5, branch: 0.12, literal: 0.02, resumable: 0.02 };
const SHOWN_DIFFERENCES = 5;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    features: { type: "string" },
    hostile: { type: "string" },
    package: { type: "string" },
    strict: { type: "boolean", default: false },
  },
});
const PACKAGE = resolve(options.package ?? fileURLToPath(new URL("../../pkg/index.js", import.meta.url)));
const seed = Number(positionals[0] ?? 1);
const count = Number(positionals[1] ?? 1_000_000);
const list = (text, known) => {
  const items = text === "none" ? [] : text.split(",");
  for (const item of items) if (!known.includes(item)) throw new Error(`unknown ${item}: expected some of ${known.join(",")} or none`);
  return items;
};

if (!existsSync(PACKAGE)) {
  console.error(`${PACKAGE} is missing: run npm run build first.`);
  process.exit(1);
}
// The module's memory, to report how it grows: the package does not export it, so it is taken
// from the instance the package makes on import (found by its type: the build gives the wasm's
// exports short names).
const memories = [];
const { Instance } = WebAssembly;
WebAssembly.Instance = class extends Instance {
  constructor(...args) {
    super(...args);
    memories.push(...Object.values(this.exports).filter((value) => value instanceof WebAssembly.Memory));
  }
};
const pkg = await import(PACKAGE);
WebAssembly.Instance = Instance;
const wasmMemory = () => memories.reduce((total, memory) => total + memory.buffer.byteLength, 0);

// A feature is there when the package accepts an action that only it has.
const accepts = (action) => {
  try {
    pkg.checkAction(action);
    return true;
  } catch {
    return false;
  }
};
const detected = {
  calls: accepts({ type: "continue" }),
  data: accepts({ type: "batch", actions: [] }),
  branches: accepts({ type: "switchBranch", after: null, to: 0 }),
  queue: accepts({ type: "unqueue", id: "q" }),
};
const enabled = options.features === undefined
  ? FEATURES.filter((feature) => detected[feature])
  : list(options.features, FEATURES);
const features = Object.fromEntries(FEATURES.map((feature) => [feature, enabled.includes(feature)]));
const hostileKinds = list(options.hostile ?? HOSTILE_KINDS.join(","), HOSTILE_KINDS);

const EMPTY = () => ({ messages: [], status: "idle" });
const ACTION_TYPES = ["send", "part", "toolPhase", "stop", "retry", "reset", "continue", "batch", "edit", "regenerate", "switchBranch", "unqueue", "load", "prepend"];
const knownTypes = (action) =>
  ACTION_TYPES.includes(action.type) && (action.type !== "batch" || action.actions.every(knownTypes));
const actionsOf = (path) => {
  const actions = [];
  for (let at = path; at !== null; at = at.previous) actions.push(at.action);
  return actions.reverse();
};

const loads = (action) => action.type === "load" || (action.type === "batch" && action.actions.some(loads));

// Every value an action gave (but the states given to load): the states may hold them.
const actionValues = new WeakSet();
function addValues(action) {
  if (loads(action)) return;
  for (const value of objectsIn(action)) actionValues.add(value);
}

// Applies `action` to both sides of `entry` ({ expected, actual, path }), checks the package's
// answer, and returns the next entry or { difference }.
function step(entry, action, { freeze, strict, resumable }, module = pkg) {
  const { expected, actual } = entry;
  const expectedNext = deepFreeze(baseline.sessionReducer(expected, action));
  if (freeze) deepFreeze([actual, action]);
  const before = freeze ? undefined : show([actual, action]);
  const difference = (kind, detail) => ({ difference: { kind, detail, path: { action, previous: entry.path } } });
  let actualNext;
  try {
    actualNext = module.sessionReducer(actual, action);
  } catch (error) {
    return difference("threw", `${error?.constructor?.name}: ${error?.message} (code ${show(error?.code)})`);
  }
  if (strict) {
    let again;
    try {
      again = module.sessionReducer(actual, action);
    } catch (error) {
      again = error;
    }
    if (again !== actualNext) return difference("strict-mode", "the same state and action again gave another answer");
  }
  if (before !== undefined && show([actual, action]) !== before) return difference("mutation", "the state or action changed");
  const changed = firstDifference(expectedNext, actualNext);
  if (changed !== undefined) return difference("json", changed);
  // (The package giving back the same state where the baseline made a new one is no difference:
  // with the same JSON as the baseline's, the state did not change, as when a value is replaced
  // by an equal one.)
  const given = objectsIn(action);
  if (given.has(expectedNext)) {
    if (actualNext !== expectedNext) return difference("identity", "not the very state the action gave (load)");
  } else if (expectedNext === expected && actualNext !== actual) {
    return difference("identity", "a new state, though nothing changed");
  }
  const broken = brokenInvariant(actualNext);
  if (broken !== undefined) return difference("invariant", broken);
  addValues(action);
  // (A loaded state replaces the previous one: nothing of that need be kept.)
  const unshared = loads(action) ? undefined : lostSharing(expected, expectedNext, actual, actualNext, actionValues);
  if (unshared !== undefined) return difference("sharing", `${unshared}: a copy, though it did not change`);
  const moved = lostBranchIdentity(action, actual, actualNext, module.sessionReducer);
  if (moved !== undefined) return difference("branch-identity", moved);
  const prepended = lostPrependIdentity(action, actual, actualNext);
  if (prepended !== undefined) return difference("prepend-identity", prepended);
  if (resumable) {
    const cut = firstDifference(baseline.resumable(expectedNext.messages), module.resumable(actualNext.messages), "resumable");
    if (cut !== undefined) return difference("resumable", cut);
    // checkAction accepts what the reducer applies (it refuses action types it does not know).
    if (knownTypes(action)) {
      try {
        module.checkAction(action);
      } catch (error) {
        return difference("check-action", `checkAction refused a valid action: ${error?.message}`);
      }
    }
  }
  return { expected: expectedNext, actual: actualNext, path: { action, previous: entry.path } };
}

// Makes a logged call: `call.action` on the state of `entry`, as it is or as a JSON copy (a
// literal the module did not make).
function apply(entry, call, module = pkg) {
  const from = call.literal && entry.actual !== undefined ? { ...entry, actual: JSON.parse(JSON.stringify(entry.actual)) } : entry;
  const next = step(from, call.action, call, module);
  return next.difference === undefined ? { ...next, made: call.id } : next;
}

// Makes the calls of a session's log again, in order, hostile ones included, on a new instance
// of the package (an import of its own), so that it remembers what it remembered then and
// nothing else: the first difference, or undefined.
let instances = 0;
async function replayLog(start, log) {
  const module = await import(`${pathToFileURL(PACKAGE).href}?instance=${++instances}`);
  const made = new Map([[-1, { expected: start, actual: start, path: null, made: -1 }]]);
  for (const [at, call] of log.entries()) {
    const entry = made.get(call.from);
    if (entry === undefined) return undefined; // a call it builds on was left out
    if (call.hostile === undefined) {
      const next = apply(entry, call, module);
      if (next.difference !== undefined) return { ...next.difference, log: log.slice(0, at + 1) };
      made.set(call.id, next);
      continue;
    }
    try {
      module.sessionReducer(call.onItsState ? entry.actual : call.hostile.state, call.hostile.action);
    } catch {
      // checked when it was first made
    }
  }
  return undefined;
}

// The shortest log found by leaving out calls (the calls made on the state one made are then
// made on the state it was made on), and then the double call, the freezing and the JSON copy
// of each call, while the same kind of difference remains.
async function shrinkLog(start, log, kind) {
  const still = async (candidate) => (await replayLog(start, candidate))?.kind === kind;
  let current = (await replayLog(start, log))?.log;
  if (current === undefined || !(await still(current))) return undefined;
  for (let round = 0, shorter = true; shorter && round < 4; round++) {
    shorter = false;
    for (let at = current.length - 2; at >= 0; at--) {
      const { id, from } = current[at];
      const candidate = current.toSpliced(at, 1).map((call) => (call.from === id ? { ...call, from } : call));
      if (await still(candidate)) [current, shorter] = [candidate, true];
    }
  }
  for (const flag of ["strict", "freeze", "literal", "resumable"]) {
    for (let at = 0; at < current.length; at++) {
      if (!current[at][flag]) continue;
      const candidate = current.with(at, { ...current[at], [flag]: false });
      if (await still(candidate)) current = candidate;
    }
  }
  return replayLog(start, current);
}

const describeCall = (call) => {
  const state = call.from < 0 ? "start" : `s${call.from}`;
  if (call.hostile !== undefined) return `sessionReducer(hostile: ${call.hostile.description})`;
  const how = [call.strict && "called twice", call.freeze && "frozen"].filter(Boolean).join(", ");
  return `s${call.id} = sessionReducer(${call.literal ? `JSON copy of ${state}` : state}, ${show(call.action)})${how && `  // ${how}`}`;
};

// Replays `actions` from `start` with every check at every step and no randomness around them:
// the first difference, or undefined. With `copies`, each replay gets its own JSON copy of the
// actions (a fault that changes an action cannot hide from the next replay); without, they keep
// the objects they share (an action dispatched again).
function replay(start, actions, copies) {
  let entry = { expected: start, actual: start, path: null };
  for (const action of copies ? JSON.parse(JSON.stringify(actions)) : actions) {
    const next = step(entry, action, { freeze: false, strict: true, resumable: true });
    if (next.difference !== undefined) return { ...next.difference, actions: actionsOf(next.difference.path) };
    entry = next;
  }
  return undefined;
}

// The shortest sequence found by dropping runs of actions (halving their length), then single
// actions inside batches, while the same kind of difference remains; undefined when a replay
// does not show it at all.
function shrink(start, actions, kind, copies) {
  const still = (candidate) => replay(start, candidate, copies)?.kind === kind;
  if (!still(actions)) return undefined;
  let current = actions;
  for (let chunk = Math.max(1, current.length >> 1); chunk >= 1; chunk >>= 1) {
    for (let at = 0; at + chunk <= current.length;) {
      const candidate = current.toSpliced(at, chunk);
      if (still(candidate)) current = candidate;
      else at += chunk;
    }
  }
  for (let at = 0; at < current.length; at++) {
    for (const smaller of smallerBatches(current[at])) {
      const candidate = current.with(at, smaller);
      if (still(candidate)) {
        current = candidate;
        at--; // try this action again, now smaller
        break;
      }
    }
  }
  return replay(start, current, copies);
}

// The batches with one action less, at any depth: each of them, lazily.
function* smallerBatches(action) {
  if (action.type !== "batch") return;
  for (let i = 0; i < action.actions.length; i++) {
    yield { type: "batch", actions: action.actions.toSpliced(i, 1) };
    for (const inner of smallerBatches(action.actions[i])) yield { type: "batch", actions: action.actions.with(i, inner) };
  }
}

const random = createRandom(seed);
const stats = { valid: 0, hostile: 0, sessions: 0, strict: 0, frozen: 0, branches: 0, literals: 0 };
const differences = new Map(); // kind -> { count, first }
const changedBy = new Map(); // action type -> how many valid actions of that type changed the state
const knownSeen = new Map(KNOWN.map((known) => [known, 0]));
const record = (found) => {
  const known = options.strict ? undefined : KNOWN.find((entry) => entry.matches({ ...found, action: found.path?.action }));
  if (known !== undefined) {
    knownSeen.set(known, knownSeen.get(known) + 1);
    return;
  }
  const recorded = differences.get(found.kind) ?? { count: 0, examples: [] };
  recorded.count++;
  if (recorded.examples.length < SHOWN_DIFFERENCES) recorded.examples.push(found);
  differences.set(found.kind, recorded);
};

// Whether the module still answers a valid call right: once it does not, every later difference
// is noise, and replays would reproduce the breakage rather than the difference.
function brokenModule() {
  try {
    const state = pkg.sessionReducer(EMPTY(), { type: "send", id: "u-1", text: "hi" });
    const wrong = firstDifference(baseline.sessionReducer(EMPTY(), { type: "send", id: "u-1", text: "hi" }), state);
    return wrong === undefined ? undefined : `the module is broken: a valid send gives ${wrong}`;
  } catch (error) {
    return `the module is broken: a valid send throws ${error?.constructor?.name}: ${error?.message}`;
  }
}
let lastHostile = "none";
const RECENT_ACTIONS = 32;
const recent = [];
const figure = (n) => n.toLocaleString("en-US");

const memoryBefore = wasmMemory();
const started = performance.now();
let session;
// A state of this session met earlier, to load: the package's own object, or a JSON copy.
const seenState = () => {
  const { actual } = random.pick(session.history);
  if (actual === undefined) return undefined;
  return random.chance(0.5) ? actual : JSON.parse(JSON.stringify(actual));
};
const startSession = () => {
  stats.sessions++;
  // Redux calls a reducer with an undefined state first (SPEC v2).
  const start = features.data && random.chance(0.1) ? undefined : EMPTY();
  session = { start, history: [{ expected: start, actual: start, path: null, made: -1 }], log: [], length: 10 + random.below(70) };
  session.current = session.history[0];
};
startSession();

for (let done = 0; done < count; done++) {
  if (session.history.length > session.length) startSession();
  let { current } = session;
  const expectedState = current.expected ?? EMPTY();
  // Apps dispatch the same action object again (a constant `{ type: "stop" }`), to other states.
  let action = recent.length > 0 && random.chance(RATES.reuse) ? random.pick(recent) : undefined;
  if (action === undefined || !agreesWithPackage(features, expectedState, action)) {
    action = validAction(random, features, expectedState, seenState);
  }
  if (recent.length < RECENT_ACTIONS) recent.push(action);
  else recent[random.below(RECENT_ACTIONS)] = action;

  if (hostileKinds.length > 0 && random.chance(RATES.hostile)) {
    stats.hostile++;
    const actual = current.actual ?? EMPTY();
    const before = Object.isFrozen(actual) ? undefined : show(actual);
    const hostile = hostileCall(random, hostileKinds, actual, action);
    lastHostile = hostile.description;
    session.log.push({ id: session.log.length, from: current.made, hostile, onItsState: hostile.state === actual });
    try {
      pkg.sessionReducer(hostile.state, hostile.action);
    } catch (error) {
      // The caller's own exception may come through as it is; anything else is coded.
      const wrong = error instanceof HostileError ? undefined : wrongErrorShape(error);
      if (wrong !== undefined) record({ kind: "error-shape", detail: `${wrong}; for ${hostile.description}` });
    }
    if (before !== undefined && show(actual) !== before) record({ kind: "mutation", detail: "hostile input changed the state" });
    continue;
  }

  const call = {
    id: session.log.length,
    from: current.made,
    action,
    literal: random.chance(RATES.literal) && current.actual !== undefined,
    strict: random.chance(RATES.strict),
    freeze: random.chance(RATES.freeze),
    resumable: random.chance(RATES.resumable),
  };
  session.log.push(call);
  stats.valid++;
  stats.literals += call.literal;
  stats.strict += call.strict;
  stats.frozen += call.freeze;
  const next = apply(current, call);
  if (next.difference !== undefined) {
    const broken = brokenModule();
    if (broken !== undefined) {
      record({ kind: "broken", detail: `after ${figure(stats.hostile)} hostile inputs (the last: ${lastHostile}), ${broken}` });
      break;
    }
    record({ ...next.difference, start: session.start, log: session.log });
    startSession();
    continue;
  }
  // A stop then a switch (the generator's way past a streaming reply) counts as a switch that
  // changed the forks.
  const stopThenSwitch = action.type === "batch" && action.actions.length === 2 && action.actions[1].type === "switchBranch";
  if (stopThenSwitch ? next.expected.forks !== current.expected?.forks : next.expected !== current.expected) {
    const type = stopThenSwitch ? "switchBranch" : action.type;
    changedBy.set(type, (changedBy.get(type) ?? 0) + 1);
  }
  session.history.push(next);
  if (random.chance(RATES.branch)) {
    stats.branches++;
    session.current = random.pick(session.history);
  } else {
    session.current = next;
  }
}

const seconds = (performance.now() - started) / 1000;
const total = stats.valid + stats.hostile;
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(2)} MB`;
console.log(`fuzz: seed ${seed}; features: ${enabled.join(", ") || "none (SPEC v1)"}; hostile input: ${hostileKinds.join(", ") || "none"}`);
console.log(`actions run: ${figure(total)} (${figure(stats.valid)} valid in ${figure(stats.sessions)} sessions, ` +
  `${figure(stats.hostile)} hostile; ${figure(stats.strict)} called twice, ${figure(stats.frozen)} on frozen input, ` +
  `${figure(stats.branches)} branches back, ${figure(stats.literals)} restarts from a JSON copy)`);
console.log(`time: ${seconds.toFixed(1)} s (${figure(Math.round(total / seconds))} actions/s)`);
console.log(`wasm memory: ${mb(memoryBefore)} before, ${mb(wasmMemory())} after`);
if (features.branches || features.queue) {
  const changed = ["edit", "regenerate", "switchBranch", "unqueue", "load", "prepend"].map((type) => `${type} ${figure(changedBy.get(type) ?? 0)}`);
  console.log(`v3 and v4 actions that changed the state: ${changed.join(", ")}`);
}
const found = [...differences.values()].reduce((sum, { count }) => sum + count, 0);
console.log(`differences: ${found}`);
if (!options.strict) {
  for (const [known, times] of knownSeen) {
    console.log(`known difference (tests/fuzz/known.mjs, not counted): ${known.name}: ${times === 0 ? "not seen" : times}`);
  }
}
for (const [kind, { count: times, examples }] of differences) {
  console.log(`\n${kind}: ${times}`);
  for (const example of examples) {
    console.log(`- ${example.detail}`);
    if (example.path === undefined) continue;
    const actions = actionsOf(example.path);
    let shrunk = shrink(example.start, actions, kind, true);
    let shared = "";
    if (shrunk === undefined) {
      shrunk = shrink(example.start, actions, kind, false);
      shared = " (only with the objects these actions share: one of them dispatched again)";
    }
    if (shrunk === undefined) {
      const calls = await shrinkLog(example.start, example.log, kind);
      if (calls === undefined) {
        console.log("  not reproduced by a plain replay of its actions, nor by making its session's calls again");
        continue;
      }
      console.log(`  not reproduced by a plain replay of its actions: it depends on what the module remembers;` +
        ` reproduced by these calls from start = ${example.start === undefined ? "undefined" : show(example.start)}` +
        ` (${calls.log.length} calls), ${calls.detail}:`);
      for (const call of calls.log) console.log(`    ${describeCall(call)}`);
      continue;
    }
    console.log(`  minimal reproduction from ${example.start === undefined ? "an undefined state" : show(example.start)}` +
      ` (${shrunk.actions.length} actions)${shared}, ${shrunk.detail}:`);
    for (const action of shrunk.actions) console.log(`    ${show(action)}`);
  }
}
process.exitCode = found > 0 ? 1 : 0;
