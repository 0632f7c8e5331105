// The Next.js consumer (next/): `next build`, `next start`, then headless Chromium. Run by
// run.mjs, which installs the packed package into the project and passes its path as
// REACT_CONSUMER. What it proves: the server renders the empty conversation and reads no storage,
// hydration never mismatches (no error or warning in the console, React's #418 included), a
// reload mid-run restores the stored conversation with stop applied; and the same chat written on
// useAgentSession (app/package) and on the AI SDK's useChat (app/usechat), over one streamText
// route (app/api/agent), shows the same conversation after the same user actions, sends the
// model the same messages, and takes no more lines.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { readFileSync } from "node:fs";
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

// ---- The same chat on useAgentSession (app/package) and on useChat (app/usechat), one AI SDK
// streamText route (app/api/agent) behind both, one script of user actions run on each page.

const PAGES = { package: "package", useChat: "usechat" };
// Tool states as each page shows them, in the package's words (the AI SDK's denial is the
// package's error with code "denied"; an approved call waiting for its result is running).
const STATE = {
  "input-available": "running",
  "approval-requested": "awaiting-confirmation",
  "approval-responded": "running",
  "output-available": "done",
  "output-error": "error",
  "output-denied": "error",
};

/** What the page shows: each message's role and parts (a tool's text without its buttons, its state in the package's words). */
async function shownConversation(page) {
  return page.getByTestId("message").evaluateAll(
    (messages, STATE) =>
      messages.map((message) => ({
        role: message.dataset.role,
        parts: [...message.children].map((part) => {
          if (part.dataset.testid !== "tool") return part.textContent;
          const state = part.dataset.state;
          const text = [...part.childNodes].filter((node) => node.nodeName !== "BUTTON").map((node) => node.textContent).join("");
          return text.replace(`: ${state} `, `: ${STATE[state] ?? state} `).trim();
        }),
      })),
    STATE,
  );
}

