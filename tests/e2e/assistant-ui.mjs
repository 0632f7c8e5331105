// The demo's ?ui=assistant-ui page (www/src/components/AssistantUiChat.tsx): assistant-ui's
// primitives on chat-session-reducer/assistant-ui's runtime, once per protocol. Driven as the
// other scenarios are (run.mjs gives each the holds of www/agent/scenarios.mjs); a scenario
// covers several steps of one conversation, to keep the suite short.

import assert from "node:assert/strict";

const WAIT_MS = 15_000;

/** The page as these tests see it: its data-testid hooks and text. */
function auiPage(page) {
  const byTestId = (id) => page.getByTestId(id);
  const messages = page.locator('[data-testid="message"]');
  const visible = (locator) => locator.waitFor({ state: "visible", timeout: WAIT_MS });
  const hidden = (locator) => locator.waitFor({ state: "hidden", timeout: WAIT_MS });
  return {
    messages,
    visible,
    hidden,
    stop: byTestId("stop"),
    async send(text) {
      await byTestId("composer").fill(text);
      await byTestId("send").click();
    },
    replies: () => messages.and(page.locator('[data-role="assistant"]')),
    questions: () => messages.and(page.locator('[data-role="user"]')),
    async replyContaining(text) {
      await visible(messages.and(page.locator('[data-role="assistant"]')).last().filter({ hasText: text }));
    },
    /** What a message shows, without its bar (Edit, Regenerate, the branch picker). */
    textOf: (message) => message.evaluate((element) => [...element.querySelectorAll(".text")].map((part) => part.textContent).join("")),
    tool: (name) => page.locator(`[data-testid="tool-call"][data-name="${name}"]`).last(),
    branch: (message, position) => visible(message.getByTestId("branch-position").filter({ hasText: new RegExp(`^${position}$`) })),
    async idle() {
      await hidden(byTestId("stop"));
    },
  };
}

/** Every POST that starts a run on the protocol's endpoint. */
function runsOf(page, protocol) {
  const requests = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === `/api/chat/${protocol}`) requests.push(request);
  });
  return requests;
}

