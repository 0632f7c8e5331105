// The package's entry, bundled with everything it imports into pkg/index.js by
// scripts/pack-pkg.mjs. Importing it instantiates the WebAssembly module synchronously from the
// text in wasm-text.js, so no init call is needed. `./glue.js` is wasm-bindgen's glue, as the
// build writes it beside this file (src/glue.d.ts declares what is used of it here);
// `./wasm-text.js` is the optimized wasm as text (scripts/wasm-text.mjs), the small module that
// decodes it (src/wasm-text.wat) as bytes, the wasm's size and where it is decoded to.
import { initSync, sessionReducer as reduceInWasm } from "./glue.js";
import { bindSessionReducer, sessionReducer } from "./session_reducer.js";
import { sessionStorageHelpers } from "./storage/session_storage.js";
import { at, decoder, size, text } from "./wasm-text.js";

/**
 * The wasm's bytes, decoded from its text. The decoder's memory holds its tables, the wasm from
 * `at`, then the text's characters, which are ASCII, so encodeInto copies them one byte each
 * (src/wasm-text.wat). Nothing keeps the decoder once the wasm is compiled.
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
// none of them leaves them out.
/** @type {ReturnType<typeof sessionStorageHelpers> | undefined} */
let storageHelpers;
const helpers = () => (storageHelpers ??= sessionStorageHelpers(sessionReducer));

/** @type {typeof import("chat-session-reducer").saveSession} */
export function saveSession(...args) {
  return helpers().saveSession(...args);
}
/** @type {typeof import("chat-session-reducer").loadSession} */
export function loadSession(...args) {
  return helpers().loadSession(...args);
}
/** @type {typeof import("chat-session-reducer").clearSession} */
export function clearSession(...args) {
  return helpers().clearSession(...args);
}
/** @type {typeof import("chat-session-reducer").restoreSession} */
export function restoreSession(...args) {
  return helpers().restoreSession(...args);
}
/** @type {typeof import("chat-session-reducer").persistSession} */
export function persistSession(...args) {
  return helpers().persistSession(...args);
}
/** @type {typeof import("chat-session-reducer").storedSessionId} */
export function storedSessionId(...args) {
  return helpers().storedSessionId(...args);
}
/** @type {typeof import("chat-session-reducer").restoredStatus} */
export function restoredStatus(...args) {
  return helpers().restoredStatus(...args);
}

export { checkAction, isCancelled, resumable } from "./glue.js";
export { branchAt } from "./branch_at.js";
export { waitsOnApp } from "./waits_on_app.js";
