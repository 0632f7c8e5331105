// The wasm's text form (scripts/wasm-text.mjs) through the decoder the entry runs
// (src/main/wasm-text.wat, as scripts/build.sh compiles it into target/pkg-build/): any bytes come back
// as they were, and the text holds only characters no bundler or minifier re-escapes.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { checkWasmText, decodedLength, wasmText } from "../../scripts/wasm-text.mjs";

const decoder = readFileSync(new URL("../../target/pkg-build/text-decoder.wasm", import.meta.url));

// A deterministic generator (xorshift), so that a failure repeats.
function bytes(length, seed, pick) {
  const result = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5;
    result[index] = pick(state >>> 0);
  }
  return result;
}

const cases = {
  "every byte value, once": Uint8Array.from({ length: 256 }, (_, index) => index),
  "uniform random bytes": bytes(70_000, 1, (value) => value & 255),
  "skewed like wasm (small values frequent)": bytes(70_000, 7, (value) => (value % 7 === 0 ? value >>> 24 : value & 31)),
  "one byte value only": new Uint8Array(1_000).fill(0xfe),
  "the package's own wasm": readFileSync(new URL("../../target/pkg-build/minified.wasm", import.meta.url)),
};

for (const [name, wasm] of Object.entries(cases)) {
  test(`wasm text: ${name} decodes to the same bytes`, () => {
    const text = wasmText(wasm);
    assert.doesNotThrow(() => checkWasmText(decoder, text, wasm));
    assert.equal(decodedLength(text), wasm.length);
    assert.match(text, /^[ -~]*$/, "printable ASCII only");
    assert.doesNotMatch(text, /["<\\]/, "no character a string literal or an HTML script would escape");
  });
}

test("wasm text: a decoder that gives other bytes is caught at build time", () => {
  const wasm = cases["uniform random bytes"];
  const text = wasmText(wasm);
  const altered = text.slice(0, 100) + (text[100] === "a" ? "b" : "a") + text.slice(101);
  assert.throws(() => checkWasmText(decoder, altered, wasm), /does not give back the wasm/);
});

test("wasm text: a wasm too large for the decoder's memory is refused at build time", () => {
  const wasm = new Uint8Array(300_000);
  assert.throws(() => checkWasmText(decoder, wasmText(wasm), wasm), /do not fit the decoder's memory/);
});
