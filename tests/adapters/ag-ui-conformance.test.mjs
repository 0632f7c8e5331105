// AG-UI's own conformance corpus (vendored in tests/fixtures/ag-ui-conformance, see SOURCE.md)
// through the package: each fixture's stream as an AG-UI server's bytes, read by readAgUiStream,
// translated by one createAgUiTranslator and applied by sessionReducer, every action checked
// with checkAction first. The fixture's expectation in the package's terms:
// - `outcome: "failed"` (the client rejects the stream): the run ends in an error of the
//   translator's own (not a RUN_ERROR's), whose message holds `errorContains`;
//   `outcome: "completed"`: no such error, and a stream ending in RUN_FINISHED leaves the run idle;
// - `runError`: a RUN_ERROR's message was the session's error at some point;
// - `messages` (subset-matched, in order) and `messageCount`: the conversation as AG-UI messages
//   (toAgUiInput's `messages`, which is what the next request sends);
// - `state`: the session's `agentState`.
// Where the package deliberately differs, `differences` below names the keys it does not
// assert, says why, and asserts what the package does instead.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { agUi, collect, core, needsV2, root } from "./package.mjs";
import { agUiResponse } from "./peers.mjs";

const corpus = join(root, "tests", "fixtures", "ag-ui-conformance");
const fixtures = ["1.1", "draft", "1.0"].flatMap((version) =>
  readdirSync(join(corpus, version))
    .filter((file) => file.endsWith(".json"))
    .map((file) => ({ version, ...JSON.parse(readFileSync(join(corpus, version, file), "utf8")) })),
);

// Keys about what a client delivers to application code or warns about: the translator returns
// actions, not events, and warns about nothing (what it drops, the README and index.d.ts say).
const notObservable = ["eventTypes", "eventTypesAbsent", "eventPaths", "eventAbsentPaths", "warnings", "noWarnings", "request", "requestAbsentPaths"];

const messagesOf = (state) => agUi.toAgUiInput(state).messages;
const textOf = (message) => message.parts.filter((part) => part.type === "text").map((part) => part.text).join("");
const onlyMessage = (state) => {
  assert.equal(state.messages.length, 1);
  return state.messages[0];
};

// name -> { skip: the expectation keys not asserted, why, instead: what the package does }.
const LENIENT = "lenient acceptance: the package shows what arrived rather than failing the run (SPEC: a part the state cannot take is ignored, never an error)";
const differences = {
  "content-without-start-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a TEXT_MESSAGE_CONTENT without its START adds the message`,
    instead: (run) => assert.deepEqual([run.state.status, textOf(onlyMessage(run.state))], ["idle", "nothing is open"]),
  },
  "reasoning-discipline-verified": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a REASONING_MESSAGE_CONTENT without its START adds the reasoning`,
    instead: (run) => assert.deepEqual(run.state.messages.map((message) => message.parts[0].text), ["orphaned thought", "the answer"]),
  },
  "first-event-not-run-started-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; the app starts the run (send or continue) before its request, so the stream need not open with RUN_STARTED`,
    instead: (run) => assert.deepEqual([run.state.status, onlyMessage(run.state).id], ["streaming", "first-event-not-run-started-m-1"]),
  },
  "nested-run-started-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a RUN_STARTED while the run streams changes nothing`,
    instead: (run) => assert.deepEqual(run.state, { messages: [], status: "streaming" }),
  },
  "event-after-run-finished-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; after RUN_FINISHED the run is idle and the reducer ignores the parts of a finished run`,
    instead: (run) => assert.deepEqual(run.state, { messages: [], status: "idle" }),
  },
  "step-finished-without-start-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; steps are not conversation state (step-finish changes nothing)`,
    instead: (run) => assert.deepEqual(run.state, { messages: [], status: "streaming" }),
  },
  "subagent-finished-unstarted-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a SUBAGENT_FINISHED for a sub-agent it does not know is ignored`,
    instead: (run) => assert.deepEqual(run.state, { messages: [], status: "idle" }),
  },
  "subagent-started-missing-name-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a sub-agent without a name gets a call named "subagent"`,
    instead: (run) => assert.deepEqual(onlyMessage(run.state).parts.map((part) => [part.name, part.state]), [["subagent", "done"]]),
  },
  "malformed-known-field-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a field of the wrong type is not copied (the delta of 42 adds no text), as every adapter copies a field only when the reducer accepts its type`,
    instead: (run) => assert.deepEqual([run.state.status, onlyMessage(run.state).parts], ["idle", []]),
  },
  "unknown-enum-value-role-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a TEXT_MESSAGE_START of an unknown role streams an assistant message (AG-UI's own spec says strip the role: the fixture pins the client's admitted gap)`,
    instead: (run) => assert.equal(textOf(onlyMessage(run.state)), "the role above is the only defect in this stream"),
  },
  "reasoning-message-wrong-role-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; REASONING_MESSAGE_START's role is not read, the reasoning is kept`,
    instead: (run) => assert.deepEqual(onlyMessage(run.state).parts, [{ type: "reasoning", text: "thinking" }]),
  },
  "first-chunk-missing-id-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a first TEXT_MESSAGE_CHUNK without an id has nothing to continue and is dropped`,
    instead: (run) => assert.deepEqual(run.state, { messages: [], status: "idle" }),
  },
  "first-tool-chunk-missing-name-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; a first TOOL_CALL_CHUNK without a name opens no call and is dropped`,
    instead: (run) => assert.deepEqual(run.state, { messages: [], status: "idle" }),
  },
  "custom-closes-chunk-stream-fatal": {
    skip: ["outcome", "errorContains"],
    why: `${LENIENT}; CUSTOM closes the open chunk stream and the id-less continuation after it is dropped`,
    instead: (run) => assert.equal(textOf(onlyMessage(run.state)), "Half "),
  },
  "run-finished-wrong-run-id-fatal": {
    skip: ["outcome", "errorContains"],
    why: "the translator does not check run or thread ids: the app made the request and knows which run it started",
    instead: (run) => assert.equal(run.state.status, "idle"),
  },
  "second-run-on-another-thread-fatal": {
    skip: ["outcome", "errorContains"],
    why: "the translator does not check run or thread ids: the app made the request and knows which run it started",
    instead: (run) => assert.equal(run.state.status, "idle"),
  },
  "truncated-stream-fails-the-run": {
    skip: ["outcome", "errorContains"],
    why: "the translator sees events, not the end of the stream: the run stays streaming, and the app fails it when the body ends (useAgentSession: \"The connection closed before the reply was finished.\")",
    instead: (run) => assert.deepEqual([run.state.status, textOf(onlyMessage(run.state))], ["streaming", "half an ans"]),
  },
  "subagent-terminal-closes-open-chunk-stream": {
    skip: ["messages", "messageCount"],
    why: "a sub-agent's messages are held in the run behind its call (`within`), not beside the parent's with a subagentRunId",
    instead: (run) => {
      const [call] = onlyMessage(run.state).parts;
      assert.deepEqual([call.id, call.name, call.state], ["s-subagent-terminal-chunk-1", "summariser", "done"]);
      assert.deepEqual(call.agent.messages.map((message) => [message.id, textOf(message)]), [["m-subagent-terminal-chunk-1", "half assembled"]]);
    },
  },
  "subagent-unannounced-attribution-accepted": {
    skip: ["messages"],
    why: "the package does not record a message's subagentRunId (a sub-agent it was told of holds its messages in the run behind its call)",
    instead: (run) => assert.equal(textOf(onlyMessage(run.state)), "delegated answer"),
  },
  "unknown-part-in-message-list": {
    skip: ["messages"],
    why: "the session holds both text parts, and toAgUiInput sends a user message of text parts as one string",
    instead: (run) => assert.deepEqual(onlyMessage(run.state).parts, [{ type: "text", text: "before" }, { type: "text", text: "after" }]),
  },
};

