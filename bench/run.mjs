// `npm run bench`: the package against the hand-written baseline on the workloads of issue 4, against
// its peers (the AI SDK's Chat and readUIMessageStream, AG-UI's client) on the same workloads, the copies
// every immutable reducer makes on them (bench/copy-floor.mjs), the
// package's load time in Node and Chromium, what a save costs while a reply streams into a 4 MB
// conversation (bench/storage.mjs), and its size. It prints figures; it asserts no time.
// BENCH_RUNS (default 11) sets the timed runs per workload and reducer, BENCH_PEER_RUNS (default 9)
// those per peer, BENCH_LOAD_RUNS (default 5) the cold loads per runtime. Run with --expose-gc so
// a collection before each run keeps garbage of one reducer from being collected on the other's time.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import * as baseline from "./baseline.mjs";
import { copyFloor } from "./copy-floor.mjs";
import { reportLoads } from "./load-report.mjs";
import { median } from "./median.mjs";
import { agUiAgent, aiSdkChat, aiSdkReadStream, packageContent } from "./peers.mjs";
import { batchedReply, replay, reply, toolInput, tools } from "./workloads.mjs";

const PKG_DIR = fileURLToPath(new URL("../pkg/", import.meta.url));
const PKG_ENTRY = `${PKG_DIR}index.js`;
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const PEER_RUNS = Number(process.env.BENCH_PEER_RUNS ?? 9);
const LOAD_RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 5);
const WARM_UP_RUNS = 2;

if (!existsSync(PKG_ENTRY)) {
  console.error(`${PKG_ENTRY} is missing: run npm run build first.`);
  process.exit(1);
}
const pkg = await import(PKG_ENTRY);
const reducers = { package: pkg.sessionReducer, baseline: baseline.sessionReducer };

const ms = (value) => `${value.toFixed(1)} ms`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

// Median milliseconds of each reducer on `workload`, runs alternating which reducer goes first,
// and of the copies alone (bench/copy-floor.mjs) between them.
function race(workload) {
  const times = { package: [], baseline: [], floor: [] };
  const reducersOf = { ...reducers, floor: copyFloor };
  const rendered = new Set();
  for (let run = 0; run < WARM_UP_RUNS + RUNS; run++) {
    const order = run % 2 === 0 ? ["package", "floor", "baseline"] : ["baseline", "floor", "package"];
    for (const name of order) {
      const initial = workload.initial();
      globalThis.gc?.();
      const start = performance.now();
      const result = replay(reducersOf[name], initial, workload.actions);
      const elapsed = performance.now() - start;
      if (name !== "floor") rendered.add(result.rendered);
      if (run >= WARM_UP_RUNS) times[name].push(elapsed);
    }
  }
  if (rendered.size !== 1) console.log(`  ! ${workload.name}: the reducers rendered different states`);
  return { package: median(times.package), baseline: median(times.baseline), floor: median(times.floor) };
}

const row = (cells, widths) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join("  ").trimEnd();

console.log(`chat-session-reducer benchmark, ${new Date().toISOString().slice(0, 10)}`);
console.log(`machine: ${cpus()[0].model.trim()}, ${cpus().length} cores; Node ${process.version}` +
  `; ${RUNS} runs after ${WARM_UP_RUNS} warm-up runs, medians${globalThis.gc ? "" : " (no --expose-gc)"}`);
console.log();

const widths = [34, 12, 12, 16, 12];
console.log(row(["workload", "package", "baseline", "package/baseline", "copies alone"], widths));
const results = new Map();
for (const workload of [reply(), reply({ turns: 2_000 }), tools(), reply({ deltas: 80_000 })]) {
  const result = race(workload);
  results.set(workload, result);
  console.log(row([workload.name, ms(result.package), ms(result.baseline),
    (result.package / result.baseline).toFixed(2), ms(result.floor)], widths));
}
const [reply20k, , , reply80k] = [...results.values()];
console.log();
console.log(`scale (reply, 80,000 / 20,000 deltas; linear is 4, quadratic 16): package ${
  (reply80k.package / reply20k.package).toFixed(2)}, baseline ${(reply80k.baseline / reply20k.baseline).toFixed(2)}`);

// A call's streamed input: the package alone (the baseline has no v2 parts), at two sizes, so
// the ratio shows whether a delta's cost grows with the input streamed so far.
function timePackage(workload) {
  const times = [];
  for (let run = 0; run < WARM_UP_RUNS + RUNS; run++) {
    const initial = workload.initial();
    globalThis.gc?.();
    const start = performance.now();
    replay(pkg.sessionReducer, initial, workload.actions);
    if (run >= WARM_UP_RUNS) times.push(performance.now() - start);
  }
  return median(times);
}
console.log();
const input4k = timePackage(toolInput());
const input16k = timePackage(toolInput({ deltas: 16_000 }));
console.log(row([toolInput().name, ms(input4k)], widths));
console.log(row([toolInput({ deltas: 16_000 }).name, ms(input16k)], widths));
console.log(`scale (tool input, 16,000 / 4,000 deltas; linear is 4, quadratic 16): package ${(input16k / input4k).toFixed(2)}`);

