// Issue 10, item 1: values that throw while the package reads them, passed to every entry point
// thousands of times, in Node and in Chromium; afterwards a valid conversation must still give
// exactly the answer a fresh module gives. (Before the fix, about 511 such calls broke every later
// call: `null` results, then "memory access out of bounds".)
import assert from "node:assert/strict";
import { test } from "node:test";

import * as api from "../../pkg/index.js";
import { conversation, runHostile } from "./hostile_input.mjs";
import { withPackagePage } from "./package_page.mjs";

const ROUNDS = 2000;

test("in Node: thousands of throwing getters and Proxies through every entry point, then the right answer", () => {
  const expected = conversation(api);
  const { calls, problems, answer } = runHostile(api, ROUNDS);
  assert.ok(calls >= 30000, `${calls} hostile calls`);
  assert.deepEqual(problems, []);
  assert.equal(answer, expected);
});

test("in Chromium: the same", async () => {
  const result = await withPackagePage((page) =>
    page.evaluate(async (rounds) => {
      const api = await import("/pkg/index.js");
      const { conversation, runHostile } = await import("/tests/js/hostile_input.mjs");
      const expected = conversation(api);
      return { expected, ...runHostile(api, rounds) };
    }, ROUNDS),
  );
  assert.deepEqual(result.problems, []);
  assert.equal(result.answer, result.expected);
  assert.equal(result.answer, conversation(api), "Chromium and Node agree");
});