// AG-UI's subset match: arrays of the same length, objects on the keys the expectation names.
function assertSubset(actual, expected, path) {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path}: expected an array, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((item, index) => assertSubset(actual[index], item, `${path}[${index}]`));
  } else if (expected !== null && typeof expected === "object") {
    assert.ok(actual !== null && typeof actual === "object", `${path}: expected an object, got ${JSON.stringify(actual)}`);
    for (const key of Object.keys(expected)) assertSubset(actual[key], expected[key], `${path}.${key}`);
  } else {
    assert.deepEqual(actual, expected, path);
  }
}

// The fixture's stream through the package: the final state and every error the session showed.
async function replay(fixture) {
  const translate = agUi.createAgUiTranslator();
  let state = core.sessionReducer({ messages: [], status: "idle" }, { type: "continue" });
  const errors = [];
  for (const event of await collect(agUi.readAgUiStream(agUiResponse(fixture.stream)))) {
    const actions = translate(event);
    for (const action of actions) core.checkAction(action);
    state = core.sessionReducer(state, { type: "batch", actions });
    if (state.status === "error" && errors.at(-1) !== state.error.message) errors.push(state.error.message);
  }
  const runErrors = new Set(fixture.stream.filter((event) => event.type === "RUN_ERROR").map((event) => event.message));
  return { state, errors, ownErrors: errors.filter((message) => !runErrors.has(message)) };
}

const checks = {
  outcome(run, expected, fixture) {
    if (expected === "failed") {
      assert.ok(run.ownErrors.length > 0, "the run should fail");
      return;
    }
    assert.deepEqual(run.ownErrors, []);
    const last = fixture.stream.at(-1);
    if (last?.type === "RUN_FINISHED" && fixture.expect.runError === undefined) assert.equal(run.state.status, "idle");
  },
  errorContains: (run, expected) => assert.ok(run.ownErrors.some((message) => message.includes(expected)), `an error containing ${JSON.stringify(expected)}: ${JSON.stringify(run.ownErrors)}`),
  runError: (run, expected) => assert.ok(run.errors.some((message) => expected === true || message.includes(expected)), `the run reported ${JSON.stringify(expected)}`),
  messageCount: (run, expected) => assert.equal(messagesOf(run.state).length, expected),
  messages: (run, expected) => assertSubset(messagesOf(run.state), expected, "messages"),
  state: (run, expected) => assertSubset(run.state.agentState, expected, "state"),
};

test("the vendored corpus is the one SOURCE.md lists, each fixture named for its file", () => {
  const listed = [...readFileSync(join(corpus, "SOURCE.md"), "utf8").matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
  assert.deepEqual(listed.sort(), fixtures.map((fixture) => `${fixture.version}/${fixture.name}.json`).sort());
  for (const name of Object.keys(differences)) assert.ok(fixtures.some((fixture) => fixture.name === name), `${name} is a fixture`);
});

for (const fixture of fixtures) {
  const difference = differences[fixture.name];
  test(`AG-UI conformance ${fixture.version}/${fixture.name}: ${fixture.description.slice(0, 90)}`, needsV2, async () => {
    const run = await replay(fixture);
    const keys = Object.keys(fixture.expect).filter((key) => !notObservable.includes(key) && !difference?.skip.includes(key));
    for (const key of keys) {
      assert.ok(checks[key], `a check for ${key}`);
      checks[key](run, fixture.expect[key], fixture);
    }
    difference?.instead(run);
  });
}
