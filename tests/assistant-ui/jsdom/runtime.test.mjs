// useAgentSessionRuntime under the real @assistant-ui/react: conversion, callbacks, branches
// (no phantom sibling, no collapse), identity (a delta re-renders only its row).
import { ToolResponse } from "assistant-stream";
import { flushSync } from "react-dom";
import { afterEach, expect, test } from "vitest";
import { act, mountChat, renders, scriptedAgent, thread, until } from "./harness.mjs";

let chat;
afterEach(async () => {
  await chat?.unmount();
  chat = undefined;
  renders.clear();
});

const text = (messageId, delta) => ({ type: "text-delta", messageId, text: delta });

test("every part kind converts to assistant-ui's ThreadMessage", async () => {
  const agent = scriptedAgent();
  const initialState = {
    status: "idle",
    messages: [
      { id: "u", role: "user", parts: [{ type: "text", text: "look" }, { type: "data", name: "file", data: { mediaType: "image/png", url: "data:image/png;base64,AA==", filename: "a.png" } }] },
      {
        id: "a",
        role: "assistant",
        parts: [
          { type: "reasoning", text: "thinking" },
          { type: "step" },
          { type: "text", text: "answer" },
          { type: "data", name: "source-url", id: "s1", data: { url: "https://example.com", title: "Example" } },
          { type: "data", name: "file", data: { mediaType: "application/pdf", url: "https://example.com/a.pdf" } },
          { type: "data", name: "weather", id: "w", data: { temp: 20 } },
          { type: "tool", id: "c1", name: "search", input: { q: "x" }, inputText: '{"q":"x"}', state: "done", output: { hits: 1 } },
          { type: "tool", id: "c2", name: "fail", input: {}, state: "error", error: { message: "no" } },
          { type: "tool", id: "c3", name: "agent", input: {}, state: "done", output: "ok", agent: { status: "idle", messages: [{ id: "n", role: "assistant", parts: [{ type: "text", text: "nested" }] }] } },
          { type: "tool", id: "c4", name: "delete", input: { path: "/" }, state: "awaiting-confirmation", prompt: "Delete?", approval: { id: "ap4" } },
        ],
      },
    ],
  };
  chat = await mountChat({ api: agent.api, initialState });
  const [user, assistant] = chat.runtime.thread.getState().messages;
  expect(user.attachments).toEqual([expect.objectContaining({ type: "image", name: "a.png", contentType: "image/png", content: [{ type: "image", image: "data:image/png;base64,AA==", filename: "a.png" }] })]);
  const byType = (type) => assistant.content.filter((part) => part.type === type);
  expect(byType("reasoning")[0].text).toBe("thinking");
  expect(byType("text")[0].text).toBe("answer");
  expect(byType("source")[0]).toMatchObject({ sourceType: "url", id: "s1", url: "https://example.com", title: "Example" });
  expect(byType("file")[0]).toMatchObject({ data: "https://example.com/a.pdf", mimeType: "application/pdf" });
  expect(byType("data")[0]).toMatchObject({ name: "weather", id: "w", data: { temp: 20 } });
  const [done, failed, nested, asking] = byType("tool-call");
  expect(done).toMatchObject({ toolCallId: "c1", toolName: "search", args: { q: "x" }, argsText: '{"q":"x"}', result: { hits: 1 } });
  expect(failed).toMatchObject({ result: { message: "no" }, isError: true });
  expect(nested.messages[0].content[0].text).toBe("nested");
  expect(asking.approval).toEqual({ id: "ap4", prompt: "Delete?" });
  expect(assistant.status).toMatchObject({ type: "requires-action", reason: "interrupt" });
});

