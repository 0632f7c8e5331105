// chat-session-reducer/ai-sdk without the reducer: what each UIMessageChunk of `ai` 7 becomes,
// the SSE reader, and requests built by toAiSdkMessages as `ai` itself accepts them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { convertToModelMessages, validateUIMessages } from "ai";
import { aiSdk, byteStream, collect, partsOf } from "./package.mjs";

const { fromAiSdkChunk, readAiSdkStream, toAiSdkMessages } = aiSdk;
const pm = { anthropic: { signature: "sig-1" } };
const translate = (chunk, options) => partsOf(fromAiSdkChunk(chunk, options));

// [chunk, the parts it becomes]: one row per chunk type of ai 7's UIMessageChunk union.
const rows = [
  [{ type: "start", messageId: "a1" }, [{ type: "message-start", messageId: "a1" }]],
  [{ type: "start", messageId: "a1", messageMetadata: { model: "m" } }, [{ type: "message-start", messageId: "a1", metadata: { model: "m" } }]],
  [{ type: "start", messageMetadata: { model: "m" } }, [{ type: "message-metadata", metadata: { model: "m" } }]],
  [{ type: "start" }, []],
  [{ type: "message-metadata", messageMetadata: { usage: 3 } }, [{ type: "message-metadata", metadata: { usage: 3 } }]],
  [{ type: "text-start", id: "t1" }, []],
  [{ type: "text-start", id: "t1", providerMetadata: pm }, [{ type: "text-delta", text: "", metadata: { "ai-sdk": { providerMetadata: pm } } }]],
  [{ type: "text-delta", id: "t1", delta: "Hi" }, [{ type: "text-delta", text: "Hi" }]],
  [{ type: "text-end", id: "t1" }, []],
  [{ type: "text-end", id: "t1", citations: [{ url: "u" }] }, [{ type: "text-delta", text: "", metadata: { "ai-sdk": { citations: [{ url: "u" }] } } }]],
  [{ type: "reasoning-start", id: "r1" }, [{ type: "reasoning", text: "" }]],
  [{ type: "reasoning-delta", id: "r1", delta: "hmm" }, [{ type: "reasoning-delta", text: "hmm" }]],
  [{ type: "reasoning-end", id: "r1" }, []],
  [{ type: "reasoning-end", id: "r1", providerMetadata: pm }, [{ type: "reasoning-delta", text: "", metadata: { "ai-sdk": { providerMetadata: pm } } }]],
  [{ type: "custom", kind: "openai.compaction", providerMetadata: pm }, [{ type: "data", name: "custom", data: { kind: "openai.compaction" }, metadata: { "ai-sdk": { providerMetadata: pm } } }]],
  [{ type: "error", errorText: "Overloaded" }, [{ type: "error", error: "Overloaded" }]],
  [{ type: "error" }, [{ type: "error", error: "The stream failed" }]],
  [
    { type: "tool-input-start", toolCallId: "c1", toolName: "search", providerExecuted: true, dynamic: false, title: "Search" },
    [{ type: "tool-input-delta", id: "c1", name: "search", text: "", metadata: { "ai-sdk": { providerExecuted: true, dynamic: false, title: "Search" } } }],
  ],
  [{ type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"q":' }, [{ type: "tool-input-delta", id: "c1", text: '{"q":' }]],
  [{ type: "tool-input-available", toolCallId: "c1", toolName: "search", input: { q: 1 } }, [{ type: "tool-call", id: "c1", name: "search", input: { q: 1 } }]],
  [
    { type: "tool-input-available", toolCallId: "c1", toolName: "search", input: { q: 1 }, providerMetadata: pm },
    [{ type: "tool-call", id: "c1", name: "search", input: { q: 1 }, metadata: { "ai-sdk": { callProviderMetadata: pm } } }],
  ],
  [
    { type: "tool-input-error", toolCallId: "c1", toolName: "search", input: "{bad", errorText: "Invalid JSON" },
    [{ type: "tool-call", id: "c1", name: "search", input: "{bad" }, { type: "tool-error", id: "c1", error: { message: "Invalid JSON", code: "invalid_input" } }],
  ],
  [
    { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1", reason: "Delete /x?", isAutomatic: false, signature: "s" },
    [{ type: "tool-approval-request", id: "c1", approvalId: "ap1", prompt: "Delete /x?", automatic: false, details: { reason: "Delete /x?", signature: "s" } }],
  ],
  [{ type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1" }, [{ type: "tool-approval-request", id: "c1", approvalId: "ap1" }]],
  [{ type: "tool-approval-response", approvalId: "ap1", approved: false, reason: "no" }, [{ type: "tool-approval-response", approvalId: "ap1", approved: false, reason: "no" }]],
  [{ type: "tool-approval-response", approvalId: "ap1" }, []],
  [{ type: "tool-output-available", toolCallId: "c1", output: { n: 1 } }, [{ type: "tool-result", id: "c1", output: { n: 1 } }]],
  [{ type: "tool-output-available", toolCallId: "c1", output: { n: 1 }, preliminary: true }, [{ type: "tool-result", id: "c1", output: { n: 1 }, preliminary: true }]],
  [
    { type: "tool-output-available", toolCallId: "c1", output: 2, providerMetadata: pm },
    [{ type: "tool-result", id: "c1", output: 2, metadata: { "ai-sdk": { resultProviderMetadata: pm } } }],
  ],
  [{ type: "tool-output-error", toolCallId: "c1", errorText: "Timeout" }, [{ type: "tool-error", id: "c1", error: { message: "Timeout" } }]],
  [{ type: "tool-output-denied", toolCallId: "c1" }, [{ type: "tool-error", id: "c1", error: { message: "Denied by the user", code: "denied" } }]],
  [{ type: "source-url", sourceId: "s1", url: "https://x", title: "X" }, [{ type: "data", name: "source-url", id: "s1", data: { url: "https://x", title: "X" } }]],
  [
    { type: "source-document", sourceId: "d1", mediaType: "application/pdf", title: "Doc" },
    [{ type: "data", name: "source-document", id: "d1", data: { mediaType: "application/pdf", title: "Doc" } }],
  ],
  [{ type: "file", url: "data:,x", mediaType: "text/plain" }, [{ type: "data", name: "file", data: { url: "data:,x", mediaType: "text/plain" } }]],
  [{ type: "reasoning-file", url: "data:,x", mediaType: "text/plain" }, [{ type: "data", name: "reasoning-file", data: { url: "data:,x", mediaType: "text/plain" } }]],
  [{ type: "data-weather", id: "w1", data: { city: "Oslo" } }, [{ type: "data", name: "weather", id: "w1", data: { city: "Oslo" } }]],
  [{ type: "data-weather", data: null }, [{ type: "data", name: "weather", data: null }]],
  [{ type: "data-progress", data: 1, transient: true }, []],
  [{ type: "steering-message", id: "s", parts: [] }, []],
  [{ type: "start-step" }, [{ type: "step-start" }]],
  [{ type: "finish-step" }, [{ type: "step-finish" }]],
  [{ type: "reset-step" }, [{ type: "step-reset" }]],
  [{ type: "finish" }, [{ type: "finish" }]],
  [{ type: "finish", finishReason: "tool-calls" }, [{ type: "finish", reason: "tool-calls" }]],
  [{ type: "finish", finishReason: "interrupted" }, [{ type: "finish", reason: "other" }]],
  [{ type: "finish", finishReason: "stop", messageMetadata: { t: 1 } }, [{ type: "message-metadata", metadata: { t: 1 } }, { type: "finish", reason: "stop" }]],
  [{ type: "abort", reason: "user" }, [{ type: "finish", reason: "aborted" }]],
  [{ type: "a-future-chunk", id: "x" }, []],
];

for (const [chunk, parts] of rows) {
  test(`fromAiSdkChunk: ${JSON.stringify(chunk)}`, () => {
    const actions = fromAiSdkChunk(chunk);
    assert.ok(actions.every((action) => action.type === "part" && !("within" in action)));
    assert.deepEqual(partsOf(actions), parts);
  });
}

test("fromAiSdkChunk: values that are not chunks give [] and never throw", () => {
  for (const value of [undefined, null, 1, "text-delta", [], [{ type: "text-delta" }], { type: 1 }, { type: "text-delta", delta: 5 }, { type: "tool-input-start", toolCallId: "c" }]) {
    assert.deepEqual(fromAiSdkChunk(value), []);
  }
  assert.deepEqual(fromAiSdkChunk({ type: "toString" }), []);
  assert.deepEqual(fromAiSdkChunk({ type: "__proto__" }), []);
});

test("fromAiSdkChunk: with replay, a start first empties the message it names", () => {
  assert.deepEqual(translate({ type: "start", messageId: "a1" }, { replay: true }), [
    { type: "snapshot", messages: [{ id: "a1", role: "assistant", parts: [] }] },
    { type: "message-start", messageId: "a1" },
  ]);
  // Only a start that names its message can reset it: one that does not fails the run, which
  // would otherwise show the replayed reply twice.
  const [unkeyed, ...rest] = translate({ type: "start" }, { replay: true });
  assert.deepEqual(rest, []);
  assert.equal(unkeyed.type, "error");
  assert.match(unkeyed.error, /messageId/);
  assert.deepEqual(translate({ type: "start" }), [], "without replay a start without messageId is fine");
});

test("fromAiSdkChunk: a missing tool input or output is null, never undefined", () => {
  assert.deepEqual(translate({ type: "tool-input-available", toolCallId: "c", toolName: "t" }), [{ type: "tool-call", id: "c", name: "t", input: null }]);
  assert.deepEqual(translate({ type: "tool-output-available", toolCallId: "c" }), [{ type: "tool-result", id: "c", output: null }]);
});

test("readAiSdkStream: the JSON of each data event, up to [DONE], however the bytes are cut", async () => {
  const sse = 'data: {"type":"start","messageId":"a1"}\r\n\r\n: a comment\n\ndata: {"type":"text-delta","id":"t","delta":"caf\u00e9"}\n\ndata: [DONE]\n\ndata: {"type":"after"}\n\n';
  const bytes = new TextEncoder().encode(sse);
  // Cut at every byte: CRLF split in two, a multi-byte character split in two.
  const pieces = [...bytes].map((byte) => new Uint8Array([byte]));
  const chunks = await collect(readAiSdkStream((async function* () { yield* pieces; })()));
  assert.deepEqual(chunks, [{ type: "start", messageId: "a1" }, { type: "text-delta", id: "t", delta: "café" }]);
});

test("readAiSdkStream: a Response is read from its body; one that is not ok throws code http", async () => {
  const ok = new Response(byteStream(['data: {"type":"finish"}\n\n']));
  assert.deepEqual(await collect(readAiSdkStream(ok)), [{ type: "finish" }]);
  const failed = new Response("nope", { status: 503 });
  await assert.rejects(collect(readAiSdkStream(failed)), (error) => error.code === "http" && error.status === 503 && error.path === "response" && error.message.startsWith("response: "));
});

test("readAiSdkStream: an event that is not JSON throws code invalid_json with its index", async () => {
  const stream = byteStream(['data: {"type":"start"}\n\n', "data: {oops\n\n"]);
  await assert.rejects(collect(readAiSdkStream(stream)), (error) => error.code === "invalid_json" && error.path === "stream[1]" && error.message.startsWith("stream[1]: not JSON"));
});

test("readAiSdkStream: leaving the loop early cancels the body", async () => {
  let cancelled = false;
  const body = new ReadableStream({
    pull: (controller) => controller.enqueue(new TextEncoder().encode('data: {"type":"text-delta","id":"t","delta":"x"}\n\n')),
    cancel: () => void (cancelled = true),
  });
  for await (const chunk of readAiSdkStream(body)) {
    assert.equal(chunk.type, "text-delta");
    break;
  }
  assert.equal(cancelled, true);
});

test("readAiSdkStream: after [DONE] the body is read to its end, never cancelled (the server would see the finished request aborted)", async () => {
  let cancelled = false;
  let closed = false;
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode('data: {"type":"finish"}\n\ndata: [DONE]\n\n'));
      // The server closes the response a moment after writing [DONE], as a real one does.
      setTimeout(() => {
        controller.close();
        closed = true;
      }, 20);
    },
    cancel: () => void (cancelled = true),
  });
  assert.deepEqual(await collect(readAiSdkStream(body)), [{ type: "finish" }]);
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(closed, true);
  assert.equal(cancelled, false, "the body was cancelled after [DONE]");
});

test("readAiSdkStream: a connection that breaks after an event without its blank line gives that event, then the failure", async () => {
  const encoder = new TextEncoder();
  const broken = (text) =>
    new ReadableStream({
      start(controller) {
        controller.enqueue(encoder.encode(text));
      },
      pull(controller) {
        controller.error(new TypeError("network error"));
      },
    });
  const read = async (text) => {
    const chunks = [];
    const error = await (async () => {
      for await (const chunk of readAiSdkStream(broken(text))) chunks.push(chunk);
    })().catch((thrown) => thrown);
    return { chunks, error: error?.message };
  };
  assert.deepEqual(await read('data: {"type":"start"}\n\ndata: {"type":"error","errorText":"Quota exhausted"}\n'), {
    chunks: [{ type: "start" }, { type: "error", errorText: "Quota exhausted" }],
    error: "network error",
  });
  assert.deepEqual(await read('data: {"type":"start"}\n\ndata: {"type":"err'), { chunks: [{ type: "start" }], error: "network error" }, "half a line is not an event");
  assert.deepEqual(await read('data: {"type":"start"}\ndata: "cut"\n'), { chunks: [], error: "network error" }, "data lines that are not whole JSON are dropped");
});

// A conversation as the v2 reducer leaves it after one AI SDK turn of every kind.
const user = { id: "u1", role: "user", parts: [{ type: "text", text: "Clean up" }] };
const call = (id, fields) => ({ type: "tool", id, name: "delete_file", input: { path: `/${id}` }, ...fields });
const assistant = {
  id: "a1",
  role: "assistant",
  metadata: { model: "m" },
  parts: [
    { type: "reasoning", text: "Plan", metadata: { "ai-sdk": { providerMetadata: pm } } },
    { type: "text", text: "On it." },
    call("done", { state: "done", output: { ok: true }, approval: { id: "ap0", approved: true } }),
    call("denied", { state: "error", error: { message: "no", code: "denied" }, approval: { id: "ap1", approved: false, reason: "no" } }),
    call("cancelled", { state: "cancelled", error: { message: "Cancelled by the user", code: "cancelled" } }),
    call("failed", { state: "error", error: { message: "Disk full" } }),
    call("cut", { state: "input-streaming", input: null, inputText: '{"pa' }),
    { type: "text", text: "Results above." },
    { type: "data", name: "source-url", id: "s1", data: { url: "https://x", title: "X" } },
    { type: "data", name: "weather", id: "w1", data: { c: 3 } },
  ],
};

test("toAiSdkMessages: each state as ai 7 holds it, with what the stream gave back", () => {
  const [, message] = toAiSdkMessages([user, assistant]);
  assert.deepEqual(message.metadata, { model: "m" });
  const byId = Object.fromEntries(message.parts.filter((part) => part.toolCallId).map((part) => [part.toolCallId, part]));
  assert.deepEqual(message.parts[0], { type: "reasoning", text: "Plan", providerMetadata: pm });
  assert.deepEqual(byId.done, { type: "tool-delete_file", toolCallId: "done", state: "output-available", input: { path: "/done" }, output: { ok: true }, approval: { id: "ap0", approved: true } });
  assert.deepEqual(byId.denied, { type: "tool-delete_file", toolCallId: "denied", state: "output-denied", input: { path: "/denied" }, approval: { id: "ap1", approved: false, reason: "no" } });
  assert.equal(byId.cancelled.state, "output-error");
  assert.equal(byId.cancelled.errorText, "Cancelled by the user");
  assert.equal(byId.failed.errorText, "Disk full");
  assert.equal(byId.cut.state, "output-error");
  assert.deepEqual(message.parts.slice(-4).map((part) => part.type), ["step-start", "text", "source-url", "data-weather"]);
  assert.deepEqual(message.parts.at(-2), { type: "source-url", url: "https://x", title: "X", sourceId: "s1" });
});

test("toAiSdkMessages: open calls are waiting (input-available), asked (approval-requested) or approved (approval-responded)", () => {
  const message = {
    id: "a2",
    role: "assistant",
    parts: [
      call("client", { state: "running" }),
      call("asked", { state: "awaiting-confirmation", prompt: "Sure?", approval: { id: "ap2", details: { reason: "Sure?", signature: "s" } } }),
      call("approved", { state: "running", approval: { id: "ap3", approved: true } }),
      { type: "tool", id: "dyn", name: "mcp_x", input: {}, state: "running", metadata: { "ai-sdk": { dynamic: true, providerExecuted: true } } },
    ],
  };
  const parts = toAiSdkMessages([message])[0].parts;
  assert.deepEqual(parts.map((part) => part.state), ["input-available", "approval-requested", "approval-responded", "input-available"]);
  assert.deepEqual(parts[1].approval, { id: "ap2", requestReason: "Sure?", signature: "s" });
  assert.deepEqual(parts[2].approval, { id: "ap3", approved: true });
  assert.deepEqual([parts[3].type, parts[3].toolName, parts[3].providerExecuted], ["dynamic-tool", "mcp_x", true]);
});

test("toAiSdkMessages: a denial is approval-responded (approved: false) until the conversation goes on after it, then output-denied", () => {
  const denied = call("denied", { state: "error", error: { message: "Denied by the user", code: "denied" }, approval: { id: "ap1", approved: false } });
  const stateOf = (messages) => toAiSdkMessages(messages).flatMap((m) => m.parts).find((part) => part.toolCallId === "denied").state;
  const asked = { id: "a1", role: "assistant", parts: [{ type: "step" }, denied] };
  // The user's denial, in the request that tells the server: as useChat sends it.
  assert.equal(stateOf([user, asked]), "approval-responded");
  assert.deepEqual(toAiSdkMessages([user, asked])[1].parts[1].approval, { id: "ap1", approved: false });
  // The server answered it: a later step of its message, or a later message.
  assert.equal(stateOf([user, { ...asked, parts: [...asked.parts, { type: "step" }, { type: "text", text: "Kept it." }] }]), "output-denied");
  assert.equal(stateOf([user, { ...asked, parts: [denied, { type: "text", text: "Kept it." }] }]), "output-denied");
  assert.equal(stateOf([user, asked, { id: "u2", role: "user", parts: [{ type: "text", text: "Thanks" }] }]), "output-denied");
});

test("toAiSdkMessages: ai's validateUIMessages and convertToModelMessages accept the request, every call answered", async () => {
  const messages = toAiSdkMessages([user, assistant, { id: "u2", role: "user", parts: [{ type: "text", text: "Thanks" }] }]);
  const validated = await validateUIMessages({ messages });
  const model = await convertToModelMessages(validated);
  const calls = model.flatMap((m) => (m.role === "assistant" && Array.isArray(m.content) ? m.content.filter((c) => c.type === "tool-call") : []));
  const results = model.flatMap((m) => (m.role === "tool" ? m.content : []));
  assert.deepEqual(calls.map((c) => c.toolCallId).sort(), ["cancelled", "cut", "denied", "done", "failed"]);
  for (const id of ["cancelled", "cut", "denied", "done", "failed"]) {
    assert.ok(results.some((result) => result.toolCallId === id), `a result for ${id}`);
  }
  // The reasoning signature goes back to the provider.
  const reasoning = model.find((m) => m.role === "assistant").content.find((c) => c.type === "reasoning");
  assert.deepEqual(reasoning.providerOptions, pm);
});

test("toAiSdkMessages: an approved call and an asked one convert as the continuation ai expects", async () => {
  const messages = toAiSdkMessages([
    user,
    { id: "a3", role: "assistant", parts: [call("approved", { state: "running", approval: { id: "ap3", approved: true } }), call("refused", { state: "error", error: { message: "no", code: "denied" }, approval: { id: "ap4", approved: false } })] },
  ]);
  const model = await convertToModelMessages(await validateUIMessages({ messages }));
  const responses = model.flatMap((m) => (m.role === "tool" ? m.content : [])).filter((c) => c.type === "tool-approval-response");
  assert.deepEqual(responses.map((r) => [r.approvalId, r.approved]), [["ap3", true], ["ap4", false]]);
});

test("toAiSdkMessages: step parts are the AI SDK's step-start parts (and no step is guessed then); a file data part is a file part", async () => {
  const stepped = {
    id: "a4",
    role: "assistant",
    parts: [{ type: "step" }, { type: "text", text: "Looking." }, call("done", { state: "done", output: 1 }), { type: "step" }, { type: "text", text: "Found." }],
  };
  assert.deepEqual(toAiSdkMessages([stepped])[0].parts.map((part) => part.type), ["step-start", "text", "tool-delete_file", "step-start", "text"]);
  const file = { type: "data", name: "file", data: { mediaType: "image/png", url: "data:image/png;base64,AA==", filename: "a.png" } };
  const attached = { id: "u3", role: "user", parts: [{ type: "text", text: "What is this?" }, file] };
  const messages = toAiSdkMessages([attached, stepped]);
  assert.deepEqual(messages[0].parts[1], { type: "file", mediaType: "image/png", url: "data:image/png;base64,AA==", filename: "a.png" });
  const model = await convertToModelMessages(await validateUIMessages({ messages }));
  assert.deepEqual(model[0].content.map((c) => c.type), ["text", "file"]);
  assert.deepEqual([model[0].content[1].mediaType, model[0].content[1].filename], ["image/png", "a.png"]);
  // Two steps: an assistant message with the call, its result, then one with the text after it.
  assert.deepEqual(model.slice(1).map((m) => m.role), ["assistant", "tool", "assistant"]);
});
