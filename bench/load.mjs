// How long a cold import of the package takes until its reducer has answered once: in fresh Node
// processes, and in Chromium with a fresh profile per load. Each figure is measured inside the
// runtime with performance.now, from just before the import to just after the first call.
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
  sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "Hello" });
  const loadMs = performance.now() - start;`;

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

// Serves the measuring page at /, an empty page at /blank and the package directory at /pkg/,
// uncached, on a loopback port.
function servePackage(pkgDir) {
  const page = `<!doctype html><meta charset="utf-8"><title>load</title><script type="module">
    try { ${measure("/pkg/index.js")} window.loadResult = { loadMs }; }
    catch (error) { window.loadResult = { error: String(error) }; }
  </script>`;
  const server = createServer(async (request, response) => {
    const path = new URL(request.url, "http://localhost").pathname;
    const headers = { "cache-control": "no-store" };
    if (path === "/" || path === "/blank") {
      response.writeHead(200, { ...headers, "content-type": "text/html" }).end(path === "/" ? page : "");
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

// Resolves to { version, times }, or { skipped: reason } when Chromium cannot be driven here.
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
  const times = [];
  let version;
  try {
    for (let i = 0; i < runs; i++) {
      const { context, close } = await launchChromium();
      try {
        version = context.browser()?.version() ?? version;
        const page = context.pages()[0] ?? await context.newPage();
        // A first page from the same server lets the browser finish starting up (renderer and
        // network processes) before the measured page loads.
        await page.goto(`${url}blank`);
        await page.goto(url);
        const result = await (await page.waitForFunction(() => window.loadResult)).jsonValue();
        if (result.error) throw new Error(`the package failed to load in Chromium: ${result.error}`);
        version ??= await page.evaluate(() => navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]);
        times.push(result.loadMs);
      } finally {
        await close();
      }
    }
  } finally {
    server.close();
  }
  return { version, times };
}