test("a reply streams with isRunning, a send while it streams is queued, Stop cancels", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api });
  await act(async () => chat.runtime.thread.append("hello"));
  await until(() => agent.requests.length === 1 && chat.runtime.thread.getState().isRunning);
  agent.part({ type: "message-start", messageId: "r1" });
  agent.part(text("r1", "partial"));
  await until(() => chat.rows().some((row) => row.text === "partial"));
  // assistant-ui's composer stays usable while running (our queue is its queue adapter).
  await act(async () => chat.runtime.thread.composer.setText("and then"));
  await act(async () => chat.runtime.thread.composer.send());
  await until(() => chat.session().queue.length === 1);
  expect(chat.session().queue[0].text).toBe("and then");
  expect(chat.runtime.thread.getState().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  await act(async () => chat.runtime.thread.cancelRun());
  await until(() => !chat.runtime.thread.getState().isRunning);
  expect(chat.session().state.status).toBe("idle");
  expect(agent.requests[0].signal.aborted).toBe(true);
});

test("no phantom sibling while a reply streams: assistant-ui's placeholder gives way to the reply, never a 2/2 (assistant-ui #4037, #4040, #4071)", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api, initialState: thread(["user", "before"], ["assistant", "an answer"]) });
  const pickers = new Set();
  const watch = new MutationObserver(() => pickers.add(chat.rows().map((row) => row.picker ?? "-").join(",")));
  watch.observe(chat.container, { subtree: true, childList: true, characterData: true });
  await act(async () => chat.runtime.thread.append("and now"));
  await until(() => agent.requests.length === 1);
  agent.part({ type: "message-start", messageId: "late-id" });
  for (const piece of ["one ", "two ", "three"]) agent.part(text("late-id", piece));
  agent.part({ type: "finish" });
  agent.end();
  await until(() => chat.session().state.status === "idle" && chat.rows().at(-1)?.text === "one two three");
  watch.disconnect();
  expect([...pickers].filter((seen) => seen.split(",").some((picker) => picker !== "-"))).toEqual([]);
  expect(chat.rows().map((row) => row.id)).toEqual(["m0", "m1", chat.session().messages[2].id, "late-id"]);
});

test("Reload on a failed reply retries it (no branch of the partial text); on a finished one it regenerates", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api });
  await act(async () => chat.runtime.thread.append("hi"));
  await until(() => agent.requests.length === 1);
  agent.part({ type: "message-start", messageId: "r1" });
  agent.part(text("r1", "half a rep"));
  agent.part({ type: "error", error: "the model failed" });
  agent.end();
  await until(() => chat.session().state.status === "error");
  expect(chat.runtime.thread.getState().messages[1].status).toMatchObject({ type: "incomplete", reason: "error" });
  await act(async () => chat.runtime.thread.getMessageById("r1").reload());
  await until(() => agent.requests.length === 2);
  expect(chat.session().state.forks).toBeUndefined();
  expect(chat.session().messages.map((message) => message.id)).toEqual([chat.session().messages[0].id]);
  agent.part({ type: "message-start", messageId: "r2" });
  agent.part(text("r2", "a whole reply"));
  agent.part({ type: "finish" });
  agent.end();
  await until(() => chat.session().state.status === "idle");
  await act(async () => chat.runtime.thread.getMessageById("r2").reload());
  await until(() => agent.requests.length === 3);
  expect(chat.session().state.forks).toEqual([expect.objectContaining({ active: 1, alternatives: [expect.objectContaining({ messages: [expect.objectContaining({ id: "r2" })] }), null] })]);
});

