// The packed tarball as the npm registry would serve it: publint (strict) and
// @arethetypeswrong/cli (the ESM-only profile: the package is an ES module, by design not
// require()-able from CommonJS), and what a user checks before trusting a package: a LICENSE,
// links to the repository, and a manifest that names only files the tarball has.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

// The CLI's entry (the package exports no subpath for it), from the repository's devDependencies.
const attw = fileURLToPath(new URL("../../node_modules/@arethetypeswrong/cli/dist/index.js", import.meta.url));

function tarball() {
  const path = process.env.CONSUMER_TARBALL;
  if (!path || !existsSync(path)) throw new Error("CONSUMER_TARBALL is not a packed tarball: run tests/consumers/run.mjs");
  return path;
}

// The tarball's files, relative to the package root (npm packs them under package/).
function packedFiles() {
  const { status, stdout, stderr } = spawnSync("tar", ["-tzf", tarball()], { encoding: "utf8" });
  assert.equal(status, 0, stderr);
  return stdout.split("\n").filter(Boolean).map((path) => path.replace(/^package\//, ""));
}

function packedManifest() {
  const { status, stdout, stderr } = spawnSync("tar", ["-xzOf", tarball(), "package/package.json"], { encoding: "utf8" });
  assert.equal(status, 0, stderr);
  return JSON.parse(stdout);
}

test("publint, strict, finds nothing to say about the tarball", async () => {
  const bytes = readFileSync(tarball());
  const { messages, pkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) },
    strict: true,
  });
  assert.deepEqual(messages.map((message) => `${message.type}: ${formatMessage(message, pkg)}`), []);
});

test("@arethetypeswrong/cli finds the types right for every entry point (ESM-only profile)", () => {
  const { status, stdout, stderr } = spawnSync(
    process.execPath,
    [attw, tarball(), "--profile", "esm-only", "--format", "ascii", "--no-color", "--no-emoji"],
    { encoding: "utf8" },
  );
  assert.equal(status, 0, stdout + stderr);
});

test("the tarball has the MIT LICENSE the manifest names", () => {
  assert.ok(packedFiles().includes("LICENSE"));
  assert.equal(packedManifest().license, "MIT");
  const { stdout } = spawnSync("tar", ["-xzOf", tarball(), "package/LICENSE"], { encoding: "utf8" });
  assert.match(stdout, /^MIT License\n/);
});

test("the manifest links the repository, its README and its issues", () => {
  const { repository, homepage, bugs } = packedManifest();
  assert.equal(repository.type, "git");
  const base = repository.url.match(/^git\+(https:\/\/.+)\.git$/)?.[1];
  assert.ok(base, `repository.url ${repository.url}`);
  assert.equal(homepage, `${base}#readme`);
  assert.equal(bugs.url, `${base}/issues`);
});

test("every `files` entry, export target and the source map link name a file in the tarball", () => {
  const files = new Set(packedFiles());
  const manifest = packedManifest();
  for (const entry of manifest.files) {
    const directory = entry.replace(/\/$/, "");
    assert.ok(files.has(entry) || [...files].some((file) => file.startsWith(`${directory}/`)), `files: ${entry}`);
  }
  // The targets are the string values (conditions nest); the keys are subpaths, not files.
  const targetsOf = (value) => (typeof value === "string" ? [value.slice(2)] : Object.values(value).flatMap(targetsOf));
  const targets = targetsOf(manifest.exports);
  for (const target of targets) assert.ok(files.has(target), `exports: ${target}`);
  assert.ok(files.has("index.js.map"));
});
