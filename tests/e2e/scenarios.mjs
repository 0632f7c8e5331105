// Every scenario of the demo, driven through the page as a user would, once per protocol.
// Each test gets a fresh tab (so an empty sessionStorage) on the running demo in that protocol,
// the chat page helpers, `serverLine(pattern)` (waits for a line the server prints from this
// test on), `screenshot(name)`, `protocol`, and the agent's holds: `hold(point)` holds the next run
// that reaches that point of its script (www/agent/scenarios.mjs), `held(point)` waits until one
// is held there, `release(point)` lets it go on; `holdChunks([N, …])` stops the next resumable
// run's output at those chunk counts, `heldAtChunk(run, N)` waits until it is stopped there (run:
// `latestRun().run` + 1), `releaseChunks()` moves it on. A test that must act before a reply ends
// holds the reply, so the agent's pace (fast here: tests/e2e/server.mjs) never decides its
// outcome. A test with `protocols` runs only in those.

import assert from "node:assert/strict";
import { createRandom } from "../fuzz/generate.mjs";
import { chatPage } from "./chatPage.mjs";
import { longThreadScenarios } from "./long-threads.mjs";
import { restartScenarios } from "./restarts.mjs";
import { threadScenarios } from "./threads.mjs";

/** The protocols the demo's page offers, each on its own endpoint. */
export const PROTOCOLS = ["actions", "ai-sdk", "ag-ui"];

/** The next POST to the agent's endpoint, whatever the protocol. */
const nextAgentRequest = (page) => page.waitForRequest((request) => request.method() === "POST" && request.url().includes("/api/chat/"));

/** Every POST to the agent's endpoint from now on, whatever the protocol, as it is made. */
function agentRequests(page) {
  const requests = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/api/chat/")) requests.push(request);
  });
  return requests;
}

/** Every POST that starts a run on the protocol's endpoint (not a reconnect or a stop). */
function agentRuns(page, protocol) {
  const requests = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === `/api/chat/${protocol}`) requests.push(request);
  });
  return requests;
}

/** Every reconnect to a run: the AI SDK's GET .../stream, AG-UI's POST .../connect. */
function agentReconnects(page) {
  const requests = [];
  page.on("request", (request) => {
    if (/^\/api\/chat\/[\w-]+\/(.+\/stream|connect)$/.test(new URL(request.url()).pathname)) requests.push(request);
  });
  return requests;
}

/** The conversation the tab stored (in sessionStorage, or `localStorage` with ?tabs=1), its random
 *  ids (user_…, msg_…, call_…) numbered in order. */
export async function storedConversation(page, storage = "sessionStorage") {
  const stored = await page.evaluate((name) => globalThis[name].getItem("chat-session-reducer-demo"), storage);
  const ids = new Map();
  const numbered = stored.replace(/\b(user|msg|call)_[0-9a-f]{8,16}\b/g, (id, kind) => {
    if (!ids.has(id)) ids.set(id, `${kind}#${ids.size}`);
    return ids.get(id);
  });
  return JSON.parse(numbered).state;
}