test("streamed tool input shows argsText; approve and deny answer through onRespondToToolApproval", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api });
  await act(async () => chat.runtime.thread.append("go"));
  await until(() => agent.requests.length === 1);
  agent.part({ type: "message-start", messageId: "r" });
  agent.part({ type: "tool-input-delta", messageId: "r", id: "c1", name: "rm", text: '{"path":"/t' });
  await until(() => chat.runtime.thread.getState().messages[1]?.content[0]?.argsText === '{"path":"/t');
  expect(chat.runtime.thread.getState().messages[1].content[0].args.path).toBe("/t");
  agent.part({ type: "tool-input-delta", id: "c1", text: '"}' });
  agent.part({ type: "tool-input-end", id: "c1" });
  agent.part({ type: "tool-call", messageId: "r", id: "c2", name: "rm", input: { path: "/u" } });
  agent.part({ type: "tool-approval-request", id: "c1", approvalId: "a1", prompt: "Remove /t?" });
  agent.part({ type: "tool-approval-request", id: "c2", approvalId: "a2", prompt: "Remove /u?" });
  agent.part({ type: "finish" });
  agent.end();
  await until(() => chat.session().state.status === "idle" && chat.runtime.thread.getState().messages[1]?.content[1]?.approval?.id === "a2");
  const message = chat.runtime.thread.getMessageById("r");
  await act(async () => message.getMessagePartByToolCallId("c1").respondToToolApproval({ approved: true }));
  await act(async () => message.getMessagePartByToolCallId("c2").respondToToolApproval({ approved: false, reason: "no" }));
  const calls = chat.session().messages[1].parts;
  expect(calls.map((part) => part.state)).toEqual(["running", "error"]);
  expect(calls[1].error).toEqual({ message: "no", code: "denied" });
  // Both answered: the agent goes on (continue) in one request.
  await until(() => agent.requests.length === 2);
});

test("a client tool answered through onAddToolResult, and a failed one", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api });
  await act(async () => chat.runtime.thread.append("where am I"));
  await until(() => agent.requests.length === 1);
  agent.part({ type: "message-start", messageId: "r" });
  agent.part({ type: "tool-call", messageId: "r", id: "loc", name: "location", input: {} });
  agent.part({ type: "tool-call", messageId: "r", id: "cam", name: "camera", input: {} });
  agent.part({ type: "finish" });
  agent.end();
  await until(() => chat.session().state.status === "idle");
  const message = chat.runtime.thread.getMessageById("r");
  await act(async () => message.getMessagePartByToolCallId("loc").addToolResult({ city: "Paris" }));
  await act(async () => message.getMessagePartByToolCallId("cam").addToolResult(new ToolResponse({ result: "no camera", isError: true })));
  const [loc, cam] = chat.session().messages[1].parts;
  expect(loc).toMatchObject({ state: "done", output: { city: "Paris" } });
  expect(cam).toMatchObject({ state: "error", error: { message: "no camera" } });
  await until(() => agent.requests.length === 2);
});

test("edit and regenerate make branches the BranchPicker shows as branchAt says, and switching back calls switchBranch", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api, initialState: thread(["user", "first"], ["assistant", "reply one"]) });
  // Regenerate: the old reply is a branch, the new one streams as 2/2, never a phantom 3.
  await act(async () => chat.runtime.thread.getMessageById("m1").reload());
  await until(() => agent.requests.length === 1);
  // Every DOM change the stream makes is looked at: a phantom sibling would show in one.
  const pickers = new Set();
  const watch = new MutationObserver(() => pickers.add(chat.rows().map((row) => row.picker ?? "-").join(",")));
  watch.observe(chat.container, { subtree: true, childList: true, characterData: true });
  agent.part({ type: "message-start", messageId: "m1" });
  agent.part(text("m1", "reply two"));
  agent.part({ type: "finish" });
  agent.end();
  await until(() => chat.session().state.status === "idle" && chat.rows()[1]?.text === "reply two");
  watch.disconnect();
  pickers.add(chat.rows().map((row) => row.picker ?? "-").join(","));
  expect([...pickers].filter((seen) => seen !== "-")).toEqual(["-,2/2"]);
  // The regenerated reply reused the id m1, which the reply set aside is shown under: it is m1~1.
  expect(chat.rows()).toEqual([expect.objectContaining({ text: "first", picker: undefined }), expect.objectContaining({ id: "m1~1", text: "reply two", picker: "2/2" })]);
  // Back to the first reply, through the BranchPicker's Previous.
  await chat.click(chat.container.querySelectorAll(".row")[1].querySelector(".previous"));
  await until(() => chat.rows()[1]?.text === "reply one");
  expect(chat.session().state.forks).toEqual([expect.objectContaining({ after: "m0", active: 0 })]);
  expect(chat.rows()[1].picker).toBe("1/2");
});

