// The Vite consumer (vite/): the app in Vite's dev server (no plugin for the package: only the
// JSX transform an app has anyway, and its runtime pre-bundled as React's plugin has it), in
// headless Chromium. Run by run.mjs, which installs the
// packed package into the project and passes its path as REACT_CONSUMER.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "vite";
import { openPage } from "./page.mjs";
import { LONG_REPLY_DELTAS, agentPlugin } from "./vite/agent.mjs";

const project = process.env.REACT_CONSUMER;
let server;
let browser;
let page;
let problems;

before(async () => {
  assert.ok(project, "REACT_CONSUMER is not set: run tests/react/run.mjs vite");
  server = await createServer({
    root: project,
    configFile: false,
    logLevel: "warn",
    plugins: [agentPlugin()],
    esbuild: { jsx: "automatic" },
    // What @vitejs/plugin-react adds for the JSX transform's runtime. Without it Vite can find
    // that import only once it transforms main.jsx, and optimize the dependencies again while
    // the page loads: the page's first requests then fail (504, "Outdated Optimize Dep").
    optimizeDeps: { include: ["react/jsx-dev-runtime"] },
    server: { host: "127.0.0.1", port: 0, strictPort: false },
  });
  await server.listen();
  ({ browser, page, problems } = await openPage());
  await page.goto(server.resolvedUrls.local[0]);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function send(text) {
  await page.getByTestId("composer").fill(text);
  await page.getByTestId("send").click();
  await page.locator('main[data-status="idle"]').waitFor();
}

test("a reply streams from the server into the page", async () => {
  await send("Hello");
  const rows = page.getByTestId("message");
  assert.deepEqual(await rows.evaluateAll((items) => items.map((item) => item.dataset.role)), ["user", "assistant"]);
  assert.equal(await rows.nth(1).innerText(), "Hello from the agent.");
  assert.deepEqual(problems, []);
});

test("during a 2,000-delta reply an earlier row never re-renders, and the streaming row at most once a frame", async (t) => {
  const before = await page.evaluate(() => ({ commits: { ...window.rowCommits }, frames: window.frames }));
  await send("long");
  const afterwards = await page.evaluate(() => ({ commits: { ...window.rowCommits }, frames: window.frames }));

  const reply = page.getByTestId("message").last();
  const words = (await reply.innerText()).trim().split(" ");
  assert.equal(words.length, LONG_REPLY_DELTAS);
  assert.equal(words.at(-1), `w${LONG_REPLY_DELTAS - 1}`);

  for (const id of Object.keys(before.commits)) {
    assert.equal(afterwards.commits[id], before.commits[id], `row ${id} of an earlier message committed again`);
  }
  const streamingId = await reply.getAttribute("data-id");
  const frames = afterwards.frames - before.frames;
  const commits = afterwards.commits[streamingId];
  t.diagnostic(`${LONG_REPLY_DELTAS} deltas: the streaming row committed ${commits} times in ${frames} frames`);
  // Strict Mode runs a new component's layout effect twice when it mounts.
  assert.ok(commits <= frames + 2, `${commits} commits in ${frames} frames`);
  assert.ok(commits < LONG_REPLY_DELTAS / 10, "the deltas were applied in batches");
  assert.deepEqual(problems, []);
});
