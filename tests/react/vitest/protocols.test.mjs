// useAgentSession on each wire protocol, fed by what the protocol's own server library writes:
// `ai`'s createUIMessageStreamResponse, @ag-ui/encoder's EventEncoder, and seed 001's NDJSON frames.
import assert from "node:assert/strict";
import { test } from "vitest";
import { act } from "react";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { EventEncoder } from "@ag-ui/encoder";
import { renderHook, textOf, until } from "./harness.mjs";

/** An `api` that answers every request with `respond(body)` and keeps the request bodies. */
function endpoint(respond) {
  const bodies = [];
  return { bodies, api: async (body) => (bodies.push(body), respond(body)) };
}

function sseResponse(events) {
  const encoder = new EventEncoder({ accept: "text/event-stream" });
  const bytes = new TextEncoder();
  const body = new ReadableStream({
    start(controller) {
      for (const event of events) controller.enqueue(bytes.encode(encoder.encode(event)));
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": encoder.getContentType() } });
}

async function sendAndFinish(options, text = "What's the weather?") {
  const hook = await renderHook(options);
  await act(async () => hook.session().send(text));
  await until(() => hook.session().state.status !== "streaming", "the run to end");
  return hook;
}

test("ai-sdk: the UI message stream of createUIMessageStreamResponse, with UIMessages sent", async () => {
  const agent = endpoint(() =>
    createUIMessageStreamResponse({
      stream: createUIMessageStream({
        execute({ writer }) {
          writer.write({ type: "start", messageId: "a1" });
          writer.write({ type: "text-start", id: "t1" });
          writer.write({ type: "text-delta", id: "t1", delta: "Let me " });
          writer.write({ type: "text-delta", id: "t1", delta: "check." });
          writer.write({ type: "text-end", id: "t1" });
          writer.write({ type: "tool-input-available", toolCallId: "c1", toolName: "weather", input: { city: "Lisbon" } });
          writer.write({ type: "tool-output-available", toolCallId: "c1", output: { celsius: 21 } });
          writer.write({ type: "finish", finishReason: "stop" });
        },
      }),
    }),
  );
  const hook = await sendAndFinish({ api: agent.api, protocol: "ai-sdk" });
  const { status, messages } = hook.session();
  assert.equal(status, "idle");
  assert.equal(messages[1].id, "a1");
  assert.equal(textOf(messages[1]), "Let me check.");
  const call = messages[1].parts.find((part) => part.type === "tool");
  assert.deepEqual([call.name, call.state, call.output], ["weather", "done", { celsius: 21 }]);
  const [sent] = agent.bodies;
  assert.equal(sent.messages[0].role, "user");
  assert.deepEqual(sent.messages[0].parts, [{ type: "text", text: "What's the weather?" }]);
  await hook.unmount();
});

test("ai-sdk: an error chunk ends the run with its text", async () => {
  const agent = endpoint(() =>
    createUIMessageStreamResponse({
      stream: createUIMessageStream({
        execute({ writer }) {
          writer.write({ type: "start", messageId: "a1" });
          writer.write({ type: "error", errorText: "The model is overloaded." });
        },
      }),
    }),
  );
  const hook = await sendAndFinish({ api: agent.api, protocol: "ai-sdk" });
  assert.equal(hook.session().status, "error");
  assert.equal(hook.session().error.message, "The model is overloaded.");
  await hook.unmount();
});

test("ag-ui: events as EventEncoder writes them, with a RunAgentInput sent", async () => {
  const agent = endpoint(({ threadId, runId }) =>
    sseResponse([
      { type: "RUN_STARTED", threadId, runId },
      { type: "TEXT_MESSAGE_START", messageId: "a1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a1", delta: "Checking." },
      { type: "TEXT_MESSAGE_END", messageId: "a1" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "weather", parentMessageId: "a1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"city":' },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '"Lisbon"}' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_RESULT", messageId: "r1", toolCallId: "c1", content: "21 °C" },
      { type: "RUN_FINISHED", threadId, runId },
    ]),
  );
  const hook = await sendAndFinish({ api: agent.api, protocol: "ag-ui", storageKey: undefined });
  const { status, messages } = hook.session();
  assert.equal(status, "idle");
  assert.equal(textOf(messages[1]), "Checking.");
  const call = messages[1].parts.find((part) => part.type === "tool");
  assert.deepEqual([call.name, call.state, call.input], ["weather", "done", { city: "Lisbon" }]);
  const [sent] = agent.bodies;
  assert.equal(typeof sent.threadId, "string");
  assert.equal(typeof sent.runId, "string");
  assert.deepEqual(sent.messages.map((message) => message.role), ["user"]);
  assert.deepEqual(sent.resume, []);
  await hook.unmount();
});

test("chat-stream: seed 001's NDJSON frames", async () => {
  const frames = [
    { type: "start", id: "a1", runId: "run-1", sessionId: "s", sessionFile: "f" },
    { type: "delta", text: "Sunny, " },
    { type: "delta", text: "21 °C." },
    { type: "done", runId: "run-1", message: { id: "a1", role: "assistant", parts: [{ type: "text", text: "Sunny, 21 °C." }] } },
  ];
  const agent = endpoint(() => new Response(frames.map((frame) => JSON.stringify(frame) + "\n").join("")));
  const hook = await sendAndFinish({ api: agent.api, protocol: "chat-stream" });
  const { status, messages } = hook.session();
  assert.equal(status, "idle");
  assert.equal(textOf(messages.at(-1)), "Sunny, 21 °C.");
  await hook.unmount();
});
