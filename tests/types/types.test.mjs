// tsc over usage.ts inside the scratch project that installed the packed package, so the types
// resolve the way a user's do: by name, through the manifest's `exports`/`types`. It runs under
// both module resolutions a TypeScript user of an ES module package is likely to have.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { consumerProject } from "../consumers/project.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

// tsconfig.json checks the core's types without the DOM's (they must not need them);
// tsconfig.react.json the hook's, in a page (lib "dom").
function typeCheck(project, ...extraArgs) {
  const dir = join(consumerProject(), "types");
  mkdirSync(dir, { recursive: true });
  for (const file of ["usage.ts", "adapters-usage.ts", "tools-usage.ts", "react-usage.ts", "tsconfig.json", "tsconfig.react.json"]) {
    copyFileSync(join(here, file), join(dir, file));
  }
  return spawnSync(process.execPath, [tsc, "-p", join(dir, project), ...extraArgs], { encoding: "utf8" });
}

test("the package's types check as a bundler-resolved React app uses them", () => {
  const { status, stdout, stderr } = typeCheck("tsconfig.json");
  assert.equal(status, 0, stdout + stderr);
});

test("the package's types check under Node's own ES module resolution", () => {
  const { status, stdout, stderr } = typeCheck("tsconfig.json", "--module", "nodenext", "--moduleResolution", "nodenext");
  assert.equal(status, 0, stdout + stderr);
});

for (const [resolution, extraArgs] of [
  ["a bundler", []],
  ["Node's ES module resolution", ["--module", "nodenext", "--moduleResolution", "nodenext"]],
]) {
  test(`the React hook's types check in a page, resolved as ${resolution} does`, () => {
    const { status, stdout, stderr } = typeCheck("tsconfig.react.json", ...extraArgs);
    assert.equal(status, 0, stdout + stderr);
  });
}