export const assistantUiTests = [
  {
    name: "assistant-ui: a reply streams, Stop ends it, Regenerate streams another (2/2) and the branch picker brings the stopped one back",
    async run({ page, screenshot, hold, release, protocol }) {
      const chat = auiPage(page);
      const runs = runsOf(page, protocol);
      await hold("long: after the first paragraph");
      await chat.send("Tell me a long story");
      await chat.replyContaining("lighthouse keeper");
      await chat.stop.click();
      await chat.idle();
      await release("long: after the first paragraph");
      const stopped = await chat.textOf(chat.replies().last());
      assert.ok(!stopped.includes("The end."), "Stop cut the story");
      await screenshot("stopped");
      await chat.replies().last().hover();
      await chat.replies().last().getByTestId("regenerate").click();
      await chat.replyContaining("The end.");
      await chat.idle();
      await chat.branch(chat.replies().last(), "2/2");
      assert.equal(runs.length, 2);
      await chat.replies().last().getByTestId("branch-previous").click();
      await chat.branch(chat.replies().last(), "1/2");
      assert.equal(await chat.textOf(chat.replies().last()), stopped);
      assert.equal(runs.length, 2, "switching makes no request");
      await screenshot("switched-back");
    },
  },
  {
    name: "assistant-ui: a tool UI approves one call and denies the next; a client tool is answered from its UI",
    async run({ page, screenshot }) {
      const chat = auiPage(page);
      await chat.send("Delete the old drafts");
      await chat.visible(chat.tool("delete_drafts").getByText("Delete 3 drafts older than 30 days?"));
      await chat.idle();
      await chat.tool("delete_drafts").getByTestId("approve").click();
      await chat.replyContaining("the 3 old drafts are deleted.");
      await chat.idle();
      assert.match(await chat.tool("delete_drafts").innerText(), /Deleted 3 drafts/);
      await chat.send("Delete the drafts again");
      await chat.visible(chat.tool("delete_drafts").getByTestId("deny"));
      await chat.idle();
      await chat.tool("delete_drafts").getByTestId("deny").click();
      await chat.replyContaining("I left the drafts alone.");
      await chat.idle();
      assert.equal(await chat.tool("delete_drafts").getAttribute("data-error"), "true");
      await screenshot("approved-and-denied");
      await chat.send("Book a table");
      await chat.visible(chat.tool("pick_time").getByTestId("pick-time").first());
      await chat.idle();
      await chat.tool("pick_time").getByTestId("pick-time").filter({ hasText: "8 pm" }).click();
      await chat.replyContaining("Booked a table for 8 pm.");
      await chat.idle();
      assert.equal(await chat.tool("pick_time").getByTestId("pick-time").count(), 0);
      await screenshot("answered");
    },
  },
  {
    name: "assistant-ui: Edit makes a branch (2/2) and switching back shows the first question and its reply",
    async run({ page, screenshot, protocol }) {
      const chat = auiPage(page);
      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.idle();
      const runs = runsOf(page, protocol);
      const question = chat.questions().first();
      await question.hover();
      await question.getByTestId("edit").click();
      await page.getByTestId("edit-input").fill("Book a table");
      await page.getByTestId("edit-save").click();
      await chat.replyContaining("Which time suits you?");
      await chat.idle();
      await chat.branch(chat.questions().first(), "2/2");
      assert.equal(runs.length, 1);
      assert.ok(!JSON.stringify(runs[0].postDataJSON()).includes("scripted agent"), "the request carries the new branch only");
      await chat.questions().first().getByTestId("branch-previous").click();
      await chat.branch(chat.questions().first(), "1/2");
      assert.equal(await chat.textOf(chat.questions().first()), "Hello!");
      await chat.replyContaining("Stop me halfway.");
      await screenshot("switched-back");
      await chat.questions().first().getByTestId("branch-next").click();
      await chat.branch(chat.questions().first(), "2/2");
      await chat.replyContaining("Which time suits you?");
      assert.equal(runs.length, 1, "switching makes no request");
    },
  },
  {
    name: "assistant-ui: a message sent while a reply streams is queued, then sent; a reload mid-reply goes on",
    async run({ page, screenshot, hold, release, held, protocol }) {
      const chat = auiPage(page);
      const runs = runsOf(page, protocol);
      await hold("long: before the end");
      await chat.send("Tell me a long story");
      await chat.replyContaining("lighthouse keeper");
      await chat.send("Hello!");
      await chat.visible(page.getByTestId("queued").filter({ hasText: "Hello!" }));
      assert.equal(await chat.questions().count(), 1, "the queued message is not in the thread yet");
      await screenshot("queued");
      await release("long: before the end");
      await chat.replyContaining("Stop me halfway.");
      await chat.idle();
      assert.equal(runs.length, 2, "one request per turn");
      assert.equal(await page.getByTestId("queued").count(), 0);
      // A reload mid-reply: restored still streaming, it reconnects and ends whole.
      await hold("plain: midway");
      await chat.send("Hi again");
      await held("plain: midway");
      await page.reload();
      await chat.visible(chat.stop);
      await release("plain: midway");
      await chat.replyContaining("Stop me halfway.");
      await chat.idle();
      const reply = await chat.textOf(chat.replies().last());
      assert.equal(reply.split("Hello! I'm a scripted agent").length, 2, "the replayed text is not doubled");
      await screenshot("reloaded");
    },
  },
  {
    name: "assistant-ui: an attachment from the composer is sent as a file part and shown on the message",
    async run({ page, screenshot, protocol }) {
      const chat = auiPage(page);
      const runs = runsOf(page, protocol);
      const chooser = page.waitForEvent("filechooser");
      await page.getByTestId("attach").click();
      await (await chooser).setFiles({ name: "dot.png", mimeType: "image/png", buffer: Buffer.from([137, 80, 78, 71]) });
      await chat.visible(page.getByTestId("pending-attachment").filter({ hasText: "dot.png" }));
      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.idle();
      await chat.visible(chat.questions().first().getByTestId("attachment").filter({ hasText: "dot.png" }));
      // Each protocol's body carries the file: AG-UI as an image part with the bytes inline.
      const body = runs[0].postDataJSON();
      const question = body.messages.find((message) => message.role === "user");
      const carried = protocol === "ag-ui"
        ? question.content.find((item) => item.type === "image")
        : question.parts.find((part) => part.type === "file" || part.name === "file");
      assert.ok(carried, "the request carries the file");
      if (protocol === "ag-ui") assert.deepEqual(carried, { type: "image", source: { type: "data", value: "iVBORw==", mimeType: "image/png" }, metadata: { filename: "dot.png" } });
      // And the server stored it as the page holds it, so the agent and a reload get it back.
      const id = body.threadId ?? body.id;
      const stored = await page.evaluate(async (id) => (await (await fetch(`/api/conversations/${encodeURIComponent(id)}`)).json()).state, id);
      assert.deepEqual(stored.messages[0].parts.find((part) => part.name === "file"), {
        type: "data",
        name: "file",
        data: { mediaType: "image/png", url: "data:image/png;base64,iVBORw==", filename: "dot.png" },
      });
      await screenshot("attachment");
    },
  },
];
