// What an app pays for the package, in a Vite production build (Rollup's tree-shaking, esbuild's
// minifier), gzip -9: an entry that imports only `sessionReducer` against one that imports nothing.
// Such a build must hold the package's core entry and nothing else of it: the adapters and the
// React hook (the manifest's other subpath exports) are left out until imported, and each of them
// alone stays small.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";
import { consumerProject } from "./project.mjs";

// The project's ceiling for the core entry (docs/performance.md has the current figure): 39,625
// measured since the package's wasm left the standard library out (issue 34).
const CORE_BUDGET = 40_000;
// What each subpath export adds to the core entry, everything it exports kept. The session
// controller's is larger (the run, resume, saves, the conversations' hand-over and the tabs glue):
// issue 30 set 9,000; issue 34's loadOlder/hasOlder and the server's list of the conversations
// store, 9,200 (9,001 measured with historyPageSize). A binding (React, Vue, Svelte)
// holds the controller whole, so what it weighs is its own code on top of the controller's: the
// bindings are thin glue (134-208 measured), and 300 says so.
const SUBPATH_BUDGET = 8_000;
const CONTROLLER_BUDGET = 9_200;
const BINDING_BUDGET = 300;
// The assistant-ui runtime holds the React binding whole (so the controller) and its conversion (issue 33).
const ASSISTANT_UI_BUDGET = 13_000;

// The bindings' frameworks (the bindings' peer dependencies), with their subpaths.
const FRAMEWORKS = /^(react|vue|svelte|@assistant-ui\/react)(\/|$)/;
const installed = () => join(consumerProject(), "node_modules", "chat-session-reducer");
const gzipped = (code) => gzipSync(code, { level: 9 }).length;

// Builds `source` as an app's only module; returns the code of the chunk the page loads first
// and the package's modules in it, relative to the package. React, Vue and Svelte, the bindings'
// peer dependencies, are the app's and stay out; the hook's adapters, which it imports when a protocol is first
// used, are chunks of their own (measured as their own subpaths).
async function bundle(name, source) {
  const dir = join(consumerProject(), `size-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.js"), source);
  const [output] = [await build({
    root: dir,
    configFile: false,
    logLevel: "warn",
    build: { write: false, rollupOptions: { input: join(dir, "main.js"), external: FRAMEWORKS } },
  })].flat();
  const chunks = output.output.filter((item) => item.type === "chunk" && item.isEntry);
  assert.equal(chunks.length, 1, `${name}: one entry chunk`);
  const [chunk] = chunks;
  const packageDir = `${installed()}/`;
  const packageModules = chunk.moduleIds.filter((id) => id.startsWith(packageDir)).map((id) => id.slice(packageDir.length));
  return { code: chunk.code, packageModules };
}

const nothing = `document.body.dataset.result = String(performance.now());\n`;

test("importing only sessionReducer adds the core entry alone, within its budget", async (t) => {
  const empty = await bundle("empty", nothing);
  const core = await bundle("core", `import { sessionReducer } from "chat-session-reducer";
document.body.dataset.result = sessionReducer({ messages: [], status: "idle" }, { type: "reset" }).status;
`);
  assert.deepEqual(core.packageModules, ["index.js"]);
  const added = gzipped(core.code) - gzipped(empty.code);
  t.diagnostic(`importing sessionReducer adds ${added} bytes gzip -9 (${core.code.length - empty.code.length} raw)`);
  assert.ok(added <= CORE_BUDGET, `${added} bytes gzip -9, the budget is ${CORE_BUDGET}`);
});

test("each subpath export (adapters, React hook) adds a few kB to the core entry", async (t) => {
  const manifest = JSON.parse(readFileSync(join(installed(), "package.json"), "utf8"));
  // The Jest environment and the server run in Node, never in an app's bundle.
  const subpaths = Object.keys(manifest.exports)
    .filter((subpath) => subpath !== "." && !subpath.endsWith(".json") && subpath !== "./jest-environment" && subpath !== "./server");
  // The core entry whole; a subpath (the hook uses the reducer) is measured on top of it.
  const core = `import * as core from "chat-session-reducer";\nconsole.log(core);\n`;
  const coreSize = gzipped((await bundle("core-whole", core)).code);
  const added = async (subpath) => {
    const specifier = `chat-session-reducer/${subpath.slice(2)}`;
    const { code } = await bundle(subpath.slice(2).replaceAll("/", "-"),
      `${core}import * as entry from ${JSON.stringify(specifier)};\nconsole.log(entry);\n`);
    return gzipped(code) - coreSize;
  };
  const controller = await added("./session");
  t.diagnostic(`chat-session-reducer/session: ${controller} bytes gzip -9`);
  assert.ok(controller <= CONTROLLER_BUDGET, `chat-session-reducer/session: ${controller} bytes gzip -9, the budget is ${CONTROLLER_BUDGET}`);
  for (const subpath of subpaths.filter((subpath) => subpath !== "./session")) {
    const specifier = `chat-session-reducer/${subpath.slice(2)}`;
    const size = await added(subpath);
    if (["./react", "./vue", "./svelte"].includes(subpath)) {
      t.diagnostic(`${specifier}: ${size} bytes gzip -9, ${size - controller} on top of the controller`);
      assert.ok(size - controller <= BINDING_BUDGET, `${specifier}: ${size - controller} bytes gzip -9 on top of the controller, the budget is ${BINDING_BUDGET}`);
      continue;
    }
    t.diagnostic(`${specifier}: ${size} bytes gzip -9`);
    const budget = subpath === "./assistant-ui" ? ASSISTANT_UI_BUDGET : SUBPATH_BUDGET;
    assert.ok(size <= budget, `${specifier}: ${size} bytes gzip -9, the budget is ${budget}`);
  }
});