test("three edits of one message: 3 siblings, each with its own reply (no collapse, assistant-ui #6213)", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api, initialState: thread(["user", "v1"], ["assistant", "r1"]) });
  for (const version of ["v2", "v3"]) {
    const edited = chat.session().messages[0].id;
    const composer = chat.runtime.thread.getMessageById(edited).composer;
    await act(async () => composer.beginEdit());
    await act(async () => composer.setText(version));
    await act(async () => composer.send());
    await until(() => agent.requests.length === (version === "v2" ? 1 : 2));
    const reply = `r${version.slice(1)}`;
    agent.part({ type: "message-start", messageId: reply });
    agent.part(text(reply, reply));
    agent.part({ type: "finish" });
    agent.end();
    await until(() => chat.session().state.status === "idle" && chat.rows()[1]?.text === reply);
  }
  expect(chat.rows().map((row) => [row.text, row.picker])).toEqual([["v3", "3/3"], ["r3", undefined]]);
  const picker = (name) => chat.container.querySelector(".row").querySelector(`.${name}`);
  for (const [button, expected, to] of [["previous", ["v2", "r2"], 1], ["previous", ["v1", "r1"], 0], ["next", ["v2", "r2"], 1], ["next", ["v3", "r3"], 2]]) {
    await chat.click(picker(button));
    await until(() => chat.rows()[0]?.text === expected[0]);
    expect(chat.rows().map((row) => row.text)).toEqual(expected);
    expect(chat.rows()[0].picker).toBe(`${to + 1}/3`);
    expect(chat.session().state.forks[0].active).toBe(to);
  }
});

test("a streaming delta re-renders only the streaming row, and untouched messages keep their objects", async () => {
  const agent = scriptedAgent();
  const pairs = Array.from({ length: 20 }, (_, index) => [index % 2 === 0 ? "user" : "assistant", `message ${index}`]);
  chat = await mountChat({ api: agent.api, initialState: thread(...pairs) });
  await act(async () => chat.runtime.thread.append("stream"));
  await until(() => agent.requests.length === 1);
  agent.part({ type: "message-start", messageId: "live" });
  agent.part(text("live", "x"));
  await until(() => chat.rows().at(-1)?.text === "x");
  const before = chat.runtime.thread.getState().messages;
  renders.clear();
  for (let index = 1; index <= 30; index += 1) {
    agent.part(text("live", "x"));
    await until(() => chat.rows().at(-1)?.text === "x".repeat(index + 1));
  }
  const after = chat.runtime.thread.getState().messages;
  expect(after.slice(0, -1).every((message, index) => message === before[index])).toBe(true);
  expect(after.at(-1)).not.toBe(before.at(-1));
  expect([...renders.keys()]).toEqual(["live"]);
  expect(renders.get("live")).toBeGreaterThanOrEqual(1);
});

test("a session change is in assistant-ui's rows when the commit that renders it returns (not a frame later)", async () => {
  const agent = scriptedAgent();
  chat = await mountChat({ api: agent.api, initialState: thread(["user", "hi"], ["assistant", "hello"]) });
  // Outside act, as a frame's flush is: only the synchronous commit runs before the check.
  const actEnvironment = globalThis.IS_REACT_ACT_ENVIRONMENT;
  globalThis.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    flushSync(() => chat.controller.send("next"));
    expect(chat.rows().map((row) => row.text)).toContain("next");
  } finally {
    globalThis.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
  }
  await until(() => agent.requests.length === 1);
  await act(async () => chat.controller.stop());
});
