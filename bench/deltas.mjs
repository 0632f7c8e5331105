// `node --expose-gc bench/deltas.mjs [turns]`: what a streamed reply's deltas alone cost, without
// the first read of the starting conversation that `npm run bench`'s `reply` includes. Each reducer
// makes its own start (send, message-start, a first delta), then the rest of the reply (19,999 deltas and its finish) is timed, in wall
// and in CPU time (process.cpuUsage, steadier than wall time on a shared machine). Reducers
// alternate, 3 rounds of 12 timed runs after 3 warm-ups; it prints medians. BENCH_COMPARE=<path of
// another build's index.js> adds that build (e.g. main's pkg/) to compare with.
import * as baseline from "./baseline.mjs";
import { replay, reply } from "./workloads.mjs";

const turns = Number(process.argv[2] ?? 200);
const workload = reply({ turns });
const START = 3;
const reducers = { package: (await import("../pkg/index.js")).sessionReducer, baseline: baseline.sessionReducer };
if (process.env.BENCH_COMPARE) reducers.compared = (await import(process.env.BENCH_COMPARE)).sessionReducer;

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

function measure(reducer, wall, cpu) {
  for (let run = 0; run < 15; run++) {
    const start = workload.actions.slice(0, START).reduce(reducer, workload.initial());
    globalThis.gc();
    const cpuBefore = process.cpuUsage();
    const before = performance.now();
    replay(reducer, start, workload.actions.slice(START));
    const elapsed = performance.now() - before;
    const used = process.cpuUsage(cpuBefore);
    if (run < 3) continue;
    wall.push(elapsed);
    cpu.push((used.user + used.system) / 1000);
  }
}

const times = Object.fromEntries(Object.keys(reducers).map((name) => [name, { wall: [], cpu: [] }]));
for (let round = 0; round < 3; round++) {
  for (const [name, reducer] of Object.entries(reducers)) measure(reducer, times[name].wall, times[name].cpu);
}
console.log(`${workload.name} after its first ${START} actions, medians of ${times.package.cpu.length} runs`);
for (const [name, { wall, cpu }] of Object.entries(times)) {
  const ratio = median(cpu) / median(times.baseline.cpu);
  console.log(`${name.padEnd(9)} wall ${median(wall).toFixed(1)} ms  cpu ${median(cpu).toFixed(1)} ms  cpu / baseline ${ratio.toFixed(2)}`);
}
