// The benchmark's workloads (issue 4): a starting conversation, built as plain JSON the way an
// app holds one, and the actions dispatched to it. Both are made before any timing starts.

const TOOL_NAMES = ["search", "add_to_cart", "get_weather"];

// A finished conversation of `turns` turns. Each turn: a user message, then an assistant message
// with text, one finished tool call, and more text.
export function conversation(turns) {
  const messages = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ id: `u-${turn}`, role: "user", parts: [{ type: "text", text: `Question number ${turn}?` }] });
    messages.push({
      id: `a-${turn}`,
      role: "assistant",
      parts: [
        { type: "text", text: "Let me look that up for you." },
        {
          type: "tool",
          id: `call-${turn}`,
          name: TOOL_NAMES[turn % TOOL_NAMES.length],
          input: { query: `topic ${turn}`, limit: 5 },
          state: "done",
          output: { content: [{ type: "text", text: `Five results about topic ${turn}.` }] },
        },
        { type: "text", text: `Here is what I found about topic ${turn}.` },
      ],
    });
  }
  return { messages, status: "idle" };
}

const part = (part) => ({ type: "part", part });

// A reply streamed as `deltas` text deltas of 10 characters each, after a new question.
export function reply({ turns = 200, deltas = 20_000 } = {}) {
  const actions = [
    { type: "send", id: "u-live", text: "Tell me everything." },
    part({ type: "message-start", messageId: "a-live" }),
  ];
  for (let i = 0; i < deltas; i++) {
    actions.push(part({ type: "text-delta", text: `word ${i % 10000}`.padEnd(10, ".") }));
  }
  actions.push(part({ type: "finish", reason: "stop" }));
  return { name: `reply (${turns} turns, ${deltas} deltas)`, initial: () => conversation(turns), actions };
}

// The same reply as `reply`, its deltas dispatched in batches of `size`, as an app that dispatches
// once per animation frame does.
export function batchedReply({ size = 16, ...options } = {}) {
  const { name, initial, actions } = reply(options);
  const deltas = actions.slice(2, -1);
  const batches = [];
  for (let at = 0; at < deltas.length; at += size) batches.push({ type: "batch", actions: deltas.slice(at, at + size) });
  return { name: `${name.replace("reply", "reply in batches")} of ${size}`, initial, actions: [...actions.slice(0, 2), ...batches, actions.at(-1)] };
}

// `rounds` tool calls, each asked for confirmation, run, answered and commented on, then the user
// stops the run.
export function tools({ turns = 2_000, rounds = 300 } = {}) {
  const actions = [
    { type: "send", id: "u-live", text: "Search for all of these." },
    part({ type: "message-start", messageId: "a-live" }),
  ];
  for (let round = 0; round < rounds; round++) {
    const id = `live-call-${round}`;
    actions.push(
      part({ type: "tool-call", id, name: "search", input: { query: `item ${round}` } }),
      { type: "toolPhase", name: "search", state: "awaiting-confirmation", prompt: `Search for item ${round}?` },
      { type: "toolPhase", name: "search", state: "running" },
      part({ type: "tool-result", id, output: { content: [{ type: "text", text: `Found item ${round}.` }] } }),
      part({ type: "text-delta", text: `Item ${round} found. ` }),
    );
  }
  actions.push({ type: "stop" });
  return { name: `tools (${turns} turns, ${rounds} rounds)`, initial: () => conversation(turns), actions };
}

// A call whose input streams as `deltas` one-character deltas (a JSON array of zeros, padded
// with a space), then is parsed once at its end, after a new question.
export function toolInput({ turns = 200, deltas = 4_000 } = {}) {
  const id = "live-call";
  const input = `[${Array(Math.floor((deltas - 1) / 2)).fill(0).join(",")}]`.padEnd(deltas, " ");
  const actions = [
    { type: "send", id: "u-live", text: "Write it all down." },
    part({ type: "message-start", messageId: "a-live" }),
    ...[...input].map((text, index) => part({ type: "tool-input-delta", id, text, ...(index === 0 && { name: "write" }) })),
    part({ type: "tool-input-end", id }),
    part({ type: "finish", reason: "tool-calls" }),
  ];
  return { name: `tool input (${turns} turns, ${deltas} deltas)`, initial: () => conversation(turns), actions };
}

// Replays `actions` from `initial` through `reducer`. After each action it reads what a chat view
// renders (the status and the last part of the last message, text included), so a reducer cannot
// win by handing back state it has not built.
export function replay(reducer, initial, actions) {
  let state = initial;
  let rendered = 0;
  for (const action of actions) {
    state = reducer(state, action);
    const parts = state.messages[state.messages.length - 1].parts;
    const last = parts[parts.length - 1];
    rendered += state.status.length + (last === undefined ? 0 : last.type === "text" ? last.text.length : 1);
  }
  return { state, rendered };
}
