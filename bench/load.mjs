// How long a cold import of the package takes until its reducer has answered once: in fresh Node
// processes, and in Chromium with a fresh profile per load. Each figure is measured inside the
// runtime with performance.now, from just before the import to just after the first call. In
// Chromium it is split, with the module's resource timing, into fetching it, evaluating it
// (parsing the JavaScript, decoding the hex, compiling and instantiating the wasm) and the first
// call; two more cold pages measure what no package can avoid (importing an empty module) and
// the wasm's share of evaluating (its hex decoded, compiled and instantiated alone).
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

// The measured code, the same in both runtimes: `specifier` is where the package's entry is.
const measure = (specifier) => `
  const start = performance.now();
  const { sessionReducer } = await import(${JSON.stringify(specifier)});
  const imported = performance.now();
  sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "Hello" });
  const loadMs = performance.now() - start;
  const firstCallMs = performance.now() - imported;`;

// In a page: the module's resource timing splits the import into fetch and evaluation.
const measurePage = (specifier) => `${measure(specifier)}
  const fetched = performance.getEntriesByType("resource").find((entry) => entry.name.endsWith(${JSON.stringify(specifier)}));
  window.loadResult = { loadMs, firstCallMs, fetchMs: fetched.responseEnd - start, evaluateMs: imported - fetched.responseEnd };`;

// The wasm alone, from the hex the package inlines: decoded, compiled and instantiated (with
// stand-in imports, which instantiation only links).
const measureWasm = `
  const hex = await (await fetch("/wasm.hex")).text();
  const start = performance.now();
  const bytes = Uint8Array.fromHex(hex);
  const decoded = performance.now();
  const module = new WebAssembly.Module(bytes);
  const compiled = performance.now();
  const imports = {};
  for (const { module: name, name: field } of WebAssembly.Module.imports(module)) (imports[name] ??= {})[field] = () => {};
  const linking = performance.now();
  new WebAssembly.Instance(module, imports);
  window.loadResult = { decodeMs: decoded - start, compileMs: compiled - decoded, instantiateMs: performance.now() - linking };`;

const EMPTY_MODULE = "export function sessionReducer(state) { return state; }\n";

export async function nodeLoadTimes(entry, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const script = `${measure(pathToFileURL(entry).href)} console.log(loadMs);`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    times.push(Number(stdout));
  }
  return times;
}

const CONTENT_TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };

const page = (code) => `<!doctype html><meta charset="utf-8"><title>load</title><script type="module">
  try { ${code} } catch (error) { window.loadResult = { error: String(error) }; }
</script>`;

// Serves the measuring pages (/package, /empty, /wasm), an empty page at /blank, an empty
// module at /empty.js, the package's wasm as hex at /wasm.hex and the package directory at
// /pkg/, uncached, on a loopback port.
async function servePackage(pkgDir) {
  const hex = (await readFile(join(pkgDir, "index.js"), "utf8")).match(/"((?:[0-9a-f]{2}){1000,})"/)?.[1];
  if (!hex) throw new Error(`${pkgDir}index.js: no inlined wasm hex found`);
  const pages = {
    "/package": page(measurePage("/pkg/index.js")),
    "/empty": page(measurePage("/empty.js")),
    "/wasm": page(measureWasm),
    "/blank": "",
  };
  const server = createServer(async (request, response) => {
    const path = new URL(request.url, "http://localhost").pathname;
    const headers = { "cache-control": "no-store" };
    if (path in pages) {
      response.writeHead(200, { ...headers, "content-type": "text/html" }).end(pages[path]);
      return;
    }
    if (path === "/empty.js" || path === "/wasm.hex") {
      const type = path === "/empty.js" ? "text/javascript" : "text/plain";
      response.writeHead(200, { ...headers, "content-type": type }).end(path === "/empty.js" ? EMPTY_MODULE : hex);
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

// Resolves to { version, package, empty, wasm }, each a list of per-load results (see the
// measuring code above), or to { skipped: reason } when Chromium cannot be driven here. The three
// pages take turns, each in a fresh browser.
export async function chromiumLoadTimes(pkgDir, runs) {
  try {
    await import("playwright-core");
  } catch {
    return { skipped: "playwright-core is not installed" };
  }
  // Imported only once playwright-core is known to be there, since it imports it statically.
  const { launchChromium } = await import("../tests/chromium.mjs");
  const server = await servePackage(pkgDir);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const results = { package: [], empty: [], wasm: [] };
  let version;
  try {
    for (let i = 0; i < runs; i++) {
      for (const name of Object.keys(results)) {
        const { context, close } = await launchChromium();
        try {
          version = context.browser()?.version() ?? version;
          const page = context.pages()[0] ?? await context.newPage();
          // A first page from the same server lets the browser finish starting up (renderer and
          // network processes) before the measured page loads.
          await page.goto(`${url}blank`);
          await page.goto(`${url}${name}`);
          const result = await (await page.waitForFunction(() => window.loadResult)).jsonValue();
          if (result.error) throw new Error(`the ${name} page failed in Chromium: ${result.error}`);
          version ??= await page.evaluate(() => navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]);
          results[name].push(result);
        } finally {
          await close();
        }
      }
    }
  } finally {
    server.close();
  }
  return { version, ...results };
}
