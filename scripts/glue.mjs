// The rewriting of wasm-bindgen's `--target web` glue (the version Cargo.toml pins) that the
// package's build does, in one place, with the golden copy it is tested against.
//
//   node scripts/glue.mjs refresh
//
// copies the last build's raw glue (target/pkg-build/, which `bash scripts/build.sh` writes) into
// tests/fixtures/glue/ with its rewritten form: run it after the build when the crate's imports or
// exports, or wasm-bindgen, change, and review the diff. tests/js/glue-golden.test.mjs fails until
// the golden copy matches.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const crateName = "chat_session_reducer";

/** Where the build keeps what wasm-bindgen and wasm-opt wrote, and where the golden copy is. */
export const buildDir = join(root, "target", "pkg-build");
export const goldenDir = join(root, "tests", "fixtures", "glue");
export const refreshCommand = "bash scripts/build.sh && node scripts/glue.mjs refresh";

/** The files of wasm-bindgen's output the package uses, by role. */
export const glueFiles = { glue: `${crateName}.js`, declarations: `${crateName}.d.ts` };

const identifier = /^[A-Za-z_$][\w$]*$/;

function changed(what) {
  return new Error(`wasm-bindgen's glue: ${what}; update scripts/glue.mjs (docs/architecture.md, "Upgrading wasm-bindgen")`);
}

/**
 * The one module the minified wasm imports from (wasm-opt put every import in it).
 * @param {BufferSource} wasm
 */
export function importModuleOf(wasm) {
  const modules = new Set(WebAssembly.Module.imports(new WebAssembly.Module(wasm)).map(({ module }) => module));
  if (modules.size !== 1) throw new Error(`the minified wasm imports from ${modules.size} modules, not one`);
  return [...modules][0];
}