export const tests = [
  {
    name: "plain answer streams in and keeps its reasoning without showing it",
    async run({ page, chat, screenshot, hold, release }) {
      await hold("plain: before the end");
      await chat.send("Hello!");
      await chat.visible(chat.stopButton);
      await release("plain: before the end");
      const reply = await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      assert.equal(await chat.topMessages.count(), 2);
      assert.equal(await chat.topMessages.first().getAttribute("data-role"), "user");
      assert.equal(await chat.toolCalls.count(), 0);
      assert.match(await reply.innerText(), /^Hello! I'm a scripted agent/);
      const reasoning = "A greeting: answer briefly";
      assert.ok(!(await page.locator("body").innerText()).includes(reasoning), "reasoning must not be shown");
      const stored = await page.evaluate(() => Object.values(sessionStorage).join("\n"));
      assert.ok(stored.includes(reasoning), "reasoning must be kept in the saved session");
      await screenshot("answered");
    },
  },
  {
    name: "a tool call awaiting confirmation runs once approved, in a new request that carries the answer",
    async run({ page, chat, screenshot, serverLine }) {
      await chat.send("Delete the old drafts");
      const call = chat.toolCall("delete_drafts");
      await chat.waitForToolState(call, "awaiting-confirmation");
      await chat.visible(call.getByText("Delete 3 drafts older than 30 days?"));
      await chat.waitUntilIdle();
      await screenshot("awaiting-confirmation");
      const continuation = nextAgentRequest(page);
      await call.getByTestId("approve").click();
      await continuation;
      await serverLine(/: approval \(resumed\): finished/);
      await chat.waitForToolState(call, "done");
      await chat.visible(call.getByText("Deleted 3 drafts"));
      await chat.replyContaining("the 3 old drafts are deleted.");
      await chat.waitUntilIdle();
      assert.equal(await page.getByTestId("approve").count(), 0);
      assert.equal(await chat.topMessages.count(), 2, "the agent went on in the same reply");
      await screenshot("approved");
    },
  },
  {
    name: "Deny ends the call as denied and the agent carries on without it",
    async run({ page, chat, screenshot, serverLine }) {
      await chat.send("Delete the old drafts");
      const call = chat.toolCall("delete_drafts");
      await chat.waitForToolState(call, "awaiting-confirmation");
      await call.getByTestId("deny").click();
      await chat.waitForToolState(call, "error");
      await chat.visible(call.getByText("Denied by the user"));
      await serverLine(/: approval \(resumed\): finished/);
      await chat.replyContaining("I left the drafts alone.");
      await chat.waitUntilIdle();
      assert.equal(await call.getAttribute("data-state"), "error", "a denied call never changes state again");
      assert.equal(await page.getByTestId("approve").count() + (await page.getByTestId("deny").count()), 0);
      await screenshot("denied");
    },
  },
  {
    name: "a call's input streams in before it runs",
    async run({ chat, screenshot, hold, release }) {
      await hold("streamed input: input streaming");
      await chat.send("Write a haiku to a file");
      const call = chat.toolCall("write_file");
      await chat.waitForToolState(call, "input-streaming");
      await chat.visible(call.getByTestId("tool-input").filter({ hasText: '{"path":"notes/haiku.txt"' }));
      await screenshot("input-streaming");
      await release("streamed input: input streaming");
      await chat.waitForToolState(call, "done");
      assert.match(await call.getByTestId("tool-input").innerText(), /"content":"Bytes cross the boundary/);
      await chat.visible(call.getByText("Wrote 3 lines"));
      await chat.replyContaining("Saved.");
      await chat.waitUntilIdle();
      await screenshot("written");
    },
  },
  {
    name: "a client-side tool waits for the user's answer, and the agent goes on with it",
    async run({ page, chat, screenshot }) {
      await chat.send("Book a table");
      const call = chat.toolCall("pick_time");
      await chat.waitUntilIdle();
      assert.equal(await call.getAttribute("data-state"), "running", "the call waits for the user");
      assert.equal(await call.getAttribute("data-waits"), "result", "waitsOnApp: shown as waiting on the app, not the agent");
      await screenshot("asking");
      const continuation = nextAgentRequest(page);
      await call.getByTestId("answer").filter({ hasText: "8 pm" }).click();
      await continuation;
      await chat.waitForToolState(call, "done");
      await chat.replyContaining("Booked a table for 8 pm.");
      await chat.waitUntilIdle();
      assert.equal(await call.getByTestId("answer").count(), 0);
      await screenshot("answered");
    },
  },
  {
    name: "a delegate_to_* call shows its sub-agent's run nested and indented",
    protocols: ["actions", "ag-ui"],
    async run({ chat, screenshot, hold, release }) {
      await hold("delegation: searching");
      await chat.send("Research WebAssembly");
      const delegate = chat.toolCall("delegate_to_researcher");
      const search = chat.toolCall("web_search", delegate);
      await chat.waitForToolState(search, "running");
      await chat.waitForToolState(delegate, "running");
      assert.equal(await search.getAttribute("data-waits"), null, "a server tool in progress waits on the agent");
      await screenshot("sub-agent-running");
      await release("delegation: searching");
      await chat.waitForToolState(search, "done");
      await chat.waitForToolState(delegate, "done");
      await chat.replyContaining("The researcher reports:");
      await chat.waitUntilIdle();

      const nestedReply = delegate.getByTestId("message");
      assert.equal(await nestedReply.count(), 1);
      assert.equal(await nestedReply.getAttribute("data-role"), "assistant");
      assert.match(await nestedReply.innerText(), /Three sources agree/);
      const topLeft = (await chat.assistantReplies().last().boundingBox()).x;
      const nestedLeft = (await nestedReply.boundingBox()).x;
      assert.ok(nestedLeft > topLeft, `the nested run is indented (${nestedLeft} > ${topLeft})`);
      assert.equal(await chat.toolCalls.count(), 2);
      await screenshot("sub-agent-done");
    },
  },
  {
    name: "a delegate_to_* call streams its sub-agent's progress as preliminary output (the AI SDK's nesting)",
    protocols: ["ai-sdk"],
    async run({ chat, screenshot, hold, release }) {
      await hold("delegation: searching");
      await chat.send("Research WebAssembly");
      const delegate = chat.toolCall("delegate_to_researcher");
      await chat.visible(delegate.getByText("→ web_search"));
      assert.equal(await delegate.getAttribute("data-state"), "running", "preliminary output leaves the call running");
      await screenshot("sub-agent-running");
      await release("delegation: searching");
      await chat.waitForToolState(delegate, "done");
      await chat.replyContaining("The researcher reports:");
      await chat.waitUntilIdle();
      assert.equal(await chat.toolCalls.count(), 1);
      await screenshot("sub-agent-done");
    },
  },
  {
    name: "a dropped connection, then a reload, mid-reply: the reply goes on and ends as one never interrupted",
    protocols: ["actions", "ai-sdk", "ag-ui"],
    async run({ page, chat, screenshot, serverLine, protocol, hold, release }) {
      // The same request in a tab of its own, never interrupted: what this one must end as.
      const other = await page.context().newPage();
      await other.goto(page.url());
      const reference = chatPage(other);
      await reference.send("Research Rust");
      await reference.replyContaining("The researcher reports:");
      await reference.waitUntilIdle();
      const uninterrupted = await storedConversation(other);
      await other.close();

      const runs = agentRuns(page, protocol);
      const reconnects = agentReconnects(page);
      // Held in the sub-agent's search until the reloaded page streams again.
      await hold("delegation: searching");
      await chat.send("Research Rust");
      const delegate = chat.toolCall("delegate_to_researcher");
      await chat.waitForToolState(delegate, "running");
      // During the sub-agent's search: the connection goes, as a network failure.
      if (protocol === "ai-sdk") await chat.visible(delegate.getByText("→ web_search"));
      else await chat.waitForToolState(chat.toolCall("web_search", delegate), "running");
      const cut = await (await fetch(new URL("/api/test/disconnect", page.url()), { method: "POST" })).json();
      assert.equal(cut.cut, 1, "one connection followed the run");
      await serverLine(/^chat: \S+: delegation: reconnected after \d+ chunks/);
      await screenshot("reconnected");
      // Still mid-search: the page reloads, restores the reply still streaming and reconnects.
      await page.reload();
      await chat.visible(chat.stopButton);
      await release("delegation: searching");
      await chat.replyContaining("The researcher reports:");
      await chat.waitUntilIdle();
      await serverLine(/^chat: \S+: delegation: finished/);
      await screenshot("resumed");

      assert.equal(await chat.errorBanner.count(), 0);
      assert.equal(runs.length, 1, "one run: the reconnects replayed it, nothing was sent again");
      assert.equal(reconnects.length, 2, "one reconnect after the drop, one after the reload");
      assert.deepEqual(await storedConversation(page), uninterrupted);
      const reply = await chat.topMessages.last().innerText();
      assert.equal(reply.split("I'll hand this to the research agent.").length, 2, "the replayed text is not doubled");
    },
  },
  {
    name: "connections cut at seeded random chunk boundaries, half of them followed by a reload: each reply ends as the uninterrupted one",
    protocols: ["actions", "ai-sdk", "ag-ui"],
    async run({ page, chat, screenshot, protocol, latestRun, holdChunks, releaseChunks, heldAtChunk }) {
      const other = await page.context().newPage();
      await other.goto(page.url());
      const reference = chatPage(other);
      await reference.send("Hello!");
      await reference.replyContaining("Stop me halfway.");
      await reference.waitUntilIdle();
      const uninterrupted = await storedConversation(other);
      await other.close();
      const { chunks: length } = await latestRun();

      // Seeded (the fuzz's generator), so a failing run comes back with its seed.
      const random = createRandom(Number(process.env.E2E_SEED ?? 1));
      const runs = agentRuns(page, protocol);
      const reconnects = agentReconnects(page);
      const plans = [];
      for (let index = 0; index < Number(process.env.E2E_RESUME_RUNS ?? 6); index += 1) {
        const plan = { afterChunks: 1 + random.below(60), reloadAt: random.chance(0.5) ? 1 + random.below(length - 1) : undefined };
        plans.push(plan);
        await fetch(new URL("/api/test/disconnect", page.url()), { method: "POST", body: JSON.stringify({ afterChunks: plan.afterChunks }) });
        if (plan.reloadAt !== undefined) {
          // The run's output stops at that chunk until the page has reloaded: the reload lands mid-run.
          await holdChunks([plan.reloadAt]);
          const { run } = await latestRun();
          await chat.send("Hello!");
          await heldAtChunk(run + 1, plan.reloadAt);
          await page.reload();
          await releaseChunks();
        } else await chat.send("Hello!");
        await chat.replyContaining("Stop me halfway.");
        await chat.waitUntilIdle();
        assert.deepEqual(await storedConversation(page), uninterrupted, `run ${index}: ${JSON.stringify(plan)}`);
        assert.equal(runs.length, index + 1, `run ${index}: one request per run`);
        // Every reply is longer than 60 chunks: each run was cut, and reconnected.
        assert.ok(reconnects.length > index, `run ${index}: no reconnect`);
        await chat.resetButton.click();
        await chat.hidden(chat.topMessages.first());
      }
      const described = (plan) => plan.afterChunks + (plan.reloadAt === undefined ? "" : `+reload at ${plan.reloadAt}`);
      console.log(`  ${protocol}: ${plans.length} runs cut at chunks ${plans.map(described).join(", ")}, ${reconnects.length} reconnects: 0 failures`);
      await screenshot("last");
    },
  },
  {
    name: "Retry after the agent's connection dropped re-sends the conversation through the finished tool call",
    async run({ page, chat, screenshot, hold, release }) {
      // Dropped once the page shows the reply so far: what was still on its way would be lost with it.
      await hold("failure: before the drop");
      await chat.send("What's the weather in Lisbon?");
      await chat.replyContaining("In Lisbon it is");
      await release("failure: before the drop");
      // The agent's connection to the server drops: the server stores and sends the failure.
      await chat.visible(chat.errorBanner.filter({ hasText: "The connection to the agent broke" }));
      const weather = chat.toolCall("get_weather");
      await chat.waitForToolState(weather, "done");
      await chat.visible(chat.retryButton);
      assert.match(await chat.contentOf(chat.assistantReplies().last()), /In Lisbon it is\s*$/);
      await screenshot("failed");

      const retried = nextAgentRequest(page);
      await chat.retryButton.click();
      const sent = JSON.stringify((await retried).postDataJSON());
      assert.ok(sent.includes("get_weather"), "the finished call is sent again");
      assert.ok(!sent.includes("In Lisbon it is"), "the reply cut short after the finished call is not re-sent");

      const reply = await chat.replyContaining("21 °C and sunny");
      await chat.waitUntilIdle();
      await chat.hidden(chat.errorBanner);
      assert.equal(await chat.retryButton.count(), 0);
      assert.equal(await chat.toolCalls.count(), 1);
      assert.equal((await reply.innerText()).split("In Lisbon it is").length - 1, 1, "the cut-short text is gone");
      await screenshot("retried");
    },
  },
  {
    name: "Stop ends a long answer, aborts the agent's run and ignores what was still on its way",
    async run({ chat, screenshot, serverLine, hold }) {
      // Held before its end: the Stop always lands mid-reply.
      await hold("long: before the end");
      await chat.send("Tell me a long story");
      const reply = await chat.replyContaining("nobody had asked for");
      await chat.stopButton.click();
      await chat.waitUntilIdle();
      const textAtStop = await reply.innerText();
      await serverLine(/^chat: \S+: long: aborted by the client/);
      assert.equal(await reply.innerText(), textAtStop);
      assert.ok(!textAtStop.includes("The end."), "the story was cut short");
      await screenshot("stopped");
    },
  },
  {
    name: "Reset mid-stream empties the conversation, stops the run, and stays empty after a reload",
    async run({ page, chat, screenshot, serverLine, hold }) {
      await hold("long: before the end");
      await chat.send("Tell me a long story");
      await chat.replyContaining("lighthouse keeper");
      await chat.resetButton.click();
      await chat.waitUntilIdle();
      assert.equal(await chat.topMessages.count(), 0);
      await serverLine(/^chat: \S+: long: aborted by the client/);
      await page.reload();
      await chat.visible(page.getByText("Pick a prompt below"));
      assert.equal(await chat.topMessages.count(), 0);
      await screenshot("reset");
    },
  },
  {
    name: "a frame that is not a valid action ends the run with a clear error, not a crash",
    protocols: ["actions"],
    async run({ page, chat, screenshot }) {
      await chat.send("Send a malformed frame");
      const banner = chat.errorBanner.filter({ hasText: "malformed frame" });
      await chat.visible(banner);
      assert.match(await banner.innerText(), /stream\[\d+\]: action\.part\.id/);
      await chat.waitUntilIdle();
      assert.match(await chat.contentOf(chat.assistantReplies().last()), /does not match the types:$/);
      assert.equal(await page.getByText("this text must never show").count(), 0);
      await screenshot("malformed");

      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.hidden(chat.errorBanner);
    },
  },
  {
    name: "a frame that is not JSON ends the run with a clear error",
    async run({ page, chat, screenshot }) {
      await chat.send("Send a garbled frame");
      const banner = chat.errorBanner.filter({ hasText: "not JSON" });
      await chat.visible(banner);
      await chat.waitUntilIdle();
      assert.match(await chat.contentOf(chat.assistantReplies().last()), /is not JSON:$/);
      assert.equal(await page.getByText("this text must never show").count(), 0);
      await screenshot("garbled");
    },
  },
  {
    name: "Edit sends the new text with a new reply beside the old one: < 2/2 >, and < brings the old one back",
    async run({ page, chat, screenshot }) {
      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      const requests = agentRequests(page);
      await chat.userMessages().first().getByTestId("edit").click();
      await page.getByTestId("edit-input").fill("Write a haiku to a file");
      await page.getByTestId("edit-save").click();
      await chat.replyContaining("Saved.");
      await chat.waitUntilIdle();
      assert.equal(requests.length, 1, "one request for the edited turn");
      const sent = JSON.stringify(requests[0].postDataJSON());
      assert.ok(sent.includes("Write a haiku to a file") && !sent.includes("scripted agent"), "the request carries the new branch only");
      assert.equal(await chat.topMessages.count(), 2);
      const question = chat.userMessages().first();
      await chat.waitForBranch(question, "2/2");
      assert.equal(await chat.contentOf(question), "Write a haiku to a file");
      await screenshot("edited");

      await question.getByTestId("branch-previous").click();
      await chat.waitForBranch(question, "1/2");
      assert.equal(await chat.contentOf(question), "Hello!");
      await chat.replyContaining("Stop me halfway.");
      assert.equal(await chat.toolCalls.count(), 0, "the haiku's call went with its branch");
      await screenshot("switched-back");
      // The branches are saved with the conversation.
      await page.reload();
      await chat.waitForBranch(question, "1/2");
      await question.getByTestId("branch-next").click();
      await chat.waitForBranch(question, "2/2");
      await chat.replyContaining("Saved.");
      assert.equal(requests.length, 1, "switching makes no request");
    },
  },
  {
    name: "Regenerate sets the reply aside and streams a new one: < 2/2 > on the reply",
    async run({ page, chat, screenshot }) {
      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      const requests = agentRequests(page);
      await chat.assistantReplies().last().getByTestId("regenerate").click();
      const reply = chat.assistantReplies().last();
      await chat.waitForBranch(reply, "2/2");
      await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      assert.equal(requests.length, 1, "one request for the new reply");
      const sent = JSON.stringify(requests[0].postDataJSON());
      assert.ok(sent.includes("Hello!") && !sent.includes("scripted agent"), "the reply set aside is not sent");
      assert.equal(await chat.topMessages.count(), 2);
      await screenshot("regenerated");
      await reply.getByTestId("branch-previous").click();
      await chat.waitForBranch(chat.assistantReplies().last(), "1/2");
      assert.match(await chat.contentOf(chat.assistantReplies().last()), /^Hello! I'm a scripted agent/);
      assert.equal(requests.length, 1, "switching makes no request");
    },
  },
  {
    name: "Send while a reply streams queues the message, and sends it in a request of its own once the reply ends",
    async run({ page, chat, screenshot, hold, release }) {
      const requests = agentRequests(page);
      await hold("long: before the end");
      await chat.send("Tell me a long story");
      await chat.replyContaining("lighthouse keeper");
      await chat.send("Hello!");
      await chat.visible(chat.queued.filter({ hasText: "queued: Hello!" }));
      assert.equal(await chat.userMessages().count(), 1, "the queued message is not in the conversation yet");
      assert.equal(requests.length, 1, "no request for it while the reply streams");
      await screenshot("queued");
      await release("long: before the end");

      await chat.visible(chat.assistantReplies().first().filter({ hasText: "The end." }));
      await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      assert.equal(await chat.queued.count(), 0);
      assert.equal(requests.length, 2, "one request per turn");
      const roles = await chat.topMessages.evaluateAll((messages) => messages.map((message) => message.dataset.role));
      assert.deepEqual(roles, ["user", "assistant", "user", "assistant"]);
      const story = await chat.contentOf(chat.assistantReplies().first());
      assert.match(story, /^The lighthouse keeper[\s\S]*The end\.$/, "the first reply is whole, with nothing of the second in it");
      assert.equal(await chat.contentOf(chat.userMessages().last()), "Hello!");
      const sent = JSON.stringify(requests[1].postDataJSON());
      assert.ok(sent.includes("The end.") && sent.includes("Hello!"), "the queued turn follows the whole first reply");
      await screenshot("sent");
    },
  },
  {
    name: "Remove takes a message out of the queue: it is never sent, the rest is",
    async run({ page, chat, hold, release }) {
      const requests = agentRequests(page);
      await hold("long: before the end");
      await chat.send("Tell me a long story");
      await chat.replyContaining("lighthouse keeper");
      await chat.send("Hello!");
      await chat.send("Book a table");
      await chat.visible(chat.queued.filter({ hasText: "queued: Book a table" }));
      assert.equal(await chat.queued.count(), 2);
      await chat.queued.filter({ hasText: "queued: Hello!" }).getByTestId("unqueue").click();
      await chat.hidden(chat.queued.filter({ hasText: "queued: Hello!" }));
      assert.equal(await chat.queued.count(), 1);
      await release("long: before the end");

      await chat.visible(chat.assistantReplies().first().filter({ hasText: "The end." }));
      await chat.replyContaining("Which time suits you?");
      await chat.waitUntilIdle();
      assert.equal(requests.length, 2);
      const questions = await chat.userMessages().evaluateAll((messages) => messages.map((message) => message.querySelector(".text").textContent));
      assert.deepEqual(questions, ["Tell me a long story", "Book a table"]);
      assert.ok(!JSON.stringify(requests[1].postDataJSON()).includes("Hello!"), "the removed message is not sent");
    },
  },
  {
    name: "a reload while an approval waits keeps its buttons, and approving it goes on",
    async run({ page, chat, screenshot, serverLine }) {
      await chat.send("Delete the old drafts");
      const call = chat.toolCall("delete_drafts");
      await chat.waitForToolState(call, "awaiting-confirmation");
      await chat.waitUntilIdle();
      await page.reload();
      await chat.visible(call.getByTestId("approve"));
      assert.equal(await call.getAttribute("data-state"), "awaiting-confirmation", "the question still waits");
      await chat.visible(call.getByText("Delete 3 drafts older than 30 days?"));
      await screenshot("restored");

      const continuation = nextAgentRequest(page);
      await call.getByTestId("approve").click();
      const sent = JSON.stringify((await continuation).postDataJSON());
      assert.ok(!/cancel/i.test(sent), "the model is not told the call was cancelled");
      await serverLine(/: approval \(resumed\): finished/);
      await chat.waitForToolState(call, "done");
      await chat.replyContaining("the 3 old drafts are deleted.");
      await chat.waitUntilIdle();
      await screenshot("approved");
    },
  },
  ...longThreadScenarios,
  ...threadScenarios,
  ...restartScenarios,
];
