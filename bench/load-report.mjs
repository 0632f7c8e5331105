// Prints the package's cold-load figures (bench/load.mjs): in Node, and in Chromium with where the
// time goes. `npm run bench` prints it after the workloads; `npm run bench:load` prints only it.
// BENCH_LOAD_RUNS (default 5) sets the cold loads per page and runtime.
import { fileURLToPath } from "node:url";

import { chromiumLoadTimes, nodeLoadTimes } from "./load.mjs";
import { median } from "./median.mjs";

const ms = (value) => `${value.toFixed(1)} ms`;
const list = (values) => values.map((value) => value.toFixed(1)).join(", ");

// "kind 1.2 ms, kind 0.3 ms" of the kinds that took at least 0.05 ms.
const kinds = (times) => Object.entries(times)
  .filter(([, time]) => time >= 0.05)
  .map(([kind, time]) => `${kind === "idle" ? "idle (waiting)" : kind} ${ms(time)}`)
  .join(", ");

// The median of each kind of each part of the traced loads' breakdowns.
function medianBreakdown(breakdowns) {
  const parts = ["evaluate", "first call", "streaming"];
  return Object.fromEntries(parts.map((part) => [part,
    Object.fromEntries(Object.keys(breakdowns[0][part]).map((kind) => [kind, median(breakdowns.map((breakdown) => breakdown[part][kind]))]))]));
}

function printChromium({ version, package: loads, empty, traced }) {
  // The median of one field over the cold loads of one page.
  const of = (results, field) => median(results.map((result) => result[field]));
  const afterFetch = (results) => results.map((result) => result.evaluateMs + result.firstCallMs);
  console.log(`  Chromium ${version}, a fresh browser and profile per load (nothing cached), the module from a loopback server:`);
  console.log(`    ${ms(of(loads, "loadMs"))}  (${list(loads.map((result) => result.loadMs))}): fetch ${ms(of(loads, "fetchMs"))}` +
    ` (import to the module's last byte), evaluate ${ms(of(loads, "evaluateMs"))}, first call ${ms(of(loads, "firstCallMs"))}`);
  console.log(`    an empty module, the same way: ${ms(of(empty, "loadMs"))} (fetch ${ms(of(empty, "fetchMs"))}` +
    `, evaluate and call ${ms(median(afterFetch(empty)))}): what any import costs on this machine`);
  // Fetching depends on the server and the network; what the package itself costs is what comes
  // after its last byte, less what comes after an empty module's.
  const own = median(afterFetch(loads)) - median(afterFetch(empty));
  console.log(`    the package's own share (evaluate and first call, less the empty module's): ${ms(own)}` +
    `  (evaluate and first call per load: ${list(afterFetch(loads))})`);
  if (traced.length === 0) return;
  const breakdown = medianBreakdown(traced.map((result) => result.breakdown));
  console.log(`    where it goes, medians of ${traced.length} traced loads (tracing slows them: evaluate ${ms(of(traced, "evaluateMs"))}` +
    `, first call ${ms(of(traced, "firstCallMs"))}):`);
  console.log(`      evaluate, main thread: ${kinds(breakdown.evaluate)}; of JS run, decoding the wasm's text ` +
    `${ms(median(traced.map((result) => result.breakdown.decodeMs)))} (timed apart)`);
  console.log(`      first call, main thread: ${kinds(breakdown["first call"])}`);
  console.log(`      meanwhile on a worker, the module streamed in: ${kinds(breakdown.streaming)}`);
}

/** Measures and prints the cold loads of the package in `pkgDir` (its entry is index.js). */
export async function reportLoads(pkgDir, runs) {
  const nodeLoads = await nodeLoadTimes(`${pkgDir}index.js`, runs);
  console.log(`load, import to first reducer call, median of ${runs} cold loads:`);
  console.log(`  Node ${process.version}: ${ms(median(nodeLoads))}  (${list(nodeLoads)})`);
  const chromiumLoads = await chromiumLoadTimes(pkgDir, runs);
  if (chromiumLoads.skipped) console.log(`  Chromium: not measured, ${chromiumLoads.skipped}`);
  else printChromium(chromiumLoads);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await reportLoads(fileURLToPath(new URL("../pkg/", import.meta.url)), Number(process.env.BENCH_LOAD_RUNS ?? 5));
}
