// Long threads in the demo (issue 34 items 2 and 3): the message list virtualised by
// react-virtuoso, older pages loaded on scroll-up, a streamed reply pinned to the end unless the
// user scrolled up. The conversations are seeded through the demo's test hook.

import assert from "node:assert/strict";
import { storedConversation } from "./scenarios.mjs";

/** `count` messages, a question and its answer in turn: "question 0", "answer 0", … */
const thread = (count) =>
  Array.from({ length: count }, (_, index) => ({
    id: `m-${index}`,
    role: index % 2 === 0 ? "user" : "assistant",
    parts: [{ type: "text", text: `${index % 2 === 0 ? "question" : "answer"} ${index >> 1}` }],
  }));

/** Stores the conversation on the server (POST /api/test/conversation) and opens it in this tab,
 *  which holds `held` of its newest messages (none: the tab loads the newest page itself). */
async function seed(page, id, messages, held) {
  await page.evaluate(
    async ({ id, messages, held }) => {
      const response = await fetch("/api/test/conversation", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id, state: { messages, status: "idle" } }) });
      if (!response.ok) throw new Error(`storing the conversation: HTTP ${response.status}`);
      const state = { messages: held === 0 ? [] : messages.slice(-held), status: "idle" };
      sessionStorage.setItem("chat-session-reducer-demo", JSON.stringify({ format: "chat-session-reducer", version: 3, id, state }));
    },
    { id, messages, held },
  );
  await page.reload();
}

/** A message's text as a pattern: its rows' text runs on into the bar under it ("answer 59Regenerate"). */
const saying = (text) => new RegExp(`^${text}(?!\\d)`);

const scrollerOf = (page) => page.getByTestId("message-scroller");

/** Whether the scroller is scrolled to its end (within a pixel: scroll positions are fractional). */
const atEnd = (scroller) => scroller.evaluate((element) => element.scrollTop + element.clientHeight >= element.scrollHeight - 1);

/** Waits until the scroller is at its end; fails (times out) if it never gets there. */
const waitAtEnd = (page) =>
  page.waitForFunction(() => {
    const element = document.querySelector('[data-testid="message-scroller"]');
    return element !== null && element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
  });

/** Whether the element is wholly inside the scroller's visible box. */
const inView = async (locator, scroller) =>
  scroller.evaluate((element, target) => {
    const box = element.getBoundingClientRect();
    const row = target.getBoundingClientRect();
    return row.top >= box.top - 1 && row.bottom <= box.bottom + 1;
  }, await locator.elementHandle());

export const longThreadScenarios = [
  {
    name: "scrolling up loads the older page from the server, and the message read stays where it was",
    protocols: ["actions"],
    async run({ page, chat, screenshot }) {
      // 120 messages on the server; this tab holds the conversation's id and nothing of it yet.
      await seed(page, "long-thread", thread(120), 0);
      await chat.visible(chat.topMessages.filter({ hasText: saying("answer 59") }));
      assert.equal((await storedConversation(page)).messages.length, 50, "the newest page only");
      // The next page's request waits until the message read has been measured at the top.
      const request = new Promise((resolve) => {
        void page.route((url) => url.pathname === "/api/conversations/long-thread" && url.searchParams.has("before"), resolve);
      });
      await scrollerOf(page).evaluate((element) => element.scrollTo(0, 0));
      const route = await request;
      const read = chat.topMessages.filter({ hasText: saying("question 35") });
      await chat.visible(read);
      const before = (await read.boundingBox()).y;
      await route.continue();
      // The message just above it came in the older page.
      await chat.visible(chat.topMessages.filter({ hasText: saying("answer 34") }));
      const after = (await read.boundingBox()).y;
      // Virtuoso puts the page in front by the rows' measured heights: a few pixels at most (2.25 measured).
      assert.ok(Math.abs(after - before) < 4, `the message read moved from ${before} to ${after}`);
      assert.equal((await storedConversation(page)).messages.length, 100, "the tab keeps the page loaded");
      await screenshot("older-loaded");
    },
  },
  {
    name: "at 5,000 messages only a window of rows is in the DOM, and a streamed reply keeps the view pinned to the end",
    protocols: ["actions"],
    async run({ page, chat, screenshot, hold, held, release }) {
      await seed(page, "five-thousand", thread(5000), 5000);
      await chat.visible(chat.topMessages.filter({ hasText: saying("answer 2499") }));
      const rows = await chat.topMessages.count();
      assert.ok(rows > 0 && rows < 100, `${rows} rows in the DOM`);
      assert.ok(await atEnd(scrollerOf(page)), "it opens at the end");

      await hold("long: before the end");
      await chat.send("Tell me a long story");
      await held("long: before the end");
      await waitAtEnd(page);
      await release("long: before the end");
      const reply = await chat.replyContaining("The end.");
      await chat.waitUntilIdle();
      await waitAtEnd(page);
      assert.ok(await inView(reply, scrollerOf(page)), "the reply's end is in view");
      assert.ok((await chat.topMessages.count()) < 100, "still a window of rows");
      await screenshot("pinned");
    },
  },
  {
    name: "at 5,000 messages, after the user scrolls up, a streamed reply does not move the view",
    protocols: ["actions"],
    async run({ page, chat, screenshot, serverLine }) {
      await seed(page, "five-thousand-up", thread(5000), 5000);
      await chat.visible(chat.topMessages.filter({ hasText: saying("answer 2499") }));
      // The message at the top of the view once scrolled up.
      await scrollerOf(page).evaluate((element) => element.scrollBy(0, -3000));
      const text = await page
        .waitForFunction(() => {
          const element = document.querySelector('[data-testid="message-scroller"]');
          const { top, bottom } = element.getBoundingClientRect();
          const first = [...element.querySelectorAll('[data-testid="message"]')].find((message) => message.getBoundingClientRect().top >= top && message.getBoundingClientRect().bottom <= bottom);
          return first?.querySelector(".text").textContent;
        })
        .then((handle) => handle.jsonValue());
      const read = chat.topMessages.filter({ hasText: saying(text) });
      await chat.visible(read);
      const before = (await read.boundingBox()).y;

      await chat.send("Tell me a long story");
      await serverLine(/^chat: actions: long: finished/);
      await page.waitForFunction(() => sessionStorage.getItem("chat-session-reducer-demo").includes("The end."));
      await chat.waitUntilIdle();
      assert.ok(!(await atEnd(scrollerOf(page))), "the view stays where the user scrolled");
      const after = (await read.boundingBox()).y;
      assert.ok(Math.abs(after - before) < 2, `the message read moved from ${before} to ${after}`);
      await screenshot("scrolled-up");
    },
  },
];
