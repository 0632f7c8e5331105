// Values that throw while the package reads them: getters, Proxies (of objects and of arrays),
// revoked Proxies, a throwing console.warn. Each one, passed to every entry point, must come back
// as a coded error (or the documented answer), never as an exception that unwinds through the
// module's frames: those leave its stack pointers unrestored, and a few hundred of them broke
// every later call. Plain JavaScript, run in Node and in Chromium by hostile-input.test.mjs.

const fail = () => {
  throw new Error("thrown by the caller's code");
};
const throwingTraps = {
  get: fail,
  has: fail,
  ownKeys: fail,
  getOwnPropertyDescriptor: fail,
  getPrototypeOf: fail,
};
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const revokedArray = () => {
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  return proxy;
};
// An array whose `length`, or whose items, throw when read.
const arrayThrowingOn = (key) =>
  new Proxy([{ id: "u-1", role: "user", parts: [] }], { get: (target, name) => (name === key ? fail() : target[name]) });

const user = { id: "u-1", role: "user", parts: [{ type: "text", text: "hi" }] };
// Ends with a finished call and then more text: resumable copies it without the text.
const assistant = {
  id: "a-1",
  role: "assistant",
  parts: [
    { type: "tool", id: "call-1", name: "search", input: {}, state: "done", output: 1 },
    { type: "text", text: "and then" },
  ],
};
const withThrowingField = (object) => Object.defineProperty({ ...object }, "extra", { get: fail, enumerable: true });

const EMPTY = { messages: [], status: "idle" };
const send = { type: "send", id: "u-1", text: "hi" };
const part = (part, within) => ({ type: "part", part, ...(within === undefined ? {} : { within }) });

/** The hostile calls: `[name, call]`, each `call(api, round)` expected to throw a coded Error
 *  unless it says otherwise by returning. */
export function hostileCalls(streaming) {
  return [
    ["action with a throwing `type` getter", (api) => api.sessionReducer(EMPTY, { get type() { return fail(); } })],
    ["action whose `part` getter throws", (api) => api.sessionReducer(streaming, { type: "part", get part() { return fail(); } })],
    // The text-delta recogniser reads these first, on the JavaScript shortcut and in the module.
    ["text delta whose `text` getter throws", (api) => api.sessionReducer(streaming, part({ type: "text-delta", get text() { return fail(); } }))],
    ["text delta whose `within` getter throws", (api) =>
      api.sessionReducer(streaming, { type: "part", part: { type: "text-delta", text: "x" }, get within() { return fail(); } })],
    ["action that is a Proxy throwing from every trap", (api) => api.sessionReducer(streaming, new Proxy({}, throwingTraps))],
    ["part that is a Proxy throwing from every trap", (api) => api.sessionReducer(streaming, part(new Proxy({}, throwingTraps)))],
    ["action that is a revoked Proxy", (api) => api.sessionReducer(streaming, revoked())],
    ["state that is a revoked Proxy", (api) => api.sessionReducer(revoked(), send)],
    ["state whose messages are a revoked Proxy", (api) => api.sessionReducer({ messages: revokedArray(), status: "idle" }, send)],
    ["state whose messages' length throws", (api) => api.sessionReducer({ messages: arrayThrowingOn("length"), status: "idle" }, send)],
    ["state whose messages' items throw", (api) => api.sessionReducer({ messages: arrayThrowingOn("0"), status: "idle" }, send)],
    ["message whose `parts` getter throws", (api) =>
      api.sessionReducer({ messages: [{ id: "u-1", role: "user", get parts() { return fail(); } }], status: "idle" }, send)],
    // Read in full, then copied by the patches: the copy meets the getter.
    ["state with a field that throws when copied", (api) => api.sessionReducer(withThrowingField(EMPTY), send)],
    // The parts of a call's life (SPEC v2), read by the same safe reads.
    ["tool-input-delta whose `text` getter throws", (api) =>
      api.sessionReducer(streaming, part({ type: "tool-input-delta", id: "call-9", get text() { return fail(); } }))],
    ["tool-approval-response whose `approved` getter throws", (api) =>
      api.sessionReducer(streaming, part({ type: "tool-approval-response", id: "call-9", get approved() { return fail(); } }))],
    ["state with a call whose `approval` getter throws", (api) =>
      api.sessionReducer(
        { messages: [{ id: "a-1", role: "assistant", parts: [{ type: "tool", id: "c", name: "t", input: {}, state: "running", get approval() { return fail(); } }] }], status: "idle" },
        send,
      )],
    ["checkAction of a Proxy throwing from every trap", (api) => api.checkAction(new Proxy({}, throwingTraps))],
    ["isCancelled of an error whose `code` getter throws", (api) => api.isCancelled({ message: "x", get code() { return fail(); } })],
    ["resumable of a Proxy'd array", (api) => api.resumable(arrayThrowingOn("length"))],
    ["resumable of a revoked Proxy", (api) => api.resumable(revokedArray())],
    // Read in full, then copied without its last part: the copy meets the getter.
    ["resumable copying a message with a field that throws", (api) => api.resumable([user, withThrowingField(assistant)])],
    ["saveSession of a state whose getter throws", (api) => api.saveSession("hostile", { get messages() { return fail(); }, status: "idle" })],
  ];
}

