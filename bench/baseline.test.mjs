// The baseline must be the SPEC's reducer, or the benchmark compares different work. These tests
// check it on rows of SPEC.md, then replay the workloads (smaller) and a mixed session through the
// baseline and the built package and require the same states.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";

import * as baseline from "./baseline.mjs";
import { conversation, replay, reply, tools } from "./workloads.mjs";

const { sessionReducer, resumable } = baseline;
const EMPTY = { messages: [], status: "idle" };

const part = (part, within) => (within === undefined ? { type: "part", part } : { type: "part", part, within });
const play = (state, actions, reducer = sessionReducer) => actions.reduce(reducer, state);
const deepFreeze = (value) => {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    Object.values(value).forEach(deepFreeze);
  }
  return value;
};
const streaming = (...actions) => play(EMPTY, [{ type: "send", id: "u-1", text: "hi" }, ...actions]);
const lastParts = (state) => state.messages.at(-1).parts;

describe("baseline reducer follows SPEC.md", () => {
  it("plays the seed example: resumable keeps the user message and the finished call", () => {
    const state = streaming(
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "tool-call", messageId: "a-1", id: "call-1", name: "add_to_cart", input: { slug: "mug", qty: 2 } }),
      part({ type: "tool-result", id: "call-1", output: { content: [{ type: "text", text: "Added." }] } }),
      part({ type: "error", error: "Couldn't reach the assistant.", code: "network" }),
    );
    assert.equal(state.status, "error");
    assert.deepEqual(state.error, { message: "Couldn't reach the assistant.", code: "network" });
    assert.equal(resumable(state.messages).length, 2);
  });

  it("send appends a user message, streams and clears the error", () => {
    const failed = streaming(part({ type: "error", error: "down" }));
    assert.deepEqual(failed.error, { message: "down" });
    const next = sessionReducer(failed, { type: "send", id: "u-2", text: "again" });
    assert.deepEqual(next, {
      messages: [...failed.messages, { id: "u-2", role: "user", parts: [{ type: "text", text: "again" }] }],
      status: "streaming",
    });
  });

  it("ignores parts unless streaming, step-finish and unknown parts: the same object", () => {
    const idle = deepFreeze(play(streaming(part({ type: "text-delta", text: "a" })), [{ type: "stop" }]));
    assert.equal(sessionReducer(idle, part({ type: "text-delta", text: "late" })), idle);
    const live = deepFreeze(streaming());
    assert.equal(sessionReducer(live, part({ type: "step-finish" })), live);
    assert.equal(sessionReducer(live, part({ type: "data-weather", value: 1 })), live);
  });

  it("targets text: last assistant message, assistant-N, messageId, never a user message", () => {
    let state = streaming(part({ type: "text-delta", text: "Hel" }), part({ type: "text-delta", text: "lo" }));
    assert.deepEqual(state.messages[1], { id: "assistant-1", role: "assistant", parts: [{ type: "text", text: "Hello" }] });
    state = play(state, [
      part({ type: "tool-call", id: "c", name: "t", input: null }),
      part({ type: "text-delta", text: "after" }),
    ]);
    assert.deepEqual(lastParts(state).map((p) => p.type), ["text", "tool", "text"]);
    const frozen = deepFreeze(state);
    assert.equal(sessionReducer(frozen, part({ type: "text-delta", messageId: "u-1", text: "x" })), frozen);
    state = sessionReducer(frozen, part({ type: "reasoning", messageId: "a-9", text: "hmm", metadata: { s: 1 } }));
    assert.deepEqual(state.messages.at(-1), {
      id: "a-9", role: "assistant", parts: [{ type: "reasoning", text: "hmm", metadata: { s: 1 } }],
    });
  });

  it("ignores a replayed message-start and a call id already present anywhere", () => {
    const state = deepFreeze(streaming(
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "tool-call", id: "outer", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "inner", name: "t", input: {} }, "outer"),
    ));
    assert.equal(sessionReducer(state, part({ type: "message-start", messageId: "a-1" })), state);
    assert.equal(sessionReducer(state, part({ type: "tool-call", id: "inner", name: "t", input: {} })), state);
  });

  it("finishes calls: done with output, error, cancelled; prompt removed; closed calls stay closed", () => {
    let state = streaming(
      part({ type: "tool-call", id: "a", name: "t", input: 1 }),
      part({ type: "tool-call", id: "b", name: "t", input: 2 }),
      part({ type: "tool-call", id: "c", name: "t", input: 3 }),
      { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "ok?" },
      part({ type: "tool-result", id: "c", output: { ok: true } }),
      part({ type: "tool-error", id: "b", error: { message: "no", code: "cancelled" } }),
      part({ type: "tool-error", id: "a", error: { message: "boom" } }),
    );
    assert.deepEqual(lastParts(state), [
      { type: "tool", id: "a", name: "t", input: 1, state: "error", error: { message: "boom" } },
      { type: "tool", id: "b", name: "t", input: 2, state: "cancelled", error: { message: "no", code: "cancelled" } },
      { type: "tool", id: "c", name: "t", input: 3, state: "done", output: { ok: true } },
    ]);
    state = deepFreeze(state);
    assert.equal(sessionReducer(state, part({ type: "tool-result", id: "a", output: 0 })), state);
    assert.equal(sessionReducer(state, part({ type: "tool-error", id: "zz", error: { message: "?" } })), state);
  });

  it("finish idles; aborted or error cancel open calls and keep their prompt", () => {
    const live = streaming(
      part({ type: "tool-call", id: "a", name: "t", input: 1 }),
      { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "ok?" },
    );
    assert.equal(sessionReducer(live, part({ type: "finish" })).messages, live.messages);
    const aborted = sessionReducer(live, part({ type: "finish", reason: "aborted" }));
    assert.deepEqual(lastParts(aborted)[0], { type: "tool", id: "a", name: "t", input: 1, state: "cancelled", prompt: "ok?" });
    assert.equal(aborted.status, "idle");
    const failed = sessionReducer(live, part({ type: "error", error: "x", code: "rate_limited" }));
    assert.equal(lastParts(failed)[0].state, "cancelled");
  });

  it("applies parts within a call's sub-agent run, at any depth, ending only that run", () => {
    let state = streaming(
      part({ type: "tool-call", id: "outer", name: "delegate", input: {} }),
      part({ type: "text-delta", text: "nested" }, "outer"),
      part({ type: "tool-call", id: "inner", name: "delegate", input: {} }, "outer"),
      part({ type: "text-delta", text: "deep" }, "inner"),
      part({ type: "finish" }, "inner"),
    );
    const outer = lastParts(state)[0];
    assert.equal(state.status, "streaming");
    assert.equal(outer.agent.status, "streaming");
    assert.deepEqual(outer.agent.messages[0].parts[0], { type: "text", text: "nested" });
    const inner = outer.agent.messages[0].parts[1];
    assert.deepEqual(inner.agent, {
      messages: [{ id: "assistant-0", role: "assistant", parts: [{ type: "text", text: "deep" }] }],
      status: "idle",
    });
    state = deepFreeze(state);
    // The inner run is over; the call "nope" does not exist.
    assert.equal(sessionReducer(state, part({ type: "text-delta", text: "late" }, "inner")), state);
    assert.equal(sessionReducer(state, part({ type: "text-delta", text: "x" }, "nope")), state);
    // A finished call takes no more nested parts.
    const done = sessionReducer(state, part({ type: "tool-result", id: "inner", output: 1 }));
    assert.equal(sessionReducer(done, part({ type: "text-delta", text: "x" }, "inner")), done);
  });

  it("a call that leaves the open states stops the run still streaming behind it", () => {
    const state = streaming(
      part({ type: "tool-call", id: "outer", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "inner", name: "t", input: {} }, "outer"),
      part({ type: "tool-result", id: "outer", output: "done" }),
    );
    const outer = lastParts(state)[0];
    assert.equal(outer.state, "done");
    assert.equal(outer.agent.status, "idle");
    assert.equal(outer.agent.messages[0].parts[0].state, "cancelled");
  });

  it("toolPhase sets the newest open call by name, nested calls after their holder", () => {
    let state = streaming(
      part({ type: "tool-call", id: "old", name: "t", input: {} }),
      part({ type: "tool-call", id: "holder", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "nested", name: "t", input: {} }, "holder"),
    );
    state = sessionReducer(state, { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "Go?" });
    const [old, holder] = lastParts(state);
    assert.equal(old.state, "running");
    assert.deepEqual(holder.agent.messages[0].parts[0], {
      type: "tool", id: "nested", name: "t", input: {}, state: "awaiting-confirmation", prompt: "Go?",
    });
    state = deepFreeze(state);
    assert.equal(sessionReducer(state, { type: "toolPhase", name: "t", state: "awaiting-confirmation", prompt: "Go?" }), state);
    assert.equal(sessionReducer(state, { type: "toolPhase", name: "none", state: "running" }), state);
    const running = sessionReducer(state, { type: "toolPhase", name: "t", state: "running" });
    assert.equal("prompt" in lastParts(running)[1].agent.messages[0].parts[0], false);
  });

  it("stop cancels every open call, nested ones included, and idles nested runs", () => {
    const state = streaming(
      part({ type: "tool-call", id: "holder", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "nested", name: "t", input: {} }, "holder"),
      { type: "stop" },
    );
    const holder = lastParts(state)[0];
    assert.equal(state.status, "idle");
    assert.equal(holder.state, "cancelled");
    assert.equal(holder.agent.status, "idle");
    assert.equal(holder.agent.messages[0].parts[0].state, "cancelled");
    const frozen = deepFreeze(state);
    assert.equal(sessionReducer(frozen, { type: "stop" }), frozen);
  });

  it("retry resumes through the last finished call, or restarts the turn; reset empties", () => {
    const state = deepFreeze(streaming(
      part({ type: "text-delta", text: "a" }),
      part({ type: "tool-call", id: "done", name: "t", input: {} }),
      part({ type: "tool-result", id: "done", output: 1 }),
      part({ type: "tool-call", id: "open", name: "t", input: {} }),
      part({ type: "error", error: "x" }),
    ));
    const retried = sessionReducer(state, { type: "retry" });
    assert.equal(retried.status, "streaming");
    assert.equal("error" in retried, false);
    assert.deepEqual(lastParts(retried).map((p) => p.id ?? p.type), ["text", "done"]);
    const noCall = play(EMPTY, [{ type: "send", id: "u", text: "q" }, part({ type: "text-delta", text: "cut" }), { type: "retry" }]);
    assert.equal(noCall.messages.length, 1);
    const noUser = deepFreeze({ messages: [], status: "idle" });
    assert.equal(sessionReducer(noUser, { type: "retry" }), noUser);
    assert.deepEqual(sessionReducer(state, { type: "reset" }), EMPTY);
  });

  it("shares every message and part that did not change", () => {
    const before = deepFreeze(play(conversation(3), [
      { type: "send", id: "u", text: "q" },
      part({ type: "tool-call", id: "c", name: "t", input: {} }),
      part({ type: "text-delta", text: "a" }),
    ]));
    const after = sessionReducer(before, part({ type: "text-delta", text: "b" }));
    after.messages.slice(0, -1).forEach((message, i) => assert.equal(message, before.messages[i]));
    assert.equal(lastParts(after)[0], lastParts(before)[0]);
    assert.equal(lastParts(after)[1].text, "ab");
  });
});

