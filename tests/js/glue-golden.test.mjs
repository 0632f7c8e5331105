// The glue rewriting (scripts/glue.mjs) against a golden copy of wasm-bindgen's output for this
// crate (tests/fixtures/glue/): what changed, in lines, when wasm-bindgen is upgraded or the
// crate's imports or exports change. After reviewing the change, refresh the copy with the
// command these failures print (docs/architecture.md, "Upgrading wasm-bindgen").
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { buildDir, glueFiles, readGolden, refreshCommand, rewriteGlue, withoutVersionHashes } from "../../scripts/glue.mjs";
import { unsafeImports } from "../../scripts/glue-audit.mjs";

const golden = readGolden();

// The lines where `actual` and `expected` differ (their common first and last lines left out),
// numbered, at most `shown` of each.
function changedLines(actual, expected, shown = 30) {
  const [a, e] = [actual.split("\n"), expected.split("\n")];
  let start = 0;
  while (start < a.length && start < e.length && a[start] === e[start]) start++;
  let end = 0;
  while (end < a.length - start && end < e.length - start && a[a.length - 1 - end] === e[e.length - 1 - end]) end++;
  const numbered = (lines, sign) => lines.slice(start, lines.length - end).slice(0, shown)
    .map((line, index) => `${sign} ${String(start + index + 1).padStart(4)}: ${line}`);
  return [...numbered(e, "-"), ...numbered(a, "+")].join("\n");
}

function assertSame(actual, expected, what) {
  if (actual === expected) return;
  assert.fail(`${what}\n(- golden, + now)\n${changedLines(actual, expected)}\nAfter review, refresh the golden copy: ${refreshCommand}`);
}

test("the golden raw glue rewrites to the golden rewritten glue", () => {
  assertSame(rewriteGlue(golden.glue, golden.renaming, golden.importModule), golden.rewritten,
    "scripts/glue.mjs rewrites tests/fixtures/glue/chat_session-reducer.js differently from tests/fixtures/glue/rewritten.js");
});

test("the golden raw glue passes the audit of what could throw into the module", () => {
  assert.deepEqual(unsafeImports(golden.glue), []);
});

test("a fresh build's raw glue and declarations are the golden ones, but for the version's hashes", () => {
  const fresh = join(buildDir, "bindgen");
  assert.ok(existsSync(join(fresh, glueFiles.glue)), `${fresh}: no build's output; run bash scripts/build.sh first`);
  for (const [role, file] of Object.entries(glueFiles)) {
    assertSame(withoutVersionHashes(readFileSync(join(fresh, file), "utf8")), withoutVersionHashes(golden[role]),
      `wasm-bindgen's ${file} (target/pkg-build/bindgen/) is not the golden copy's (tests/fixtures/glue/)`);
  }
});
