// chat-session-reducer/chat-stream without the reducer: what each ChatStreamEvent frame of
// seed 001 becomes, and the NDJSON reader.
import assert from "node:assert/strict";
import { test } from "node:test";
import { byteStream, chatStream, collect, partsOf } from "./package.mjs";

const { createChatStreamTranslator, readNdjson } = chatStream;

function partsFor(frames) {
  const translate = createChatStreamTranslator();
  return frames.map((frame) => partsOf(translate(frame)));
}
const start = { type: "start", id: "run-1-a0", runId: "run-1", sessionId: "s", sessionFile: "f" };
const bash = (fields) => ({ type: "tool-Bash", category: "system", toolName: "bash", toolCallId: "c1", input: { command: "ls" }, ...fields });
const bashMetadata = { "chat-stream": { type: "tool-Bash", category: "system" } };

// [frames, the parts of the last frame]: one row per frame type of the seed.
const rows = [
  [[start], []],
  [[start, { type: "delta", text: "Hi" }], [{ type: "text-delta", text: "Hi", messageId: "run-1-a0" }]],
  // A frame naming another message: the turn writes there from now on (the server's own id).
  [[start, { type: "delta", text: "Hi", messageId: "m2" }, { type: "delta", text: "!" }], [{ type: "text-delta", text: "!", messageId: "m2" }]],
  [[{ type: "delta", text: "No start" }], [{ type: "text-delta", text: "No start" }]],
  [[start, { type: "thinking", text: "hmm" }], [{ type: "reasoning-delta", text: "hmm", messageId: "run-1-a0" }]],
  [[start, { type: "thinking", phase: "start", text: "" }], [{ type: "reasoning", text: "", messageId: "run-1-a0" }]],
  [[start, { type: "thinking", phase: "end", text: "hmm" }], []],
  [
    [start, { type: "tool", part: bash({ state: "input-streaming" }) }],
    [{ type: "tool-call", id: "c1", name: "bash", input: { command: "ls" }, messageId: "run-1-a0", metadata: bashMetadata }],
  ],
  [
    [start, { type: "tool", part: bash({ state: "input-streaming", result: { content: "a.txt" } }) }],
    [
      { type: "tool-call", id: "c1", name: "bash", input: { command: "ls" }, messageId: "run-1-a0", metadata: bashMetadata },
      { type: "tool-result", id: "c1", output: { content: "a.txt" }, preliminary: true },
    ],
  ],
  [
    [start, { type: "tool", part: bash({ state: "output-available", output: { content: "a.txt" } }) }],
    [
      { type: "tool-call", id: "c1", name: "bash", input: { command: "ls" }, messageId: "run-1-a0", metadata: bashMetadata },
      { type: "tool-result", id: "c1", output: { content: "a.txt" } },
    ],
  ],
  [
    [start, { type: "tool", part: bash({ state: "output-error", errorText: "exit 1", result: { isError: true } }) }],
    [
      { type: "tool-call", id: "c1", name: "bash", input: { command: "ls" }, messageId: "run-1-a0", metadata: bashMetadata },
      { type: "tool-error", id: "c1", error: { message: "exit 1" }, metadata: { "chat-stream": { output: { isError: true } } } },
    ],
  ],
  [[start, { type: "tool", part: { type: "tool-Bash", state: "output-available" } }], []],
  [
    [start, { type: "plan", mode: "plan", executing: true, completed: 1, total: 3, state: { todos: [] } }],
    [{ type: "data", name: "plan", id: "plan", data: { mode: "plan", executing: true, completed: 1, total: 3, state: { todos: [] } }, messageId: "run-1-a0" }],
  ],
  [[start, { type: "state", state: { name: "turn_start" } }], []],
  [[start, { type: "queue", steering: ["x"], followUp: [] }], []],
  [[start, { type: "compaction", phase: "start", reason: "overflow" }], []],
  [[start, { type: "compaction", phase: "end", reason: "overflow", aborted: false, willRetry: false }], []],
  [[start, { type: "retry", phase: "start", attempt: 1, maxAttempts: 3, delayMs: 10 }], []],
  [[start, { type: "retry", phase: "end", success: true, attempt: 1 }], []],
  [
    [start, { type: "done", runId: "run-1", sessionId: "s", message: { id: "run-1-a0", role: "assistant", parts: [{ type: "text", text: "Done." }, bash({ state: "output-available", output: 1 })] } }],
    [
      {
        type: "snapshot",
        messages: [
          {
            id: "run-1-a0",
            role: "assistant",
            parts: [{ type: "text", text: "Done." }, { type: "tool", id: "c1", name: "bash", input: { command: "ls" }, state: "done", output: 1, metadata: bashMetadata }],
          },
        ],
      },
      { type: "finish", reason: "stop" },
    ],
  ],
  // An empty final message keeps what was streamed.
  [[start, { type: "done", runId: "run-1", sessionId: "s", message: { id: "run-1-a0", role: "assistant", parts: [{ type: "text", text: " " }] } }], [{ type: "finish", reason: "stop" }]],
  [[start, { type: "error", message: "Rate limited", code: "RATE_LIMIT" }], [{ type: "error", error: "Rate limited", code: "rate_limited" }]],
  [[start, { type: "error", message: "Kernel died", code: "KERNEL_CRASH" }], [{ type: "error", error: "Kernel died" }]],
  [[{ type: "presentation", sessionId: "s", presentation: {} }], []],
];

