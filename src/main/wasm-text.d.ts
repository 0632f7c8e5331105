// What the build writes beside the entry as wasm-text.js (scripts/pack-pkg.mjs): the optimized
// wasm as text, its decoder module's bytes, the wasm's size in bytes, and where in the decoder's
// memory it is decoded to.
export declare const decoder: number[];
export declare const size: number;
export declare const text: string;
export declare const at: number;
