// chat-session-reducer/assistant-ui's conversion (src/assistant-ui/convert.js) on sessions the
// reducer made: the fast path of a streaming delta (only the last message converted again) gives
// the repository the whole walk gives, and the tree is the one `forks` and `branchAt` describe.
import { test } from "node:test";
import assert from "node:assert/strict";
import { branchAt, sessionReducer } from "../../pkg/index.js";
import { createConverter, toRepository } from "../../src/assistant-ui/convert.js";

const part = (value) => ({ type: "part", part: value });
const delta = (messageId, text) => part({ type: "text-delta", messageId, text });

/** The repository of `state` both ways, with the converter's names; they must agree. */
function repositoryOf(state, convert) {
  const fast = toRepository(state, convert);
  const kept = convert.previous;
  convert.previous = undefined;
  const whole = toRepository(state, convert);
  convert.previous = kept;
  const shape = ({ repository }) => ({ headId: repository.headId, messages: repository.messages.map(({ message, parentId }) => ({ id: message.id, parentId })) });
  assert.deepEqual(shape(fast), shape(whole));
  fast.repository.messages.forEach(({ message }, index) => assert.equal(message, whole.repository.messages[index].message, "the same converted objects"));
  assert.deepEqual([...fast.switches], [...whole.switches]);
  return fast;
}

/** What assistant-ui's BranchPicker counts for the active path's message `index`: its siblings. */
function siblingsAt({ repository }, index) {
  const path = [];
  for (let id = repository.headId; id !== null; id = repository.messages.find((item) => item.message.id === id).parentId) path.unshift(id);
  const { parentId } = repository.messages.find((item) => item.message.id === path[index]);
  const siblings = repository.messages.filter((item) => item.parentId === parentId).map((item) => item.message.id);
  return { active: siblings.indexOf(path[index]), count: siblings.length };
}

test("a streamed reply, a regenerate reusing its id, an edit and a switch: the fast path agrees with the walk, and the siblings are branchAt's", () => {
  const convert = createConverter();
  let state = { messages: [], status: "idle" };
  const steps = [
    { type: "send", id: "u1", text: "first" },
    part({ type: "message-start", messageId: "r1" }),
    ...Array.from({ length: 5 }, () => delta("r1", "x")),
    part({ type: "finish" }),
    { type: "regenerate" },
    part({ type: "message-start", messageId: "r1" }),
    ...Array.from({ length: 5 }, () => delta("r1", "y")),
    part({ type: "error", error: "cut" }),
    { type: "edit", messageId: "u1", id: "u2", text: "second" },
    delta("r2", "z"),
    part({ type: "finish" }),
    { type: "switchBranch", after: null, to: 0 },
  ];
  for (const action of steps) {
    state = sessionReducer(state, action);
    const result = repositoryOf(state, convert);
    for (let index = 0; index < state.messages.length; index += 1) {
      const fork = branchAt(state, index);
      if (fork !== undefined) assert.deepEqual(siblingsAt(result, index), { active: fork.active, count: fork.count }, `${action.type}: message ${index}`);
    }
  }
  // The first question is live again, with the regenerated reply (which reused r1) beside the first one.
  const result = repositoryOf(state, convert);
  // Each parent before its children, siblings in their fork's order: u1 then u2 at the root, the first r1 then the regenerated one under u1.
  assert.deepEqual(result.repository.messages.map(({ message, parentId }) => [message.id, parentId]), [
    ["u1", null],
    ["u2", null],
    ["r2", "u2"],
    ["r1", "u1"],
    ["r1~1", "u1"],
  ]);
  assert.equal(result.repository.headId, "r1~1");
});
