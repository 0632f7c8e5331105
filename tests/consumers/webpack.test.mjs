// A webpack 5 production build of app/main.js with no wasm configuration (no experiments, no
// loaders), run in headless Chromium. Production mode matters: it applies `sideEffects` and
// tree shaking, which must not drop the import-time instantiation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readdirSync, writeFileSync } from "node:fs";
import webpack from "webpack";
import { consumerProject } from "./project.mjs";
import { runAppInChromium } from "./browser.mjs";
import { assertAppObservedSeed } from "./expectations.mjs";

function compile(config) {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error) reject(error);
      else if (stats.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
      else resolve(stats);
    });
  });
}

test("a webpack 5 build with no wasm config runs the reducer in the browser without an init call", async () => {
  const project = consumerProject();
  const outDir = join(project, "dist-webpack");
  await compile({
    mode: "production",
    context: project,
    entry: "./app/main.js",
    output: { path: outDir, filename: "main.js", clean: true },
    // The inlined wasm makes the bundle larger than webpack's default 244 KiB hint.
    performance: { hints: false },
  });

  assert.deepEqual(readdirSync(outDir).filter((name) => name.endsWith(".wasm")), [], "the wasm must stay inline");
  writeFileSync(join(outDir, "index.html"), '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><pre id="result"></pre><script src="main.js"></script>\n');

  const { result, errors } = await runAppInChromium(outDir);
  assert.deepEqual(errors, []);
  assertAppObservedSeed(result);
});
