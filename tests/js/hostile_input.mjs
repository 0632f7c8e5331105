// Values that throw while the package reads them: getters, Proxies (of objects and of arrays),
// revoked Proxies, a throwing console.warn. Each one, passed to every entry point, must come back
// as a coded error (or the documented answer), never as an exception that unwinds through the
// module's frames: those leave its stack pointers unrestored, and a few hundred of them broke
// every later call. Plain JavaScript, run in Node and in Chromium by hostile_input.test.mjs.

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
