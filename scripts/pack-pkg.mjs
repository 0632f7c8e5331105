// Assembles the npm package directory from wasm-bindgen's `--target web` output.
//
//   node scripts/pack-pkg.mjs <wasm-bindgen out dir> <optimized .wasm> <renaming .json> <package dir>
//
// <renaming .json> is what wasm-opt --minify-imports-and-exports-and-modules printed for the
// optimized wasm: the short names it gave the wasm's imports and exports.
//
// Layout of the package:
//   index.js     one minified module: wasm-bindgen's glue, the crate's own JavaScript
//                (src/wasm/*.js, which the glue imports), the storage helpers (src/storage/),
//                and the optimized wasm inlined as hex and instantiated with the glue's
//                `initSync` at import time (so users never call an init function); the glue's
//                public exports re-exported by name.
//   index.d.ts   wasm-bindgen's declarations without the init API, which is not public here,
//                and the storage helpers' (src/storage/session_storage.d.ts).
//   index.js.map its source map (sources included, but for the wasm's hex).
//   package.json pkg-template/package.json, versioned from Cargo.toml, with the repository's
//                links (Cargo.toml's `repository`).
//   README.md    pkg-template/README.md.
//   LICENSE      the repository's LICENSE.
//   <subpath>/   each JavaScript subpath export (the protocol adapters, the React hook): its
//                module bundled and minified into <subpath>/index.js, its declarations in
//                <subpath>/index.d.ts, which import the core's types from ../index.js and the
//                readers' source type from ../stream-source.d.ts.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, copyFileSync, cpSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { build } from "esbuild";
import { join, relative, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { throwingSources, unsafeImports } from "./glue_audit.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const [bindgenDir, optimizedWasm, renamingPath, outDir] = process.argv.slice(2);
if (!bindgenDir || !optimizedWasm || !renamingPath || !outDir) {
  throw new Error(
    "usage: node scripts/pack-pkg.mjs <wasm-bindgen out dir> <optimized .wasm> <renaming .json> <package dir>",
  );
}

const crateName = "chat_session_reducer";
const gluePath = join(bindgenDir, `${crateName}.js`);
const glueDtsPath = join(bindgenDir, `${crateName}.d.ts`);
// The init API of `--target web` glue; the package calls initSync itself.
const initExports = new Set(["default", "initSync"]);
// The storage helpers, written in JavaScript (src/storage/), exported beside the glue's.
const storageDir = join(root, "src", "storage");
const storageExports = ["saveSession", "loadSession", "clearSession", "restoreSession", "persistSession"];

// A string field of Cargo.toml's [package] section.
function cargoField(name) {
  const manifest = readFileSync(join(root, "Cargo.toml"), "utf8");
  const packageSection = manifest.split(/^\[/m).find((section) => section.startsWith("package]"));
  const value = packageSection?.match(new RegExp(`^${name}\\s*=\\s*"([^"]+)"`, "m"))?.[1];
  if (!value) throw new Error(`Cargo.toml: no [package] ${name}`);
  return value;
}

async function publicExportNames() {
  const glue = await import(pathToFileURL(resolve(gluePath)).href);
  if (typeof glue.initSync !== "function") {
    throw new Error(`${gluePath}: no initSync export; was it built with --target web?`);
  }
  const names = Object.keys(glue).filter((name) => !initExports.has(name)).sort();
  if (names.length === 0) throw new Error(`${gluePath}: the crate exports nothing to JavaScript`);
  return names;
}

// Cuts wasm-bindgen's init declarations (InitInput, InitOutput, SyncInitInput, initSync and the
// default export), which it always emits after the crate's own declarations, starting with
// `export type InitInput`.
function publicDeclarations() {
  const dts = readFileSync(glueDtsPath, "utf8");
  const initStart = dts.search(/^export type InitInput\b/m);
  if (initStart < 0) throw new Error(`${glueDtsPath}: the init declarations were not found`);
  const publicPart = dts.slice(0, initStart).trimEnd() + "\n";
  if (/\binitSync\b|__wbg_init|\bInitOutput\b/.test(publicPart)) {
    throw new Error(`${glueDtsPath}: init declarations are mixed into the crate's own; update pack-pkg.mjs`);
  }
  return publicPart + "\n" + readFileSync(join(storageDir, "session_storage.d.ts"), "utf8");
}

// Every runtime export must be declared, and every declared value must exist at runtime.
function checkDeclarationsMatch(runtimeNames, declarations) {
  const declaredValues = new Set(
    [...declarations.matchAll(/^export (?:declare )?(?:function|class|const|let|var|enum)\s+([A-Za-z_$][\w$]*)/gm)]
      .map((match) => match[1]),
  );
  const undeclared = runtimeNames.filter((name) => !declaredValues.has(name));
  const missing = [...declaredValues].filter((name) => !runtimeNames.includes(name));
  if (undeclared.length || missing.length) {
    throw new Error(`index.d.ts and index.js disagree: undeclared ${undeclared}, not exported ${missing}`);
  }
}

// A JavaScript module of the crate (src/wasm/<file>), as the glue imports it from snippets/: the
// entry imports the same module, not a copy.
function snippetModule(file) {
  const glue = readFileSync(gluePath, "utf8");
  const path = glue.match(new RegExp(`from ['"](\\./snippets/[^'"]+/src/wasm/${file.replaceAll(".", "\\.")})['"]`))?.[1];
  if (!path) throw new Error(`${gluePath}: no import of src/wasm/${file}`);
  return path;
}

const identifier = /^[A-Za-z_$][\w$]*$/;

// wasm-bindgen's glue, with the short names wasm-opt gave the wasm's imports and exports. The
// glue's imports are its own functions, keys of the object `import0`, and the exports of the
// crate's JavaScript modules (`import * as importN`); wasm-opt put them all in one module.
function renamedGlue(glue, renaming, wasm) {
  const importModules = new Set(WebAssembly.Module.imports(new WebAssembly.Module(wasm)).map(({ module }) => module));
  if (importModules.size !== 1) throw new Error(`${renamingPath}: expected the imports in one module`);
  const table = glue.match(/\breturn \{\s*__proto__: null,\s*((?:"[^"]+": import\d+,\s*)+)\};/);
  if (!table) throw new Error(`${gluePath}: the glue's import table was not found; update pack-pkg.mjs`);
  const namespaces = new Map([...table[1].matchAll(/"([^"]+)": (import\d+)/g)].map((match) => [match[1], match[2]]));
  const ownModule = [...namespaces].find(([, namespace]) => namespace === "import0")?.[0];
  let renamed = glue;
  const others = [];
  for (const [module, name, short] of renaming.imports) {
    if (!identifier.test(name) || !identifier.test(short)) throw new Error(`${renamingPath}: import ${name} -> ${short}`);
    if (module === ownModule) {
      const key = new RegExp(`^(\\s+)${name.replaceAll("$", "\\$")}: function\\b`, "m");
      if (!key.test(renamed)) throw new Error(`${gluePath}: no import0 entry ${name}`);
      renamed = renamed.replace(key, `$1${short}: function`);
    } else if (namespaces.has(module)) {
      others.push(`${short}: ${namespaces.get(module)}.${name}`);
    } else throw new Error(`${renamingPath}: import from an unknown module ${module}`);
  }
  const [importModule] = importModules;
  renamed = renamed.replace(table[0], `return { ${JSON.stringify(importModule)}: { ...import0, ${others.join(", ")} } };`);

  const exports = new Map(renaming.exports);
  renamed = renamed.replace(/\bwasm\.([A-Za-z_$][\w$]*)/g, (whole, name) => {
    if (!exports.has(name)) throw new Error(`${gluePath}: the glue uses wasm.${name}, which the wasm does not export`);
    return `wasm.${exports.get(name)}`;
  });
  if (/\binstance\.exports\[|\bwasm\[/.test(renamed)) throw new Error(`${gluePath}: an export read by a computed name`);
  return renamed;
}

// wasm-bindgen writes each `catch` import as `function() { return handleError(function (args)
// { body }, arguments); }`: a closure and an arguments object made per call (a tool step makes
// seven), and the closure's optimized code, which only short-lived closures hold, is dropped by
// every full collection and compiled again. Each is rewritten as one function that catches what
// its body throws and stores it as `handleError` does. Any call left unrewritten fails the build.
function inlineCatches(glue) {
  const definition = glue.match(/^function handleError\(f, args\) \{\n\s*try \{\n\s*return f\.apply\(this, args\);\n\s*\} catch \(e\) \{\n([\s\S]*?)\n\s*\}\n\}\n/m);
  if (!definition) throw new Error(`${gluePath}: handleError is not as expected; update pack-pkg.mjs`);
  const rewritten = glue
    .replace(definition[0], `function storeException(e) {\n${definition[1]}\n}\n`)
    .replace(/function\(\) \{ return handleError\(function \(([^)]*)\) \{\n([\s\S]*?)\n(\s*)\}, arguments\); \}/g,
      (whole, params, body, indent) =>
        `function (${params}) {\n${indent}try {\n${body}\n${indent}} catch (e) {\n${indent}    storeException(e);\n${indent}}\n${indent}}`);
  if (rewritten.includes("handleError")) throw new Error(`${gluePath}: a handleError call was not rewritten; update pack-pkg.mjs`);
  return rewritten;
}

function entryModule(names) {
  const reexported = names.filter((name) => name !== "sessionReducer" && !storageExports.includes(name));
  return `// The chat-session-reducer module. Importing it instantiates the WebAssembly module
// synchronously from the bytes of wasm-hex.js, so no init call is needed. Generated by
// scripts/pack-pkg.mjs.
import { initSync, sessionReducer as reduceInWasm } from "./glue.js";
import { readAction, readStrings } from "${snippetModule("read.js")}";
import { emptyState, sessionOf, shortcut } from "${snippetModule("state_facts.js")}";
import { sessionStorageHelpers } from "./storage/session_storage.js";
import wasmHex from "./wasm-hex.js";

// Hex to bytes, natively where the runtime can (Uint8Array.fromHex in current browsers, Buffer
// in Node): a loop over the string costs several milliseconds when it runs once, cold.
function bytesOf(hex) {
  if (typeof Uint8Array.fromHex === "function") return Uint8Array.fromHex(hex);
  if (typeof Buffer === "function") return Buffer.from(hex, "hex");
  // A hex digit's low four bits, plus 9 for the letters a-f.
  const digit = (code) => (code & 15) + (code >> 6) * 9;
  const bytes = new Uint8Array(hex.length >> 1);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = (digit(hex.charCodeAt(2 * index)) << 4) | digit(hex.charCodeAt(2 * index + 1));
  }
  return bytes;
}
initSync({ module: bytesOf(wasmHex) });

// An action that needs no Rust work (a text delta that only appends, the same action again) is
// answered here, without a call into the module. Any other is read here too (a bad one throws
// here), and the module gets what it would otherwise call back for: the id of the Rust session
// behind \`state\` and the action's encoding (src/wasm/mod.rs). Looked up after the read, which
// may run a getter of the caller's that calls the reducer.
export function sessionReducer(given, action) {
  const state = given === undefined ? emptyState() : given;
  const next = shortcut(state, action);
  if (next !== undefined) return next;
  const codes = readAction(action, false);
  const strings = readStrings();
  return reduceInWasm(state, action, sessionOf(state), codes, strings);
}

// The storage helpers, made on first use: each is a function declaration, so a bundle that uses
// none of them leaves them out.
let storageHelpers;
const helpers = () => (storageHelpers ??= sessionStorageHelpers(sessionReducer));
${storageExports.map((name) => `export function ${name}(...args) {\n  return helpers().${name}(...args);\n}`).join("\n")}

export { ${reexported.join(", ")} } from "./glue.js";
`;
}

// The wasm is inlined as hex rather than base64: hex keeps byte boundaries, so gzip compresses
// it almost as well as the raw bytes (base64 costs about 30% more once gzipped), and it decodes
// natively. Unlike raw bytes in a string, no bundler or minifier re-escapes it.
function wasmHexModule(wasmBytes) {
  return `// The optimized wasm, as hex. Generated by scripts/pack-pkg.mjs.
export default "${wasmBytes.toString("hex")}";
`;
}

// V8's explicit compile hint (Chromium 136 and later; other engines read a comment): compile every
// function of the module while it streams in, on a worker thread. Importing the core runs its
// top-level code and its first reducer call runs most of the rest, which V8 would otherwise parse
// again and compile one function at a time on the main thread (a cold first call's main-thread
// time 5-7 -> 2.5-3 ms in bench/load.mjs; README, Performance). Bundlers drop the comment.
const EAGER_COMPILE_HINT = "//# allFunctionsCalledOnLoad";

// Every module of the package is one minified ES module, for any platform.
const bundleOptions = {
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2020",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
};

// The subpath exports written in JavaScript, by subpath, with their source folders. Each is
// bundled on its own, so an app pays only for the subpaths it imports.
const javascriptSubpaths = {
  "ai-sdk": "src/adapters/ai-sdk",
  "ag-ui": "src/adapters/ag-ui",
  "chat-stream": "src/adapters/chat-stream",
  react: "src/react",
  testing: "src/testing",
};

// A subpath's imports of the package itself (the hook imports the core and the adapters) point
// at the package's own files, so that the app and the subpath share one instance of the core
// (and its memo of recent states). React, the hook's peer dependency, stays an import.
const selfImports = {
  name: "self-imports",
  setup(build) {
    build.onResolve({ filter: /^chat-session-reducer(\/[\w-]+)?$/ }, ({ path }) => {
      const target = path === "chat-session-reducer" ? "index.js" : `${path.slice("chat-session-reducer/".length)}/index.js`;
      return { path: `../${target}`, external: true };
    });
  },
};

async function packSubpath(subpath, sourceDir) {
  const source = join(root, sourceDir);
  await build({
    ...bundleOptions,
    entryPoints: [join(source, "index.js")],
    outfile: join(outDir, subpath, "index.js"),
    external: ["react"],
    plugins: [selfImports],
  });
  // In the source the core's types come from the package by name; beside it, from ../index.js.
  const declarations = readFileSync(join(source, "index.d.ts"), "utf8").replaceAll('from "chat-session-reducer"', 'from "../index.js"');
  writeFileSync(join(outDir, subpath, "index.d.ts"), declarations);
  const runtime = Object.keys(await import(pathToFileURL(join(outDir, subpath, "index.js")).href)).sort();
  checkDeclarationsMatch(runtime, declarations);
}

// Every subpath has an `exports` entry and ships its folder, and every entry has a subpath.
function checkSubpathManifest(manifest) {
  const entries = Object.keys(manifest.exports).filter((key) => key !== "." && key !== "./package.json");
  const expected = Object.keys(javascriptSubpaths).map((subpath) => `./${subpath}`);
  const missing = expected.filter((key) => !entries.includes(key) || !manifest.files.includes(`${key.slice(2)}/`));
  const unknown = entries.filter((key) => !expected.includes(key));
  if (missing.length || unknown.length) {
    throw new Error(`pkg-template/package.json: subpaths without exports or files entries ${missing}, entries without a subpath ${unknown}`);
  }
}

function packageManifest() {
  const manifest = JSON.parse(readFileSync(join(root, "pkg-template", "package.json"), "utf8"));
  checkSubpathManifest(manifest);
  const repository = cargoField("repository");
  return JSON.stringify({
    ...manifest,
    version: cargoField("version"),
    repository: { type: "git", url: `git+${repository}.git` },
    homepage: `${repository}#readme`,
    bugs: { url: `${repository}/issues` },
  }, null, 2) + "\n";
}

// The source map names each source after its place in the repository (the bundle was made in a
// temporary directory), and leaves out the wasm's hex, which is no source anyone reads.
function tidySourceMap(mapPath, staging) {
  const map = JSON.parse(readFileSync(mapPath, "utf8"));
  const sources = map.sources.map((source) => {
    const path = relative(staging, resolve(dirname(mapPath), source)).replaceAll("\\", "/");
    const snippet = path.match(/^snippets\/[^/]+\/(src\/.+)$/)?.[1];
    if (snippet) return `chat-session-reducer/${snippet}`;
    if (path === "glue.js") return "chat-session-reducer/wasm-bindgen-glue.js";
    if (path.startsWith("storage/")) return `chat-session-reducer/src/${path}`;
    if (path === "entry.js" || path === "wasm-hex.js") return `chat-session-reducer/${path}`;
    throw new Error(`${mapPath}: unexpected source ${source}`);
  });
  const sourcesContent = map.sourcesContent.map((content, index) =>
    sources[index].endsWith("/wasm-hex.js") ? null : content);
  writeFileSync(mapPath, JSON.stringify({ ...map, sources, sourcesContent }));
}

// No exception may unwind through the module's frames (scripts/glue_audit.mjs says why).
function auditGlue() {
  const sourceDir = join(root, "src");
  const sources = Object.fromEntries(
    readdirSync(sourceDir, { recursive: true })
      .filter((path) => path.endsWith(".rs"))
      .map((path) => [join("src", path), readFileSync(join(sourceDir, path), "utf8")]),
  );
  const problems = [...unsafeImports(readFileSync(gluePath, "utf8")), ...throwingSources(sources)];
  if (problems.length > 0) {
    throw new Error(`JavaScript that could throw into the module:\n  ${problems.join("\n  ")}`);
  }
}

auditGlue();
const names = [...(await publicExportNames()), ...storageExports].sort();
const declarations = publicDeclarations();
checkDeclarationsMatch(names, declarations);

// The entry, the glue and the crate's own JavaScript (src/wasm/apply.js, which the glue imports
// from snippets/) are bundled into one minified module: one request, and better compression.
const staging = mkdtempSync(join(tmpdir(), "pack-pkg-"));
const wasmBytes = readFileSync(optimizedWasm);
const renaming = JSON.parse(readFileSync(renamingPath, "utf8"));
writeFileSync(join(staging, "glue.js"), inlineCatches(renamedGlue(readFileSync(gluePath, "utf8"), renaming, wasmBytes)));
if (existsSync(join(bindgenDir, "snippets"))) {
  cpSync(join(bindgenDir, "snippets"), join(staging, "snippets"), { recursive: true });
}
cpSync(storageDir, join(staging, "storage"), { recursive: true });
writeFileSync(join(staging, "entry.js"), entryModule(names));
writeFileSync(join(staging, "wasm-hex.js"), wasmHexModule(wasmBytes));

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await build({
  ...bundleOptions,
  entryPoints: [join(staging, "entry.js")],
  outfile: join(outDir, "index.js"),
  sourcemap: "linked",
  banner: { js: EAGER_COMPILE_HINT },
});
tidySourceMap(join(outDir, "index.js.map"), staging);
rmSync(staging, { recursive: true, force: true });
writeFileSync(join(outDir, "index.d.ts"), declarations);
for (const [subpath, sourceDir] of Object.entries(javascriptSubpaths)) await packSubpath(subpath, sourceDir);
copyFileSync(join(root, "src", "adapters", "stream-source.d.ts"), join(outDir, "stream-source.d.ts"));
writeFileSync(join(outDir, "package.json"), packageManifest());
copyFileSync(join(root, "pkg-template", "README.md"), join(outDir, "README.md"));
copyFileSync(join(root, "LICENSE"), join(outDir, "LICENSE"));

console.log(`pack-pkg: ${outDir}: exports ${names.join(", ")}; subpaths ${Object.keys(javascriptSubpaths).join(", ")}`);
