// Assembles the npm package directory from wasm-bindgen's `--target web` output and the
// package's JavaScript sources: it copies, bundles and writes data; the code is in src/, and the
// rewriting of the glue in scripts/glue.mjs.
//
//   node scripts/pack-pkg.mjs <wasm-bindgen out dir> <optimized .wasm> <renaming .json> <text decoder .wasm> <package dir>
//
// <renaming .json> is what wasm-opt --minify-imports-and-exports-and-modules printed for the
// optimized wasm: the short names it gave the wasm's imports and exports. <text decoder .wasm>
// is src/main/wasm-text.wat compiled.
//
// Layout of the package:
//   index.js     one minified module: the entry (src/main/index.js) and what it imports, namely
//                wasm-bindgen's glue, the crate's own JavaScript (src/wasm/*.js, which the glue
//                imports), the `sessionReducer` wrapper (src/main/session-reducer.js), the storage
//                helpers (src/storage/), and the optimized wasm inlined as text
//                (scripts/wasm-text.mjs), which the entry decodes and instantiates at import time
//                (so users never call an init function).
//   index.d.ts   the entry's own declarations (src/main/index.d.ts: the types generic over a tool
//                map, built on wasm-bindgen's, which it re-exports) and the storage helpers'
//                (src/storage/exports.d.ts).
//   bindgen.d.ts wasm-bindgen's declarations (tsify's types of the Rust model, the custom
//                sections, the exported functions) without the init API, which is not public
//                here; index.d.ts imports them.
//   index.js.map its source map (sources included, but for the wasm's text).
//   package.json pkg-template/package.json, versioned from Cargo.toml, with the repository's
//                links (Cargo.toml's `repository`).
//   README.md    pkg-template/README.md.
//   LICENSE      the repository's LICENSE.
//   <subpath>/   each JavaScript subpath export (the protocol adapters, the React, Vue and Svelte bindings, tabs): its
//                module bundled and minified into <subpath>/index.js, its declarations in
//                <subpath>/index.d.ts, which import the core's types from ../index.js (another
//                subpath's from ../<subpath>/index.js) and the
//                readers' source type and the protocol descriptor's from ../stream-source.d.ts.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, copyFileSync, cpSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { build } from "esbuild";
import { join, relative, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { glueFiles, importModuleOf, publicDeclarations, rewriteGlue } from "./glue.mjs";
import { throwingSources, unsafeImports } from "./glue-audit.mjs";
import { WASM_AT, checkWasmText, wasmText } from "./wasm-text.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const [bindgenDir, optimizedWasm, renamingPath, textDecoderWasm, outDir] = process.argv.slice(2);
if (!bindgenDir || !optimizedWasm || !renamingPath || !textDecoderWasm || !outDir) {
  throw new Error(
    "usage: node scripts/pack-pkg.mjs <wasm-bindgen out dir> <optimized .wasm> <renaming .json> <text decoder .wasm> <package dir>",
  );
}

const gluePath = join(bindgenDir, glueFiles.glue);
const glueDtsPath = join(bindgenDir, glueFiles.declarations);
// The init API of `--target web` glue; the package calls initSync itself.
const initExports = new Set(["default", "initSync"]);
const sourceDir = join(root, "src");
// The main entry's own files (src/main/), apart from the Rust crate's at the top of src/.
const mainDir = join(sourceDir, "main");
// The storage helpers, written in JavaScript (src/storage/), exported beside the glue's.
const storageDir = join(sourceDir, "storage");
// The files the build writes for the entry (src/main/index.js), which imports them as siblings.
const builtForEntry = { glue: join(mainDir, "glue.js"), wasmText: join(mainDir, "wasm-text.js") };

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

// The package's declarations: index.d.ts, the entry's own (src/main/index.d.ts, which re-exports
// bindgen.d.ts and declares the generic types over it) and the storage helpers'; bindgen.d.ts,
// wasm-bindgen's without its init API. The fragments' leading comments are for the
// repository's readers.
function packageDeclarations() {
  const fragment = (path) => readFileSync(path, "utf8").replace(/^(\/\/.*\n)+\n?/, "");
  return {
    index: [fragment(join(mainDir, "index.d.ts")), fragment(join(storageDir, "exports.d.ts"))].join("\n"),
    bindgen: publicDeclarations(readFileSync(glueDtsPath, "utf8")),
  };
}

// The values a declaration file exports.
function declaredValues(declarations) {
  const names = new Set(
    [...declarations.matchAll(/^export (?:declare )?(?:function|class|const|let|var|enum)\s+([A-Za-z_$][\w$]*)/gm)]
      .map((match) => match[1]),
  );
  if (/^export default /m.test(declarations)) names.add("default");
  return names;
}

// Every runtime export must be declared, and every declared value must exist at runtime
// (`declarations`: the texts of a module's declarations and of those it re-exports with `export *`).
function checkDeclarationsMatch(runtimeNames, ...declarations) {
  const declared = new Set(declarations.flatMap((text) => [...declaredValues(text)]));
  const undeclared = runtimeNames.filter((name) => !declared.has(name));
  const missing = [...declared].filter((name) => !runtimeNames.includes(name));
  if (undeclared.length || missing.length) {
    throw new Error(`index.d.ts and index.js disagree: undeclared ${undeclared}, not exported ${missing}`);
  }
}

// V8's explicit compile hint (Chromium 136 and later; other engines read a comment): compile every
// function of the module while it streams in, on a worker thread. Importing the core runs its
// top-level code and its first reducer call runs most of the rest, which V8 would otherwise parse
// again and compile one function at a time on the main thread (docs/performance.md). Bundlers drop
// the comment.
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
  session: "src/session",
  resume: "src/resume",
  history: "src/history",
  react: "src/react",
  vue: "src/vue",
  svelte: "src/svelte",
  "assistant-ui": "src/assistant-ui",
  conversations: "src/conversations",
  indexeddb: "src/indexeddb",
  tabs: "src/tabs",
  testing: "src/testing",
  "jest-environment": "src/jest-environment",
  server: "src/server",
};

