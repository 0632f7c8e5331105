// What the README says a strict Content-Security-Policy needs: compiling the inlined wasm is
// allowed by 'wasm-unsafe-eval' in script-src (no 'unsafe-eval'), and refused without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consumerProject } from "./project.mjs";
import { runAppInChromium } from "./browser.mjs";

// A page whose only script is a module importing the installed package, served with `policy`.
async function runUnderPolicy(policy) {
  const dir = mkdtempSync(join(tmpdir(), "chat-session-reducer-csp-"));
  try {
    copyFileSync(join(consumerProject(), "node_modules", "chat-session-reducer", "index.js"), join(dir, "chat-session-reducer.js"));
    writeFileSync(join(dir, "app.js"), `import { sessionReducer } from "./chat-session-reducer.js";
globalThis.consumerResult = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u-1", text: "Hi" }).status;
`);
    writeFileSync(join(dir, "index.html"), `<!doctype html><meta charset="utf-8"><script type="module" src="./app.js"></script>`);
    return await runAppInChromium(dir, { headers: { "content-security-policy": policy } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("under script-src 'self' 'wasm-unsafe-eval' the package loads and reduces", async () => {
  const { result, errors } = await runUnderPolicy("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'");
  assert.deepEqual(errors, []);
  assert.equal(result, "streaming");
});

test("under script-src 'self' alone the browser refuses to compile the wasm", async () => {
  const { result, errors } = await runUnderPolicy("default-src 'none'; script-src 'self'");
  assert.equal(result, undefined);
  assert.ok(errors.some((error) => /WebAssembly|wasm-unsafe-eval/.test(error)), errors.join("\n"));
});