/** A valid conversation, played from the empty state: its JSON is the right answer. */
export function conversation(api) {
  let state = EMPTY;
  for (const action of [
    send,
    part({ type: "message-start", messageId: "a-1" }),
    part({ type: "text-delta", text: "Hello" }),
    part({ type: "tool-call", id: "call-1", name: "search", input: { q: "mugs" } }),
    part({ type: "text-delta", text: "x" }, "call-1"),
    part({ type: "tool-result", id: "call-1", output: { found: 2 } }),
    part({ type: "text-delta", text: " there" }),
  ]) {
    state = api.sessionReducer(state, action);
  }
  return JSON.stringify({ state, resumable: api.resumable(state.messages) });
}

/** Makes every hostile call `rounds` times, then plays the valid conversation. Returns what went
 *  wrong (an escaped non-Error, an error without a code) and the conversation's JSON. */
export function runHostile(api, rounds) {
  const streaming = api.sessionReducer(api.sessionReducer(EMPTY, send), part({ type: "text-delta", text: "a" }));
  const problems = new Set();
  const calls = hostileCalls(streaming);
  for (let round = 0; round < rounds; round++) {
    for (const [name, call] of calls) {
      try {
        call(api, round);
        problems.add(`${name}: did not throw`);
      } catch (error) {
        if (!(error instanceof Error) || typeof error.code !== "string") problems.add(`${name}: threw ${error}`);
        else if (error.code === "invalid" && !error.message.startsWith(`${error.path}:`)) {
          problems.add(`${name}: message does not start with the path: ${error.message}`);
        }
      }
    }
    if (typeof api.restoreSession === "function") restoreWithThrowingWarn(api, `hostile-${round}`);
  }
  return { calls: calls.length * rounds, problems: [...problems], answer: conversation(api) };
}

// restoreSession reports an unusable entry with console.warn, which may throw (a test setup, a
// logging library): the session must still be restored as empty.
function restoreWithThrowingWarn(api, key) {
  const warn = console.warn;
  console.warn = fail;
  try {
    globalThis.sessionStorage?.setItem(key, "not JSON");
    const state = api.restoreSession(key);
    if (state.messages.length !== 0 || state.status !== "idle") throw new Error("restoreSession: not empty");
  } finally {
    console.warn = warn;
    globalThis.sessionStorage?.removeItem(key);
  }
}

// ---- SPEC v3: bad values in the new fields. Each must be refused with a TypeError, code
// "invalid", and a path naming the field; the input left as it was; and no trap or stack
// overflow however deep or long the value.