// SPEC v2 batch: a frame's worth of deltas in one dispatch against the same deltas one by one.
const single = timePackage(reply());
const batched = timePackage(batchedReply());
console.log(`batch of 16 text deltas vs 16 dispatches (package, ${reply().name}): ${ms(batched)} vs ${ms(single)}, ${(batched / single).toFixed(2)}`);
// Issue 13's measure: batches against the baseline's one dispatch per delta (its median above).
console.log(`batch of 16 text deltas vs the baseline's one dispatch per delta (${reply().name}): ${
  ms(batched)} vs ${ms(reply20k.baseline)}, ${(batched / reply20k.baseline).toFixed(2)}`);

// Median milliseconds of the package, of a peer and of the copies alone (bench/copy-floor.mjs) on
// `workload`, alternating the package and the peer in first place, after one warm-up run each;
// every run's content is checked against the package's.
async function racePeer(workload, makePeer, runs) {
  const peer = makePeer(workload);
  const times = { package: [], peer: [], floor: [] };
  for (let run = 0; run < 1 + runs; run++) {
    const order = run % 2 === 0 ? ["package", "floor", "peer"] : ["peer", "floor", "package"];
    const results = {};
    for (const name of order) {
      const input = name === "peer" ? peer.prepare() : workload.initial();
      globalThis.gc?.();
      const start = performance.now();
      if (name === "peer") results.peer = await peer.run(input);
      else results[name] = replay(name === "package" ? pkg.sessionReducer : copyFloor, input, workload.actions);
      if (run > 0) times[name].push(performance.now() - start);
    }
    const expected = packageContent(results.package.state);
    assert.deepEqual(peer.content(results.peer), peer.lastMessageOnly ? expected.slice(-1) : expected,
      `${workload.name}: the peer's conversation differs from the package's`);
  }
  return {
    package: median(times.package),
    peer: median(times.peer),
    floor: median(times.floor),
    fastest: { package: Math.min(...times.package), peer: Math.min(...times.peer) },
  };
}

console.log();
console.log(`peers, the same workloads through their own APIs, content checked equal (${PEER_RUNS} runs after 1 warm-up;` +
  " AG-UI, which deep-clones the conversation per event, on shorter workloads, 1 run):");
// The fastest runs' ratio beside the medians': on a shared machine noise only adds time, and it
// may hit either side's runs. "Copies alone": the floor under both (bench/copy-floor.mjs).
const peerWidths = [54, 12, 12, 14, 22, 12];
console.log(row(["peer on workload", "package", "peer", "peer/package", "fastest runs' ratio", "copies alone"], peerWidths));
const peerRaces = [
  ["AI SDK Chat", aiSdkChat, [reply(), reply({ turns: 2_000 }), tools()], PEER_RUNS],
  ["AI SDK readUIMessageStream", aiSdkReadStream, [reply(), tools({ rounds: 100 })], PEER_RUNS],
  ["AG-UI AbstractAgent", agUiAgent, [reply({ deltas: 1_000 }), tools({ rounds: 20 })], 1],
];
for (const [peerName, makePeer, workloads, runs] of peerRaces) {
  for (const workload of workloads) {
    const result = await racePeer(workload, makePeer, runs);
    console.log(row([`${peerName}: ${workload.name}`, ms(result.package), ms(result.peer),
      (result.peer / result.package).toFixed(1), (result.fastest.peer / result.fastest.package).toFixed(1), ms(result.floor)], peerWidths));
  }
}

console.log();
await import("./branches.mjs");

console.log();
await import("./storage.mjs");

console.log();
await reportLoads(PKG_DIR, LOAD_RUNS);

console.log();
console.log("size (pkg/index.js inlines the wasm as text), raw and gzip -9:");
// What an app downloads is the JavaScript (the wasm rides in it); a .wasm file, if any, is listed
// on its own.
const total = { raw: 0, gzip: 0 };
for (const file of readdirSync(PKG_DIR).filter((name) => /\.(m?js|wasm)$/.test(name)).sort()) {
  const bytes = readFileSync(`${PKG_DIR}${file}`);
  const gzip = gzipSync(bytes, { level: 9 }).length;
  if (!file.endsWith(".wasm")) Object.assign(total, { raw: total.raw + bytes.length, gzip: total.gzip + gzip });
  console.log(`  pkg/${file}: ${kb(bytes.length)} raw, ${kb(gzip)} gzip -9`);
}
console.log(`  wasm + glue (the JavaScript files): ${kb(total.raw)} raw, ${kb(total.gzip)} gzip -9`);
