// SPEC v3 branches as JavaScript sees them through the built package (pkg/): edit, regenerate and
// switchBranch, `forks` and `branchAt`, identity (switching back returns the very objects, the
// set-aside branches are never touched), purity (frozen inputs) and bad input. The core's rows are
// in tests/core_branches.rs.
import assert from "node:assert/strict";
import { test } from "node:test";

import { branchAt, checkAction, sessionReducer } from "../../pkg/index.js";

const part = (part) => ({ type: "part", part });
const play = (actions, state = { messages: [], status: "idle" }) => actions.reduce(sessionReducer, state);
function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}
function assertInvalid(fn, path, problem) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof TypeError, String(error));
    assert.equal(error.code, "invalid");
    assert.equal(error.path, path);
    assert.ok(error.message.startsWith(`${path}: `), error.message);
    if (problem !== undefined) assert.ok(error.message.includes(problem), error.message);
    return true;
  });
}
const reply = (id, text) => [part({ type: "message-start", messageId: id }), part({ type: "text-delta", text }), part({ type: "finish" })];
// u-1, a-1, u-2, a-2: two finished turns.
const twoTurns = () =>
  deepFreeze(play([{ type: "send", id: "u-1", text: "Hi" }, ...reply("a-1", "Hello"), { type: "send", id: "u-2", text: "Plan a trip" }, ...reply("a-2", "To Lyon")]));
const ids = (state) => state.messages.map((message) => message.id);

test("edit sets the tail aside at a fork and starts a run with the new message", () => {
  const start = twoTurns();
  const edited = sessionReducer(start, { type: "edit", messageId: "u-2", id: "u-2b", text: "Plan a cheap trip" });
  assert.deepEqual(ids(edited), ["u-1", "a-1", "u-2b"]);
  assert.deepEqual(edited.messages[2], { id: "u-2b", role: "user", parts: [{ type: "text", text: "Plan a cheap trip" }] });
  assert.equal(edited.status, "streaming");
  assert.equal(edited.forks.length, 1);
  const [fork] = edited.forks;
  assert.equal(fork.after, "a-1");
  assert.equal(fork.active, 1);
  assert.equal(fork.alternatives[1], null);
  assert.equal(fork.alternatives[0].messages[0], start.messages[2], "the set-aside messages are the very objects");
  assert.equal(fork.alternatives[0].messages[1], start.messages[3]);
  assert.equal(edited.messages[0], start.messages[0]);
  assert.deepEqual(branchAt(edited, 2), { after: "a-1", active: 1, count: 2 });
  assert.equal(branchAt(edited, 1), undefined);
  assert.equal(sessionReducer(start, { type: "edit", messageId: "a-1", id: "x", text: "no" }), start, "an assistant message is not edited");
  assert.equal(sessionReducer(start, { type: "edit", messageId: "nope", id: "x", text: "no" }), start);
});

test("editing the first message makes a fork after null; editing again adds an alternative", () => {
  const start = twoTurns();
  const once = sessionReducer(start, { type: "edit", messageId: "u-1", id: "v-1", text: "Hey" });
  const twice = play([...reply("b-1", "Hey there"), { type: "edit", messageId: "v-1", id: "w-1", text: "Yo" }], once);
  assert.deepEqual(ids(twice), ["w-1"]);
  assert.equal(twice.forks.length, 1);
  assert.equal(twice.forks[0].after, null);
  assert.equal(twice.forks[0].active, 2);
  assert.equal(twice.forks[0].alternatives[0], once.forks[0].alternatives[0], "an untouched branch keeps its identity");
  assert.deepEqual(branchAt(twice, 0), { after: null, active: 2, count: 3 });
});

test("regenerate sets the reply aside; a fork after the last message until the reply begins", () => {
  const start = twoTurns();
  const again = sessionReducer(start, { type: "regenerate" });
  assert.deepEqual(ids(again), ["u-1", "a-1", "u-2"]);
  assert.equal(again.status, "streaming");
  assert.deepEqual(branchAt(again, 3), { after: "u-2", active: 1, count: 2 });
  const earlier = sessionReducer(start, { type: "regenerate", messageId: "a-1" });
  assert.deepEqual(ids(earlier), ["u-1"]);
  assert.deepEqual(earlier.forks[0].alternatives[0].messages.map((m) => m.id), ["a-1", "u-2", "a-2"]);
  assert.equal(sessionReducer(start, { type: "regenerate", messageId: "u-2" }), start, "not an assistant message");
  const empty = sessionReducer(again, { type: "regenerate" });
  assert.equal(empty, again, "an empty tail while streaming: nothing to set aside, nothing changes");
});

