// The README's "From Rust" example is a test that runs: its code is tests/from-rust/tests/chat.rs's,
// between the markers, as written (scripts/test.sh runs that crate under wasm-pack in Node and
// headless Chromium).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

test("the README's Rust example is the one tests/from-rust runs", () => {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("## From Rust"));
  const blocks = [...section.matchAll(/```rust\n([\s\S]*?)```/g)].map((match) => match[1]);
  assert.equal(blocks.length, 1, "one Rust example in the section");
  const chat = read("tests/from-rust/tests/chat.rs");
  const quoted = chat.match(/\/\/ README: from here\n([\s\S]*?)\/\/ README: to here\n/);
  assert.ok(quoted, "tests/from-rust/tests/chat.rs marks the quoted test");
  assert.equal(blocks[0], quoted[1]);
  assert.match(quoted[1], /#\[wasm_bindgen_test\]\nfn /, "the quoted code is a test");
});
