// The demo page as the tests see it: only through its data-testid hooks and visible text.

const WAIT_MS = 15_000;

export function chatPage(page) {
  const byTestId = (id) => page.locator(`[data-testid="${id}"]`);
  // Top-level messages only (a sub-agent's messages sit inside a tool call), those the virtual
  // list has in the DOM: all of a short conversation, a window of a long one.
  const topMessages = page.locator('[data-testid="messages"] > li > [data-testid="message"]');
  const visible = (locator) => locator.waitFor({ state: "visible", timeout: WAIT_MS });
  const hidden = (locator) => locator.waitFor({ state: "hidden", timeout: WAIT_MS });

  return {
    composer: byTestId("composer"),
    sendButton: byTestId("send"),
    stopButton: byTestId("stop"),
    retryButton: byTestId("retry"),
    resetButton: byTestId("reset"),
    errorBanner: byTestId("error"),
    toolCalls: byTestId("tool-call"),
    queued: byTestId("queued"),
    topMessages,
    visible,
    hidden,

    async send(text) {
      await this.composer.fill(text);
      await this.sendButton.click();
    },
    assistantReplies() {
      return topMessages.and(page.locator('[data-role="assistant"]'));
    },
    /** The last top-level assistant message, once it contains `text`. */
    async replyContaining(text) {
      const reply = this.assistantReplies().last();
      await visible(reply.filter({ hasText: text }));
      return reply;
    },
    toolCall(name, scope = page) {
      return scope.locator(`[data-testid="tool-call"][data-name="${name}"]`);
    },
    async waitForToolState(call, state) {
      await visible(call.and(page.locator(`[data-state="${state}"]`)));
    },
    /** What a message shows, without the bar of controls under it (Edit, Regenerate, "< 1/2 >"). */
    async contentOf(message) {
      // react-virtuoso keeps rows hidden until it has measured them; read what the user sees.
      await message.waitFor({ state: "visible" });
      return message.evaluate((element) =>
        [...element.children]
          .filter((child) => !child.classList.contains("message-bar"))
          .map((child) => child.innerText)
          .join("\n"),
      );
    },
    userMessages() {
      return topMessages.and(page.locator('[data-role="user"]'));
    },
    /** The "2/3" of a message's "< 2/3 >" control, once it shows `position`. */
    async waitForBranch(message, position) {
      await visible(message.getByTestId("branch-position").filter({ hasText: new RegExp(`^${position}$`) }));
    },
    /** The session is not streaming: Stop is gone. */
    async waitUntilIdle() {
      await visible(this.sendButton);
      await hidden(this.stopButton);
    },
  };
}