test("switchBranch brings the branch back, its very objects; switching back returns === objects", () => {
  const start = twoTurns();
  const edited = play([{ type: "edit", messageId: "u-2", id: "u-2b", text: "Cheap" }, ...reply("a-2b", "To Dijon")], start);
  const back = sessionReducer(edited, { type: "switchBranch", after: "a-1", to: 0 });
  assert.deepEqual(ids(back), ["u-1", "a-1", "u-2", "a-2"]);
  assert.equal(back.messages[2], start.messages[2]);
  assert.equal(back.messages[3], start.messages[3]);
  assert.equal(back.status, "idle");
  assert.deepEqual(branchAt(back, 2), { after: "a-1", active: 0, count: 2 });
  const forth = sessionReducer(back, { type: "switchBranch", after: "a-1", to: 1 });
  assert.equal(forth.messages[2], edited.messages[2]);
  assert.equal(forth.messages[3], edited.messages[3]);
  assert.equal(sessionReducer(forth, { type: "switchBranch", after: "a-1", to: 1 }), forth, "to === active");
  assert.equal(sessionReducer(forth, { type: "switchBranch", after: "a-1", to: 2 }), forth, "outside");
  assert.equal(sessionReducer(forth, { type: "switchBranch", after: "a-1", to: -1 }), forth, "negative");
  assert.equal(sessionReducer(forth, { type: "switchBranch", after: "u-1", to: 0 }), forth, "no such fork");
  const streaming = sessionReducer(start, { type: "regenerate" });
  assert.equal(sessionReducer(streaming, { type: "switchBranch", after: "u-2", to: 0 }), streaming, "ignored while streaming");
});

test("nested choices are remembered: the forks inside a branch come back with it", () => {
  const start = twoTurns();
  const inner = play([{ type: "edit", messageId: "u-2", id: "u-2b", text: "B" }, ...reply("a-2b", "b")], start);
  const outer = play([{ type: "edit", messageId: "u-1", id: "v-1", text: "Other" }, ...reply("b-1", "other")], inner);
  assert.equal(outer.forks.length, 1);
  assert.equal(outer.forks[0].alternatives[0].forks[0], inner.forks[0], "the inner fork went into the branch as it was");
  const back = sessionReducer(outer, { type: "switchBranch", after: null, to: 0 });
  assert.deepEqual(ids(back), ["u-1", "a-1", "u-2b", "a-2b"]);
  assert.deepEqual(back.forks.map((fork) => fork.after), [null, "a-1"]);
  assert.equal(back.forks[1], inner.forks[0]);
});

test("a switch cancels the open calls of the tail it sets aside", () => {
  const start = twoTurns();
  const waiting = play(
    [
      { type: "edit", messageId: "u-2", id: "u-2b", text: "B" },
      part({ type: "message-start", messageId: "a-2b" }),
      part({ type: "tool-call", id: "c-1", name: "confirm", input: {} }),
      part({ type: "tool-approval-request", id: "c-1" }),
      part({ type: "finish" }),
    ],
    start,
  );
  assert.equal(waiting.messages[3].parts[0].state, "awaiting-confirmation");
  const back = sessionReducer(waiting, { type: "switchBranch", after: "a-1", to: 0 });
  assert.equal(back.forks[0].alternatives[1].messages[1].parts[0].state, "cancelled");
  assert.equal(sessionReducer(back, part({ type: "tool-result", id: "c-1", output: 1 })), back, "no answer reaches a branch");
});

