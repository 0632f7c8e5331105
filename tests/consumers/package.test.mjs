// What `npm install chat-session-reducer` puts in a user's node_modules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { consumerProject } from "./project.mjs";

const installed = () => join(consumerProject(), "node_modules", "chat-session-reducer");

// The adapters and the IndexedDB store: modules that import nothing.
const subpaths = ["ag-ui", "ai-sdk", "chat-stream", "indexeddb"];

test("the installed package holds the one module, its source map, the types, the manifest, the README, the LICENSE, the adapters, the IndexedDB store, the session controller and its reconnecting part, the React hook, the Vue and Svelte bindings, the assistant-ui runtime, its store of conversations, the tabs coordinator, the testing module, the Jest environment and the server", () => {
  assert.deepEqual(readdirSync(installed()).sort(), [
    "LICENSE", "README.md", ...subpaths, "bindgen.d.ts", "index.d.ts", "index.js", "index.js.map", "package.json", "session", "resume", "history", "react", "vue", "svelte", "assistant-ui", "conversations", "stream-source.d.ts", "tabs", "testing", "jest-environment", "server",
  ].sort());
  for (const subpath of [...subpaths, "session", "resume", "history", "react", "vue", "svelte", "assistant-ui", "conversations", "tabs", "testing", "jest-environment", "server"]) assert.deepEqual(readdirSync(join(installed(), subpath)).sort(), ["index.d.ts", "index.js"]);
});

test("chat-session-reducer/testing imports only the package's own adapters (their protocol descriptors)", async () => {
  const file = createRequire(join(consumerProject(), "package.json")).resolve("chat-session-reducer/testing");
  const imports = [...readFileSync(file, "utf8").matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]);
  assert.deepEqual([...new Set(imports)].sort(), ["../ag-ui/index.js", "../ai-sdk/index.js", "../chat-stream/index.js"]);
  const { mockEndpoint } = await import(pathToFileURL(file).href);
  assert.equal((await mockEndpoint("actions", [[]]).fetch("/x")).status, 200);
});

test("the source map carries the sources it maps, but for the wasm's text", () => {
  const code = readFileSync(join(installed(), "index.js"), "utf8");
  assert.match(code, /\n\/\/# sourceMappingURL=index\.js\.map\n?$/);
  const map = JSON.parse(readFileSync(join(installed(), "index.js.map"), "utf8"));
  assert.equal(map.sources.length, map.sourcesContent.length);
  const content = Object.fromEntries(map.sources.map((source, i) => [source, map.sourcesContent[i]]));
  assert.match(content["chat-session-reducer/src/wasm/apply.js"], /export function applyPatches/);
  assert.equal(content["chat-session-reducer/wasm-text.js"], null);
  // The text is one line of some 60,000 characters; no source has a line a tenth as long.
  assert.ok(map.sourcesContent.every((source) => source === null || !/[^\n]{6000}/.test(source)));
});

test("each subpath resolves by name to its own module, which imports nothing (not the wasm)", async () => {
  const require = createRequire(join(consumerProject(), "package.json"));
  for (const subpath of subpaths) {
    const file = require.resolve(`chat-session-reducer/${subpath}`);
    assert.equal(file, join(installed(), subpath, "index.js"));
    assert.doesNotMatch(readFileSync(file, "utf8"), /\bimport\s*(?:[\w{*][^;]*?from\s*)?["']|\bimport\(/);
    assert.ok(Object.keys(await import(pathToFileURL(file).href)).length > 0);
  }
});

test("the React hook imports only React and the session controller, by relative path", () => {
  const code = readFileSync(join(installed(), "react", "index.js"), "utf8");
  const imported = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]);
  assert.deepEqual([...new Set(imported)].sort(), ["../session/index.js", "react"]);
});

test("the session controller imports only the package's own modules (the core, the adapters, its reconnecting part), never React", () => {
  const importsOf = (subpath) => {
    const code = readFileSync(join(installed(), subpath, "index.js"), "utf8");
    return [...new Set([...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]))].sort();
  };
  assert.deepEqual(importsOf("session"), ["../ag-ui/index.js", "../ai-sdk/index.js", "../chat-stream/index.js", "../history/index.js", "../index.js", "../resume/index.js"]);
  assert.deepEqual(importsOf("resume"), ["../ag-ui/index.js", "../ai-sdk/index.js", "../chat-stream/index.js", "../index.js"]);
  assert.deepEqual(importsOf("history"), []);
});

test("the Vue and Svelte bindings import only their framework and the session controller, by relative path", () => {
  const importsOf = (subpath) => {
    const code = readFileSync(join(installed(), subpath, "index.js"), "utf8");
    return [...new Set([...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]))].sort();
  };
  assert.deepEqual(importsOf("vue"), ["../session/index.js", "vue"]);
  assert.deepEqual(importsOf("svelte"), ["../session/index.js", "svelte/reactivity"]);
});

