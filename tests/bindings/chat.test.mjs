// A binding's consumer (vue/ or svelte/) in Vite's dev server with the framework's plugin, in
// headless Chromium: the chat app driven as a user drives it, against an agent the test holds
// (agent.mjs). Run by run.mjs, which installs the packed package into the project and passes its
// path as BINDING_CONSUMER and the framework as BINDING.
import { test, before, after, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "vite";
import vue from "@vitejs/plugin-vue";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { launchChromium } from "../chromium.mjs";
import { heldAgent } from "./agent.mjs";

const PLUGINS = { vue, svelte };
const project = process.env.BINDING_CONSUMER;
const binding = process.env.BINDING;
const agent = heldAgent();
let server;
let browser;
let page;
let problems;

before(async () => {
  assert.ok(project && Object.hasOwn(PLUGINS, binding), "BINDING_CONSUMER or BINDING is not set: run tests/bindings/run.mjs");
  server = await createServer({
    root: project,
    configFile: false,
    logLevel: "warn",
    plugins: [PLUGINS[binding](), agent.plugin],
    server: { host: "127.0.0.1", port: 0, strictPort: false },
  });
  await server.listen();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// Each scenario in a tab of its own: a sessionStorage of its own.
beforeEach(async () => {
  page = await browser.context.newPage();
  page.setDefaultTimeout(30_000);
  problems = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console.${message.type()}: ${message.text()}`);
  });
  await page.goto(server.resolvedUrls.local[0]);
  await page.getByTestId("send").waitFor();
});

afterEach(async () => {
  await page.close();
  assert.equal(agent.untaken(), 0, "a request the scenario did not expect");
});

// The rows as [role, text], read in the page.
const readRows = () =>
  [...document.querySelectorAll('[data-testid="message"]')].map((row) => [
    row.dataset.role,
    [...row.querySelectorAll('[data-testid="text"]')].map((text) => text.textContent).join(""),
  ]);

/** Waits until the page shows `rows` ([role, text] each) and, if given, `status`. */
async function showing(rows, status) {
  const read = `JSON.stringify({ rows: (${readRows})(), status: ${status === undefined ? "undefined" : 'document.querySelector("main").dataset.status'} })`;
  try {
    await page.waitForFunction(`${read} === ${JSON.stringify(JSON.stringify({ rows, status }))}`, undefined, { timeout: 10_000 });
  } catch {
    const shown = { rows: await page.evaluate(readRows), status: await page.locator("main").getAttribute("data-status") };
    assert.deepEqual(shown, { rows, status: status ?? shown.status }, "what the page shows");
  }
}

const textOf = (message) => message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
const sentTexts = (reply) => reply.messages.map((message) => [message.role, textOf(message)]);

/** Types `text`, sends it, and returns the request it made. */
async function send(text) {
  await page.getByTestId("composer").fill(text);
  await page.getByTestId("send").click();
  return agent.nextReply();
}

function answer(reply, messageId, text) {
  reply.parts({ type: "message-start", messageId }, { type: "text-delta", messageId, text }, { type: "finish", reason: "stop" });
  reply.end();
}

test("a reply streams into the page as it arrives, and ends idle", async () => {
  const reply = await send("Hello");
  assert.deepEqual(sentTexts(reply), [["user", "Hello"]]);
  reply.parts({ type: "message-start", messageId: "a1" }, { type: "text-delta", messageId: "a1", text: "Hel" });
  await showing([["user", "Hello"], ["assistant", "Hel"]], "streaming");
  reply.parts({ type: "text-delta", messageId: "a1", text: "lo!" }, { type: "finish", reason: "stop" });
  reply.end();
  await showing([["user", "Hello"], ["assistant", "Hello!"]], "idle");
  assert.deepEqual(problems, []);
});

test("Stop aborts the request and keeps what arrived", async () => {
  const reply = await send("Write a long essay");
  reply.parts({ type: "message-start", messageId: "a1" }, { type: "text-delta", messageId: "a1", text: "Once" });
  await showing([["user", "Write a long essay"], ["assistant", "Once"]], "streaming");
  await page.getByTestId("stop").click();
  await reply.closed;
  await showing([["user", "Write a long essay"], ["assistant", "Once"]], "idle");
  assert.deepEqual(problems, []);
});

test("a refused request shows its error, and Retry sends the conversation again", async () => {
  const refused = await send("Hello");
  refused.fail(503, "overloaded");
  await page.getByRole("alert").waitFor();
  await showing([["user", "Hello"]], "error");
  await page.getByTestId("retry").click();
  const retried = await agent.nextReply();
  assert.deepEqual(sentTexts(retried), [["user", "Hello"]]);
  answer(retried, "a1", "Hello again.");
  await showing([["user", "Hello"], ["assistant", "Hello again."]], "idle");
  assert.equal(await page.getByRole("alert").count(), 0);
  // The 503 itself, as Chromium reports a failed fetch.
  assert.ok(problems.every((problem) => /503/.test(problem)), problems.join("\n"));
});

test("a call awaiting approval shows Approve; approving it sends the approval and the agent goes on", async () => {
  const reply = await send("Delete my drafts");
  reply.parts(
    { type: "message-start", messageId: "a1" },
    { type: "tool-call", messageId: "a1", id: "c1", name: "delete_drafts", input: {} },
    { type: "tool-approval-request", id: "c1", approvalId: "ap-c1", prompt: "Delete every draft?" },
    { type: "finish", reason: "tool-calls" },
  );
  reply.end();
  await page.getByTestId("approve").click();
  const continued = await agent.nextReply();
  const [call] = continued.messages[1].parts;
  assert.deepEqual([call.id, call.state, call.approval.approved], ["c1", "running", true]);
  continued.parts({ type: "tool-result", id: "c1", output: "deleted" });
  answer(continued, "a2", "Deleted them.");
  await page.locator('[data-testid="call"][data-state="done"]').waitFor();
  // The call's message, then the continuation's.
  await showing([["user", "Delete my drafts"], ["assistant", ""], ["assistant", "Deleted them."]], "idle");
  assert.equal(await page.getByTestId("approve").count(), 0);
  assert.deepEqual(problems, []);
});

test("a reload mid-reply restores the conversation from sessionStorage, stopped where it was, and it goes on from there", async () => {
  const reply = await send("Tell me a story");
  reply.parts({ type: "message-start", messageId: "a1" }, { type: "text-delta", messageId: "a1", text: "Once upon a time" });
  await showing([["user", "Tell me a story"], ["assistant", "Once upon a time"]], "streaming");
  await page.reload();
  await reply.closed;
  await showing([["user", "Tell me a story"], ["assistant", "Once upon a time"]], "idle");
  const next = await send("Go on");
  assert.deepEqual(sentTexts(next), [["user", "Tell me a story"], ["assistant", "Once upon a time"], ["user", "Go on"]]);
  answer(next, "a2", "The end.");
  await showing([["user", "Tell me a story"], ["assistant", "Once upon a time"], ["user", "Go on"], ["assistant", "The end."]], "idle");
  assert.deepEqual(problems, []);
});

test("choosing another conversation (a changed storageKey) opens it, and choosing the first again brings it back", async () => {
  answer(await send("In A"), "a1", "Reply in A.");
  await showing([["user", "In A"], ["assistant", "Reply in A."]], "idle");
  await page.getByTestId("conversation").selectOption("b");
  await showing([], "idle");
  const inB = await send("In B");
  assert.deepEqual(sentTexts(inB), [["user", "In B"]]);
  answer(inB, "b1", "Reply in B.");
  await showing([["user", "In B"], ["assistant", "Reply in B."]], "idle");
  await page.getByTestId("conversation").selectOption("a");
  await showing([["user", "In A"], ["assistant", "Reply in A."]], "idle");
  assert.deepEqual(problems, []);
});

test("Edit sends the edited question as a new branch, and \"< 1/2 >\" switches between the two", async () => {
  answer(await send("First question"), "a1", "Answer one.");
  await showing([["user", "First question"], ["assistant", "Answer one."]], "idle");
  assert.equal(await page.getByTestId("branch").count(), 0);

  await page.getByTestId("composer").fill("Second question");
  await page.getByTestId("edit").click();
  const edited = await agent.nextReply();
  assert.deepEqual(sentTexts(edited), [["user", "Second question"]]);
  answer(edited, "a2", "Answer two.");
  await showing([["user", "Second question"], ["assistant", "Answer two."]], "idle");
  assert.equal(await page.getByTestId("position").innerText(), "2/2");

  await page.getByTestId("previous").click();
  await showing([["user", "First question"], ["assistant", "Answer one."]], "idle");
  assert.equal(await page.getByTestId("position").innerText(), "1/2");
  await page.getByTestId("next").click();
  await showing([["user", "Second question"], ["assistant", "Answer two."]], "idle");
  assert.equal(await page.getByTestId("position").innerText(), "2/2");
  assert.deepEqual(problems, []);
});

test("while a reply of 2,000 deltas streams, only its own row renders again, in batches", async (t) => {
  answer(await send("Hi"), "a1", "Short.");
  await showing([["user", "Hi"], ["assistant", "Short."]], "idle");
  const reply = await send("long");
  reply.parts({ type: "message-start", messageId: "a2" }, { type: "text-delta", messageId: "a2", text: "w0 " });
  await showing([["user", "Hi"], ["assistant", "Short."], ["user", "long"], ["assistant", "w0 "]], "streaming");
  const before = await page.evaluate(() => ({ ...window.rowRenders }));

  const deltas = Array.from({ length: 1999 }, (_, index) => ({ type: "text-delta", messageId: "a2", text: `w${index + 1} ` }));
  for (let from = 0; from < deltas.length; from += 100) reply.parts(...deltas.slice(from, from + 100));
  reply.parts({ type: "finish", reason: "stop" });
  reply.end();
  const words = ["w0 ", ...deltas.map((delta) => delta.text)].join("");
  await showing([["user", "Hi"], ["assistant", "Short."], ["user", "long"], ["assistant", words]], "idle");

  const { a2: streamingRow, ...otherRows } = await page.evaluate(() => ({ ...window.rowRenders }));
  const { a2: streamingRowBefore, ...otherRowsBefore } = before;
  assert.deepEqual(otherRows, otherRowsBefore, "an earlier row rendered again");
  const renders = streamingRow - streamingRowBefore;
  t.diagnostic(`${binding}: the streaming row rendered ${renders} times for 1,999 more deltas`);
  assert.ok(renders >= 1 && renders < deltas.length / 10, `the streaming row rendered ${renders} times`);
  assert.deepEqual(problems, []);
});

test("the packed README's example, as written (Readme.vue, Readme.svelte), streams a reply from an AI SDK route and keeps it across a reload", async () => {
  await page.goto(new URL("/?readme", server.resolvedUrls.local[0]).href);
  await page.locator("input").fill("Hello");
  await page.getByRole("button", { name: "Send" }).click();
  const reply = await agent.nextReply();
  assert.deepEqual(sentTexts(reply), [["user", "Hello"]]);
  const assistant = page.locator('p[data-role="assistant"]');
  reply.sse({ type: "start", messageId: "a1" }, { type: "text-start", id: "t1" }, { type: "text-delta", id: "t1", delta: "Hi" });
  await assistant.filter({ hasText: /^\s*Hi\s*$/ }).waitFor();
  await page.getByRole("button", { name: "Stop" }).waitFor();
  reply.sse({ type: "text-delta", id: "t1", delta: " there." }, { type: "text-end", id: "t1" }, { type: "finish" }, "[DONE]");
  reply.end();
  await page.getByRole("button", { name: "Send" }).waitFor();
  assert.equal((await assistant.innerText()).trim(), "Hi there.");
  await page.reload();
  await assistant.filter({ hasText: "Hi there." }).waitFor();
  assert.equal((await page.locator('p[data-role="user"]').innerText()).trim(), "Hello");
  assert.deepEqual(problems, []);
});