test("retry drops the forks whose after it cuts; reset drops every fork", () => {
  const start = twoTurns();
  const inner = play([{ type: "edit", messageId: "u-2", id: "u-2b", text: "B" }, ...reply("a-2b", "b")], start);
  const failed = play([{ type: "send", id: "u-3", text: "More" }, part({ type: "error", error: "down" })], inner);
  assert.equal(sessionReducer(failed, { type: "retry" }).forks, failed.forks, "the fork's after stays: the very list");
  const edited = play([{ type: "regenerate", messageId: "a-1" }, part({ type: "error", error: "down" })], inner);
  assert.deepEqual(edited.forks.map((fork) => fork.after), ["u-1"]);
  const reset = sessionReducer(inner, { type: "reset" });
  assert.deepEqual(reset, { messages: [], status: "idle" });
});

test("edit, regenerate and switchBranch never mutate their frozen state", () => {
  const start = twoTurns();
  const edited = deepFreeze(play([{ type: "edit", messageId: "u-2", id: "u-2b", text: "B" }, ...reply("a-2b", "b")], start));
  const copy = JSON.stringify(edited);
  sessionReducer(edited, { type: "switchBranch", after: "a-1", to: 0 });
  sessionReducer(edited, { type: "regenerate" });
  sessionReducer(edited, { type: "edit", messageId: "u-1", id: "z", text: "z" });
  assert.equal(JSON.stringify(edited), copy);
});

test("bad actions name their path", () => {
  const start = twoTurns();
  assertInvalid(() => sessionReducer(start, { type: "switchBranch", after: "a-1", to: "1" }), "action.to", "expected an integer");
  assertInvalid(() => sessionReducer(start, { type: "switchBranch", after: "a-1", to: 1.5 }), "action.to", "expected an integer");
  assertInvalid(() => sessionReducer(start, { type: "switchBranch", to: 1 }), "action.after", "expected a string or null");
  assertInvalid(() => sessionReducer(start, { type: "edit", messageId: "u-2", id: "x" }), "action.text", "expected a string");
  assertInvalid(() => sessionReducer(start, { type: "edit", id: "x", text: "y" }), "action.messageId", "expected a string");
  assertInvalid(() => sessionReducer(start, { type: "regenerate", messageId: 3 }), "action.messageId", "expected a string");
  assertInvalid(() => checkAction({ type: "batch", actions: [{ type: "switchBranch", after: null }] }), "action.actions[0].to", "expected an integer");
  assert.deepEqual(checkAction({ type: "switchBranch", after: null, to: 0 }), { type: "switchBranch", after: null, to: 0 });
});

const message = (id, role = "user") => ({ id, role, parts: [{ type: "text", text: id }] });
const stop = { type: "stop" };

test("bad forks in a state name their path", () => {
  const messages = [message("u-1"), message("a-1", "assistant")];
  const fork = (after, alternatives, active = 1) => ({ after, active, alternatives });
  const branch = { messages: [message("old")] };
  const with_ = (forks) => ({ messages, status: "idle", forks });
  assertInvalid(() => sessionReducer(with_([]), stop), "state.forks", "expected a non-empty array or no field");
  assertInvalid(() => sessionReducer(with_([fork("u-1", [null], 0)]), stop), "state.forks[0].alternatives", "at least two");
  assertInvalid(() => sessionReducer(with_([fork("u-1", [branch], 0)]), stop), "state.forks[0].alternatives[0]", "expected null");
  assertInvalid(() => sessionReducer(with_([fork("nope", [branch, null])]), stop), "state.forks[0].after", "the id of a message");
  assertInvalid(() => sessionReducer(with_([fork("a-1", [branch, null]), fork("u-1", [branch, null])]), stop), "state.forks[1].after", "path order");
  assertInvalid(() => sessionReducer(with_([fork("u-1", [branch, null]), fork("u-1", [branch, null])]), stop), "state.forks[1].after", "path order");
  assertInvalid(() => sessionReducer(with_([fork("u-1", [branch, null], 2)]), stop), "state.forks[0].alternatives[1]", "expected a branch");
  assertInvalid(() => sessionReducer(with_([fork("u-1", [branch, branch], 2)]), stop), "state.forks[0].active", "an index of alternatives");
  assertInvalid(() => sessionReducer(with_([fork("u-1", [branch, null], "1")]), stop), "state.forks[0].active", "integer");
  assertInvalid(() => sessionReducer(with_([fork("u-1", [{ messages: [message("x")], forks: [fork(null, [branch, null])] }, null])]), stop), "state.forks[0].alternatives[0].forks[0].after", "expected a string");
  const open = { messages: [{ id: "o", role: "assistant", parts: [{ type: "tool", id: "c", name: "n", input: {}, state: "running" }] }] };
  assertInvalid(() => sessionReducer(with_([fork("u-1", [open, null])]), stop), "state.forks[0].alternatives[0].messages[0].parts[0].state", "no open call in a branch");
  const agent = { messages: [], status: "idle", forks: [fork(null, [branch, null])] };
  const nested = { messages: [{ id: "a", role: "assistant", parts: [{ type: "tool", id: "c", name: "n", input: {}, state: "done", agent }] }], status: "idle" };
  assertInvalid(() => sessionReducer(nested, stop), "state.messages[0].parts[0].agent.forks", "top-level state");
});

