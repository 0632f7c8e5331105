// `npm run bench:ui` (after `npm run build`): a streamed reply into threads of 10 to 10,000
// messages, in headless Chromium, per implementation (bench/ui/pages/: useAgentSession, the Vue
// binding, the AI SDK's useChat, assistant-ui's own AI SDK runtime), each page bundled with
// esbuild from the packages as installed and the package from pkg/. Per delta: frame in to the row
// painted (bench/ui/harness.js says how "painted" is observed), the main thread's time (CDP
// Performance.getMetrics, TaskDuration over the timed deltas), the JS heap after a full collection
// (CDP HeapProfiler.collectGarbage, Runtime.getHeapUsage) with the thread loaded and mid-reply,
// and the saves made while the deltas streamed. Writes bench/results/ui-DATE.json and prints a
// table; bench/ui/charts.mjs draws the SVG charts from that file. It asserts nothing.
//
// BENCH_UI_SIZES (10,100,1000,10000), BENCH_UI_DELTAS (100 timed after BENCH_UI_WARM 10),
// BENCH_UI_RUNS (3 fresh pages per implementation and size), BENCH_UI_IMPLS (all but the virtualised
// lists), BENCH_UI_OUT.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

import { launchChromium } from "../../tests/chromium.mjs";
import { IMPLEMENTATIONS } from "./implementations.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const ORIGIN = "http://localhost:4921";
const list = (name, fallback) => (process.env[name] ?? fallback).split(",").map((item) => item.trim()).filter(Boolean);
const SIZES = list("BENCH_UI_SIZES", "10,100,1000,10000").map(Number);
const DELTAS = Number(process.env.BENCH_UI_DELTAS ?? 100);
const WARM = Number(process.env.BENCH_UI_WARM ?? 10);
const RUNS = Number(process.env.BENCH_UI_RUNS ?? 3);
const WANTED = list("BENCH_UI_IMPLS", IMPLEMENTATIONS.filter((impl) => !impl.virtual).map((impl) => impl.name).join(","));

/** One page module bundled as an app would ship it: minified, React and Vue in production mode. */
export async function bundle(entry) {
  const result = await build({
    entryPoints: [`${ROOT}bench/ui/pages/${entry}`],
    bundle: true,
    format: "esm",
    minify: true,
    write: false,
    jsx: "automatic",
    logLevel: "error",
    alias: { "chat-session-reducer": `${ROOT}pkg` },
    define: {
      "process.env.NODE_ENV": '"production"',
      __VUE_OPTIONS_API__: "false",
      __VUE_PROD_DEVTOOLS__: "false",
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
    },
  });
  return result.outputFiles[0].text;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? undefined : sorted[Math.floor((sorted.length - 1) / 2)];
};
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const MB = 1024 * 1024;

