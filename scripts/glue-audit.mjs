// Checks wasm-bindgen's glue for imports that could throw into the module. An exception that
// unwinds through wasm frames skips restoring the Rust stack pointer and wasm-bindgen's table of
// borrowed references; a few hundred of them (a caller's getter or Proxy that throws) and every
// later call is broken. So every import must be declared `catch` (its glue is wrapped in
// `handleError`, and the throw comes back to Rust as an `Err`), except the few that run no code of
// the caller's (see `SAFE`). scripts/pack-pkg.mjs fails the build when this finds any.

// Imports that cannot throw on any value they are given: wasm-bindgen's own type checks, casts and
// table set-up, accessors of the global object, `instanceof` checks (the glue catches those
// itself), and the constructors of built-ins from Rust's own strings.
const SAFE = [
  /^__wbg___wbindgen_(is_object|is_string|is_undefined|is_null|jsval_eq|boolean_get|number_get|string_get)_/,
  /^__wbindgen_generic_/,
  /^__wbindgen_init_externref_table$/,
  /^__wbg_static_accessor_/,
];
const SAFE_BODY = {
  instanceof: /^let result;\s*try \{\s*result = arg0 instanceof \w+;\s*\} catch \(_\) \{/,
  new: /^const ret = new (Object|Array|Error|TypeError)\((getStringFromWasm0\(arg0, arg1\))?\);/,
};

// wasm-bindgen's throw intrinsic is imported by its closure shims whatever the crate does (they
// throw when a dropped closure is called): allowed while the glue makes no closures (it then has
// none of this machinery). The crate itself must not call it: `THROWING_RUST` in its sources.
const CLOSURES = /\bmake(Mut)?Closure\b|CLOSURE_DTORS/;
const THROWING_RUST = /\b(unwrap_throw|expect_throw|throw_str|throw_val)\b/;

/** The names of the glue's imports that could let an exception into the module, and why. */
export function unsafeImports(glue) {
  const start = glue.indexOf("function __wbg_get_imports()");
  const end = glue.indexOf("\n}\n", start);
  if (start < 0 || end < 0) return ["__wbg_get_imports: not found (has wasm-bindgen's glue changed?)"];
  const imports = glue.slice(start, end);
  const found = [];
  const heads = [...imports.matchAll(/^ {8}(\w+): function\([^)]*\) \{\s*/gm)];
  if (heads.length === 0) found.push("__wbg_get_imports: no imports found (has wasm-bindgen's glue changed?)");
  const entries = heads.map((head, index) => [
    head[1],
    imports.slice(head.index + head[0].length, heads[index + 1]?.index ?? imports.length),
  ]);
  for (const [name, body] of entries) {
    if (body.startsWith("return handleError(")) continue;
    if (SAFE.some((pattern) => pattern.test(name))) continue;
    if (/^__wbg___wbindgen_throw_/.test(name) && !CLOSURES.test(glue)) continue;
    const kind = name.match(/^__wbg_(instanceof|new)_/)?.[1];
    if (kind && SAFE_BODY[kind].test(body)) continue;
    found.push(`${name}: not declared catch (${body.trim().slice(0, 60)})`);
  }
  // A module the glue passes as a namespace is called directly, without handleError.
  const modules = imports.slice(imports.lastIndexOf("return {")).match(/"[^"]+": \w+/g) ?? [];
  for (const module of modules.filter((entry) => !/_bg\.js": import0$/.test(entry))) {
    found.push(`${module}: functions imported without catch`);
  }
  return found;
}

/** The Rust sources (path -> text) that call wasm-bindgen's throwing helpers. */
export function throwingSources(sources) {
  return Object.entries(sources)
    .filter(([, text]) => THROWING_RUST.test(text))
    .map(([path, text]) => `${path}: ${text.match(THROWING_RUST)[0]}`);
}
