// The package decodes its inlined wasm with WebAssembly and TextEncoder alone (src/main/index.js),
// as every browser has them: proved here in a Node process without Node's Buffer or
// Uint8Array.fromHex, which only some browsers have.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const entry = pathToFileURL(fileURLToPath(new URL("../../pkg/index.js", import.meta.url))).href;

test("without Buffer or Uint8Array.fromHex the package still instantiates and reduces", () => {
  const script = `
    delete globalThis.Buffer;
    delete Uint8Array.fromHex;
    const { sessionReducer } = await import(${JSON.stringify(entry)});
    const state = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "hi" });
    console.log(JSON.stringify({ buffer: typeof Buffer, state }));`;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  const { buffer, state } = JSON.parse(output);
  assert.equal(buffer, "undefined", "the process really had no Buffer");
  assert.deepEqual(state, {
    messages: [{ id: "u-1", role: "user", parts: [{ type: "text", text: "hi" }] }],
    status: "streaming",
  });
});
