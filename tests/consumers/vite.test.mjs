// A Vite 7 production build of app/ with no plugins and no config, run in headless Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readdirSync } from "node:fs";
import { build } from "vite";
import { consumerProject } from "./project.mjs";
import { runAppInChromium } from "./browser.mjs";
import { assertAppObservedSeed } from "./expectations.mjs";

test("a Vite build with no wasm plugin runs the reducer in the browser without an init call", async () => {
  const appDir = join(consumerProject(), "app");
  const outDir = join(consumerProject(), "dist-vite");
  await build({ root: appDir, configFile: false, logLevel: "warn", build: { outDir, emptyOutDir: true } });

  const assets = readdirSync(join(outDir, "assets"));
  assert.deepEqual(assets.filter((name) => name.endsWith(".wasm")), [], "the wasm must stay inline, not be emitted");

  const { result, errors } = await runAppInChromium(outDir);
  assert.deepEqual(errors, []);
  assertAppObservedSeed(result);
});
