// How much slower the same copying runs when the process keeps more objects alive: the copies
// alone of `tools` (bench/copy-floor.mjs) with 0, 4 and 16 other conversations of 2,000 turns
// kept, each count in a process of its own. It is why the package forgets a state not asked
// about in 64 calls (src/wasm/facts.js; docs/performance.md). Prints the median run and
// the median of the collector's pauses inside a run; asserts nothing.
//
//   npm run bench:heap
import { execFileSync } from "node:child_process";
import { PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { copyFloor } from "./copy-floor.mjs";
import { median } from "./median.mjs";
import { conversation, replay, tools } from "./workloads.mjs";

const RUNS = 20;
const WARM_UP_RUNS = 5;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
// Module-level, so that nothing could find them dead.
const keptAlive = [];

async function measure(kept) {
  for (let count = 0; count < kept; count++) keptAlive.push(conversation(2_000));
  const workload = tools();
  let paused = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) paused += entry.duration;
  }).observe({ entryTypes: ["gc"] });
  const runs = [];
  const pauses = [];
  for (let run = 0; run < WARM_UP_RUNS + RUNS; run++) {
    const initial = workload.initial();
    globalThis.gc();
    // The collection's entry is reported in a later task: let it arrive before counting.
    await nextTask();
    paused = 0;
    const start = performance.now();
    replay(copyFloor, initial, workload.actions);
    const elapsed = performance.now() - start;
    await nextTask();
    if (run >= WARM_UP_RUNS) {
      runs.push(elapsed);
      pauses.push(paused);
    }
  }
  console.log(`${String(kept).padStart(2)} conversations kept: copies alone ${median(runs).toFixed(1)} ms, ` +
    `the collector's pauses inside a run ${median(pauses).toFixed(1)} ms`);
}

const kept = process.argv[2];
if (kept !== undefined) await measure(Number(kept));
else {
  console.log(`copies alone of ${tools().name}, medians of ${RUNS} runs, each count in a new process:`);
  for (const count of [0, 4, 16]) {
    execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), String(count)], { stdio: "inherit" });
  }
}
