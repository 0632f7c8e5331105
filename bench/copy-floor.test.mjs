// The copy floor is only a fair floor if it makes the copies immutability asks for on the
// benchmark's workloads, and builds a conversation of the same shape as the package's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { copyFloor } from "./copy-floor.mjs";
import { conversation, replay, reply, tools } from "./workloads.mjs";

const pkg = await import("../pkg/index.js");
const shape = (state) => state.messages.map((message) => [message.role, message.parts.map((part) => part.type)]);

describe("copy floor", () => {
  for (const workload of [tools({ turns: 20, rounds: 12 }), reply({ turns: 20, deltas: 300 })]) {
    it(`builds the package's shape of conversation on ${workload.name}`, () => {
      const floor = replay(copyFloor, workload.initial(), workload.actions).state;
      const made = replay(pkg.sessionReducer, workload.initial(), workload.actions).state;
      assert.deepEqual(shape(floor), shape(made));
    });
  }

  it("copies the message list, the changed message, its parts and the changed part, and shares the rest", () => {
    const state = copyFloor(conversation(3), { type: "send", id: "u-live", text: "Hi" });
    Object.freeze(state.messages);
    const started = copyFloor(state, { type: "part", part: { type: "message-start", messageId: "a-live" } });
    const next = copyFloor(started, { type: "part", part: { type: "text-delta", text: "Hello" } });
    const appended = copyFloor(next, { type: "part", part: { type: "text-delta", text: " there" } });
    assert.notEqual(appended.messages, next.messages);
    assert.notEqual(appended.messages.at(-1), next.messages.at(-1));
    assert.notEqual(appended.messages.at(-1).parts, next.messages.at(-1).parts);
    assert.equal(appended.messages.at(-1).parts[0].text, "Hello there");
    assert.equal(next.messages.at(-1).parts[0].text, "Hello");
    for (let index = 0; index < next.messages.length - 1; index++) assert.equal(appended.messages[index], next.messages[index]);
  });
});
