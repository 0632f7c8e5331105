// The Next.js consumer (next/): `next build`, `next start`, then headless Chromium. Run by
// run.mjs, which installs the packed package into the project and passes its path as
// REACT_CONSUMER. What it proves: the server renders the empty conversation and reads no storage,
// hydration never mismatches (no error or warning in the console, React's #418 included), and a
// reload mid-run restores the stored conversation with stop applied.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { openPage } from "./page.mjs";

const project = process.env.REACT_CONSUMER;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
let next;
let url;
let browser;
let page;
let problems;

function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function startNext(port) {
  const child = spawn(process.execPath, [join(project, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: project,
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (/Ready in/.test(output)) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`next start exited with ${code}:\n${output}`)));
  });
}

before(async () => {
  assert.ok(project, "REACT_CONSUMER is not set: run tests/react/run.mjs next");
  const built = spawnSync(process.execPath, [join(project, "node_modules/next/dist/bin/next"), "build"], { cwd: project, env, stdio: "inherit" });
  assert.equal(built.status, 0, "next build failed");
  const port = await freePort();
  next = await startNext(port);
  url = `http://127.0.0.1:${port}/`;
  ({ browser, page, problems } = await openPage());
});

after(async () => {
  await browser?.close();
  next?.kill();
});

test("the server renders the empty conversation", async () => {
  const html = await (await fetch(url)).text();
  assert.match(html, /<p data-testid="count">0<!-- --> messages<\/p>/);
  assert.match(html, /data-status="idle"/);
});

test("send streams a reply; a reload mid-run restores the conversation with stop applied, without a hydration warning", async () => {
  await page.goto(url);
  const chat = page.getByTestId("chat");
  await page.getByTestId("composer").fill("Hello");
  await page.getByTestId("send").click();
  await page.getByTestId("message").nth(1).filter({ hasText: "Hello from Next.js." }).waitFor();
  await chat.and(page.locator('[data-status="idle"]')).waitFor();

  await page.getByTestId("composer").fill("Look it up");
  await page.getByTestId("send").click();
  const call = page.locator('[data-testid="tool-call"][data-name="search"]');
  await call.and(page.locator('[data-state="running"]')).waitFor();

  await page.reload();
  await call.and(page.locator('[data-state="cancelled"]')).waitFor();
  assert.equal(await chat.getAttribute("data-status"), "idle");
  assert.equal(await page.getByTestId("count").innerText(), "4 messages");
  assert.equal(await page.getByTestId("message").nth(1).innerText(), "Hello from Next.js.");
  assert.deepEqual(problems, []);
});
