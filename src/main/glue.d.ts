// What the entry (src/main/index.js) uses of wasm-bindgen's glue, which the build writes beside it as
// glue.js; the package's declarations of the re-exported functions are wasm-bindgen's own.
import type { ReduceInWasm } from "./session-reducer.js";

export function initSync(module: { module: BufferSource }): unknown;
export const sessionReducer: ReduceInWasm;
export { isCancelled, resumable } from "chat-session-reducer";
