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

function typeCheck(...extraArgs) {
  const dir = join(consumerProject(), "types");
  mkdirSync(dir, { recursive: true });
  for (const file of ["usage.ts", "adapters-usage.ts"]) copyFileSync(join(here, file), join(dir, file));
  copyFileSync(join(here, "tsconfig.json"), join(dir, "tsconfig.json"));
  return spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json"), ...extraArgs], { encoding: "utf8" });
}

test("the package's types check as a bundler-resolved React app uses them", () => {
  const { status, stdout, stderr } = typeCheck();
  assert.equal(status, 0, stdout + stderr);
});

test("the package's types check under Node's own ES module resolution", () => {
  const { status, stdout, stderr } = typeCheck("--module", "nodenext", "--moduleResolution", "nodenext");
  assert.equal(status, 0, stdout + stderr);
});
