// What `npm install chat-session-reducer` puts in a user's node_modules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { consumerProject } from "./project.mjs";

const installed = () => join(consumerProject(), "node_modules", "chat-session-reducer");

test("the installed package holds the one module, its source map, the types, the manifest, the README and the LICENSE", () => {
  assert.deepEqual(readdirSync(installed()).sort(), [
    "LICENSE", "README.md", "index.d.ts", "index.js", "index.js.map", "package.json",
  ]);
});

test("the source map carries the sources it maps, but for the wasm's hex", () => {
  const code = readFileSync(join(installed(), "index.js"), "utf8");
  assert.match(code, /\n\/\/# sourceMappingURL=index\.js\.map\n?$/);
  const map = JSON.parse(readFileSync(join(installed(), "index.js.map"), "utf8"));
  assert.equal(map.sources.length, map.sourcesContent.length);
  const content = Object.fromEntries(map.sources.map((source, i) => [source, map.sourcesContent[i]]));
  assert.match(content["chat-session-reducer/src/wasm/apply.js"], /export function applyPatches/);
  assert.equal(content["chat-session-reducer/wasm-hex.js"], null);
  assert.ok(map.sourcesContent.every((source) => source === null || !/[0-9a-f]{1000}/.test(source)));
});

test("the module imports nothing: the glue and the wasm are inside it", () => {
  const code = readFileSync(join(installed(), "index.js"), "utf8");
  assert.doesNotMatch(code, /\bimport\s*(?:[\w{*][^;]*?from\s*)?["']|\bimport\(/);
});

test("the manifest is an ES module package whose entry keeps its import-time instantiation", () => {
  const manifest = JSON.parse(readFileSync(join(installed(), "package.json"), "utf8"));
  assert.equal(manifest.name, "chat-session-reducer");
  assert.equal(manifest.type, "module");
  assert.deepEqual(manifest.exports["."], { types: "./index.d.ts", default: "./index.js" });
  assert.ok(manifest.sideEffects.includes("./index.js"), "index.js instantiates the wasm when imported");
});

test("the public types expose no init API", () => {
  const types = readFileSync(join(installed(), "index.d.ts"), "utf8");
  assert.doesNotMatch(types, /\binitSync\b|export default|InitOutput/);
});

test("the package's JavaScript, wasm included, stays within the size its README states", () => {
  const modules = readdirSync(installed(), { recursive: true }).filter((path) => path.endsWith(".js"));
  const code = Buffer.concat(modules.map((path) => readFileSync(join(installed(), path))));
  assert.ok(code.length < 275_000, `${code.length} bytes raw`);
  assert.ok(gzipSync(code, { level: 9 }).length < 65_000, "gzip -9 size: the budget is 65 kB");
});
