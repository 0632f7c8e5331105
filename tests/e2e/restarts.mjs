// The demo on its server across restarts and browser profiles: the server's process restarted
// (its SIGTERM path, and a SIGKILL) while a reply streams, then a reload: the conversation shows
// the partial reply with the interrupted error part, never left streaming, as the server stored
// it, and Retry goes on; an approval pending across a crash is approved after the reload and the
// run goes on to its end, stored as shown. The thread list (?threads=1) is the server's per owner:
// another profile given the first's cookie (as a sign-in would) lists and opens its conversation
// with its messages; a third, with its own cookie, sees none of it.

import assert from "node:assert/strict";
import { launchChromium } from "../chromium.mjs";
import { chatPage } from "./chatPage.mjs";
import { thread, threadId, threadsPage } from "./threads.mjs";

const LONG = "Tell me a long story";
const FIRST_PARAGRAPH = "long: after the first paragraph";
const INTERRUPTED = "The reply was interrupted: the server restarted before it finished.";

/** Conversation `id` as the server stores it for this page's owner (its cookie), and as the tab stored it under `key`. */
const copies = (page, id, key) =>
  page.evaluate(
    async ({ id, key }) => ({
      server: (await (await fetch(`/api/conversations/${encodeURIComponent(id)}`)).json()).state,
      tab: JSON.parse(sessionStorage.getItem(key)).state,
    }),
    { id, key },
  );

/** Waits until the server's copy of conversation `id` holds some of the streaming reply's text. */
const storedPartial = (page, id) =>
  page.waitForFunction(
    async (id) => {
      const response = await fetch(`/api/conversations/${encodeURIComponent(id)}`);
      if (!response.ok) return false;
      const last = (await response.json()).state.messages.at(-1);
      return last?.role === "assistant" && last.parts.some((part) => part.type === "text" && part.text.length > 0);
    },
    id,
    { polling: 100 },
  );

/** Waits until the server has stored conversation `id` as not streaming (its run's last save landed). */
const storedSettled = (page, id) =>
  page.waitForFunction(
    async (id) => {
      const response = await fetch(`/api/conversations/${encodeURIComponent(id)}`);
      return response.ok && (await response.json()).state.status !== "streaming";
    },
    id,
    { polling: 100 },
  );

/** A restart while the long story streams (held after its first paragraph), then a reload, then Retry. */
function restartMidRun(signal) {
  return {
    name: `threads: the server restarted (${signal}) while a reply streams: after a reload the partial reply shows with the interrupted error, as stored, and Retry goes on to the end`,
    async run({ page, screenshot, hold, held, restart }) {
      const chat = await threadsPage(page);
      await hold(FIRST_PARAGRAPH);
      await chat.send(LONG);
      await held(FIRST_PARAGRAPH);
      await chat.visible(chat.assistantReplies().last());
      const id = await threadId(page);
      // A SIGKILL loses what came after the server's last save (a save lands within saveEveryMs):
      // the partial reply the test asserts is the one the server had stored when it died.
      await storedPartial(page, id);
      await restart(signal);
      await page.reload();
      await chat.visible(chat.errorBanner);
      assert.match(await chat.errorBanner.innerText(), /interrupted: the server restarted/);
      await chat.waitUntilIdle();
      // The virtualised list renders its rows hidden until they are measured: wait until the
      // reply's text shows (innerText, as the user sees it), then read it.
      await page.waitForFunction(() => {
        const replies = document.querySelectorAll('[data-testid="messages"] > li > [data-testid="message"][data-role="assistant"]');
        return replies.length > 0 && replies[replies.length - 1].querySelector(".text")?.innerText.trim().length > 0;
      });
      const partial = await chat.contentOf(chat.assistantReplies().last());
      assert.ok(partial.length > 0 && !partial.includes("The end."), `the partial reply kept: ${JSON.stringify(partial)}`);
      const stored = await copies(page, id, `chat-session-reducer-demo:${id}`);
      assert.equal(stored.server.status, "error");
      assert.equal(stored.server.error.message, INTERRUPTED);
      assert.deepEqual(stored.tab, stored.server, "shown as the server stored it");
      await screenshot("interrupted");
      await chat.retryButton.click();
      await chat.replyContaining("The end.");
      await chat.waitUntilIdle();
      assert.equal(await chat.errorBanner.count(), 0);
      const after = await copies(page, id, `chat-session-reducer-demo:${id}`);
      assert.equal(after.server.status, "idle");
      assert.deepEqual(after.tab, after.server, "the retried reply stored as shown");
      await screenshot("retried");
    },
  };
}

