// The package's wasm as text for its entry to inline (src/main/wasm-text.wat decodes it; its comment
// has the format). Each byte of the wasm is one character of the text, or, for the bytes the wasm
// holds least often, two: gzip then compresses the text about as well as the wasm itself
// (hex costs ~10% more: its half-bytes hide which bytes are frequent; base64's groups of three
// bytes hide repeats), and no bundler or minifier re-escapes printable ASCII.
const ALPHABET = [...Array(95).keys()].map((code) => String.fromCharCode(32 + code)).filter((char) => !"\"<\\".includes(char));
// Escape characters, each followed by one more character: two are enough for the 256 - 90 bytes
// left (three to six compressed no better).
const ESCAPES = 2;
const SINGLES = ALPHABET.length - ESCAPES;
// Where the wasm starts in the decoder's memory (src/main/wasm-text.wat).
export const WASM_AT = 384;
const MEMORY_BYTES = 8 * 65536;

/** The text of `wasm` (a Uint8Array). */
export function wasmText(wasm) {
  const counts = new Array(256).fill(0);
  for (const byte of wasm) counts[byte]++;
  const frequent = new Set([...counts.keys()].sort((a, b) => counts[b] - counts[a] || a - b).slice(0, SINGLES));
  const ranked = [...counts.keys()].sort((a, b) => Number(frequent.has(b)) - Number(frequent.has(a)) || a - b);
  const code = new Array(256);
  ranked.forEach((byte, rank) => {
    const beyond = rank - SINGLES;
    code[byte] = beyond < 0 ? ALPHABET[rank] : ALPHABET[SINGLES + Math.floor(beyond / ALPHABET.length)] + ALPHABET[beyond % ALPHABET.length];
  });
  let set = "";
  for (let byte = 0; byte < 256; byte += 4) {
    let bits = 0;
    for (let bit = 0; bit < 4; bit++) if (frequent.has(byte + bit)) bits |= 1 << bit;
    set += String.fromCharCode(65 + bits);
  }
  return set + Array.from(wasm, (byte) => code[byte]).join("");
}

/** How many bytes `text` decodes to (what the entry passes the decoder as the wasm's size). */
export function decodedLength(text) {
  let length = 0;
  for (let index = 64; index < text.length; index++, length++) if (ALPHABET.indexOf(text[index]) >= SINGLES) index++;
  return length;
}

/** Decodes `text` with the decoder module as the entry does; throws unless it gives back `wasm`. */
export function checkWasmText(decoder, text, wasm) {
  if (WASM_AT + wasm.length + text.length > MEMORY_BYTES) throw new Error(`wasm-text: ${wasm.length} bytes do not fit the decoder's memory`);
  const { m, d } = new WebAssembly.Instance(new WebAssembly.Module(decoder)).exports;
  new TextEncoder().encodeInto(text, new Uint8Array(m.buffer, WASM_AT + wasm.length));
  d(wasm.length);
  const decoded = new Uint8Array(m.buffer, WASM_AT, wasm.length);
  if (!decoded.every((byte, index) => byte === wasm[index])) throw new Error("wasm-text: the decoder does not give back the wasm");
}
