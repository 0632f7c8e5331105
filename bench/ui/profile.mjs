// Where a delta's JavaScript goes on one page: `node bench/ui/profile.mjs IMPL SIZE [DELTAS]`
// (IMPL a page of bench/ui/pages/, e.g. ours-assistant-ui) runs the page's deltas under the CDP
// sampling profiler, unminified, and prints the functions with the most self time, with their
// source file. What bench:ui's figures do not say: why one grows with the thread.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

import { launchChromium } from "../../tests/chromium.mjs";
import { serve } from "./run.mjs";
import { IMPLEMENTATIONS } from "./implementations.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const [name = "ours-react", size = "1000", count = "20"] = process.argv.slice(2);
const impl = IMPLEMENTATIONS.find((entry) => entry.name === name) ?? { page: name, ext: "jsx" };

const bundled = await build({
  entryPoints: [`${ROOT}bench/ui/pages/${impl.page}.${impl.ext}`],
  bundle: true, format: "esm", write: false, jsx: "automatic", logLevel: "error", sourcemap: false,
  alias: { "chat-session-reducer": `${ROOT}pkg` },
  define: { "process.env.NODE_ENV": '"production"', __VUE_OPTIONS_API__: "false", __VUE_PROD_DEVTOOLS__: "false", __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false" },
});
// The bundle's module comments ("// node_modules/x/y.js") say which file a line is from.
const lines = bundled.outputFiles[0].text.split("\n");
const moduleAt = [];
let current = "?";
for (const line of lines) {
  const found = /^\/\/ ((?:node_modules|pkg|bench)\/\S+)$/.exec(line);
  if (found) current = found[1].replace(/^node_modules\//, "");
  moduleAt.push(current);
}
const browser = await launchChromium({ viewport: { width: 1000, height: 800 } });
try {
  await serve(browser.context, new Map([[impl.page, bundled.outputFiles[0].text]]));
  const page = await browser.context.newPage();
  const cdp = await browser.context.newCDPSession(page);
  await page.goto(`http://localhost:4921/?impl=${impl.page}&n=${size}`);
  await page.waitForFunction(() => window.bench !== undefined);
  await page.evaluate(() => window.bench.ready());
  await page.evaluate(() => window.bench.begin());
  await page.evaluate(() => window.bench.deltas(5));
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  await page.evaluate((n) => window.bench.deltas(n), Number(count));
  const { profile } = await cdp.send("Profiler.stop");
  const self = new Map();
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  for (const node of profile.nodes) {
    const us = dt.get(node.id) ?? 0;
    const { functionName, lineNumber } = node.callFrame;
    if (["(idle)", "(program)"].includes(functionName)) continue;
    total += us;
    const key = `${functionName || "(anonymous)"}  ${lineNumber < 0 ? "" : moduleAt[lineNumber] ?? "?"}`;
    self.set(key, (self.get(key) ?? 0) + us);
  }
  console.log(`${name}, ${size} messages, ${count} deltas: ${(total / 1000 / Number(count)).toFixed(2)} ms of JavaScript a delta; most self time:`);
  const byPackage = new Map();
  for (const [key, us] of self) {
    const file = key.split("  ")[1] ?? "";
    const owner = file === "" ? "(native: GC, the browser's APIs)" : file.startsWith("@") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0];
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + us);
  }
  console.log("by package: " + [...byPackage].sort((a, b) => b[1] - a[1]).map(([owner, us]) => `${owner} ${(us / 1000 / Number(count)).toFixed(2)} ms`).join(", "));
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(us / 1000 / Number(count)).toFixed(3).padStart(8)} ms  ${key}`);
} finally {
  await browser.close();
}
