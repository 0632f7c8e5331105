// Each adapter's protocol descriptor, which useAgentSession, its resume and
// chat-session-reducer/testing read: a reply a server writes with it is read back by it, frame
// for frame, and its translator turns the frames into actions the reducer takes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { agUi, aiSdk, chatStream, core } from "./package.mjs";

const { sessionReducer } = core;
const descriptors = [chatStream.actionsProtocol, chatStream.chatStreamProtocol, aiSdk.aiSdkProtocol, agUi.agUiProtocol];

// One short reply, as each protocol frames it.
const replies = {
  actions: [
    { type: "part", part: { type: "message-start", messageId: "a1" } },
    { type: "part", part: { type: "text-delta", text: "Hi" } },
    { type: "part", part: { type: "finish" } },
  ],
  "chat-stream": [
    { type: "start", messageId: "a1" },
    { type: "delta", messageId: "a1", text: "Hi" },
    { type: "done" },
  ],
  "ai-sdk": [
    { type: "start", messageId: "a1" },
    { type: "text-start", id: "t1" },
    { type: "text-delta", id: "t1", delta: "Hi" },
    { type: "text-end", id: "t1" },
    { type: "finish" },
  ],
  "ag-ui": [
    { type: "RUN_STARTED", threadId: "c1", runId: "r1" },
    { type: "TEXT_MESSAGE_START", messageId: "a1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "a1", delta: "Hi" },
    { type: "TEXT_MESSAGE_END", messageId: "a1" },
    { type: "RUN_FINISHED", threadId: "c1", runId: "r1" },
  ],
};

const sent = sessionReducer(undefined, { type: "send", id: "u1", text: "Hello" });

test("each protocol's descriptor reads back what it writes, and its translator gives the reply", async () => {
  assert.deepEqual(descriptors.map((protocol) => protocol.name).sort(), Object.keys(replies).sort());
  for (const protocol of descriptors) {
    const frames = replies[protocol.name];
    const text = frames.map((frame) => protocol.write(frame)).join("") + protocol.end;
    const response = new Response(text, { headers: protocol.headers });
    assert.equal(response.headers.get("content-type"), protocol.contentType, protocol.name);
    const read = [];
    for await (const frame of protocol.read(response)) read.push(frame);
    assert.deepEqual(read, frames, protocol.name);
    const translate = protocol.translator({});
    const replied = read.flatMap((frame) => translate(frame)).reduce(sessionReducer, sent);
    assert.equal(replied.status, "idle", protocol.name);
    assert.deepEqual(replied.messages[1].parts.map((part) => part.text), ["Hi"], protocol.name);
  }
});

test("each descriptor's request body carries the session, and only the resumable protocols reconnect", () => {
  const request = { session: sent, chatId: "c1", runId: "r1", startedBy: { trigger: "submit-message" } };
  // The conversation's id and what started the run, which chat-session-reducer/server reads.
  const ownBody = { id: "c1", messages: sent.messages, trigger: "submit-message" };
  assert.deepEqual(chatStream.actionsProtocol.body(request), ownBody);
  assert.deepEqual(chatStream.chatStreamProtocol.body(request), ownBody);
  assert.deepEqual(aiSdk.aiSdkProtocol.body(request), {
    id: "c1",
    messages: aiSdk.toAiSdkMessages(sent.messages),
    trigger: "submit-message",
  });
  const input = agUi.agUiProtocol.body(request);
  assert.equal(input.threadId, "c1");
  assert.equal(input.runId, "r1");
  assert.deepEqual(input.messages, agUi.toAgUiInput(sent).messages);

  // This package's own protocol reconnects as the AI SDK's does (chat-session-reducer/server serves it); seed 001's does not.
  assert.deepEqual(chatStream.actionsProtocol.resume({ api: "/api/chat", id: "c 1", body: () => assert.fail("no body") }), {
    url: "/api/chat/c%201/stream",
    method: "GET",
  });
  assert.equal(chatStream.chatStreamProtocol.resume, undefined);
  assert.deepEqual(aiSdk.aiSdkProtocol.resume({ api: "/api/chat", id: "c 1", body: () => assert.fail("no body") }), {
    url: "/api/chat/c%201/stream",
    method: "GET",
  });
  assert.deepEqual(agUi.agUiProtocol.resume({ api: "/api/agent", id: "c1", body: () => ({ threadId: "c1" }) }), {
    url: "/api/agent/connect",
    method: "POST",
    body: { threadId: "c1" },
  });
});

test("the actions protocol refuses a frame that is not the agent's, naming its path", () => {
  const translate = chatStream.actionsProtocol.translator();
  assert.throws(() => translate({ type: "reset" }), { name: "TypeError", code: "invalid", path: "frame.type" });
});
