// The package's entry, bundled with everything it imports into pkg/index.js by
// scripts/pack-pkg.mjs. Importing it instantiates the WebAssembly module synchronously from the
// text in wasm-text.js, so no init call is needed. `./glue.js` is wasm-bindgen's glue, as the
// build writes it beside this file (src/main/glue.d.ts declares what is used of it here);
// `./wasm-text.js` is the optimized wasm as text (scripts/wasm-text.mjs), the small module that
// decodes it (src/main/wasm-text.wat) as bytes, the wasm's size and where it is decoded to.
import { initSync, sessionReducer as reduceInWasm } from "./glue.js";
import { bindSessionReducer, sessionReducer } from "./session-reducer.js";
import { sessionStorageHelpers } from "../storage/session-storage.js";
import { at, decoder, size, text } from "./wasm-text.js";

/**
 * The wasm's bytes, decoded from its text. The decoder's memory holds its tables, the wasm from
 * `at`, then the text's characters, which are ASCII, so encodeInto copies them one byte each
 * (src/main/wasm-text.wat). Nothing keeps the decoder once the wasm is compiled.
 * @returns {Uint8Array<ArrayBuffer>}
 */
function decodedWasm() {
  const { m: memory, d: decode } = /** @type {{ m: WebAssembly.Memory, d: (size: number) => void }} */ (
    new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(decoder))).exports);
  new TextEncoder().encodeInto(text, new Uint8Array(memory.buffer, at + size));
  decode(size);
  return new Uint8Array(memory.buffer, at, size);
}
initSync({ module: decodedWasm() });
bindSessionReducer(reduceInWasm);

export { sessionReducer };

// The storage helpers, made on first use: each is a function declaration, so a bundle that uses
// none of them leaves them out. Each returns a promise when given a session store.
/** @type {ReturnType<typeof sessionStorageHelpers> | undefined} */
let storageHelpers;
const helpers = () => (storageHelpers ??= sessionStorageHelpers(sessionReducer));

/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function saveSession(...args) {
  return helpers().saveSession(...args);
}
/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function loadSession(...args) {
  return helpers().loadSession(...args);
}
/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function loadSessionEntry(...args) {
  return helpers().loadSessionEntry(...args);
}
/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function clearSession(...args) {
  return helpers().clearSession(...args);
}
/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function restoreSession(...args) {
  return helpers().restoreSession(...args);
}
/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function restoreSessionEntry(...args) {
  return helpers().restoreSessionEntry(...args);
}
/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function persistSession(...args) {
  return helpers().persistSession(...args);
}
/** @param {any[]} args (the declarations in src/storage/exports.d.ts: one overload per kind of storage) */
export function storedSessionId(...args) {
  return helpers().storedSessionId(...args);
}

export { isCancelled, resumable } from "./glue.js";
export { checkAction } from "../wasm/read.js";
export { branchAt } from "./branch-at.js";
export { waitsOnApp } from "./waits-on-app.js";