// A subpath's imports of the package itself (the hook imports the core and the adapters) point
// at the package's own files, so that the app and the subpath share one instance of the core
// (and its memo of recent states). React, Vue, Svelte and assistant-ui, the bindings' peer dependencies, stay imports.
const selfImports = {
  name: "self-imports",
  setup(build) {
    build.onResolve({ filter: /^chat-session-reducer(\/[\w-]+)?$/ }, ({ path }) => {
      const target = path === "chat-session-reducer" ? "index.js" : `${path.slice("chat-session-reducer/".length)}/index.js`;
      return { path: `../${target}`, external: true };
    });
  },
};

async function packSubpath(subpath, folder) {
  const source = join(root, folder);
  await build({
    ...bundleOptions,
    entryPoints: [join(source, "index.js")],
    outfile: join(outDir, subpath, "index.js"),
    // The server's database clients are the app's (optional peers), Node's modules the runtime's.
    external: ["react", "vue", "svelte", "@assistant-ui/react", "jest-environment-jsdom", "@electric-sql/pglite", "pg", "redis", "node:*"],
    plugins: [selfImports],
  });
  // In the source the package's types come from it by name (the core, another subpath); beside
  // it, from ../index.js and ../<subpath>/index.js.
  const declarations = readFileSync(join(source, "index.d.ts"), "utf8")
    .replace(/from "chat-session-reducer(?:\/([\w-]+))?"/g, (_, other) => `from "../${other === undefined ? "" : `${other}/`}index.js"`);
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

// The source map names each source after its place in the repository (the glue and its
// snippets were bundled from a temporary directory), and leaves out the wasm's text, which is no
// source anyone reads.
function tidySourceMap(mapPath, staging) {
  const map = JSON.parse(readFileSync(mapPath, "utf8"));
  const sources = map.sources.map((source) => {
    const absolute = resolve(dirname(mapPath), source);
    const path = relative(staging, absolute).replaceAll("\\", "/");
    const snippet = path.match(/^snippets\/[^/]+\/(src\/.+)$/)?.[1];
    if (snippet) return `chat-session-reducer/${snippet}`;
    if (path === "glue.js") return "chat-session-reducer/wasm-bindgen-glue.js";
    if (path === "wasm-text.js") return "chat-session-reducer/wasm-text.js";
    const inSource = relative(root, absolute).replaceAll("\\", "/");
    if (inSource.startsWith("src/")) return `chat-session-reducer/${inSource}`;
    throw new Error(`${mapPath}: unexpected source ${source}`);
  });
  const sourcesContent = map.sourcesContent.map((content, index) =>
    sources[index].endsWith("/wasm-text.js") ? null : content);
  writeFileSync(mapPath, JSON.stringify({ ...map, sources, sourcesContent }));
}

// The entry's imports resolved as in the package: the files the build writes for it from the
// staging directory, and the crate's modules that wasm-bindgen copied into snippets/ from those
// copies, which the glue imports: one instance of each in the bundle.
function entryImports(staging) {
  const snippets = join(staging, "snippets");
  const crateDirs = existsSync(snippets) ? readdirSync(snippets) : [];
  if (crateDirs.length !== 1) throw new Error(`${bindgenDir}: expected the snippets of one crate, found ${crateDirs}`);
  const snippetDir = join(snippets, crateDirs[0]);
  const wasmSourceDir = join(sourceDir, "wasm");
  return {
    name: "entry-imports",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, ({ path, importer }) => {
        const target = resolve(dirname(importer), path);
        if (target === builtForEntry.glue) return { path: join(staging, "glue.js") };
        if (target === builtForEntry.wasmText) return { path: join(staging, "wasm-text.js") };
        const inSource = relative(sourceDir, target);
        // The glue's imports, and its snippets' of one another.
        if (inSource.startsWith("..")) return undefined;
        const copy = join(snippetDir, "src", inSource);
        if (existsSync(copy)) return { path: copy };
        if (!relative(wasmSourceDir, target).startsWith("..")) {
          throw new Error(`src/${inSource} is not in wasm-bindgen's snippets: declare an import from it in Rust (src/wasm/mod.rs)`);
        }
        return undefined;
      });
    },
  };
}

