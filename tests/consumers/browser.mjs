// Loads a built static app in headless Debian Chromium (driven by playwright-core, never a
// downloaded browser) from a loopback HTTP server, and returns what the app published.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, normalize, extname } from "node:path";
import { launchChromium } from "../chromium.mjs";

const contentTypes = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
};

function serve(dir, headers) {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://localhost").pathname));
    const file = join(dir, path.endsWith("/") ? join(path, "index.html") : path);
    if (!file.startsWith(dir)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { ...headers, "content-type": contentTypes[extname(file)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Opens `dir`/index.html, served with `headers`, and returns `{ result, errors }`: the page's
 *  `consumerResult` and every uncaught page error or console error, so a failure says why. */
export async function runAppInChromium(dir, { headers = {} } = {}) {
  const server = await serve(dir, headers);
  const browser = await launchChromium().catch((error) => {
    server.close();
    throw error;
  });
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()}`);
    });
    // Module and classic scripts have both run by the load event.
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: "load" });
    const result = await page.evaluate(() => globalThis.consumerResult);
    return { result, errors };
  } finally {
    await browser.close();
    server.close();
  }
}
