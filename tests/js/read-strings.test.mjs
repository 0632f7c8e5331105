// The reader's strings (src/wasm/read.js): ids, names and prompts reach the module exactly, lone
// surrogates escaped, whether the runtime has String.prototype.isWellFormed (ES2024) or not
// (Safari before 16.4, Firefox before 119), where the reader checks with encodeURIComponent.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as withNative from "../../src/wasm/read.js";

const native = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
delete String.prototype.isWellFormed;
const withoutNative = await import("../../src/wasm/read.js?without-isWellFormed");
Object.defineProperty(String.prototype, "isWellFormed", native);

const IDS = ["plain", "\uD800", "\uDC00", "x\uD800y", "\uFFFD", "\uFFFFd800", "\uFFFF", "a\uD83D\uDE00", "a\uD83D", "\uD800\uFFFD", "é"];
const UTF8 = new TextDecoder();

function encoded(reader, id) {
  const codes = [...reader.readAction({ type: "part", part: { type: "tool-result", id, output: 1 } }, true)];
  return { codes, strings: UTF8.decode(reader.readStrings()) };
}

test("both ways of checking a string give the same encoding", () => {
  for (const id of IDS) assert.deepEqual(encoded(withoutNative, id), encoded(withNative, id), JSON.stringify(id));
});

test("well-formed ids pass as they are; others and those starting with U+FFFF are escaped, each distinctly", () => {
  const forms = IDS.map((id) => encoded(withNative, id).strings);
  assert.equal(new Set(forms).size, IDS.length);
  IDS.forEach((id, index) => {
    const kept = id.isWellFormed() && !id.startsWith("\uFFFF");
    assert.equal(forms[index] === id, kept, JSON.stringify(id));
    if (!kept) assert.match(forms[index], /^\uFFFF([0-9a-f]{4})+$/);
  });
});
