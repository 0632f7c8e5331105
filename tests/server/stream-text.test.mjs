// The server on a real AI SDK route: streamText over MockLanguageModelV4, its UI message stream
// handed to createChatServer, our client on it. A reply that asks for approval, the approval, the
// tool's run and the answer after it, then an edit: after each turn the stored conversation equals
// the client's, byte for byte as JSON, and the model got the active path (convertToModelMessages
// of the server's modelInput, never a question without its answer).
import { test } from "node:test";
import assert from "node:assert/strict";
import { convertToModelMessages, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { createChatServer } from "../../pkg/server/index.js";
import { createAgentSession } from "../../pkg/session/index.js";
import { memoryStore, routeFetch, until } from "./helpers.mjs";

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
const finish = (reason) => ({ type: "finish", finishReason: { unified: reason, raw: undefined }, usage });
const words = (id, ...texts) => [{ type: "text-start", id }, ...texts.map((delta) => ({ type: "text-delta", id, delta })), { type: "text-end", id }];

// What the model streams for each call of doStream, in order.
const MODEL_STEPS = [
  // Turn 1: text, then a call that needs approval.
  [{ type: "stream-start", warnings: [] }, ...words("t1", "Deleting ", "/scratch."), { type: "tool-call", toolCallId: "c1", toolName: "delete_file", input: '{"path":"/scratch"}' }, finish("tool-calls")],
  // Turn 2 (after the approval, the tool ran): the answer.
  [{ type: "stream-start", warnings: [] }, ...words("t2", "Done: ", "it is gone."), finish("stop")],
  // Turn 3 (after an edit): a short answer.
  [{ type: "stream-start", warnings: [] }, ...words("t3", "Nothing ", "to delete."), finish("stop")],
];

test("ai-sdk on streamText: approval, the tool's run, an edit: the stored conversation is the client's after every turn", async () => {
  const prompts = [];
  let step = 0;
  let replies = 0;
  const model = new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      prompts.push(prompt);
      return { stream: convertArrayToReadableStream(MODEL_STEPS[step++]) };
    },
  });
  const tools = { delete_file: tool({ inputSchema: jsonSchema({ type: "object" }), needsApproval: true, execute: async ({ path }) => `deleted ${path}` }) };
  const store = memoryStore();
  const server = createChatServer({
    protocol: "ai-sdk",
    store,
    authorize: () => "owner",
    run: async ({ messages, signal }) =>
      streamText({ model, messages: await convertToModelMessages(messages), tools, stopWhen: stepCountIs(1), abortSignal: signal }).toUIMessageStream({
        originalMessages: messages,
        generateMessageId: () => `reply-${++replies}`,
      }),
  });
  const undo = routeFetch(server.fetch);
  const client = createAgentSession({ protocol: "ai-sdk", api: "/api/chat", stopApi: "/api/chat/stop", resume: true, throttle: 0, id: "c1" });
  const unsubscribe = client.subscribe(() => {});
  const stored = async () => {
    await server.idle();
    return JSON.stringify((await store.load("owner", "c1")).state);
  };
  const shown = () => JSON.stringify(client.getSnapshot().state);
  const idle = (what) => until(() => client.getSnapshot().status === "idle", what);
  try {
    client.send("Delete /scratch");
    await until(() => client.getSnapshot().state.messages.at(-1)?.parts?.some((part) => part.approval !== undefined), "the approval asked");
    await idle("the first turn's end");
    assert.equal(await stored(), shown(), "a question waiting: stored open, as shown");

    const call = client.getSnapshot().state.messages.at(-1).parts.find((part) => part.type === "tool");
    client.approve(call.id);
    await until(() => /it is gone/.test(shown()), "the answer after the approval");
    await idle("the second turn's end");
    assert.equal(await stored(), shown(), "after the approval and the tool's run");
    assert.match(JSON.stringify(prompts[1]), /deleted \/scratch/, "the model got the tool's result");

    const user = client.getSnapshot().state.messages[0];
    client.edit(user.id, "Delete nothing");
    await until(() => /to delete/.test(shown()), "the edit's answer");
    await idle("the third turn's end");
    assert.equal(await stored(), shown(), "after an edit: the branch stored as the client has it");
    assert.equal(client.getSnapshot().state.forks?.length, 1);
    assert.doesNotMatch(JSON.stringify(prompts[2]), /scratch/, "the edited-away path is not the model's input");
  } finally {
    unsubscribe();
    undo();
  }
});
