// The AI SDK's own chunk sequences (vendored in tests/fixtures/ai-sdk-chunks, see SOURCE.md)
// through the package and through `ai` itself. Each sequence goes as an AI SDK server's bytes
// through readAiSdkStream, fromAiSdkChunk (every action checked with checkAction first) and
// sessionReducer, and through `ai`'s readUIMessageStream; the two are compared in the package's
// terms (peers.mjs's projection: texts, reasoning, calls with state, input, output and error,
// approvals, data parts), on the message's id and metadata, and on the status:
// - "error" where `ai` reported an error (an `error` chunk, or a stream it calls malformed);
// - "idle" where the stream finished or aborted;
// - "streaming" otherwise (the translator sees chunks, not the end of the body: the app fails a
//   run whose body ended early, as useAgentSession does).
// Where the package deliberately differs, `differences` below names the keys it does not
// assert, says why, and asserts what the package does instead.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { aiSdk, collect, core, needsV3, root } from "./package.mjs";
import { aiSdkMessage, aiSdkResponse, projectSessionMessage, projectUiMessage } from "./peers.mjs";

const corpus = join(root, "tests", "fixtures", "ai-sdk-chunks");
const files = readdirSync(corpus).filter((file) => file.endsWith(".json"));
const sequences = files.flatMap((file) => JSON.parse(readFileSync(join(corpus, file), "utf8")).sequences.map((sequence) => ({ file, ...sequence })));

const ORPHAN = "lenient acceptance: the package shows what arrived rather than failing the run (the reducer needs no text or reasoning ids, so a delta without its start adds the text), where `ai` rejects the stream as malformed";
const NO_FAILURE = "lenient acceptance: a chunk the state cannot take is ignored, never an error, where `ai` rejects the stream as malformed";
const shows = (items) => (run) => assert.deepEqual([run.status, run.ours], ["streaming", items]);

// name -> { skip: the keys not asserted, why, instead: what the package does }.
const differences = {
  "malformed stream errors > should throw descriptive error when text-delta is received without text-start": { skip: ["conversation", "status"], why: ORPHAN, instead: shows([{ text: "Hello" }]) },
  "malformed stream errors > should not read Object.prototype for missing text part ids": { skip: ["conversation", "status"], why: ORPHAN, instead: shows([{ text: "Hello" }]) },
  "malformed stream errors > should throw descriptive error when reasoning-delta is received without reasoning-start": { skip: ["conversation", "status"], why: ORPHAN, instead: shows([{ reasoning: "Thinking..." }]) },
  "malformed stream errors > should not read Object.prototype for missing reasoning part ids": { skip: ["conversation", "status"], why: ORPHAN, instead: shows([{ reasoning: "Thinking..." }]) },
  "malformed stream errors > should throw descriptive error when tool-input-delta is received without tool-input-start": { skip: ["status"], why: `${NO_FAILURE}; a tool-input-delta without a name opens no call`, instead: shows([]) },
  "malformed stream errors > should not read Object.prototype for missing partial tool call ids": { skip: ["status"], why: `${NO_FAILURE}; a tool-input-delta without a name opens no call`, instead: shows([]) },
  "malformed stream errors > should throw descriptive error when text-end is received without text-start": { skip: ["status"], why: `${NO_FAILURE}; text-end carries nothing to show`, instead: shows([]) },
  "malformed stream errors > should throw descriptive error when reasoning-end is received without reasoning-start": { skip: ["status"], why: `${NO_FAILURE}; reasoning-end carries nothing to show`, instead: shows([]) },
  "abort scenarios > should handle multiple abort chunks correctly": {
    skip: ["conversation"],
    why: "abort ends the run: the session is idle after the first abort and ignores the text-delta after it (SPEC: a part while idle is ignored), where `ai` goes on appending to the message",
    instead: (run) => assert.deepEqual([run.status, run.ours], ["idle", []]),
  },
  "message metadata delayed after finish": {
    skip: ["metadata"],
    why: "finish ends the run: a message-metadata chunk after it arrives at an idle session and is ignored (SPEC: a part while idle is ignored), where `ai` merges it into the message",
    instead: (run) => assert.equal(run.message.metadata, undefined),
  },
  "should preserve tool parts when tool call ids repeat across steps": {
    skip: ["conversation"],
    why: "call ids are unique in a run (SPEC: tool-input-delta, \"ids stay unique\"; a call part for a finished call is a replay and ignored), so a provider that numbers calls afresh in each step loses the later step's call, where `ai` keeps one tool part per step",
    instead: (run) => assert.deepEqual(run.ours, [{ call: "call-0", name: "recordStep", state: "done", input: { step: 1 }, output: { recorded: 1 } }]),
  },
};