// The glue with the short names wasm-opt gave the wasm's imports and exports. The glue's imports
// are its own functions, keys of the object `import0`, and the exports of the crate's JavaScript
// modules (`import * as importN`); wasm-opt put them all in one module, `importModule`.
function renamed(glue, renaming, importModule) {
  const table = glue.match(/\breturn \{\s*__proto__: null,\s*((?:"[^"]+": import\d+,\s*)+)\};/);
  if (!table) throw changed("the import table was not found");
  const namespaces = new Map([...table[1].matchAll(/"([^"]+)": (import\d+)/g)].map((match) => [match[1], match[2]]));
  const ownModule = [...namespaces].find(([, namespace]) => namespace === "import0")?.[0];
  let result = glue;
  const others = [];
  for (const [module, name, short] of renaming.imports) {
    if (!identifier.test(name) || !identifier.test(short)) throw new Error(`wasm-opt's renaming: import ${name} -> ${short}`);
    if (module === ownModule) {
      const key = new RegExp(`^(\\s+)${name.replaceAll("$", "\\$")}: function\\b`, "m");
      if (!key.test(result)) throw changed(`no import0 entry ${name}`);
      result = result.replace(key, `$1${short}: function`);
    } else if (namespaces.has(module)) {
      others.push(`${short}: ${namespaces.get(module)}.${name}`);
    } else throw new Error(`wasm-opt's renaming: import from an unknown module ${module}`);
  }
  result = result.replace(table[0], `return { ${JSON.stringify(importModule)}: { ...import0, ${others.join(", ")} } };`);

  const exports = new Map(renaming.exports);
  result = result.replace(/\bwasm\.([A-Za-z_$][\w$]*)/g, (whole, name) => {
    if (!exports.has(name)) throw changed(`it uses wasm.${name}, which the wasm does not export`);
    return `wasm.${exports.get(name)}`;
  });
  if (/\binstance\.exports\[|\bwasm\[/.test(result)) throw changed("an export is read by a computed name");
  return result;
}

// wasm-bindgen writes each `catch` import as `function() { return handleError(function (args)
// { body }, arguments); }`: a closure and an arguments object made per call (a tool step makes
// seven), and the closure's optimized code, which only short-lived closures hold, is dropped by
// every full collection and compiled again. Each is rewritten as one function that catches what
// its body throws and stores it as `handleError` does. Any call left unrewritten fails the build.
function inlineCatches(glue) {
  const definition = glue.match(/^function handleError\(f, args\) \{\n\s*try \{\n\s*return f\.apply\(this, args\);\n\s*\} catch \(e\) \{\n([\s\S]*?)\n\s*\}\n\}\n/m);
  if (!definition) throw changed("handleError is not as expected");
  const rewritten = glue
    .replace(definition[0], `function storeException(e) {\n${definition[1]}\n}\n`)
    .replace(/function\(\) \{ return handleError\(function \(([^)]*)\) \{\n([\s\S]*?)\n(\s*)\}, arguments\); \}/g,
      (whole, params, body, indent) =>
        `function (${params}) {\n${indent}try {\n${body}\n${indent}} catch (e) {\n${indent}    storeException(e);\n${indent}}\n${indent}}`);
  if (rewritten.includes("handleError")) throw changed("a handleError call was not rewritten");
  return rewritten;
}

/**
 * The glue as the package bundles it: wasm-opt's short names (`renaming`, what
 * --minify-imports-and-exports-and-modules printed; `importModule`, the one module the minified
 * wasm imports from) and no closure per `catch` import.
 * @param {string} glue
 * @param {{ imports: [string, string, string][], exports: [string, string][] }} renaming
 * @param {string} importModule
 */
export function rewriteGlue(glue, renaming, importModule) {
  return withoutLegacyInit(inlineCatches(renamed(glue, renaming, importModule)));
}

// The entry always calls `initSync({ module })`: the branch for the positional argument that
// wasm-bindgen still accepts (and warns about) is dead weight in every app's bundle.
function withoutLegacyInit(glue) {
  const legacy = /( +)if \(module !== undefined\) \{\n\s*if \(Object\.getPrototypeOf\(module\) === Object\.prototype\) \{\n\s*\(\{module\} = module\)\n\s*\} else \{\n\s*console\.warn\('using deprecated parameters for `initSync\(\)`; pass a single object instead'\)\n\s*\}\n\s*\}\n/;
  if (!legacy.test(glue)) throw changed("initSync's argument handling is not as expected");
  return glue.replace(legacy, "$1({ module } = module);\n");
}

/**
 * wasm-bindgen's declarations without its init API (InitInput, InitOutput, SyncInitInput,
 * initSync and the default export), which the package does not export: wasm-bindgen always
 * emits them after the crate's own, starting with `export type InitInput`.
 * @param {string} declarations
 */
export function publicDeclarations(declarations) {
  const initStart = declarations.search(/^export type InitInput\b/m);
  if (initStart < 0) throw changed("the init declarations were not found");
  const publicPart = declarations.slice(0, initStart).trimEnd() + "\n";
  if (/\binitSync\b|__wbg_init|\bInitOutput\b/.test(publicPart)) throw changed("init declarations are mixed into the crate's own");
  return publicPart;
}

/**
 * The path the glue imports a JavaScript module of the crate from (`src/wasm/read.js` ->
 * `./snippets/<crate>-<hash>/src/wasm/read.js`), or undefined if it imports none by that path.
 * @param {string} glue
 * @param {string} sourcePath
 */
export function snippetPath(glue, sourcePath) {
  const escaped = sourcePath.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return glue.match(new RegExp(`from ['"](\\./snippets/[^/'"]+/${escaped})['"]`))?.[1];
}

/**
 * The glue with what changes with the crate's version alone (the snippets' folder and the
 * imports' hashes, both made from the name and version) replaced by placeholders.
 * @param {string} text
 */
export function withoutVersionHashes(text) {
  return text.replace(/(snippets\/[\w-]+?)-[0-9a-f]{16}\//g, "$1-HASH/").replace(/(__wbg_\w+?)_[0-9a-f]{16}\b/g, "$1_HASH");
}

const goldenRenaming = "renaming.json";
export const goldenRewritten = "rewritten.js";

/** The golden copy: the raw glue and declarations, the renaming, and the rewritten glue. */
export function readGolden() {
  const read = (file) => readFileSync(join(goldenDir, file), "utf8");
  const { importModule, ...renaming } = JSON.parse(read(goldenRenaming));
  return {
    glue: read(glueFiles.glue),
    declarations: read(glueFiles.declarations),
    renaming,
    importModule,
    rewritten: read(goldenRewritten),
  };
}

function refresh() {
  const read = (file) => readFileSync(join(buildDir, file), "utf8");
  const glue = read(join("bindgen", glueFiles.glue));
  const renaming = JSON.parse(read("renamed.json"));
  const importModule = importModuleOf(readFileSync(join(buildDir, "minified.wasm")));
  mkdirSync(goldenDir, { recursive: true });
  writeFileSync(join(goldenDir, glueFiles.glue), glue);
  writeFileSync(join(goldenDir, glueFiles.declarations), read(join("bindgen", glueFiles.declarations)));
  writeFileSync(join(goldenDir, goldenRenaming), JSON.stringify({ importModule, ...renaming }, null, 1) + "\n");
  writeFileSync(join(goldenDir, goldenRewritten), rewriteGlue(glue, renaming, importModule));
  console.log(`glue: ${goldenDir} refreshed from ${buildDir}; review it with git diff`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== "refresh") throw new Error("usage: node scripts/glue.mjs refresh");
  refresh();
}
