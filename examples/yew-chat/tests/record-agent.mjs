// Records the frames the demo's scripted agent (www/agent) sends on its NDJSON actions endpoint
// for the conversations the page's tests hold, into agent-frames.json beside this file: the
// tests' mock fetch answers with exactly these lines. The scenarios' ids are random, so each is
// renamed by its first appearance (msg_1, call_1, ...) to keep the file the same run to run.
//
//   node examples/yew-chat/tests/record-agent.mjs           rewrites agent-frames.json
//   node examples/yew-chat/tests/record-agent.mjs --check   fails when it is not what the agent sends now

import { readFile, writeFile } from "node:fs/promises";
import { pickRun } from "../../../www/agent/scenarios.mjs";
import { createAgentStream } from "../../../www/agent/stream.mjs";
import * as actions from "../../../www/agent/wire/actions.mjs";

const FIXTURE = new URL("./agent-frames.json", import.meta.url);

const user = (text) => ({ id: "u-1", role: "user", parts: [{ type: "text", text }] });

/** The lines one request is answered with, through the server's own wire, and whether the
 *  connection dropped (a scenario's drop()) instead of ending. */
async function answer(messages) {
  const lines = [];
  let drops = false;
  const response = {
    writeHead() {},
    write: (chunk) => lines.push(...chunk.split("\n").filter((line) => line !== "")),
    end() {},
    destroy() {
      drops = true;
    },
  };
  const wire = actions.createWire(response);
  const run = pickRun(messages);
  // No holds, and no pace: the frames are the same at any pace.
  await run.play(createAgentStream(wire, new AbortController().signal, undefined, 0));
  await wire.end();
  return { run: run.name, lines, drops };
}

/** The assistant message a recorded answer streamed, as Retry sends it back (resumable cuts
 *  it after its last finished call): its id and its tool calls, finished. */
function replyOf(lines) {
  const parts = lines.map((line) => JSON.parse(line).part);
  const id = parts.find((part) => part.type === "message-start").messageId;
  const calls = parts
    .filter((part) => part.type === "tool-call")
    .map((part) => ({ type: "tool", id: part.id, name: part.name, input: part.input, state: "done" }));
  return { id, role: "assistant", parts: calls };
}

async function record() {
  const texts = ["Hello!", "Write a haiku", "Tell me a long story", "What's the weather in Lisbon?"];
  const first = await Promise.all(texts.map((text) => answer([user(text)])));
  const entries = texts.map((text, i) => ({ userText: text, last: "user", ...first[i] }));
  // Retry after the weather reply dropped: the conversation ends with that reply.
  const weather = entries[3];
  const retried = await answer([user(weather.userText), replyOf(weather.lines)]);
  entries.push({ userText: weather.userText, last: "assistant", ...retried });
  return entries;
}

/** Each random id (msg_1a2b3c4d, call_...) renamed by the order it first appears in. */
function stableIds(text) {
  const names = new Map();
  const counts = {};
  return text.replace(/\b(msg|call)_[0-9a-f]{8}\b/g, (id, kind) => {
    if (!names.has(id)) names.set(id, `${kind}_${(counts[kind] = (counts[kind] ?? 0) + 1)}`);
    return names.get(id);
  });
}

const text = stableIds(JSON.stringify(await record(), null, 1)) + "\n";
if (process.argv.includes("--check")) {
  const stored = await readFile(FIXTURE, "utf8").catch(() => "");
  if (stored !== text) {
    console.error(`record-agent: ${FIXTURE.pathname} is not what www/agent sends now: run node examples/yew-chat/tests/record-agent.mjs`);
    process.exit(1);
  }
  console.log("record-agent: agent-frames.json is what www/agent sends");
} else {
  await writeFile(FIXTURE, text);
  console.log(`record-agent: wrote ${FIXTURE.pathname}`);
}