export const restartScenarios = [
  restartMidRun("SIGTERM"),
  restartMidRun("SIGKILL"),
  {
    name: "an approval pending when the server crashes (SIGKILL): after the restart and a reload, approving goes on to the run's end, stored as shown",
    async run({ page, chat, screenshot, restart, serverLine }) {
      await chat.send("Delete the old drafts");
      const call = chat.toolCall("delete_drafts");
      await chat.waitForToolState(call, "awaiting-confirmation");
      await chat.waitUntilIdle();
      // The client sees the run end before its last save lands; a SIGKILL in between would lose it.
      await storedSettled(page, JSON.parse(await page.evaluate(() => sessionStorage.getItem("chat-session-reducer-demo"))).id);
      await restart("SIGKILL");
      await page.reload();
      await chat.visible(call.getByTestId("approve"));
      await call.getByTestId("approve").click();
      await serverLine(/: approval \(resumed\): finished/);
      await chat.waitForToolState(call, "done");
      await chat.replyContaining("the 3 old drafts are deleted.");
      await chat.waitUntilIdle();
      const { id } = await page.evaluate(() => JSON.parse(sessionStorage.getItem("chat-session-reducer-demo")));
      const stored = await copies(page, id, "chat-session-reducer-demo");
      assert.equal(stored.server.status, "idle");
      assert.deepEqual(stored.tab, stored.server, "stored as shown");
      await screenshot("approved-after-restart");
    },
  },
  {
    name: "threads: another browser profile given this one's owner cookie (a sign-in) lists the conversation and opens it with its messages; a profile with its own cookie sees none of it",
    protocols: ["ai-sdk"],
    async run({ page, screenshot, protocol }) {
      const chat = await threadsPage(page);
      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      const id = await threadId(page);
      const shown = await chat.topMessages.allInnerTexts();
      const home = `${new URL(page.url()).origin}/?protocol=${protocol}&threads=1`;
      const profiles = [];
      try {
        const signedIn = await launchChromium({ viewport: { width: 900, height: 900 } });
        profiles.push(signedIn);
        await signedIn.context.addCookies(await page.context().cookies());
        const second = await signedIn.context.newPage();
        await second.goto(home);
        await thread(second, id).click();
        const secondChat = chatPage(second);
        await secondChat.replyContaining("Stop me halfway.");
        assert.deepEqual(await secondChat.topMessages.allInnerTexts(), shown, "its messages, as the first profile shows them");
        assert.equal(await thread(second, id).locator(".thread-title").innerText(), "Hello!");

        const stranger = await launchChromium({ viewport: { width: 900, height: 900 } });
        profiles.push(stranger);
        const third = await stranger.context.newPage();
        const listed = third.waitForResponse((response) => new URL(response.url()).pathname === "/api/conversations");
        const read = third.waitForResponse((response) => new URL(response.url()).pathname === `/api/conversations/${id}`);
        await third.goto(`${home}&thread=${encodeURIComponent(id)}`);
        assert.deepEqual((await (await listed).json()).conversations, [], "its own owner's list: empty");
        assert.equal((await read).status(), 404, "another owner's conversation is not found");
        await chatPage(third).visible(third.getByText("Pick a prompt below"));
        assert.equal(await third.locator('[data-testid="thread"]').count(), 0);
        assert.equal(await chatPage(third).topMessages.count(), 0, "the id opens nothing of the other owner's");
      } finally {
        for (const profile of profiles) await profile.close();
      }
      await screenshot("first-profile");
    },
  },
];