// The differential check: the same workloads, smaller, through the package and the baseline.
const PACKAGE = fileURLToPath(new URL("../pkg/index.js", import.meta.url));

describe("the package and the baseline reach the same states", () => {
  const load = async () => {
    assert.ok(existsSync(PACKAGE), `${PACKAGE} is missing: run npm run build first`);
    return import(PACKAGE);
  };
  const json = (state) => JSON.parse(JSON.stringify(state));

  for (const workload of [reply({ turns: 20, deltas: 500 }), tools({ turns: 50, rounds: 30 })]) {
    it(`on ${workload.name}`, async () => {
      const pkg = await load();
      const expected = replay(sessionReducer, workload.initial(), workload.actions).state;
      const actual = replay(pkg.sessionReducer, workload.initial(), workload.actions).state;
      assert.deepEqual(json(actual), json(expected));
    });
  }

  it("on a mixed session, state by state, no-ops included", async () => {
    const pkg = await load();
    const actions = [
      { type: "retry" },
      { type: "send", id: "u-1", text: "Plan a trip" },
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "message-start", messageId: "a-1" }),
      part({ type: "reasoning", messageId: "a-1", text: "think", metadata: { sig: "x" } }),
      part({ type: "text-delta", messageId: "a-1", text: "Sure. " }),
      part({ type: "text-delta", messageId: "u-1", text: "ignored" }),
      part({ type: "tool-call", messageId: "a-1", id: "d", name: "delegate", input: { to: "planner" } }),
      part({ type: "text-delta", text: "sub " }, "d"),
      part({ type: "tool-call", id: "w", name: "weather", input: { city: "Oslo" } }, "d"),
      part({ type: "tool-call", id: "w", name: "weather", input: {} }),
      { type: "toolPhase", name: "weather", state: "awaiting-confirmation", prompt: "Check?" },
      { type: "toolPhase", name: "weather", state: "awaiting-confirmation", prompt: "Check?" },
      part({ type: "tool-call", id: "d2", name: "delegate", input: {} }, "d"),
      part({ type: "tool-call", id: "w2", name: "weather", input: {} }, "d2"),
      { type: "toolPhase", name: "weather", state: "running" },
      part({ type: "tool-result", id: "w", output: { content: [{ type: "text", text: "sunny" }] } }),
      part({ type: "step-finish" }, "d"),
      part({ type: "finish" }, "d2"),
      part({ type: "text-delta", text: "late" }, "d2"),
      part({ type: "tool-error", id: "d2", error: { message: "stopped", code: "cancelled" } }),
      part({ type: "tool-call", id: "x", name: "book", input: [1, "two", null] }),
      part({ type: "tool-error", id: "x", error: { message: "full" } }),
      part({ type: "tool-call", id: "y", name: "book", input: {} }),
      part({ type: "text-delta", text: "partial" }),
      part({ type: "error", error: "lost", code: "network" }),
      part({ type: "text-delta", text: "after error" }),
      { type: "retry" },
      part({ type: "tool-call", id: "z", name: "book", input: {} }),
      part({ type: "tool-call", id: "q", name: "delegate", input: {} }),
      part({ type: "text-delta", text: "q run" }, "q"),
      part({ type: "finish", reason: "aborted" }),
      { type: "send", id: "u-2", text: "again" },
      part({ type: "text-delta", text: "😀 ünïcode" }),
      part({ type: "tool-call", id: "h", name: "delegate", input: {} }),
      part({ type: "tool-call", id: "h1", name: "ask", input: {} }, "h"),
      { type: "stop" },
      { type: "stop" },
      { type: "reset" },
    ];
    let expected = EMPTY;
    let actual = { messages: [], status: "idle" };
    for (const [step, action] of actions.entries()) {
      const nextExpected = sessionReducer(expected, action);
      const nextActual = pkg.sessionReducer(actual, action);
      const where = `after action ${step}: ${JSON.stringify(action)}`;
      assert.deepEqual(json(nextActual), json(nextExpected), where);
      assert.equal(Object.is(nextActual, actual), Object.is(nextExpected, expected), `same object ${where}`);
      [expected, actual] = [nextExpected, nextActual];
    }
  });
});