test("a branch nested 10,000 deep is a clear error naming the path, not a stack overflow", () => {
  let branch = { messages: [message("m-0")] };
  for (let depth = 1; depth < 10_000; depth++) {
    branch = { messages: [message(`m-${depth}`)], forks: [{ after: `m-${depth}`, active: 1, alternatives: [branch, null] }] };
  }
  const state = { messages: [message("u-1")], status: "idle", forks: [{ after: "u-1", active: 1, alternatives: [branch, null] }] };
  assert.throws(
    () => sessionReducer(state, stop),
    (error) => error.code === "invalid" && error.path.startsWith("state.forks[0].alternatives[0].forks[0]") && error.message.endsWith("branches nest deeper than 64"),
  );
  // 64 levels are allowed.
  let deepest = { messages: [message("m-0")] };
  for (let depth = 1; depth < 64; depth++) {
    deepest = { messages: [message(`m-${depth}`)], forks: [{ after: `m-${depth}`, active: 1, alternatives: [deepest, null] }] };
  }
  const allowed = { messages: [message("u-1")], status: "idle", forks: [{ after: "u-1", active: 1, alternatives: [deepest, null] }] };
  const stopped = sessionReducer(allowed, stop);
  assert.equal(stopped, allowed);
});

// The first branch of each level below `fork`: how many levels, and the deepest branch.
function bottomOf(fork) {
  let levels = 1;
  let branch = fork.alternatives[0];
  while (branch.forks !== undefined) {
    levels++;
    branch = branch.forks[0].alternatives[0];
  }
  return { levels, branch };
}

test("an edit that would nest branches 65 deep drops only the forks whose branches would be at depth 65", () => {
  // A fork on the path (after u-2) whose branches nest 64 deep: editing u-1 puts it one level down.
  let deepest = { messages: [message("m-0")] };
  for (let depth = 1; depth < 64; depth++) {
    deepest = { messages: [message(`m-${depth}`)], forks: [{ after: `m-${depth}`, active: 1, alternatives: [deepest, null] }] };
  }
  const state = deepFreeze({
    messages: [message("u-1"), message("a-1", "assistant"), message("u-2")],
    status: "idle",
    forks: [{ after: "u-2", active: 1, alternatives: [deepest, null] }],
  });
  assert.equal(bottomOf(state.forks[0]).levels, 64);
  const edited = sessionReducer(state, { type: "edit", messageId: "u-1", id: "v-1", text: "v" });
  assert.deepEqual(ids(edited), ["v-1"]);
  const branch = edited.forks[0].alternatives[0];
  assert.deepEqual(branch.messages, state.messages, "the messages stay");
  const bottom = bottomOf(branch.forks[0]);
  assert.equal(bottom.levels, 63, "the fork after m-1 is gone, with its alternative m-0");
  assert.deepEqual(bottom.branch, { messages: [message("m-1")] });
  assert.equal(bottom.branch.messages[0], findMessage(deepest, "m-1"), "the very message object");
  // The result is a state the reducer reads back: 64 levels at most.
  const read = JSON.parse(JSON.stringify(edited));
  assert.equal(sessionReducer(read, { type: "stop" }).status, "idle");
  // One level less deep is kept whole.
  const shallower = deepFreeze({ ...state, forks: [{ after: "u-2", active: 1, alternatives: [deepest.forks[0].alternatives[0], null] }] });
  const kept = sessionReducer(shallower, { type: "edit", messageId: "u-1", id: "v-1", text: "v" });
  assert.equal(kept.forks[0].alternatives[0].forks[0], shallower.forks[0]);
});

