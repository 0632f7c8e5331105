// Several tabs on one conversation (chat-session-reducer/tabs), in Chromium: the demo with ?tabs=1
// keeps its conversation in localStorage with coordinateTabs(), and the pages of the test's one
// browser context are its tabs, with the browser's own BroadcastChannel, Web Locks and shared
// localStorage. run.mjs opens the first page (`page`) on an empty localStorage; a scenario opens
// the others with openTab and closes them at its end. A closed page is a closed tab: the browser
// frees its locks.
//
//   node tests/e2e/run.mjs tabs                       every scenario below, per protocol
//   E2E_TABS_RUNS=200 E2E_SEED=1 node tests/e2e/run.mjs "ai-sdk: tabs: seeded"

import assert from "node:assert/strict";
import { createRandom } from "../fuzz/generate.mjs";
import { chatPage } from "./chatPage.mjs";
import { storedConversation } from "./scenarios.mjs";

/** Opens another tab on `url` (the first page's, unless given); `init` runs in it before the demo does. */
async function openTab(context, url, init) {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = [];
  page.on("pageerror", (error) => errors.push(error));
  if (init !== undefined) await page.addInitScript(init);
  await page.goto(url);
  const chat = chatPage(page);
  await chat.visible(chat.composer);
  return { page, chat, errors };
}

/** Closes the tabs a scenario opened, and fails on what they threw. */
async function closeTabs(tabs) {
  const thrown = tabs.flatMap((tab) => tab.errors.map((error) => error.message));
  for (const tab of tabs) await tab.page.close();
  if (thrown.length > 0) throw new Error(`a tab threw: ${thrown.join("; ")}`);
}

/** Every POST that starts a run on the protocol's endpoint, from any page of the context, with the page that made it. */
function runsOf(context, protocol) {
  const requests = [];
  context.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === `/api/chat/${protocol}`) requests.push(request.frame().page());
  });
  return requests;
}

/** Every reconnect to a run (the AI SDK's GET .../stream, AG-UI's POST .../connect), with its page. */
function reconnectsOf(context) {
  const requests = [];
  context.on("request", (request) => {
    if (/^\/api\/chat\/[\w-]+\/(.+\/stream|connect)$/.test(new URL(request.url()).pathname)) requests.push(request.frame().page());
  });
  return requests;
}

/** What a page shows of the conversation: each top-level message's text. */
const shown = (chat) => chat.topMessages.evaluateAll((messages) => messages.map((message) => message.innerText));

/** Waits until every tab is idle and shows the same conversation as the first, and returns it. */
async function sameEverywhere(chats) {
  for (const chat of chats) await chat.waitUntilIdle();
  const first = await shown(chats[0]);
  for (const chat of chats.slice(1)) assert.deepEqual(await shown(chat), first, "every tab shows the same conversation");
  return first;
}

/** The same request on a page of its own without tabs (its own sessionStorage), never interrupted. */
async function uninterrupted(context, url, text, ending) {
  const reference = await openTab(context, url);
  await reference.chat.send(text);
  await reference.chat.replyContaining(ending);
  await reference.chat.waitUntilIdle();
  const conversation = await storedConversation(reference.page);
  await closeTabs([reference]);
  return conversation;
}

