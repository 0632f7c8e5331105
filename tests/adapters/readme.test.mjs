// The README's adapter examples, run as written against the built package, with `fetch` answering
// as the servers would (recorded streams in each protocol's own encoding). Each example prints
// what its comments say.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { EventEncoder } from "@ag-ui/encoder";
import { needsV2, root } from "./package.mjs";
import { aiSdkResponse } from "./peers.mjs";

const readme = readFileSync(join(root, "README.md"), "utf8");
const example = (subpath) => {
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]);
  const found = blocks.filter((block) => block.includes(`from "chat-session-reducer/${subpath}"`));
  assert.equal(found.length, 1, `one README example of chat-session-reducer/${subpath}`);
  return found[0];
};

// Runs an example where the package resolves by name, `fetch` answering with `responses` in
// turn; returns what it printed, what its comments expect, and the requests it made.
async function runExample(source, responses) {
  const dir = mkdtempSync(join(tmpdir(), "readme-adapters-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(root, "pkg"), join(dir, "node_modules", "chat-session-reducer"), "dir");
  writeFileSync(join(dir, "example.mjs"), source);
  const printed = [];
  const requests = [];
  const { fetch, log } = { fetch: globalThis.fetch, log: console.log };
  globalThis.fetch = async (url, init) => {
    requests.push({ url, body: JSON.parse(init.body) });
    return responses.shift()();
  };
  console.log = (...values) => printed.push(values.join(" "));
  try {
    await import(pathToFileURL(join(dir, "example.mjs")).href);
  } finally {
    Object.assign(globalThis, { fetch });
    console.log = log;
  }
  const expected = [...source.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]);
  return { printed, expected, requests };
}

test("README: the AI SDK example", needsV2, async () => {
  const chunks = [
    { type: "start", messageId: "a1" },
    { type: "start-step" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "I'll delete it once you approve." },
    { type: "text-end", id: "t" },
    { type: "tool-input-start", toolCallId: "c1", toolName: "delete_file" },
    { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"path":"/scratch"}' },
    { type: "tool-input-available", toolCallId: "c1", toolName: "delete_file", input: { path: "/scratch" } },
    { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1" },
    { type: "finish-step" },
    { type: "finish", finishReason: "tool-calls" },
  ];
  const { printed, expected, requests } = await runExample(example("ai-sdk"), [() => aiSdkResponse(chunks)]);
  assert.deepEqual(printed, expected);
  assert.deepEqual(requests[0].body.messages, [{ id: "u1", role: "user", parts: [{ type: "text", text: "Delete /scratch" }] }]);
});

test("README: the AG-UI example", needsV2, async () => {
  const encoder = new EventEncoder();
  const sse = (events) => () => new Response(events.map((event) => encoder.encodeSSE(event)).join(""), { headers: { "content-type": "text/event-stream" } });
  const message = (messageId, text) => [
    { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId, delta: text },
    { type: "TEXT_MESSAGE_END", messageId },
  ];
  const { printed, expected, requests } = await runExample(example("ag-ui"), [
    sse([
      { type: "RUN_STARTED", threadId: "t1", runId: "r1" },
      ...message("m1", "Looking Ann up."),
      { type: "RUN_FINISHED", threadId: "t1", runId: "r1", outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "pick_contact", message: "Which Ann?" }] } },
    ]),
    sse([{ type: "RUN_STARTED", threadId: "t1", runId: "r2" }, ...message("m2", "Sent to Ann B."), { type: "RUN_FINISHED", threadId: "t1", runId: "r2" }]),
  ]);
  assert.deepEqual(printed, expected);
  assert.deepEqual(requests[1].body.resume, [{ interruptId: "i1", status: "resolved", payload: { contact: "Ann B." } }]);
  assert.deepEqual(requests[1].body.messages.map((m) => m.id), ["u1", "m1"]);
});

test("README: the chat-stream example", needsV2, async () => {
  const bash = { type: "tool-Bash", toolName: "bash", toolCallId: "c1", input: { command: "ls" } };
  const frames = [
    { type: "start", id: "a1", runId: "r1", sessionId: "s1" },
    { type: "delta", text: "Here they are:" },
    { type: "tool", part: { ...bash, state: "input-streaming" } },
    { type: "state", state: { name: "turn_end" } },
    { type: "tool", part: { ...bash, state: "output-available", output: "a.md b.md" } },
    { type: "done", runId: "r1", sessionId: "s1", message: { id: "a1", role: "assistant", parts: [{ type: "text", text: "Here they are:" }, { ...bash, state: "output-available", output: "a.md b.md" }] } },
  ];
  const ndjson = () => new Response(frames.map((frame) => JSON.stringify(frame)).join("\n") + "\n");
  const { printed, expected } = await runExample(example("chat-stream"), [ndjson]);
  assert.deepEqual(printed, expected);
});

test("README: the testing example", async () => {
  const { printed, expected, requests } = await runExample(example("testing"), []);
  assert.deepEqual(printed, expected);
  assert.equal(requests.length, 0, "the scripted endpoint answers without fetch");
});