test("the assistant-ui runtime imports assistant-ui, React, the core and the React hook (so one session controller), by relative path", () => {
  const code = readFileSync(join(installed(), "assistant-ui", "index.js"), "utf8");
  const imported = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]);
  assert.deepEqual([...new Set(imported)].sort(), ["../index.js", "../react/index.js", "@assistant-ui/react", "react"]);
});

test("the store of conversations imports only React and the core: the hook's internals reach it from the hook", () => {
  const code = readFileSync(join(installed(), "conversations", "index.js"), "utf8");
  const imported = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]);
  assert.deepEqual([...new Set(imported)].sort(), ["../index.js", "react"]);
  assert.doesNotMatch(code, /Symbol\(/, "no symbol of the hook's is bundled twice");
});

test("chat-session-reducer/tabs imports only the core (not React, not the hook): an app pays for it only when it imports it", async () => {
  const file = createRequire(join(consumerProject(), "package.json")).resolve("chat-session-reducer/tabs");
  const code = readFileSync(file, "utf8");
  const imported = [...code.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']/g)].map((match) => match[1] ?? match[2]);
  assert.deepEqual([...new Set(imported)], ["../index.js"]);
  const { coordinateTabs } = await import(pathToFileURL(file).href);
  assert.equal(typeof coordinateTabs().connect, "function");
});

test("the core entry does not import React: React is an optional peer of the hook only", () => {
  const manifest = JSON.parse(readFileSync(join(installed(), "package.json"), "utf8"));
  assert.deepEqual(manifest.exports["./react"], { types: "./react/index.d.ts", default: "./react/index.js" });
  assert.equal(manifest.peerDependenciesMeta.react.optional, true);
  assert.match(manifest.peerDependencies.react, /\^18.*\^19/);
  assert.equal(manifest.dependencies, undefined);
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
  // The core module, which every user loads; each subpath is loaded only by its own users.
  const code = readFileSync(join(installed(), "index.js"));
  assert.ok(code.length < 275_000, `${code.length} bytes raw`);
  assert.ok(gzipSync(code, { level: 9 }).length < 65_000, "gzip -9 size: the budget is 65 kB");
});

test("the React hook adds little on top of the core", () => {
  // Issue 22's options and returns (id, callbacks, load, setMessages, clearError) are in it (6 kB),
  // issue 23's resume (reconnecting, the replay, the stop endpoint: about 0.8 kB), the AI SDK
  // body's trigger (about 0.2 kB) and the hand-over of a streaming conversation to a store of
  // conversations and back (about 0.45 kB; the store itself is chat-session-reducer/conversations).
  const code = readFileSync(join(installed(), "react", "index.js"));
  assert.ok(gzipSync(code, { level: 9 }).length < 7_700, "gzip -9 size: the budget is 7.7 kB (docs/decisions.md, Conversations in the background)");
});