// The wasm as text, its decoder (a few hundred bytes) as an array of bytes, its size and where the decoder
// writes it, for the entry; the text is decoded here first, as the entry will, and must give
// back the wasm.
function writeWasmText(path, wasmBytes) {
  const decoder = readFileSync(textDecoderWasm);
  const text = wasmText(wasmBytes);
  checkWasmText(decoder, text, wasmBytes);
  writeFileSync(path, [
    `export const decoder = ${JSON.stringify([...decoder])};`,
    `export const size = ${wasmBytes.length};`,
    `export const at = ${WASM_AT};`,
    `export const text = ${JSON.stringify(text)};`,
  ].join("\n") + "\n");
}

// No exception may unwind through the module's frames (scripts/glue-audit.mjs says why).
function auditGlue() {
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
// Before bundling, every export of the glue must be declared (one it leaves to the package,
// `skip_typescript`, by src/main/index.d.ts); after, the bundle's exports must be exactly the declared.
const declarations = packageDeclarations();
const declaredAtEntry = new Set([...declaredValues(declarations.index), ...declaredValues(declarations.bindgen)]);
const undeclaredGlue = (await publicExportNames()).filter((name) => !declaredAtEntry.has(name));
if (undeclaredGlue.length > 0) throw new Error(`index.d.ts does not declare the glue's ${undeclaredGlue}`);

// The entry, the glue and the crate's own JavaScript are bundled into one minified module: one
// request, and better compression.
const staging = mkdtempSync(join(tmpdir(), "pack-pkg-"));
const wasmBytes = readFileSync(optimizedWasm);
const renaming = JSON.parse(readFileSync(renamingPath, "utf8"));
writeFileSync(join(staging, "glue.js"), rewriteGlue(readFileSync(gluePath, "utf8"), renaming, importModuleOf(wasmBytes)));
cpSync(join(bindgenDir, "snippets"), join(staging, "snippets"), { recursive: true });
writeWasmText(join(staging, "wasm-text.js"), wasmBytes);

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await build({
  ...bundleOptions,
  entryPoints: [join(mainDir, "index.js")],
  outfile: join(outDir, "index.js"),
  sourcemap: "linked",
  banner: { js: EAGER_COMPILE_HINT },
  plugins: [entryImports(staging)],
});
tidySourceMap(join(outDir, "index.js.map"), staging);
rmSync(staging, { recursive: true, force: true });
writeFileSync(join(outDir, "index.d.ts"), declarations.index);
writeFileSync(join(outDir, "bindgen.d.ts"), declarations.bindgen);
const exported = Object.keys(await import(pathToFileURL(join(outDir, "index.js")).href)).sort();
checkDeclarationsMatch(exported, declarations.index, declarations.bindgen);
for (const [subpath, folder] of Object.entries(javascriptSubpaths)) await packSubpath(subpath, folder);
// Beside the core's declarations, which it imports by the package's name in the source.
writeFileSync(join(outDir, "stream-source.d.ts"), readFileSync(join(sourceDir, "adapters", "stream-source.d.ts"), "utf8")
  .replace(/from "chat-session-reducer"/g, 'from "./index.js"'));
writeFileSync(join(outDir, "package.json"), packageManifest());
copyFileSync(join(root, "pkg-template", "README.md"), join(outDir, "README.md"));
copyFileSync(join(root, "LICENSE"), join(outDir, "LICENSE"));

console.log(`pack-pkg: ${outDir}: exports ${exported.join(", ")}; subpaths ${Object.keys(javascriptSubpaths).join(", ")}`);
