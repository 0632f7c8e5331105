// `npm run bench:branches`: what a branch switch costs (SPEC v3: `switchBranch` copies the active
// path's changed spine and the forks list, never the set-aside branches). Conversations of the same
// active path but holding 2 or 1,000 alternatives, small or large, are built through the package's
// own reducer (untimed), then switched back and forth. It prints figures; it asserts nothing.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { median } from "./median.mjs";
import { conversation } from "./workloads.mjs";

const PKG_ENTRY = fileURLToPath(new URL("../pkg/index.js", import.meta.url));
if (!existsSync(PKG_ENTRY)) {
  console.error(`${PKG_ENTRY} is missing: run npm run build first.`);
  process.exit(1);
}
const { sessionReducer } = await import(PKG_ENTRY);
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const SWITCHES = 2_000;

const part = (part) => ({ type: "part", part });

// A streamed reply of one text part, as one batch.
function answer(state, id) {
  return sessionReducer(state, {
    type: "batch",
    actions: [
      part({ type: "message-start", messageId: id }),
      part({ type: "text-delta", text: `Reply ${id}.` }),
      part({ type: "finish", reason: "stop" }),
    ],
  });
}

// `turns` finished turns, then the last question edited `alternatives - 1` times; after each
// edit the alternative goes on for `extraTurns` more turns, so every set-aside branch holds
// 2 + 2 * extraTurns messages.
function withAlternatives({ turns, alternatives, extraTurns }) {
  const edited = `u-${turns - 1}`;
  let state = conversation(turns);
  for (let alternative = 1; alternative < alternatives; alternative++) {
    const id = alternative === 1 ? edited : `${edited}-edit-${alternative - 1}`;
    state = sessionReducer(state, { type: "edit", messageId: id, id: `${edited}-edit-${alternative}`, text: `Edit ${alternative}` });
    state = answer(state, `a-edit-${alternative}`);
    for (let extra = 0; extra < extraTurns; extra++) {
      state = sessionReducer(state, { type: "send", id: `u-${alternative}-${extra}`, text: "And then?" });
      state = answer(state, `a-${alternative}-${extra}`);
    }
  }
  return { state, after: `a-${turns - 2}` };
}

// Median microseconds of one switch, over RUNS runs of SWITCHES switches each.
function timeSwitches({ state, after }, alternatives) {
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    let current = state;
    const start = performance.now();
    for (let index = 0; index < SWITCHES; index++) {
      current = sessionReducer(current, { type: "switchBranch", after, to: (index * 7 + run) % alternatives });
    }
    times.push(((performance.now() - start) * 1000) / SWITCHES);
  }
  return median(times);
}

const setAside = (state) => state.forks.reduce((sum, fork) => sum + fork.alternatives.reduce((count, branch) => count + (branch?.messages.length ?? 0), 0), 0);

console.log(`switchBranch, median of ${RUNS} runs of ${SWITCHES} switches (µs per switch):`);
for (const shape of [
  { turns: 200, alternatives: 2, extraTurns: 0 },
  { turns: 200, alternatives: 1_000, extraTurns: 0 },
  { turns: 200, alternatives: 1_000, extraTurns: 10 },
  { turns: 2_000, alternatives: 2, extraTurns: 0 },
  { turns: 2_000, alternatives: 1_000, extraTurns: 0 },
]) {
  const built = withAlternatives(shape);
  const micros = timeSwitches(built, shape.alternatives);
  console.log(`  path ${String(built.state.messages.length).padStart(5)} messages, ${String(shape.alternatives).padStart(5)} alternatives,` +
    ` ${String(setAside(built.state)).padStart(6)} messages set aside: ${micros.toFixed(2)} µs`);
}