test("the rows cover every frame type of seed 001", () => {
  const covered = new Set(rows.flatMap(([frames]) => frames.map((frame) => frame.type)));
  for (const type of ["start", "delta", "tool", "thinking", "plan", "state", "queue", "compaction", "retry", "done", "error"]) {
    assert.ok(covered.has(type), type);
  }
});

for (const [frames, parts] of rows) {
  test(`createChatStreamTranslator: ${frames.map((frame) => JSON.stringify(frame)).join(", ")}`, () => {
    assert.deepEqual(partsFor(frames).at(-1), parts);
  });
}

test("done: the final message replaces the one the turn streamed, under the streamed id", () => {
  const parts = partsFor([start, { type: "delta", text: "Hel" }, { type: "done", runId: "r", sessionId: "s", message: { id: "other", role: "assistant", parts: [{ type: "text", text: "Hello" }, { type: "tool-Thinking", toolCallId: "t", input: { thought: "hm" } }, { type: "image", url: "u" }] } }]);
  assert.deepEqual(parts[2][0].messages, [
    { id: "run-1-a0", role: "assistant", parts: [{ type: "text", text: "Hello" }, { type: "reasoning", text: "hm" }, { type: "data", name: "image", data: { url: "u" } }] },
  ]);
});

test("createChatStreamTranslator never throws: values that are not frames give []", () => {
  const translate = createChatStreamTranslator();
  for (const value of [undefined, null, 3, "delta", [], { type: "constructor" }, { type: "delta", text: 1 }, { type: "tool", part: null }, { type: "done", message: 1 }]) {
    assert.ok(Array.isArray(translate(value)));
  }
});

test("readNdjson: one value per line (LF or CRLF, blank lines skipped), however the bytes are cut", async () => {
  const text = '{"type":"start","id":"a"}\r\n\n{"type":"delta","text":"\u00fcber"}\n{"type":"done"}';
  const bytes = new TextEncoder().encode(text);
  const pieces = [...bytes].map((byte) => new Uint8Array([byte]));
  const frames = await collect(readNdjson((async function* () { yield* pieces; })()));
  assert.deepEqual(frames, [{ type: "start", id: "a" }, { type: "delta", text: "über" }, { type: "done" }]);
});

test("readNdjson: a line that is not JSON throws code invalid_json naming the line", async () => {
  const stream = byteStream(['{"type":"start"}\n', "\n", "{half\n", '{"type":"done"}\n']);
  await assert.rejects(collect(readNdjson(stream)), (error) => error instanceof Error && error.code === "invalid_json" && error.path === "stream[1]");
});

test("readNdjson: a Response that is not ok throws code http with its status", async () => {
  await assert.rejects(collect(readNdjson(new Response("{}", { status: 401 }))), (error) => error.code === "http" && error.status === 401);
  assert.deepEqual(await collect(readNdjson(new Response('{"a":1}\n'))), [{ a: 1 }]);
});
