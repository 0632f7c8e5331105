// The optimized wasm as hex, which the build writes beside the entry as wasm-hex.js.
declare const wasmHex: string;
export default wasmHex;