/** The texts the last message showed while it streamed, recorded from now on (`read()` gives them). */
async function recordStreamedTexts(page) {
  await page.evaluate(() => {
    const seen = (window.streamedTexts = []);
    new MutationObserver(() => {
      const text = [...document.querySelectorAll('[data-testid="message"]')].at(-1)?.textContent;
      if (text !== seen.at(-1)) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return { read: () => page.evaluate(() => window.streamedTexts) };
}

const agentLog = async () => (await fetch(new URL("api/agent", url))).json();
const clearAgentLog = () => fetch(new URL("api/agent", url), { method: "DELETE" });

/** The script of user actions; returns what the page showed along the way. */
async function chatScript(page, name) {
  const chat = page.getByTestId("chat");
  const ended = () => chat.and(page.locator('[data-status="idle"], [data-status="ready"]')).waitFor();
  const lastMessageSays = (text) => page.getByTestId("message").last().filter({ hasText: text }).waitFor();
  const button = (label) => page.getByRole("button", { name: label, exact: true });
  const say = async (text) => {
    await page.getByLabel("Message").fill(text);
    await button("Send").click();
  };
  const shown = {};

  await page.goto(new URL(PAGES[name], url).href);
  await chat.waitFor();
  // Streaming: the reply shows word by word, after a "Thinking…" while nothing has arrived.
  const streamed = await recordStreamedTexts(page);
  await say("Hello there");
  await page.getByText("Thinking…").waitFor();
  await lastMessageSays("You said: Hello there");
  await ended();
  shown.streamed = (await streamed.read()).filter((text) => text.startsWith("You said:"));

  // A call that needs approval, approved: the server runs it and the model answers its result.
  await say("Delete /tmp/a");
  await button("Approve").waitFor();
  shown.asking = await shownConversation(page);
  await button("Approve").click();
  await lastMessageSays("Deleted /tmp/a.");
  await ended();
  // Denied: the model hears of the denial.
  await say("Delete /tmp/b");
  await button("Deny").click();
  await lastMessageSays("OK, I kept /tmp/b.");
  await ended();
  // A client-side tool: the page answers it, and the agent goes on with the answer.
  await say("Where am I?");
  await button("Share location").waitFor();
  shown.waitingOnTheUser = await shownConversation(page);
  await button("Share location").click();
  await lastMessageSays("You are in Paris.");
  await ended();
  // A client-side tool the page answers by itself.
  await say("What time is it?");
  await lastMessageSays("Your time zone is Europe/Paris.");
  await ended();

  // Stop mid-reply keeps what arrived.
  await say("Tell me a story");
  await lastMessageSays("Once upon a time");
  await button("Stop").click();
  await ended();
  shown.stopped = await shownConversation(page);
  // An error, then Retry.
  await say("Fail once");
  shown.error = await chat.getByRole("alert").innerText();
  shown.failed = await shownConversation(page);
  await button("Retry").click();
  await lastMessageSays("Back on my feet.");
  await ended();
  // An error dismissed: the alert goes, the conversation stays.
  await say("Fail");
  await button("Dismiss").click();
  await chat.getByRole("alert").waitFor({ state: "detached" });
  await ended();
  shown.dismissed = await shownConversation(page);
  // onFinish once per request that ended (stopped and failed ones too), onError once per failure.
  const requests = (await agentLog()).length;
  await page.getByTestId("ended").filter({ hasText: new RegExp(`^${requests} ended, 2 failed$`) }).waitFor();

  // A reload between runs shows the same conversation.
  shown.beforeReload = await shownConversation(page);
  await page.reload();
  await page.getByTestId("message").nth(shown.beforeReload.length - 1).waitFor();
  shown.afterReload = await shownConversation(page);
  // A reload mid-reply keeps what arrived, and the conversation goes on.
  await say("Tell me a story");
  await lastMessageSays("Once upon a time");
  await page.reload();
  await page.getByTestId("message").nth(shown.beforeReload.length + 1).waitFor();
  await ended();
  shown.reloadedMidReply = await shownConversation(page);
  await say("The end");
  await lastMessageSays("You said: The end");
  await ended();
  shown.final = await shownConversation(page);
  return shown;
}

const lastUserText = (request) => request.modelMessages.findLast((message) => message.role === "user").content[0].text;

/** Lines of code: not blank, not only a comment (`//`, or JSX's `{/* … *\/}`). */
function linesOfCode(file) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => !/^\s*(\/\/.*|\{\/\*.*\*\/\})?\s*$/.test(line)).length;
}

// The model messages the route received, without the ids the server makes up (approval ids).
function withoutServerIds(requests) {
  return JSON.parse(JSON.stringify(requests.map((request) => request.modelMessages)).replace(/"approvalId":"[^"]*"/g, '"approvalId":"…"'));
}

test("the same script on useAgentSession and on useChat: the same conversation shown at every step, and a page no longer than useChat's", async () => {
  const results = {};
  for (const name of Object.keys(PAGES)) {
    await clearAgentLog();
    problems.length = 0;
    const shown = await chatScript(page, name);
    results[name] = { shown, requests: await agentLog(), problems: [...problems] };
  }
  const { package: ours, useChat } = results;
  assert.deepEqual(ours.problems, []);
  assert.deepEqual(useChat.problems, []);
  for (const [name, { shown, requests }] of Object.entries(results)) {
    assert.ok(shown.streamed.length > 1, `${name}: the reply streamed in pieces: ${JSON.stringify(shown.streamed)}`);
    // One conversation id in every request, reloads included (useChat's is the page's `id`).
    assert.equal(new Set(requests.map((request) => request.id)).size, 1, `${name}: ids ${requests.map((request) => request.id)}`);
  }
  assert.deepEqual(ours.shown.afterReload, ours.shown.beforeReload);
  // What the pages showed, step by step (the streamed snapshots depend on timing).
  const { streamed: _, ...ourSteps } = ours.shown;
  const { streamed: __, ...useChatSteps } = useChat.shown;
  assert.deepEqual(ourSteps, useChatSteps);
  // The denial included: the request after it says execution-denied, as useChat's does.
  assert.deepEqual(withoutServerIds(ours.requests), withoutServerIds(useChat.requests));
  // Each request says what started it as useChat's does (Retry: "regenerate-message").
  assert.deepEqual(ours.requests.map((request) => request.trigger), useChat.requests.map((request) => request.trigger));
  // Only the requests that Stop and the reload cut short were aborted, never one that had
  // finished (useChat also aborts the requests whose reply was an error).
  assert.deepEqual(ours.requests.filter((request) => request.aborted).map(lastUserText), ["Tell me a story", "Tell me a story"]);
  const [ourLines, useChatLines] = ["package", "usechat"].map((dir) => linesOfCode(join(project, "app", dir, "page.js")));
  assert.ok(ourLines <= useChatLines, `app/package/page.js has ${ourLines} lines of code, app/usechat/page.js ${useChatLines}`);
});