const question = (id) => ({ id, role: "user", parts: [{ type: "text", text: "q" }] });
const answer = (id, state = "done") => ({ id, role: "assistant", parts: [{ type: "tool", id: `c-${id}`, name: "t", input: {}, state }] });
const path = () => [question("u-1"), answer("a-1"), question("u-2"), answer("a-2")];
const idle = (fields) => ({ messages: path(), status: "idle", ...fields });
const branchOf = (...messages) => ({ messages });
const fork = (after, fields) => ({ after, active: 1, alternatives: [branchOf(question("x-1")), null], ...fields });

// A fork whose first alternative holds a fork, and so on, `depth` levels: built by a loop.
export function nestedForks(depth) {
  let forks;
  for (let level = depth; level >= 1; level--) {
    const branch = { messages: [question(`n-${level}`)] };
    if (forks !== undefined) branch.forks = forks;
    forks = [{ after: level === 1 ? "a-2" : `n-${level - 1}`, active: 1, alternatives: [branch, null] }];
  }
  return forks;
}

/** `[name, state, action, path]`: the call `sessionReducer(state, action)` must be refused with
 *  an error whose `path` starts with `path`. */
export function v3BadInputs() {
  const send = { type: "send", id: "u-3", text: "hi" };
  const queued = (count) => Array.from({ length: count }, (_, i) => ({ id: `q-${i}`, text: "later" }));
  return [
    ["an empty forks array", idle({ forks: [] }), send, "state.forks"],
    ["an empty queue array", idle({ queue: [] }), send, "state.queue"],
    ["forks that are not an array", idle({ forks: {} }), send, "state.forks"],
    ["a fork with one alternative", idle({ forks: [fork("a-1", { active: 0, alternatives: [null] })] }), send, "state.forks[0]"],
    ["a fork whose active is out of range", idle({ forks: [fork("a-1", { active: 2 })] }), send, "state.forks[0]"],
    ["a fork whose active is not an integer", idle({ forks: [fork("a-1", { active: 0.5 })] }), send, "state.forks[0].active"],
    ["a fork with null where it is not active", idle({ forks: [fork("a-1", { alternatives: [null, branchOf()] })] }), send, "state.forks[0]"],
    ["a fork with a branch at active", idle({ forks: [fork("a-1", { alternatives: [branchOf(), branchOf()] })] }), send, "state.forks[0]"],
    ["a fork after no message of the path", idle({ forks: [fork("nope")] }), send, "state.forks[0]"],
    ["forks out of path order", idle({ forks: [fork("a-2"), fork("a-1")] }), send, "state.forks[1]"],
    ["two forks after one message", idle({ forks: [fork("a-1"), fork("a-1")] }), send, "state.forks[1]"],
    ["an open call inside a branch", idle({ forks: [fork("a-1", { alternatives: [branchOf(answer("b-1", "running")), null] })] }), send,
      "state.forks[0].alternatives[0]"],
    ["a branch whose messages are not an array", idle({ forks: [fork("a-1", { alternatives: [{ messages: "x" }, null] })] }), send,
      "state.forks[0].alternatives[0].messages"],
    ["an empty forks array inside a branch", idle({ forks: [fork("a-1", { alternatives: [{ messages: [], forks: [] }, null] })] }), send,
      "state.forks[0].alternatives[0].forks"],
    ["a fork after null inside a branch", idle({ forks: [fork("a-1", { alternatives: [{ messages: [question("b-1")], forks: [fork(null)] }, null] })] }), send,
      "state.forks[0].alternatives[0].forks[0]"],
    ["branches nested 65 deep", idle({ forks: nestedForks(65) }), send, "state.forks[0].alternatives[0]"],
    ["branches nested 10,000 deep", idle({ forks: nestedForks(10_000) }), send, "state.forks[0].alternatives[0]"],
    ["forks in a sub-agent run", idle({ messages: [question("u-1"), { id: "a-1", role: "assistant", parts: [
      { type: "tool", id: "c-1", name: "t", input: {}, state: "done", agent: { messages: [question("s-1")], status: "idle", forks: [fork("s-1")] } },
    ] }] }), send, "state.messages[1].parts[0].agent"],
    ["a queued message whose text is not a string", idle({ queue: [{ id: "q-1", text: 7 }] }), send, "state.queue[0].text"],
    ["a queue of 100,000 with a bad last one", idle({ queue: [...queued(99_999), { id: 1, text: "x" }] }), send, "state.queue[99999].id"],
    ["a switchBranch to 1.5", idle({ forks: [fork("a-1")] }), { type: "switchBranch", after: "a-1", to: 1.5 }, "action.to"],
    ["a switchBranch to \"0\"", idle({ forks: [fork("a-1")] }), { type: "switchBranch", after: "a-1", to: "0" }, "action.to"],
    ["a switchBranch to NaN", idle({}), { type: "switchBranch", after: null, to: NaN }, "action.to"],
    ["a switchBranch after a number", idle({}), { type: "switchBranch", after: 1, to: 0 }, "action.after"],
    ["an edit without text", idle({}), { type: "edit", messageId: "u-1", id: "e-1" }, "action.text"],
    ["a regenerate whose messageId is a number", idle({}), { type: "regenerate", messageId: 1 }, "action.messageId"],
    ["an unqueue without an id", idle({}), { type: "unqueue" }, "action.id"],
    ["send parts that are not an array", idle({}), { ...send, parts: "file" }, "action.parts"],
    ["send parts with a tool part", idle({}), { ...send, parts: [{ type: "tool", id: "c-9", name: "t", input: {}, state: "running" }] }, "action.parts[0]"],
    ["send parts with a step part", idle({}), { ...send, parts: [{ type: "step" }] }, "action.parts[0]"],
    ["send parts with a data part without a name", idle({}), { ...send, parts: [{ type: "data", data: 1 }] }, "action.parts[0].name"],
    ["send parts with a text part whose text is a number", idle({}), { ...send, parts: [{ type: "text", text: 1 }] }, "action.parts[0].text"],
    ["a load of a bad state", idle({}), { type: "load", state: idle({ forks: [] }) }, "action.state.forks"],
    ["a load without a state", idle({}), { type: "load" }, "action.state"],
    ["a step-start whose messageId is a number", { messages: [], status: "streaming" }, part({ type: "step-start", messageId: 1 }), "action.part.messageId"],
  ];
}

