// Sub-agent runs nested by `within` past the limit of 64 (docs/decisions.md): the part that
// would start a 65th level is ignored, so every state the reducer makes can be read again, saved
// and loaded. Plain JavaScript, run in Node and in Chromium by nesting.test.mjs.

export const LIMIT = 64;

const part = (part, within) => ({ type: "part", part, ...(within === undefined ? {} : { within }) });
const call = (id) => ({ type: "tool-call", id, name: "delegate", input: {} });

/** A conversation whose call c-k gets, by `within`, a run holding call c-(k+1), `levels` deep. */
export function nestByWithin(api, levels) {
  let state = api.sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "go" });
  state = api.sessionReducer(state, part(call("c-1")));
  for (let level = 1; level < levels; level++) state = api.sessionReducer(state, part(call(`c-${level + 1}`), `c-${level}`));
  return state;
}

/** How deep the runs of `state` nest, following the last part of the last message. */
export function nesting(state) {
  let depth = 0;
  for (let run = state; (run = run.messages.at(-1)?.parts.at(-1)?.agent); ) depth++;
  return depth;
}