// The actions that make the message a test starts from (`lastMessage`, a UIMessage: steps and
// calls, answered or not), its run ended and its answers given, as the app gives them.
function actionsHolding(message) {
  const parts = [{ type: "message-start", messageId: message.id, ...(message.metadata && { metadata: message.metadata }) }];
  const answers = [];
  for (const part of message.parts) {
    if (part.type === "step-start") parts.push({ type: "step-start" });
    if (part.toolCallId === undefined) continue;
    const id = part.toolCallId;
    parts.push({ type: "tool-call", id, name: part.toolName ?? part.type.slice(5), input: part.input });
    if (part.approval) parts.push({ type: "tool-approval-request", id, approvalId: part.approval.id });
    if (part.approval?.approved !== undefined) answers.push({ type: "tool-approval-response", approvalId: part.approval.id, approved: part.approval.approved });
    if (part.state === "output-available") parts.push({ type: "tool-result", id, output: part.output });
  }
  const asParts = (list) => list.map((part) => ({ type: "part", part }));
  return [{ type: "batch", actions: asParts([...parts, { type: "finish" }]) }, ...asParts(answers), { type: "continue" }];
}

// The sequence through the package: the assistant message it built (if any) and the status.
async function replay(chunks, lastMessage) {
  let state = core.sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u1", text: "Go" });
  if (lastMessage) for (const action of actionsHolding(lastMessage)) state = core.sessionReducer(state, action);
  for (const chunk of await collect(aiSdk.readAiSdkStream(aiSdkResponse(chunks)))) {
    const actions = aiSdk.fromAiSdkChunk(chunk);
    for (const action of actions) core.checkAction(action);
    state = core.sessionReducer(state, { type: "batch", actions });
  }
  const message = state.messages.at(-1).role === "assistant" ? state.messages.at(-1) : undefined;
  return { state, message, status: state.status, ours: message ? projectSessionMessage(message) : [] };
}

const endsEarly = (chunks) => chunks.some((chunk) => chunk.type === "abort" || chunk.type === "error");

function expectedStatus(chunks, errors) {
  if (errors.length > 0) return "error";
  return chunks.some((chunk) => chunk.type === "finish" || chunk.type === "abort") ? "idle" : "streaming";
}

const checks = {
  conversation: (run, peer) => assert.deepEqual(run.ours, peer.message ? projectUiMessage(peer.message, { endedEarly: endsEarly(run.chunks) }) : []),
  id: (run, peer) => {
    const start = run.chunks.find((chunk) => chunk.type === "start" && typeof chunk.messageId === "string");
    if (start) assert.equal(run.message?.id, peer.message.id);
  },
  metadata: (run, peer) => assert.deepEqual(run.message?.metadata, peer.message?.metadata),
  status: (run, peer) => assert.equal(run.status, expectedStatus(run.chunks, peer.errors)),
};

test("the vendored sequences are those SOURCE.md lists, each named for its test, one name once", () => {
  const listed = [...readFileSync(join(corpus, "SOURCE.md"), "utf8").matchAll(/^\| `([^`]+\.json)` \| (\d+) \|/gm)];
  assert.deepEqual(listed.map((match) => match[1]).sort(), files.sort());
  for (const [, file, count] of listed) assert.equal(sequences.filter((sequence) => sequence.file === file).length, Number(count), file);
  const names = sequences.map((sequence) => sequence.name);
  assert.equal(new Set(names).size, names.length);
  for (const name of Object.keys(differences)) assert.ok(names.includes(name), `${name} is a sequence`);
});

for (const sequence of sequences) {
  const difference = differences[sequence.name];
  test(`AI SDK chunks ${sequence.file.replace(".json", "")}: ${sequence.name}`, needsV3, async () => {
    const peer = await aiSdkMessage(sequence.chunks, sequence.lastMessage && structuredClone(sequence.lastMessage));
    const run = { chunks: sequence.chunks, ...(await replay(sequence.chunks, sequence.lastMessage)) };
    for (const [key, check] of Object.entries(checks)) if (!difference?.skip.includes(key)) check(run, peer);
    difference?.instead(run);
  });
}
