// The demo's thread list (?threads=1, chat-session-reducer/conversations with the server's list), driven through the
// page: a reply streams on in the background while another conversation is on screen, never
// mixing into it; its mark shows streaming, then unread; it ends stored as an uninterrupted run;
// reopened mid-run it follows the live run; a reload while it streams in the background resumes
// it on reopening where the protocol can (AI SDK, AG-UI), else it is stopped there.

import assert from "node:assert/strict";
import { chatPage } from "./chatPage.mjs";

const LONG = "Tell me a long story";
const MIDWAY = "nobody had asked for";

/** The demo with the thread list, in the test's protocol. */
export async function threadsPage(page) {
  const address = new URL(page.url());
  address.searchParams.set("threads", "1");
  await page.goto(address.href);
  return chatPage(page);
}

export const threadId = (page) => page.evaluate(() => new URL(location.href).searchParams.get("thread"));
export const thread = (page, id) => page.locator(`[data-testid="thread"][data-id="${id}"]`);
const mark = async (page, id) => {
  const entry = thread(page, id);
  return { status: await entry.getAttribute("data-status"), unread: await entry.getAttribute("data-unread"), waiting: await entry.getAttribute("data-waiting") };
};
const waitForMark = (page, id, name, value) => page.locator(`[data-testid="thread"][data-id="${id}"][data-${name}="${value}"]`).waitFor({ timeout: 20_000 });

/** Conversation `id` as the tab stored it, its random ids (user_…, msg_…) numbered in order. */
async function storedThread(page, id) {
  const stored = await page.evaluate((key) => sessionStorage.getItem(key), `chat-session-reducer-demo:${id}`);
  const ids = new Map();
  const numbered = stored.replace(/\b(user|msg|call)_[0-9a-f]{8,16}\b/g, (found, kind) => {
    if (!ids.has(found)) ids.set(found, `${kind}#${ids.size}`);
    return ids.get(found);
  });
  return JSON.parse(numbered).state;
}

// The uninterrupted story of each protocol, played once for the scenarios that compare with it.
const references = new Map();

/** The long story, never interrupted, in a tab of its own: what conversation A must end as. */
async function uninterruptedStory(page, protocol) {
  if (!references.has(protocol)) references.set(protocol, await playedStory(page));
  return references.get(protocol);
}

async function playedStory(page) {
  const other = await page.context().newPage();
  await other.goto(page.url());
  const reference = await threadsPage(other);
  await reference.send(LONG);
  await reference.replyContaining("The end.");
  await reference.waitUntilIdle();
  const state = await storedThread(other, await threadId(other));
  await other.close();
  return state;
}

/** Every POST that starts a run on the protocol's endpoint (not a reconnect or a stop), by
 *  conversation: its id (AI SDK and this package's `id`, AG-UI `threadId`). */
function runsOf(page, protocol) {
  const runs = [];
  page.on("request", (request) => {
    if (request.method() !== "POST" || new URL(request.url()).pathname !== `/api/chat/${protocol}`) return;
    const body = request.postDataJSON();
    runs.push(body.id ?? body.threadId);
  });
  return runs;
}

/** A's long story started, and B opened (new) while it streams. */
async function storyThenNew(page, chat) {
  await chat.send(LONG);
  await chat.replyContaining(MIDWAY);
  const a = await threadId(page);
  await page.getByTestId("new-conversation").click();
  const b = await threadId(page);
  assert.notEqual(b, a);
  return { a, b };
}

export const threadScenarios = [
  {
    name: "threads: a long reply in A goes on in the background while B chats; A's mark shows streaming then unread; A ends as an uninterrupted run",
    async run({ page, screenshot, protocol, hold, release }) {
      const uninterrupted = await uninterruptedStory(page, protocol);
      const chat = await threadsPage(page);
      const runs = runsOf(page, protocol);
      // Held before its end until B's turn is over: A streams through all of it.
      await hold("long: before the end");
      const { a, b } = await storyThenNew(page, chat);
      assert.equal((await mark(page, a)).status, "streaming");
      assert.equal(await chat.topMessages.count(), 0, "B starts empty");
      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.waitUntilIdle();
      assert.ok(!(await page.getByTestId("conversation").innerText()).includes(MIDWAY), "B never shows A's content");
      await screenshot("b-while-a-streams");
      assert.equal((await mark(page, a)).status, "streaming", "A still streams once B's turn is over");
      await release("long: before the end");
      await waitForMark(page, a, "status", "idle");
      assert.deepEqual(await mark(page, a), { status: "idle", unread: "true", waiting: "false" });
      assert.ok(!(await page.getByTestId("conversation").innerText()).includes(MIDWAY), "nor after A ended");
      assert.deepEqual(await storedThread(page, a), uninterrupted);
      await thread(page, a).click();
      await chat.replyContaining("The end.");
      assert.equal((await mark(page, a)).unread, "false", "opened: read");
      const text = await chat.topMessages.last().innerText();
      assert.equal(text.split("The end.").length, 2, "nothing doubled");
      assert.deepEqual(runs, [a, b], "one request per run, each with its conversation's id");
      await screenshot("a-reopened");
    },
  },
  {
    name: "threads: reopening A while its reply streams in the background follows the live run (one request)",
    async run({ page, screenshot, protocol, hold, held, release }) {
      const uninterrupted = await uninterruptedStory(page, protocol);
      const chat = await threadsPage(page);
      const runs = runsOf(page, protocol);
      // A streams in the background through its first paragraph, held there until reopened.
      await hold("long: after the first paragraph");
      const { a } = await storyThenNew(page, chat);
      await held("long: after the first paragraph");
      await thread(page, a).click();
      await chat.visible(chat.stopButton);
      await release("long: after the first paragraph");
      await chat.replyContaining("The end.");
      await chat.waitUntilIdle();
      assert.deepEqual(await storedThread(page, a), uninterrupted);
      assert.deepEqual(runs, [a], "the run was taken back, not sent again");
      assert.equal((await chat.topMessages.last().innerText()).split("The end.").length, 2, "nothing doubled");
      await screenshot("followed");
    },
  },
  {
    name: "threads: a reload while A streams in the background lists A; reopened, it resumes",
    async run({ page, screenshot, protocol, hold, release }) {
      const uninterrupted = await uninterruptedStory(page, protocol);
      const chat = await threadsPage(page);
      const runs = runsOf(page, protocol);
      // Held before its end until reopened: the reload always lands mid-reply.
      await hold("long: before the end");
      const { a, b } = await storyThenNew(page, chat);
      await page.reload();
      assert.equal(await threadId(page), b, "the reload reopens the conversation on screen");
      await thread(page, a).waitFor();
      // Nothing of A runs in the reloaded page until it is opened: the server's list says its run goes on there.
      await waitForMark(page, a, "status", "streaming");
      await thread(page, a).click();
      await release("long: before the end");
      await chat.replyContaining("The end.");
      await chat.waitUntilIdle();
      assert.deepEqual(await storedThread(page, a), uninterrupted);
      assert.equal((await chat.topMessages.last().innerText()).split("The end.").length, 2, "nothing doubled");
      assert.deepEqual(runs, [a], "one request: the reopened reply was reconnected to, never sent again");
      await screenshot("reopened-after-reload");
    },
  },
];
