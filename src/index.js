// The package's entry, bundled with everything it imports into pkg/index.js by
// scripts/pack-pkg.mjs. Importing it instantiates the WebAssembly module synchronously from the
// bytes in wasm-hex.js, so no init call is needed. `./glue.js` is wasm-bindgen's glue, as the
// build writes it beside this file (src/glue.d.ts declares what is used of it here);
// `./wasm-hex.js` is the optimized wasm, which the build writes as hex.
import { initSync, sessionReducer as reduceInWasm } from "./glue.js";
import { bindSessionReducer, sessionReducer } from "./session_reducer.js";
import { sessionStorageHelpers } from "./storage/session_storage.js";
import wasmHex from "./wasm-hex.js";

/**
 * Hex to bytes, natively where the runtime can (Uint8Array.fromHex in current browsers, Buffer
 * in Node): a loop over the string costs several milliseconds when it runs once, cold.
 * @param {string} hex
 * @returns {Uint8Array<ArrayBuffer>}
 */
function bytesOf(hex) {
  /** @type {typeof Uint8Array & { fromHex?: (hex: string) => Uint8Array<ArrayBuffer> }} */
  const natively = Uint8Array;
  if (typeof natively.fromHex === "function") return natively.fromHex(hex);
  if (typeof Buffer === "function") return Buffer.from(hex, "hex");
  /**
   * A hex digit's low four bits, plus 9 for the letters a-f.
   * @param {number} code
   */
  const digit = (code) => (code & 15) + (code >> 6) * 9;
  const bytes = new Uint8Array(hex.length >> 1);
  for (let index = 0; index < bytes.length; index++) {
    bytes[index] = (digit(hex.charCodeAt(2 * index)) << 4) | digit(hex.charCodeAt(2 * index + 1));
  }
  return bytes;
}
initSync({ module: bytesOf(wasmHex) });
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

export { checkAction, isCancelled, resumable } from "./glue.js";
export { branchAt } from "./branch_at.js";