/** Serves each bundle at /NAME.js and a page that loads the one `?impl=` names. */
export async function serve(context, bundles) {
  await context.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    const name = url.pathname.slice(1).replace(/\.js$/, "");
    if (bundles.has(name)) return route.fulfill({ contentType: "text/javascript", body: bundles.get(name) });
    const impl = url.searchParams.get("impl");
    return route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><meta charset="utf-8"><title>bench:ui</title><style>body{font:14px sans-serif;margin:0}ol{margin:0}</style><div id="root"></div><script type="module" src="/${impl}.js"></script>`,
    });
  });
}

/** The heap after a full collection, in MB. */
export async function heapAfterGC(cdp) {
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  return usedSize / MB;
}

const taskSeconds = async (cdp) => {
  const { metrics } = await cdp.send("Performance.getMetrics");
  const value = (name) => metrics.find((metric) => metric.name === name)?.value ?? 0;
  return { task: value("TaskDuration"), script: value("ScriptDuration"), layout: value("LayoutDuration") + value("RecalcStyleDuration") };
};

/** One fresh page of `impl` with a thread of `size` messages: its figures. */
async function measureOnce(context, impl, size) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(`${ORIGIN}/?impl=${impl.page}&n=${size}${impl.query ?? ""}`);
    await page.waitForFunction(() => window.bench !== undefined, undefined, { timeout: 120_000 });
    const mountStart = Date.now();
    await page.evaluate(() => window.bench.ready());
    const mountMs = Date.now() - mountStart;
    const heapLoaded = await heapAfterGC(cdp);
    await page.evaluate(() => window.bench.begin());
    await page.evaluate((count) => window.bench.deltas(count), WARM);
    // The first save writes the whole thread (the store never held it); the timed saves come after it.
    for (let tries = 0; impl.saves && tries < 200 && (await page.evaluate(() => window.bench.saves().length)) === 0; tries++) {
      await page.evaluate(() => window.bench.deltas(1));
    }
    await page.evaluate(() => window.bench.resetSaves());
    const before = await taskSeconds(cdp);
    const times = await page.evaluate((count) => window.bench.deltas(count), DELTAS);
    const after = await taskSeconds(cdp);
    const saves = await page.evaluate(() => window.bench.saves());
    const heapStreaming = await heapAfterGC(cdp);
    await page.evaluate(() => window.bench.end());
    if (errors.length > 0) throw new Error(errors.join("\n"));
    const perDelta = (field) => ((after[field] - before[field]) * 1000) / DELTAS;
    return {
      mountMs,
      paintMs: median(times.map((time) => time.paint)),
      paintP95Ms: quantile(times.map((time) => time.paint), 0.95),
      commitMs: median(times.map((time) => time.commit)),
      taskMsPerDelta: perDelta("task"),
      scriptMsPerDelta: perDelta("script"),
      layoutMsPerDelta: perDelta("layout"),
      heapLoadedMB: heapLoaded,
      heapStreamingMB: heapStreaming,
      saves: saves.length,
      saveMs: median(saves),
      saveMsPerDelta: saves.reduce((sum, ms) => sum + ms, 0) / DELTAS,
    };
  } finally {
    await page.close();
  }
}

/** The median of each figure over the runs, with the runs kept. */
function summarise(runs) {
  const summary = {};
  for (const field of Object.keys(runs[0])) {
    const values = runs.map((run) => run[field]).filter((value) => value !== undefined);
    summary[field] = values.length === 0 ? undefined : median(values);
  }
  return { ...summary, runs };
}

const fixed = (value, digits = 2) => (value === undefined ? "-" : value.toFixed(digits));
const widths = [26, 8, 10, 10, 10, 10, 10, 10, 12];
const row = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join(" ").trimEnd();

async function main() {
  if (!existsSync(`${ROOT}pkg/react/index.js`)) throw new Error("pkg/ is missing: run npm run build first");
  const chosen = IMPLEMENTATIONS.filter((impl) => WANTED.includes(impl.name));
  const bundles = new Map();
  for (const impl of chosen) {
    if (impl.available && !impl.available()) continue;
    if (!bundles.has(impl.page)) bundles.set(impl.page, await bundle(`${impl.page}.${impl.ext}`));
  }
  const browser = await launchChromium({ viewport: { width: 1000, height: 800 } });
  const results = { date: new Date().toISOString(), machine: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`, deltas: DELTAS, warm: WARM, runs: RUNS, implementations: {} };
  try {
    await serve(browser.context, bundles);
    const probe = await browser.context.newPage();
    results.chromium = await probe.evaluate(() => navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]);
    await probe.close();
    console.log(`bench:ui: ${DELTAS} deltas (after ${WARM}) per run, medians of ${RUNS} runs, Chromium ${results.chromium}`);
    console.log(row(["implementation", "messages", "paint ms", "p95 ms", "main ms", "script ms", "heap MB", "save ms", "save ms/delta"]));
    for (const impl of chosen) {
      if (!bundles.has(impl.page)) {
        console.log(row([impl.name, "not built:", impl.missing ?? "unavailable"]));
        continue;
      }
      const bySize = {};
      for (const size of SIZES) {
        const runs = [];
        for (let run = 0; run < RUNS; run++) runs.push(await measureOnce(browser.context, impl, size));
        const s = (bySize[size] = summarise(runs));
        console.log(row([impl.name, size, fixed(s.paintMs), fixed(s.paintP95Ms), fixed(s.taskMsPerDelta), fixed(s.scriptMsPerDelta), fixed(s.heapLoadedMB, 1), fixed(s.saveMs), fixed(s.saveMsPerDelta, 3)]));
      }
      results.implementations[impl.name] = { label: impl.label, bySize };
    }
  } finally {
    await browser.close();
  }
  const out = process.env.BENCH_UI_OUT ?? `${ROOT}bench/results/ui-${results.date.slice(0, 10)}.json`;
  mkdirSync(new URL("../results/", import.meta.url), { recursive: true });
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`bench:ui: written ${out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
