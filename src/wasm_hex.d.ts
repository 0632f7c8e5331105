// The optimized wasm as hex, which the build writes beside the entry as wasm_hex.js.
declare const wasmHex: string;
export default wasmHex;