export const tabsTests = [
  {
    name: "tabs: one request per run: the other tab follows the reply live and both end showing the same",
    tabs: true,
    async run({ page, chat, screenshot, protocol, hold, release }) {
      const runs = runsOf(page.context(), protocol);
      const other = await openTab(page.context(), page.url());
      try {
        // Held before its end: the reply still streams while the other tab is checked.
        await hold("plain: before the end");
        await chat.send("Hello!");
        // Live: the other tab shows the reply while it streams.
        await other.chat.visible(other.chat.stopButton);
        await other.chat.replyContaining("Hello! I'm a scripted agent");
        assert.ok(await chat.stopButton.isVisible(), "the reply still streams");
        await screenshot("following");
        await release("plain: before the end");
        await other.chat.replyContaining("Stop me halfway.");
        await sameEverywhere([chat, other.chat]);
        assert.deepEqual(runs, [page], "one request, from the tab that sent");
        assert.deepEqual(await storedConversation(other.page, "localStorage"), await storedConversation(page, "localStorage"));
        assert.equal(await other.chat.topMessages.count(), 2);
      } finally {
        await closeTabs([other]);
      }
    },
  },
  {
    name: "tabs: a send and a stop from the tab that does not stream run in the tab that streams",
    tabs: true,
    async run({ page, chat, screenshot, serverLine, protocol, hold, release }) {
      const runs = runsOf(page.context(), protocol);
      const other = await openTab(page.context(), page.url());
      try {
        // Each reply held before its end: the send and the stop always land while it streams.
        await hold("plain: before the end");
        await hold("long: before the end");
        await chat.send("Hello!");
        await other.chat.replyContaining("Hello! I'm a scripted agent");
        // Sent from the follower: queued in the tab that streams, shown in both.
        await other.chat.send("Book a table");
        await chat.visible(chat.queued.filter({ hasText: "queued: Book a table" }));
        await other.chat.visible(other.chat.queued.filter({ hasText: "queued: Book a table" }));
        await screenshot("queued-from-the-other-tab");
        await release("plain: before the end");
        await other.chat.replyContaining("Which time suits you?");
        await sameEverywhere([chat, other.chat]);
        assert.deepEqual(runs, [page, page], "both turns requested by the tab that streams");

        // Idle, the other tab sends itself (it streams now); Stop from the first runs there.
        await other.chat.send("Tell me a long story");
        await chat.visible(chat.stopButton);
        await chat.visible(chat.assistantReplies().nth(2).filter({ hasText: "lighthouse keeper" }));
        await chat.stopButton.click();
        await serverLine(/^chat: \S+: long: aborted by the client/);
        const conversation = await sameEverywhere([chat, other.chat]);
        assert.deepEqual(runs, [page, page, other.page]);
        assert.equal(conversation.length, 6);
        assert.ok(!conversation[5].includes("The end."), "the story was cut short");
        await screenshot("stopped-from-the-other-tab");
      } finally {
        await closeTabs([other]);
      }
    },
  },
  {
    name: "tabs: a tab opened mid-run shows the run so far and follows it to the end, with no request of its own",
    tabs: true,
    async run({ page, chat, screenshot, protocol, hold, release }) {
      const runs = runsOf(page.context(), protocol);
      const reconnects = reconnectsOf(page.context());
      // Held halfway until the late tab shows it: the tab always opens mid-run.
      await hold("plain: midway");
      await chat.send("Hello!");
      // Past the first save (every 500 ms while streaming): there is a run so far to show.
      await chat.replyContaining("Ask me to research something");
      const late = await openTab(page.context(), page.url());
      try {
        await late.chat.visible(late.chat.stopButton);
        await late.chat.replyContaining("Hello! I'm a scripted agent");
        assert.ok(!(await shown(late.chat)).at(-1).includes("Stop me halfway."), "opened mid-run");
        await screenshot("opened-mid-run");
        await release("plain: midway");
        await late.chat.replyContaining("Stop me halfway.");
        await sameEverywhere([chat, late.chat]);
        assert.deepEqual(runs, [page]);
        assert.deepEqual(reconnects, [], "the tab opened mid-run did not reconnect to the run: it followed it");
      } finally {
        await closeTabs([late]);
      }
    },
  },
  {
    name: "tabs: the tab that streams closed mid-run: the other takes the run over and ends as a run never interrupted (resumed)",
    tabs: true,
    async run({ page, chat, protocol, hold, release }) {
      const context = page.context();
      const expected = await uninterrupted(context, page.url().replace("&tabs=1", ""), "Hello!", "Stop me halfway.");
      const runs = runsOf(context, protocol);
      const reconnects = reconnectsOf(context);
      const other = await openTab(context, page.url());
      try {
        // Held halfway until the tab that streams is closed: it always closes mid-run.
        await hold("plain: midway");
        await chat.send("Hello!");
        await other.chat.replyContaining("Ask me to delete the old drafts");
        await page.close();
        await release("plain: midway");
        await other.chat.replyContaining("Stop me halfway.");
        await sameEverywhere([other.chat]);
        assert.deepEqual(await storedConversation(other.page, "localStorage"), expected);
        assert.deepEqual(reconnects, [other.page], "the run was resumed, once, by the tab left");
        assert.equal((await shown(other.chat))[1].split("Hello! I'm a scripted agent").length, 2, "nothing doubled");
        assert.equal(runs.length, 1, "one request: the run was not sent again");
        assert.equal(await other.chat.errorBanner.count(), 0);
      } finally {
        await closeTabs([other]);
      }
    },
  },
  {
    name: "tabs: a tab asleep (it hears no other tab) never overwrites newer stored state, and its run is not sent",
    tabs: true,
    protocols: ["actions"],
    async run({ page, chat, screenshot, protocol }) {
      const runs = runsOf(page.context(), protocol);
      const stored = () => page.evaluate(() => localStorage.getItem("chat-session-reducer-demo"));
      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      // Deaf: it never hears another tab's saves (their announcements, nor localStorage's `storage`
      // event), as a frozen tab does not.
      const asleep = await openTab(page.context(), page.url(), () => {
        BroadcastChannel.prototype.addEventListener = () => {};
        const listen = window.addEventListener;
        window.addEventListener = function (type, ...rest) {
          if (type !== "storage") listen.call(this, type, ...rest);
        };
      });
      try {
        await asleep.chat.replyContaining("Stop me halfway.");
        await chat.send("Write a haiku to a file");
        await chat.replyContaining("Saved.");
        await chat.waitUntilIdle();
        const newer = await stored();
        assert.equal(await asleep.chat.topMessages.count(), 2, "the tab asleep shows none of the second turn");
        // Its Reset would save an empty conversation over the newer one: refused, the newer shown.
        await asleep.page.getByTestId("reset").click();
        await asleep.chat.visible(asleep.page.getByRole("status").filter({ hasText: "a newer session (revision" }));
        await asleep.chat.replyContaining("Saved.");
        assert.equal(await stored(), newer, "what the first tab stored is kept");
        assert.deepEqual(await shown(asleep.chat), await shown(chat));
        await screenshot("conflict");

        await chat.send("Hello!");
        await chat.replyContaining("Stop me halfway.");
        await chat.waitUntilIdle();
        const newest = await stored();
        assert.equal(await asleep.chat.topMessages.count(), 4, "asleep again through the third turn");
        // A run started on what it shows is not sent: a newer session is stored, shown instead.
        await asleep.chat.send("Tell me a long story");
        await asleep.chat.waitUntilIdle();
        await asleep.chat.visible(asleep.chat.topMessages.nth(5));
        assert.deepEqual(await shown(asleep.chat), await shown(chat));
        assert.deepEqual(runs, [page, page, page], "the tab asleep sent nothing");
        assert.equal(await stored(), newest);
      } finally {
        await closeTabs([asleep]);
      }
    },
  },
  {
    name: "tabs: seeded runs, tabs opened and the tab that streams closed at random chunk boundaries: one request per run, each ends as the uninterrupted run",
    tabs: true,
    async run({ page, protocol, latestRun, holdChunks, releaseChunks, heldAtChunk, release }) {
      const context = page.context();
      const url = page.url();
      // `page` only measures: the run's own tabs are opened for each run.
      await page.goto(url.replace("&tabs=1", ""));
      const expected = await uninterrupted(context, page.url(), "Hello!", "Stop me halfway.");
      const { chunks: length } = await latestRun();
      const random = createRandom(Number(process.env.E2E_SEED ?? 1));
      const count = Number(process.env.E2E_TABS_RUNS ?? 2);
      const allRuns = runsOf(context, protocol);
      const allReconnects = reconnectsOf(context);
      const figures = { runs: 0, opened: 0, closed: 0, takeovers: 0, failures: [] };
      const started = Date.now();
      for (let index = 0; index < count; index += 1) {
        // At a chunk boundary of the run: a tab opened, and (half the time) the tab that streams closed.
        const plan = { openAt: 1 + random.below(length - 1), closeAt: random.chance(0.5) ? 1 + random.below(length - 1) : undefined };
        await page.evaluate(() => localStorage.clear());
        const [runsBefore, reconnectsBefore] = [allRuns.length, allReconnects.length];
        const tabs = [await openTab(context, url), await openTab(context, url)];
        const [streamer] = tabs;
        try {
          // The run's output stops at each planned boundary until the test has acted there.
          const stops = [...new Set([plan.openAt, plan.closeAt].filter((at) => at !== undefined))].sort((a, b) => a - b);
          await holdChunks(stops);
          const { run: before } = await latestRun();
          await streamer.chat.send("Hello!");
          for (const at of stops) {
            await heldAtChunk(before + 1, at);
            // The tab opens as the run goes on (it loads while frames arrive); the streaming one is
            // closed before any later frame reaches it, so it never ends the run itself.
            const opening = at === plan.openAt ? openTab(context, url) : undefined;
            if (at === plan.closeAt) {
              await streamer.page.close();
              tabs[0] = undefined;
              figures.closed += 1;
            }
            await releaseChunks();
            if (opening !== undefined) {
              tabs.push(await opening);
              figures.opened += 1;
            }
          }
          const open = tabs.filter((tab) => tab !== undefined);
          for (const tab of open) await tab.chat.replyContaining("Stop me halfway.");
          await sameEverywhere(open.map((tab) => tab.chat));
          const what = `run ${index}: ${JSON.stringify(plan)}`;
          const [runs, reconnects] = [allRuns.slice(runsBefore), allReconnects.slice(reconnectsBefore)];
          assert.deepEqual(await storedConversation(open[0].page, "localStorage"), expected, what);
          assert.equal(runs.length, 1, `${what}: one request`);
          for (const tab of open) assert.equal(await tab.chat.errorBanner.count(), 0, what);
          if (tabs[0] === undefined) {
            assert.equal(reconnects.length, 1, `${what}: one reconnect, by the tab that took the run over`);
            figures.takeovers += 1;
          } else assert.deepEqual(reconnects, [], `${what}: no reconnect while the tab that streams is open`);
        } catch (error) {
          figures.failures.push(`run ${index} ${JSON.stringify(plan)}: ${error.message.split("\n")[0]}`);
        } finally {
          figures.runs += 1;
          await release();
          await closeTabs(tabs.filter((tab) => tab !== undefined)).catch((error) => figures.failures.push(`run ${index}: ${error.message}`));
        }
      }
      const seconds = Math.round((Date.now() - started) / 1000);
      console.log(`  ${protocol}: tabs: ${figures.runs} runs (${length} chunks each), ${figures.opened} tabs opened mid-run, ${figures.closed} closed mid-run, ${figures.takeovers} taken over, ${figures.failures.length} failures, ${seconds} s`);
      assert.deepEqual(figures.failures, []);
    },
  },
];
