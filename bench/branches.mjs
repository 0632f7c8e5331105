// `npm run bench:branches` (after `npm run build`; `npm run bench` runs it too): what a
// switchBranch costs in a conversation holding 1,000 alternatives at its fork against one holding
// 2, for paths of several lengths. A switch should cost what the path costs (its messages are
// copied into a new list, its calls indexed once), never the alternatives set aside. It prints
// figures; it asserts nothing.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { median } from "./median.mjs";

const PKG_ENTRY = fileURLToPath(new URL("../pkg/index.js", import.meta.url));
if (!existsSync(PKG_ENTRY)) {
  console.error(`${PKG_ENTRY} is missing: run npm run build first.`);
  process.exit(1);
}
const { sessionReducer } = await import(PKG_ENTRY);
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const SWITCHES = 200;

const reply = (id, text) => [
  { type: "part", part: { type: "message-start", messageId: id } },
  { type: "part", part: { type: "text-delta", text } },
  { type: "part", part: { type: "finish" } },
];

// A path of `turns` turns, then `alternatives` replies to its last user message (regenerated).
function conversation(turns, alternatives) {
  let state = { messages: [], status: "idle" };
  for (let turn = 0; turn < turns; turn++) {
    for (const action of [{ type: "send", id: `u-${turn}`, text: `question ${turn}` }, ...reply(`a-${turn}`, `answer ${turn}`)]) {
      state = sessionReducer(state, action);
    }
  }
  for (let index = 1; index < alternatives; index++) {
    for (const action of [{ type: "regenerate" }, ...reply(`a-${turns - 1}-${index}`, `take ${index}`)]) {
      state = sessionReducer(state, action);
    }
  }
  return state;
}

// Median milliseconds of SWITCHES switches, back and forth between two alternatives.
function switches(state) {
  const after = `u-${state.messages.length / 2 - 1}`;
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    globalThis.gc?.();
    let current = state;
    const start = performance.now();
    for (let index = 0; index < SWITCHES; index++) {
      current = sessionReducer(current, { type: "switchBranch", after, to: index % 2 });
    }
    times.push(performance.now() - start);
  }
  return median(times);
}

// Warm up: the first figures would carry the compilation of the paths a switch runs.
switches(conversation(10, 2));
console.log(`switchBranch: median of ${RUNS} runs of ${SWITCHES} switches, per switch`);
for (const turns of [10, 100, 1000]) {
  const few = switches(conversation(turns, 2));
  const many = switches(conversation(turns, 1000));
  const perSwitch = (ms) => `${((ms / SWITCHES) * 1000).toFixed(1)} µs`;
  console.log(
    `  path of ${String(turns * 2).padStart(4)} messages: 2 alternatives ${perSwitch(few)}, 1,000 alternatives ${perSwitch(many)} (${(many / few).toFixed(2)}x)`,
  );
}
