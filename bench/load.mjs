// How long a cold import of the package takes until its reducer has answered once: in fresh Node
// processes, and in Chromium with a fresh browser and profile per load (no HTTP cache, no code
// cache). Each figure is measured inside the runtime with performance.now, from just before the
// import to just after the first call. In Chromium the page reports it on the console, so the
// driver runs nothing in the page while it loads (evaluating a script there, as waitForFunction
// does, injects ~300 KB of Playwright's own JavaScript into the page's main thread in the middle
// of the measured import). The module's resource timing splits the import into fetching it and
// evaluating it; an empty module, imported the same way, measures what no package can avoid; and
// traced loads say where the main thread's time goes (trace-breakdown.mjs).
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { setTimeout } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

import { WASM_AT, decodedLength } from "../scripts/wasm-text.mjs";
import { TRACE_CATEGORIES, traceBreakdown } from "./trace-breakdown.mjs";

// The measured code, the same in both runtimes: `specifier` is where the package's entry is. The
// user-timing marks place the import and the first call in a Chromium trace.
const measure = (specifier) => `
  performance.mark("import");
  const start = performance.now();
  const { sessionReducer } = await import(${JSON.stringify(specifier)});
  const imported = performance.now();
  performance.mark("imported");
  sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "Hello" });
  const loadMs = performance.now() - start;
  performance.mark("called");
  const firstCallMs = performance.now() - imported;`;

export async function nodeLoadTimes(entry, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const script = `${measure(pathToFileURL(entry).href)} console.log(loadMs);`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    times.push(Number(stdout));
  }
  return times;
}

// What a measuring page logs before its result, as JSON.
const REPORT = "load-result ";

// A page that imports `specifier`, calls it, and logs the times, fetching split from evaluating
// at the module's responseEnd (when its last byte left the network stack).
const page = (specifier) => `<!doctype html><meta charset="utf-8"><title>load</title><script type="module">
  try {
    ${measure(specifier)}
    const fetched = performance.getEntriesByType("resource").find((entry) => entry.name.endsWith(${JSON.stringify(specifier)}));
    console.log(${JSON.stringify(REPORT)} + JSON.stringify({
      loadMs, firstCallMs, fetchMs: fetched.responseEnd - start, evaluateMs: imported - fetched.responseEnd,
    }));
  } catch (error) {
    console.log(${JSON.stringify(REPORT)} + JSON.stringify({ error: String(error) }));
  }
</script>`;

// Decoding the package's wasm from its text as its entry does (src/main/index.js), timed in a page
// after the measured load (the trace shows decoding only as part of the module's top-level code).
async function decodeMs() {
  const { decoder, size, at, text } = await (await fetch("/wasm-text.json")).json();
  const start = performance.now();
  const { m, d } = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(decoder))).exports;
  new TextEncoder().encodeInto(text, new Uint8Array(m.buffer, at + size));
  d(size);
  return performance.now() - start;
}

// The wasm's text and its decoder's bytes as the package's index.js inlines them.
function inlinedWasmText(code) {
  const text = code.match(/"([^"\\\n]{10000,})"/)?.[1];
  const decoder = code.match(/\[((?:\d+,){100,}\d+)\]/)?.[1];
  if (!text || !decoder) return undefined;
  return { decoder: JSON.parse(`[${decoder}]`), size: decodedLength(text), at: WASM_AT, text };
}

const CONTENT_TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };
const EMPTY_MODULE = "export function sessionReducer(state) { return state; }\n";

