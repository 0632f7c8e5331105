// Every scenario of the demo, driven through the page as a user would.
// Each test gets a fresh tab (so an empty sessionStorage) on the running demo, the chat page
// helpers, `serverLine(pattern)` (waits for a line the server prints from this test on) and
// `screenshot(name)`.

import assert from "node:assert/strict";

export const tests = [
  {
    name: "plain answer streams in and keeps its reasoning without showing it",
    async run({ page, chat, screenshot }) {
      await chat.send("Hello!");
      await chat.visible(chat.stopButton);
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
    name: "a tool call awaiting confirmation runs once approved",
    async run({ page, chat, screenshot, serverLine }) {
      await chat.send("Delete the old drafts");
      const call = chat.toolCall("delete_drafts");
      await chat.waitForToolState(call, "awaiting-confirmation");
      await chat.visible(call.getByText("Delete 3 drafts older than 30 days?"));
      await screenshot("awaiting-confirmation");
      await call.getByTestId("approve").click();
      await serverLine(/ approved$/);
      await chat.waitForToolState(call, "done");
      await chat.visible(call.getByText("Deleted 3 drafts"));
      await chat.replyContaining("the 3 old drafts are deleted.");
      await chat.waitUntilIdle();
      assert.equal(await page.getByTestId("approve").count(), 0);
      await screenshot("approved");
    },
  },
  {
    name: "Deny ends the call cancelled and the agent carries on without it",
    async run({ page, chat, screenshot, serverLine }) {
      await chat.send("Delete the old drafts");
      const call = chat.toolCall("delete_drafts");
      await chat.waitForToolState(call, "awaiting-confirmation");
      await call.getByTestId("deny").click();
      await chat.waitForToolState(call, "cancelled");
      await serverLine(/ denied$/);
      await chat.visible(call.getByText("Denied by the user."));
      await chat.replyContaining("I left the drafts alone.");
      await chat.waitUntilIdle();
      assert.equal(await call.getAttribute("data-state"), "cancelled", "a cancelled call never changes state again");
      assert.equal(await page.getByTestId("approve").count() + (await page.getByTestId("deny").count()), 0);
      await screenshot("denied");
    },
  },
  {
    name: "a delegate_to_* call shows its sub-agent's run nested and indented",
    async run({ chat, screenshot }) {
      await chat.send("Research WebAssembly");
      const delegate = chat.toolCall("delegate_to_researcher");
      const search = chat.toolCall("web_search", delegate);
      await chat.waitForToolState(search, "running");
      await chat.waitForToolState(delegate, "running");
      await screenshot("sub-agent-running");
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
    name: "a reload mid-stream restores the conversation with its running calls cancelled",
    async run({ page, chat, screenshot, serverLine }) {
      await chat.send("Research Rust");
      const delegate = chat.toolCall("delegate_to_researcher");
      const search = chat.toolCall("web_search", delegate);
      await chat.waitForToolState(search, "running");
      await page.reload();
      await serverLine(/^chat: delegation: aborted by the client/);

      await chat.visible(search);
      await chat.waitForToolState(delegate, "cancelled");
      await chat.waitForToolState(search, "cancelled");
      await chat.waitUntilIdle();
      assert.equal(await chat.topMessages.count(), 2);
      assert.equal(await chat.topMessages.first().innerText(), "Research Rust");
      assert.match(await chat.topMessages.last().innerText(), /I'll hand this to the research agent\./);
      assert.match(await delegate.innerText(), /Searching for sources\./);
      await screenshot("restored");
    },
  },
  {
    name: "Retry after a network failure re-sends the conversation through the finished tool call",
    async run({ page, chat, screenshot }) {
      await chat.send("What's the weather in Lisbon?");
      await chat.visible(chat.errorBanner.filter({ hasText: "Connection problem" }));
      const weather = chat.toolCall("get_weather");
      await chat.waitForToolState(weather, "done");
      await chat.visible(chat.retryButton);
      assert.match(await chat.assistantReplies().last().innerText(), /In Lisbon it is\s*$/);
      await screenshot("failed");

      const retried = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/api/chat"));
      await chat.retryButton.click();
      const { messages } = (await retried).postDataJSON();
      assert.deepEqual(
        messages.map((message) => message.role),
        ["user", "assistant"],
      );
      const sentParts = messages[1].parts;
      assert.deepEqual(
        sentParts.map((part) => part.type),
        ["text", "tool"],
        "the reply cut short after the finished call is not re-sent",
      );
      assert.equal(sentParts[1].name, "get_weather");
      assert.equal(sentParts[1].state, "done");

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
    async run({ chat, screenshot, serverLine }) {
      await chat.send("Tell me a long story");
      const reply = await chat.replyContaining("nobody had asked for");
      await chat.stopButton.click();
      await chat.waitUntilIdle();
      const textAtStop = await reply.innerText();
      await serverLine(/^chat: long: aborted by the client/);
      assert.equal(await reply.innerText(), textAtStop);
      assert.ok(!textAtStop.includes("The end."), "the story was cut short");
      await screenshot("stopped");
    },
  },
  {
    name: "Reset mid-stream empties the conversation, stops the run, and stays empty after a reload",
    async run({ page, chat, screenshot, serverLine }) {
      await chat.send("Tell me a long story");
      await chat.replyContaining("lighthouse keeper");
      await chat.resetButton.click();
      await chat.waitUntilIdle();
      assert.equal(await chat.topMessages.count(), 0);
      await serverLine(/^chat: long: aborted by the client/);
      await page.reload();
      await chat.visible(page.getByText("Pick a prompt below"));
      assert.equal(await chat.topMessages.count(), 0);
      await screenshot("reset");
    },
  },
  {
    name: "a frame that is not a valid action ends the run with a clear error, not a crash",
    async run({ page, chat, screenshot }) {
      await chat.send("Send a malformed frame");
      const banner = chat.errorBanner.filter({ hasText: "malformed frame" });
      await chat.visible(banner);
      assert.match(await banner.innerText(), /stream\[\d+\]: action\.part\.id/);
      await chat.waitUntilIdle();
      assert.match(await chat.assistantReplies().last().innerText(), /does not match the types:$/);
      assert.equal(await page.getByText("this text must never show").count(), 0);
      await screenshot("malformed");

      await chat.send("Hello!");
      await chat.replyContaining("Stop me halfway.");
      await chat.hidden(chat.errorBanner);
    },
  },
  {
    name: "a line that is not JSON ends the run with a clear error",
    async run({ page, chat, screenshot }) {
      await chat.send("Send a garbled line");
      const banner = chat.errorBanner.filter({ hasText: "not JSON" });
      await chat.visible(banner);
      await chat.waitUntilIdle();
      assert.equal(await page.getByText("this text must never show").count(), 0);
      await screenshot("garbled");
    },
  },
];
