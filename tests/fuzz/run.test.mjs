// The fuzz must be able to fail: each of its checks is run against the package with one fault
// put in front of it, and must report that fault (and the package itself must pass).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { brokenInvariant } from "./check.mjs";
import * as pkg from "../../pkg/index.js";

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
    // SPEC v3: a switch that brings a branch back as copies.
    "branch-identity": "(reduce) => (state, action) => { const next = reduce(state, action); return action.type === 'switchBranch' && next !== state ? { ...next, messages: next.messages.map((m) => ({ ...m })) } : next; }",
    // SPEC v4: a prepend that puts a copy of the first given message in front.
    "prepend-identity": "(reduce) => (state, action) => { const next = reduce(state, action); return action.type === 'prepend' && next !== state ? { ...next, messages: next.messages.map((m, i) => (i === 0 ? { ...m } : m)) } : next; }",
  };
  const hasBranches = (() => {
    try {
      pkg.checkAction({ type: "switchBranch", after: null, to: 0 });
      return true;
    } catch {
      return false;
    }
  })();
  for (const [kind, fault] of Object.entries(faults)) {
    it(`reports ${kind}, with a minimal reproduction`, { skip: kind === "branch-identity" && !hasBranches && "the package has no branch actions" }, () => {
      const { code, output } = fuzz(kind, ...[fault].flat());
      assert.equal(code, 1, output);
      assert.match(output, new RegExp(`^${kind}: \\d+$`, "m"));
      if (kind !== "error-shape") assert.match(output, /minimal reproduction from/);
    });
  }
});

describe("the fuzz's invariant check names each broken v3 invariant", () => {
  const user = (id) => ({ id, role: "user", parts: [{ type: "text", text: "q" }] });
  const reply = (id, state = "done") => ({ id, role: "assistant", parts: [{ type: "tool", id: `c-${id}`, name: "t", input: {}, state }] });
  const branch = (...messages) => ({ messages });
  const path = [user("u1"), reply("a1"), user("u2"), reply("a2")];
  const state = (fields) => ({ messages: path, status: "idle", ...fields });
  const fork = (after, fields) => ({ after, active: 1, alternatives: [branch(user("x")), null], ...fields });
  // A chain of forks `levels` deep: a fork of forks holds branches of depth 1, and so on.
  const nested = (levels) => {
    let forks;
    for (let level = levels; level >= 1; level--) {
      const inner = { messages: [user(`n${level}`)] };
      if (forks !== undefined) inner.forks = forks;
      forks = [{ after: level === 1 ? "a1" : `n${level - 1}`, active: 1, alternatives: [inner, null] }];
    }
    return forks;
  };

  it("accepts valid states", () => {
    assert.equal(brokenInvariant(state({})), undefined);
    assert.equal(brokenInvariant(state({ forks: [fork(null), fork("a1"), fork("a2")], queue: [{ id: "q", text: "t" }] })), undefined);
  });

  const broken = {
    "state.forks: []": state({ forks: [] }),
    "state.queue: []": state({ queue: [] }),
    "state.forks[0].alternatives: fewer than two": state({ forks: [fork("a1", { active: 0, alternatives: [null] })] }),
    "state.forks[0].active: 2 out of range": state({ forks: [fork("a1", { active: 2 })] }),
    "state.forks[0].alternatives[0]: null, not at active": state({ forks: [fork("a1", { alternatives: [null, branch()] })] }),
    "state.forks[0].alternatives[1]: a branch at active": state({ forks: [fork("a1", { active: 1, alternatives: [branch(), branch()] })] }),
    "state.forks[1].after: \"a1\", before the previous fork's (path order)": state({ forks: [fork("a2"), fork("a1")] }),
    "state.forks[0].after: \"zz\", no message": state({ forks: [fork("zz")] }),
    "state.forks[1]: a second fork after \"a1\"": state({ forks: [fork("a1"), fork("a1")] }),
    "state.forks[1].after: null, not first": state({ forks: [fork("a1"), fork(null)] }),
    "state.forks[0].alternatives[0]: an open call in a branch": state({ forks: [fork("a1", { alternatives: [branch(reply("b", "running")), null] })] }),
    "branches at depth 65": state({ forks: nested(65) }),
    "state.queue[0]": state({ queue: [{ id: "q", text: "t", parts: [] }] }),
  };
  for (const [expected, given] of Object.entries(broken)) {
    it(`reports ${expected}`, () => {
      const found = brokenInvariant(given);
      assert.ok(found?.includes(expected), `${found}`);
    });
  }

  it("accepts branches 64 deep", () => {
    assert.equal(brokenInvariant(state({ forks: nested(64) })), undefined);
  });
});
