// The fuzz must be able to fail: each of its checks is run against the package with one fault
// put in front of it, and must report that fault (and the package itself must pass).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const RUN = fileURLToPath(new URL("./run.mjs", import.meta.url));
const PACKAGE = fileURLToPath(new URL("../../pkg/index.js", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "fuzz-faults-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

// Runs the fuzz on a module that wraps the package's sessionReducer in `wrap` (and its
// checkAction in `wrapCheck`).
function fuzz(name, wrap, wrapCheck = "(check) => check", count = 3000) {
  const module = join(scratch, `${name}.mjs`);
  writeFileSync(module, `import * as pkg from ${JSON.stringify(PACKAGE)};
export const { resumable } = pkg;
export const sessionReducer = (${wrap})(pkg.sessionReducer);
export const checkAction = (${wrapCheck})(pkg.checkAction);
`);
  try {
    return { code: 0, output: execFileSync(process.execPath, [RUN, "1", String(count), `--package=${module}`], { encoding: "utf8" }) };
  } catch (error) {
    return { code: error.status, output: error.stdout };
  }
}

describe("the fuzz reports each kind of fault", () => {
  it("passes the package as it is", () => {
    const { code, output } = fuzz("as-is", "(reduce) => reduce");
    assert.equal(code, 0, output);
    assert.match(output, /differences: 0/);
  });

  const faults = {
    json: "(reduce) => (state, action) => { const next = reduce(state, action); return action.type === 'stop' ? { ...next, status: 'error' } : next; }",
    identity: "(reduce) => (state, action) => { const next = reduce(state, action); return next === state ? { ...next } : next; }",
    sharing: "(reduce) => (state, action) => { const next = reduce(state, action); return next === state || next.messages.length === 0 ? next : { ...next, messages: next.messages.map((m) => ({ ...m })) }; }",
    mutation: "(reduce) => (state, action) => { const next = reduce(state, action); if (!Object.isFrozen(action)) action.touched = true; return next; }",
    "strict-mode": "(reduce) => { let last = []; return (state, action) => { const next = reduce(state, action); const again = last[0] === state && last[1] === action; last = [state, action]; return again ? JSON.parse(JSON.stringify(next)) : next; }; }",
    threw: "(reduce) => (state, action) => { if (action.type === 'retry') throw new Error('retry broke'); return reduce(state, action); }",
    "error-shape": "(reduce) => (state, action) => { try { return reduce(state, action); } catch { throw 'not an Error'; } }",
    "check-action": ["(reduce) => reduce", "(check) => (action) => { if (action.within !== undefined) throw new Error('no'); return check(action); }"],
  };
  for (const [kind, fault] of Object.entries(faults)) {
    it(`reports ${kind}, with a minimal reproduction`, () => {
      const { code, output } = fuzz(kind, ...[fault].flat());
      assert.equal(code, 1, output);
      assert.match(output, new RegExp(`^${kind}: \\d+$`, "m"));
      if (kind !== "error-shape") assert.match(output, /minimal reproduction from/);
    });
  }
});
