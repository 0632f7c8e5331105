// End-to-end tests of the demo in Debian's Chromium: node tests/e2e/run.mjs
//   node tests/e2e/run.mjs reload    only the scenarios whose name contains "reload"
// Builds nothing: expects pkg/ (npm run build) and www/dist (npm --prefix www run build).
// Starts the demo server on a free port, runs every scenario in its own tab once per protocol
// the page offers (?protocol=…; the several-tabs scenarios of tabs.mjs with ?tabs=1, on a
// localStorage emptied first; assistant-ui.mjs's with ?ui=assistant-ui), saves screenshots to tests/e2e/screenshots/, prints
// "N passed, N failed" and exits non-zero on any failure.

import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../chromium.mjs";
import { chatPage } from "./chatPage.mjs";
import { PROTOCOLS, tests as oneTab } from "./scenarios.mjs";
import { tabsTests } from "./tabs.mjs";
import { assistantUiTests } from "./assistant-ui.mjs";
import { startServer } from "./server.mjs";

const root = new URL("../../", import.meta.url);
const screenshots = fileURLToPath(new URL("./screenshots/", import.meta.url));

for (const [built, how] of [
  ["pkg/index.js", "npm run build"],
  ["www/dist/index.html", "npm --prefix www install && npm --prefix www run build"],
]) {
  if (!existsSync(new URL(built, root))) {
    console.error(`e2e: ${built} is missing: run \`${how}\` first`);
    process.exit(1);
  }
}

const filter = process.argv[2];
const tests = [...oneTab, ...tabsTests, ...assistantUiTests.map((test) => ({ ...test, ui: "assistant-ui" }))];
const runs = PROTOCOLS.flatMap((protocol) =>
  tests.filter((test) => test.protocols?.includes(protocol) ?? true).map((test) => ({ ...test, protocol, name: `${protocol}: ${test.name}` })),
);
const selected = filter === undefined ? runs : runs.filter((test) => test.name.includes(filter));
if (selected.length === 0) {
  console.error(`e2e: no scenario name contains "${filter}"`);
  process.exit(1);
}

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60);

await rm(screenshots, { recursive: true, force: true });
await mkdir(screenshots, { recursive: true });
const server = await startServer();
const browser = await launchChromium({ viewport: { width: 900, height: 900 } }).catch(async (error) => {
  await server.stop();
  throw error;
});
console.log(`e2e: demo at ${server.url}, ${selected.length} scenarios`);

let passed = 0;
let failed = 0;
for (const [index, test] of selected.entries()) {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(15_000);
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error));
  const prefix = `${String(index + 1).padStart(2, "0")}-${slug(test.name)}`;
  const screenshot = (name) => page.screenshot({ path: `${screenshots}${prefix}--${name}.png`, fullPage: true });
  const logStart = server.lineCount;
  const began = Date.now();
  const took = () => `${((Date.now() - began) / 1000).toFixed(1)} s`;
  const serverLine = (pattern) => server.waitForLine(pattern, logStart);
  try {
    // `ui`: the page rendered by another UI library (?ui=assistant-ui, tests/e2e/assistant-ui.mjs).
    const url = `${server.url}?protocol=${test.protocol}${test.ui === undefined ? "" : `&ui=${test.ui}`}`;
    await page.goto(url);
    if (test.tabs) {
      // The pages of the context share localStorage: each several-tabs scenario starts on an empty one.
      await page.evaluate(() => localStorage.clear());
      await page.goto(`${url}&tabs=1`);
    }
    // hold(point) before the run that reaches it starts; held(point) once it is there; release(point).
    // holdChunks([N, …]) stops the next resumable run at those chunk counts: heldAtChunk(run, N), releaseChunks().
    const { hold, release, latestRun, holdChunks, releaseChunks, heldAtChunk } = server;
    const holds = { hold, release, held: (point) => server.held(point, logStart), latestRun, holdChunks, releaseChunks, heldAtChunk };
    // restart(signal): the demo's process ended with that signal and started again (same data, same port).
    await test.run({ page, chat: chatPage(page), screenshot, serverLine, protocol: test.protocol, restart: server.restart, ...holds });
    if (pageErrors.length > 0) throw new Error(`the page threw: ${pageErrors.map((error) => error.message).join("; ")}`);
    passed += 1;
    console.log(`ok ${index + 1} - ${test.name} (${took()})`);
  } catch (error) {
    failed += 1;
    console.log(`not ok ${index + 1} - ${test.name} (${took()})\n  ${String(error.stack ?? error).replaceAll("\n", "\n  ")}`);
    await screenshot("failure").catch(() => {});
  } finally {
    await page.close();
    // A hold the test armed but no run reached would hold the next test's run.
    await server.release();
  }
}

await browser.close();
await server.stop();
console.log(`screenshots: ${screenshots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