// Serves the measuring pages (/package, /empty), an empty page at /blank, an empty module at
// /empty.js, the package's wasm as text with its decoder at /wasm-text.json and the package
// directory at /pkg/, uncached, on a loopback port.
async function servePackage(pkgDir) {
  const wasmText = inlinedWasmText(await readFile(join(pkgDir, "index.js"), "utf8"));
  if (!wasmText) throw new Error(`${pkgDir}index.js: no inlined wasm text and decoder found`);
  const pages = { "/package": page("/pkg/index.js"), "/empty": page("/empty.js"), "/blank": "" };
  const texts = { "/empty.js": ["text/javascript", EMPTY_MODULE], "/wasm-text.json": ["application/json", JSON.stringify(wasmText)] };
  const server = createServer(async (request, response) => {
    const path = new URL(request.url, "http://localhost").pathname;
    const headers = { "cache-control": "no-store" };
    if (path in pages) {
      response.writeHead(200, { ...headers, "content-type": "text/html" }).end(pages[path]);
      return;
    }
    if (path in texts) {
      const [type, text] = texts[path];
      response.writeHead(200, { ...headers, "content-type": type }).end(text);
      return;
    }
    const file = normalize(path).replace(/^\/pkg\//, "");
    if (!path.startsWith("/pkg/") || file.startsWith("..")) {
      response.writeHead(404, headers).end();
      return;
    }
    try {
      const body = await readFile(join(pkgDir, file));
      response.writeHead(200, { ...headers, "content-type": CONTENT_TYPES[extname(file)] ?? "text/plain" }).end(body);
    } catch {
      response.writeHead(404, headers).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

// Records a Chromium trace of `page` while `navigate` runs; resolves to its events.
async function traced(context, page, navigate) {
  const session = await context.newCDPSession(page);
  const events = [];
  session.on("Tracing.dataCollected", ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => session.once("Tracing.tracingComplete", resolve));
  await session.send("Tracing.start", { traceConfig: { includedCategories: TRACE_CATEGORIES }, transferMode: "ReportEvents" });
  const result = await navigate();
  await session.send("Tracing.end");
  await complete;
  return { result, events };
}

const SETTLE_MS = 300;

// One cold load of the page at `url` in a fresh browser: its logged result, with the trace's
// breakdown and the wasm text's decoding time when `trace` is set.
async function coldLoad(launchChromium, url, trace) {
  const { context, close } = await launchChromium();
  try {
    const page = context.pages()[0] ?? await context.newPage();
    // A first page from the same server, and a pause, let the browser finish starting up
    // (renderer and network processes, their first tasks) before the measured page loads.
    await page.goto(new URL("/blank", url).href);
    await setTimeout(SETTLE_MS);
    const navigate = async () => {
      const logged = page.waitForEvent("console", { predicate: (message) => message.text().startsWith(REPORT), timeout: 60_000 });
      await page.goto(url, { waitUntil: "commit" });
      return JSON.parse((await logged).text().slice(REPORT.length));
    };
    const { result, events } = trace ? await traced(context, page, navigate) : { result: await navigate() };
    if (result.error) throw new Error(`${url} failed in Chromium: ${result.error}`);
    const breakdown = events && { ...traceBreakdown(events, result.fetchMs), decodeMs: await page.evaluate(decodeMs) };
    return { version: context.browser()?.version(), ...result, ...(breakdown && { breakdown }) };
  } finally {
    await close();
  }
}

// Resolves to { version, package, empty, traced }: per-load results of the package's page and the
// empty module's (taking turns), then of `tracedRuns` traced loads of the package (tracing slows
// a load, so their totals are not the figures), or to { skipped: reason } when Chromium cannot be
// driven here.
export async function chromiumLoadTimes(pkgDir, runs, tracedRuns = Math.min(runs, 3)) {
  try {
    await import("playwright-core");
  } catch {
    return { skipped: "playwright-core is not installed" };
  }
  // Imported only once playwright-core is known to be there, since it imports it statically.
  const { launchChromium } = await import("../tests/chromium.mjs");
  const server = await servePackage(pkgDir);
  const url = (path) => `http://127.0.0.1:${server.address().port}${path}`;
  const results = { package: [], empty: [], traced: [] };
  try {
    // Which page loads first alternates, so that neither always follows the other's shutdown.
    for (let i = 0; i < runs; i++) {
      for (const name of i % 2 ? ["empty", "package"] : ["package", "empty"]) {
        results[name].push(await coldLoad(launchChromium, url(`/${name}`), false));
      }
    }
    for (let i = 0; i < tracedRuns; i++) results.traced.push(await coldLoad(launchChromium, url("/package"), true));
  } finally {
    server.close();
  }
  return { version: results.package[0]?.version, ...results };
}
