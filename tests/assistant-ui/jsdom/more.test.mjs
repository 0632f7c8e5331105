// useAgentSessionRuntime: attachments, branches inside branches, resume, and the thread list
// over chat-session-reducer/conversations, under the real @assistant-ui/react.
import { SimpleImageAttachmentAdapter } from "@assistant-ui/react";
import { createConversations } from "chat-session-reducer/conversations";
import { afterEach, expect, test } from "vitest";
import { act, mountChat, mountConversations, scriptedAgent, until } from "./harness.mjs";

let chat;
afterEach(async () => {
  await chat?.unmount();
  chat = undefined;
});

const say = (id, role, text) => ({ id, role, parts: [{ type: "text", text }] });

test("an attachment added in assistant-ui's composer is sent as a file part, and shown as an attachment", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api }, { adapters: { attachments: new SimpleImageAttachmentAdapter() } });
  const { composer } = chat.runtime.thread;
  await act(async () => composer.addAttachment(new File([new Uint8Array([137, 80, 78, 71])], "dot.png", { type: "image/png" })));
  await act(async () => composer.setText("what is this"));
  await act(async () => composer.send());
  await until(() => agent.requests.length === 1);
  const [user] = chat.session().messages;
  expect(user.parts).toEqual([
    { type: "text", text: "what is this" },
    { type: "data", name: "file", data: { mediaType: "image/png", url: "data:image/png;base64,iVBORw==", filename: "dot.png" } },
  ]);
  expect(agent.requests[0].body.messages[0].parts[1].data.url).toBe("data:image/png;base64,iVBORw==");
  const shown = chat.runtime.thread.getState().messages[0];
  expect(shown.attachments).toEqual([expect.objectContaining({ type: "image", name: "dot.png", content: [expect.objectContaining({ image: "data:image/png;base64,iVBORw==" })] })]);
});

test("a fork inside a branch: switching the outer one, then the inner one, as branchAt counts them", async () => {
  const agent = scriptedAgent();
  // The first question was edited (u1 live); its first version u0 holds a regenerated reply (a0c set aside).
  const inner = { messages: [say("u0", "user", "v1"), say("a0b", "assistant", "second reply")], forks: [{ after: "u0", active: 1, alternatives: [{ messages: [say("a0c", "assistant", "first reply")] }, null] }] };
  const initialState = { status: "idle", messages: [say("u1", "user", "v2"), say("a1", "assistant", "reply to v2")], forks: [{ after: null, active: 1, alternatives: [inner, null] }] };
  chat = await mountChat({ api: agent.api, initialState });
  expect(chat.rows().map((row) => [row.text, row.picker])).toEqual([["v2", "2/2"], ["reply to v2", undefined]]);
  const button = (row, name) => chat.container.querySelectorAll(".row")[row].querySelector(`.${name}`);
  await chat.click(button(0, "previous"));
  await until(() => chat.rows()[0]?.text === "v1");
  expect(chat.rows().map((row) => [row.text, row.picker])).toEqual([["v1", "1/2"], ["second reply", "2/2"]]);
  await chat.click(button(1, "previous"));
  await until(() => chat.rows()[1]?.text === "first reply");
  expect(chat.rows().map((row) => [row.text, row.picker])).toEqual([["v1", "1/2"], ["first reply", "1/2"]]);
  expect(chat.session().state.forks).toEqual([expect.objectContaining({ after: null, active: 0 }), expect.objectContaining({ after: "u0", active: 0 })]);
  expect(agent.requests).toHaveLength(0);
});

test("onResume continues the run: the agent goes on without a new message", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api, initialState: { status: "idle", messages: [say("u", "user", "hi")] } });
  await act(async () => chat.runtime.thread.resumeRun({ parentId: "u" }));
  await until(() => agent.requests.length === 1);
  expect(chat.session().messages).toHaveLength(1);
  expect(chat.runtime.thread.getState().isRunning).toBe(true);
});

test("the thread list: a new thread, switching while a reply streams, the reply finishing in the background as unread", async () => {
  const agent = scriptedAgent();
  const conversations = createConversations({ keyPrefix: `aui-${Math.random()}:` });
  chat = await mountConversations({ api: agent.api, id: "first" }, conversations);
  await act(async () => chat.runtime.thread.append("first chat"));
  await until(() => agent.requests.length === 1);
  agent.part({ type: "message-start", messageId: "r1" });
  agent.part({ type: "text-delta", messageId: "r1", text: "done" });
  agent.part({ type: "finish" });
  agent.end();
  await until(() => chat.rows().at(-1)?.text === "done" && !chat.runtime.thread.getState().isRunning);
  const item = (id) => Object.values(chat.runtime.threads.getState().threadItems).find((entry) => entry.id === id);
  expect(item("first")).toMatchObject({ title: "first chat", custom: { status: "idle", unread: false, waiting: false } });

  await act(async () => chat.runtime.threads.switchToNewThread());
  await until(() => chat.id !== "first" && chat.rows().length === 0);
  const second = chat.id;
  await act(async () => chat.runtime.thread.append("second chat"));
  await until(() => agent.requests.length === 2);
  agent.part({ type: "message-start", messageId: "r2" });
  agent.part({ type: "text-delta", messageId: "r2", text: "still " });
  await until(() => item(second)?.custom.status === "streaming");

  await act(async () => chat.runtime.threads.switchToThread("first"));
  await until(() => chat.id === "first" && chat.rows().at(-1)?.text === "done");
  agent.part({ type: "text-delta", messageId: "r2", text: "going" });
  agent.part({ type: "finish" });
  agent.end();
  await until(() => item(second)?.custom.status === "idle");
  expect(item(second)).toMatchObject({ title: "second chat", custom: { unread: true } });
  await act(async () => chat.runtime.threads.switchToThread(second));
  await until(() => chat.rows().at(-1)?.text === "still going");
  await until(() => item(second)?.custom.unread === false);
});
