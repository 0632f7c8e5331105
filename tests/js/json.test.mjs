// src/wasm/json.js, the JSON Patch (RFC 6902) and metadata merging behind `data` and
// `agent-state` parts: the json-patch-tests suite (tests/fixtures/json-patch-tests, Apache-2.0),
// then what the package adds: nothing given is mutated, untouched nested objects keep their
// identity, and a patch that changes nothing gives the document itself.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { applyJsonPatch, jsonEqual, mergeJson, patchProblem } from "../../src/wasm/json.js";

const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/json-patch-tests/${name}`, import.meta.url), "utf8"));

function deepFreeze(value) {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

for (const file of ["tests.json", "spec_tests.json"]) {
  test(`json-patch-tests ${file}: every enabled case`, () => {
    let run = 0;
    for (const [index, record] of fixture(file).entries()) {
      if (record.disabled || record.patch === undefined) continue;
      const name = `${file}[${index}] ${record.comment ?? record.error ?? ""}`;
      const doc = deepFreeze(structuredClone(record.doc));
      const problem = patchProblem(record.patch);
      const result = problem === null ? applyJsonPatch(doc, record.patch) : undefined;
      if (record.error !== undefined) {
        assert.equal(result, undefined, `${name}: must fail, gave ${JSON.stringify(result)}`);
      } else {
        assert.equal(problem, null, `${name}: ${problem}`);
        const expected = record.expected ?? record.doc;
        assert.ok(jsonEqual(result, expected), `${name}: ${JSON.stringify(result)} != ${JSON.stringify(expected)}`);
      }
      assert.ok(jsonEqual(doc, record.doc), `${name}: the document was changed`);
      run++;
    }
    assert.ok(run > 10, `${run} cases run`);
  });
}

test("a patch copies only the objects on its paths", () => {
  const doc = deepFreeze({ a: { b: 1, c: { d: [1, 2] } }, e: { f: true }, g: [{ h: 1 }, { i: 2 }] });
  const next = applyJsonPatch(doc, [
    { op: "replace", path: "/a/b", value: 2 },
    { op: "add", path: "/g/1/j", value: 3 },
  ]);
  assert.deepEqual(next, { a: { b: 2, c: { d: [1, 2] } }, e: { f: true }, g: [{ h: 1 }, { i: 2, j: 3 }] });
  assert.equal(next.e, doc.e);
  assert.equal(next.a.c, doc.a.c);
  assert.equal(next.g[0], doc.g[0]);
  assert.notEqual(next.g[1], doc.g[1]);
});

test("a patch that changes nothing gives the document itself; one that fails gives undefined", () => {
  const doc = deepFreeze({ a: [1, { b: null }] });
  assert.equal(applyJsonPatch(doc, [{ op: "test", path: "/a/1/b", value: null }]), doc);
  assert.equal(applyJsonPatch(doc, []), doc);
  assert.equal(applyJsonPatch(doc, [{ op: "add", path: "/x", value: 1 }, { op: "test", path: "/a/0", value: 2 }]), undefined);
});

test("a copied value changed later in the same patch leaves its source alone", () => {
  const doc = deepFreeze({ a: { list: [1] } });
  const next = applyJsonPatch(doc, [
    { op: "add", path: "/a/list/-", value: 2 },
    { op: "copy", from: "/a", path: "/b" },
    { op: "add", path: "/b/list/-", value: 3 },
  ]);
  assert.deepEqual(next, { a: { list: [1, 2] }, b: { list: [1, 2, 3] } });
});

// A value taken from the document (copy, move) after the same patch made containers afresh: it
// must never be put inside itself, nor be changed in one place by an edit of the other.
test("a copy or move of a value the patch made afresh never aliases it", () => {
  const doc = deepFreeze({ a: { x: 1 } });
  const cases = [
    [[{ op: "add", path: "/n", value: 1 }, { op: "copy", from: "", path: "/b" }], { a: { x: 1 }, n: 1, b: { a: { x: 1 }, n: 1 } }],
    [[{ op: "add", path: "/a/y", value: 2 }, { op: "copy", from: "/a", path: "/a/z" }], { a: { x: 1, y: 2, z: { x: 1, y: 2 } } }],
    [
      [{ op: "add", path: "/n", value: 1 }, { op: "copy", from: "", path: "/b" }, { op: "add", path: "/b/m", value: 2 }, { op: "add", path: "/o", value: 3 }],
      { a: { x: 1 }, n: 1, b: { a: { x: 1 }, n: 1, m: 2 }, o: 3 },
    ],
    [
      [{ op: "add", path: "/a/y", value: 2 }, { op: "copy", from: "/a", path: "/b" }, { op: "add", path: "/a/s", value: 3 }, { op: "add", path: "/b/t", value: 4 }],
      { a: { x: 1, y: 2, s: 3 }, b: { x: 1, y: 2, t: 4 } },
    ],
    [
      [{ op: "add", path: "/a/y", value: 2 }, { op: "move", from: "/a", path: "/b" }, { op: "add", path: "/b/t", value: 4 }, { op: "copy", from: "/b", path: "/c" }, { op: "remove", path: "/c/x" }],
      { b: { x: 1, y: 2, t: 4 }, c: { y: 2, t: 4 } },
    ],
    [[{ op: "add", path: "", value: { r: [1] } }, { op: "copy", from: "/r", path: "/r/-" }], { r: [1, [1]] }],
  ];
  for (const [patch, expected] of cases) {
    const frozenPatch = deepFreeze(structuredClone(patch));
    const next = applyJsonPatch(doc, frozenPatch);
    assert.doesNotThrow(() => JSON.stringify(next), `${JSON.stringify(patch)}: a value inside itself`);
    assert.deepEqual(next, expected, JSON.stringify(patch));
  }
  assert.deepEqual(doc, { a: { x: 1 } });
});

test("__proto__ is an ordinary key, in patches and merges alike", () => {
  const doc = JSON.parse('{ "__proto__": { "x": 1 } }');
  const next = applyJsonPatch(doc, [{ op: "add", path: "/__proto__/y", value: 2 }]);
  assert.equal(Object.getPrototypeOf(next), Object.prototype);
  assert.deepEqual(Object.keys(next), ["__proto__"]);
  assert.equal(JSON.stringify(next), '{"__proto__":{"x":1,"y":2}}');
  const merged = mergeJson({}, JSON.parse('{ "__proto__": { "polluted": true } }'));
  assert.equal(Object.getPrototypeOf(merged), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.equal(JSON.stringify(merged), '{"__proto__":{"polluted":true}}');
});

test("patchProblem names the operation and field that is wrong", () => {
  assert.deepEqual(patchProblem({}), ["", "expected an array of JSON Patch operations"]);
  assert.deepEqual(patchProblem([{ op: "add", path: "/a", value: 1 }, 5]), ["[1]", "expected an object"]);
  assert.equal(patchProblem([{ op: "spam", path: "/a" }])[0], "[0].op");
  assert.equal(patchProblem([{ op: "add", path: "a", value: 1 }])[0], "[0].path");
  assert.equal(patchProblem([{ op: "move", path: "/a" }])[0], "[0].from");
  assert.equal(patchProblem([{ op: "test", path: "/a" }])[0], "[0].value");
  assert.equal(patchProblem([{ op: "test", path: "/a", value: null }]), null);
});

test("metadata merges plain objects key by key and keeps what an equal value would replace", () => {
  const held = deepFreeze({ usage: { input: 1, output: 2 }, model: "m", tags: ["a"] });
  const merged = mergeJson(held, { usage: { output: 3 }, tags: ["a"], extra: null });
  assert.deepEqual(merged, { usage: { input: 1, output: 3 }, model: "m", tags: ["a"], extra: null });
  assert.equal(merged.tags, held.tags, "an equal array keeps the held one");
  assert.equal(mergeJson(held, { usage: { input: 1 }, model: "m" }), held, "nothing new: the held value itself");
  assert.deepEqual(mergeJson(held, "replaced"), "replaced");
  assert.deepEqual(mergeJson(undefined, { a: 1 }), { a: 1 });
  assert.deepEqual(mergeJson({ a: { b: 1 } }, { a: [1] }), { a: [1] });
});