// The message `id` of the chain of first branches below `branch`.
function findMessage(branch, id) {
  for (let at = branch; at !== undefined; at = at.forks?.[0].alternatives[0]) {
    if (at.messages[0].id === id) return at.messages[0];
  }
  return undefined;
}

test("a switch in a conversation holding 1,000 alternatives touches none of the set-aside branches", () => {
  let state = play([{ type: "send", id: "u-1", text: "Hi" }, ...reply("a-1", "first")]);
  for (let index = 0; index < 999; index++) state = play([{ type: "regenerate" }, ...reply(`a-1-${index}`, `take ${index}`)], state);
  assert.equal(state.forks[0].alternatives.length, 1000);
  // Every branch behind a Proxy that fails the test on any read: a switch must not look at them.
  const touched = [];
  const guard = (branch, index) =>
    branch === null
      ? null
      : new Proxy(branch, {
          get(target, key) {
            touched.push(index);
            return target[key];
          },
        });
  const { forks } = state;
  const alternatives = forks[0].alternatives.map(guard);
  const guarded = { ...state, forks: [{ ...forks[0], alternatives }] };
  // Read once (a state the module did not make is read whole), then switch from the module's state.
  const stopped = sessionReducer(guarded, { type: "continue" });
  const idle = sessionReducer(stopped, part({ type: "finish" }));
  touched.length = 0;
  const switched = sessionReducer(idle, { type: "switchBranch", after: "u-1", to: 500 });
  assert.deepEqual([...new Set(touched)], [500], "only the branch switched to is read");
  assert.equal(switched.messages[1].id, "a-1-499");
  assert.equal(switched.forks[0].alternatives[1], alternatives[1]);
  assert.equal(switched.forks[0].alternatives[500], null);
  assert.equal(switched.forks[0].alternatives[999].messages[0], idle.messages[1]);
  touched.length = 0;
  const back = sessionReducer(switched, { type: "switchBranch", after: "u-1", to: 999 });
  assert.deepEqual(touched, []);
  assert.equal(back.messages[1], idle.messages[1]);
});

test("branchAt agrees with the forks: undefined off the path, for a non-integer, and without forks", () => {
  const start = twoTurns();
  assert.equal(branchAt(start, 0), undefined);
  const edited = sessionReducer(start, { type: "edit", messageId: "u-2", id: "u-2b", text: "B" });
  assert.equal(branchAt(edited, -1), undefined);
  assert.equal(branchAt(edited, 4), undefined);
  assert.equal(branchAt(edited, 1.5), undefined);
  assert.deepEqual(branchAt(edited, 2), { after: "a-1", active: 1, count: 2 });
});

test("React's double call and a reused action: the same switch again is the same object, a changed one applies afresh", () => {
  const start = twoTurns();
  const edited = play([{ type: "edit", messageId: "u-2", id: "u-2b", text: "B" }, ...reply("a-2b", "b")], start);
  const action = { type: "switchBranch", after: "a-1", to: 0 };
  const once = sessionReducer(edited, action);
  assert.equal(sessionReducer(edited, action), once);
  action.to = 1;
  assert.equal(sessionReducer(edited, action), edited, "to === active now");
});

test("a getter that throws inside forks is an error naming its path; the module keeps working", () => {
  const branch = {
    get messages() {
      throw new Error("boom");
    },
  };
  const state = { messages: [message("u-1")], status: "idle", forks: [{ after: "u-1", active: 1, alternatives: [branch, null] }] };
  assertInvalid(() => sessionReducer(state, stop), "state.forks[0].alternatives[0].messages", "getter threw");
  const trap = new Proxy({}, { get: () => { throw new Error("trap"); } });
  assertInvalid(() => sessionReducer({ messages: [], status: "idle", forks: [trap] }, stop), "state.forks[0].after", "getter threw");
  assert.deepEqual(ids(twoTurns()), ["u-1", "a-1", "u-2", "a-2"]);
});