// Every object in `value`, frozen, by a loop (a 10,000-deep value too).
function freezeAll(value) {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== "object" || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const key of Object.keys(item)) stack.push(item[key]);
  }
  return value;
}

/** Makes each v3 bad input (frozen, so that a change would throw) `rounds` times: what went
 *  wrong, and the valid conversation's JSON afterwards. */
export function runV3BadInputs(api, rounds = 1) {
  const problems = new Set();
  const cases = v3BadInputs().map(([name, state, action, path]) => [name, freezeAll(state), freezeAll(action), path]);
  for (let round = 0; round < rounds; round++) {
    for (const [name, state, action, path] of cases) {
      try {
        api.sessionReducer(state, action);
        problems.add(`${name}: accepted`);
      } catch (error) {
        if (!(error instanceof TypeError) || error.code !== "invalid") {
          problems.add(`${name}: threw ${error?.constructor?.name} ${error?.code} ${error?.message}`);
        } else if (typeof error.path !== "string" || !error.path.startsWith(path) || !error.message.startsWith(`${error.path}: `)) {
          problems.add(`${name}: path ${error.path} (expected ${path}…), message ${error.message}`);
        }
      }
    }
  }
  return { calls: cases.length * rounds, problems: [...problems], answer: conversation(api) };
}
