// Assembles the npm package directory from wasm-bindgen's `--target web` output.
//
//   node scripts/pack-pkg.mjs <wasm-bindgen out dir> <optimized .wasm> <package dir>
//
// Layout of the package:
//   index.js     one minified module: wasm-bindgen's glue, the crate's own JavaScript
//                (src/wasm/*.js, which the glue imports), the storage helpers (src/storage/),
//                and the optimized wasm inlined as hex and instantiated with the glue's
//                `initSync` at import time (so users never call an init function); the glue's
//                public exports re-exported by name.
//   index.d.ts   wasm-bindgen's declarations without the init API, which is not public here,
//                and the storage helpers' (src/storage/session_storage.d.ts).
//   package.json pkg-template/package.json, versioned from Cargo.toml.
//   README.md    pkg-template/README.md.
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, copyFileSync, cpSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { build } from "esbuild";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const [bindgenDir, optimizedWasm, outDir] = process.argv.slice(2);
if (!bindgenDir || !optimizedWasm || !outDir) {
  throw new Error("usage: node scripts/pack-pkg.mjs <wasm-bindgen out dir> <optimized .wasm> <package dir>");
}

const crateName = "chat_session_reducer";
const gluePath = join(bindgenDir, `${crateName}.js`);
const glueDtsPath = join(bindgenDir, `${crateName}.d.ts`);
// The init API of `--target web` glue; the package calls initSync itself.
const initExports = new Set(["default", "initSync"]);
// The storage helpers, written in JavaScript (src/storage/), exported beside the glue's.
const storageDir = join(root, "src", "storage");
const storageExports = ["saveSession", "loadSession", "clearSession", "restoreSession", "persistSession"];

function cargoVersion() {
  const manifest = readFileSync(join(root, "Cargo.toml"), "utf8");
  const packageSection = manifest.split(/^\[/m).find((section) => section.startsWith("package]"));
  const version = packageSection?.match(/^version\s*=\s*"([^"]+)"/m)?.[1];
  if (!version) throw new Error("Cargo.toml: no [package] version");
  return version;
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

// The wasm is inlined as hex rather than base64: hex keeps byte boundaries, so gzip compresses
// it almost as well as the raw bytes (base64 costs about 30% more once gzipped), and decoding it
// is one quick loop.
// The crate's JavaScript that knows when an action needs no Rust work (src/wasm/state_facts.js),
// as the glue imports it from snippets/.
function stateFactsModule() {
  const glue = readFileSync(gluePath, "utf8");
  const path = glue.match(/from ['"](\.\/snippets\/[^'"]+\/src\/wasm\/state_facts\.js)['"]/)?.[1];
  if (!path) throw new Error(`${gluePath}: no import of src/wasm/state_facts.js`);
  return path;
}

function entryModule(names, wasmBytes) {
  const reexported = names.filter((name) => name !== "sessionReducer" && !storageExports.includes(name));
  return `// The chat-session-reducer module. Importing it instantiates the WebAssembly module
// synchronously from the bytes below, so no init call is needed. Generated by scripts/pack-pkg.mjs.
import { initSync, sessionReducer as reduceInWasm } from "./glue.js";
import { shortcut } from "${stateFactsModule()}";
import { sessionStorageHelpers } from "./storage/session_storage.js";

const wasmHex = "${wasmBytes.toString("hex")}";

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
// answered here, without a call into the module, which would ask the same first.
export function sessionReducer(state, action) {
  return shortcut(state, action) ?? reduceInWasm(state, action);
}

// The storage helpers, made on first use: each is a function declaration, so a bundle that uses
// none of them leaves them out.
let storageHelpers;
const helpers = () => (storageHelpers ??= sessionStorageHelpers(sessionReducer));
${storageExports.map((name) => `export function ${name}(...args) {\n  return helpers().${name}(...args);\n}`).join("\n")}

export { ${reexported.join(", ")} } from "./glue.js";
`;
}

function packageManifest() {
  const manifest = JSON.parse(readFileSync(join(root, "pkg-template", "package.json"), "utf8"));
  return JSON.stringify({ ...manifest, version: cargoVersion() }, null, 2) + "\n";
}

const names = [...(await publicExportNames()), ...storageExports].sort();
const declarations = publicDeclarations();
checkDeclarationsMatch(names, declarations);

// The entry, the glue and the crate's own JavaScript (src/wasm/apply.js, which the glue imports
// from snippets/) are bundled into one minified module: one request, and better compression.
const staging = mkdtempSync(join(tmpdir(), "pack-pkg-"));
copyFileSync(gluePath, join(staging, "glue.js"));
if (existsSync(join(bindgenDir, "snippets"))) {
  cpSync(join(bindgenDir, "snippets"), join(staging, "snippets"), { recursive: true });
}
cpSync(storageDir, join(staging, "storage"), { recursive: true });
writeFileSync(join(staging, "entry.js"), entryModule(names, readFileSync(optimizedWasm)));

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: [join(staging, "entry.js")],
  outfile: join(outDir, "index.js"),
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2020",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
rmSync(staging, { recursive: true, force: true });
writeFileSync(join(outDir, "index.d.ts"), declarations);
writeFileSync(join(outDir, "package.json"), packageManifest());
copyFileSync(join(root, "pkg-template", "README.md"), join(outDir, "README.md"));

console.log(`pack-pkg: ${outDir}: exports ${names.join(", ")}`);
