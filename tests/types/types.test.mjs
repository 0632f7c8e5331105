// tsc over usage.ts inside the scratch project that installed the packed package, so the types
// resolve the way a user's do: by name, through the manifest's `exports`/`types`. It runs under
// both module resolutions a TypeScript user of an ES module package is likely to have.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { consumerProject } from "../consumers/project.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

// A server app has Node's types and the AI SDK, an assistant-ui app assistant-ui (an optional
// peer the install leaves out): the repository's locked copies, linked in.
function linkDependencies(project, names) {
  for (const name of names) {
    const link = join(project, "node_modules", name);
    if (existsSync(link)) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(here, "..", "..", "node_modules", name), link, "dir");
  }
}

// tsconfig.json checks the core's types without the DOM's (they must not need them);
// tsconfig.react.json the hook's, in a page (lib "dom"); tsconfig.server.json the server's in
// Node (Node's types, no DOM); tsconfig.next.json a Next.js route on the AI SDK, as
// create-next-app configures TypeScript; tsconfig.assistant-ui.json the assistant-ui runtime in a page.
function typeCheck(project, ...extraArgs) {
  const dir = join(consumerProject(), "types");
  mkdirSync(dir, { recursive: true });
  for (const file of ["usage.ts", "adapters-usage.ts", "tools-usage.ts", "react-usage.ts", "server-usage.ts", "next-route.ts", "assistant-ui-usage.ts", "tsconfig.json", "tsconfig.react.json", "tsconfig.server.json", "tsconfig.next.json", "tsconfig.assistant-ui.json"]) {
    copyFileSync(join(here, file), join(dir, file));
  }
  if (project === "tsconfig.server.json" || project === "tsconfig.next.json") linkDependencies(consumerProject(), ["ai", "@types/node"]);
  if (project === "tsconfig.assistant-ui.json") linkDependencies(consumerProject(), ["@assistant-ui/react", "@types/node"]);
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

for (const [resolution, extraArgs] of [
  ["a bundler (Next.js)", []],
  ["Node's ES module resolution", ["--module", "nodenext", "--moduleResolution", "nodenext"]],
]) {
  test(`the server's types check in a Node http server, resolved as ${resolution} does`, () => {
    const { status, stdout, stderr } = typeCheck("tsconfig.server.json", ...extraArgs);
    assert.equal(status, 0, stdout + stderr);
  });
}

for (const [resolution, extraArgs] of [
  ["a bundler", []],
  ["Node's ES module resolution", ["--module", "nodenext", "--moduleResolution", "nodenext"]],
]) {
  test(`chat-session-reducer/assistant-ui's types check beside @assistant-ui/react's, resolved as ${resolution} does`, () => {
    const { status, stdout, stderr } = typeCheck("tsconfig.assistant-ui.json", ...extraArgs);
    assert.equal(status, 0, stdout + stderr);
  });
}

test("the README's Next.js route on streamText type-checks as create-next-app sets TypeScript up", () => {
  const { status, stdout, stderr } = typeCheck("tsconfig.next.json");
  assert.equal(status, 0, stdout + stderr);
});
