// `npm run bench:storage` (after `npm run build`; `npm run bench` runs it too): what one save
// costs while a reply streams into a 4 MB conversation, in headless Chromium against its own
// sessionStorage and IndexedDB. saveSession into sessionStorage writes the whole envelope, one text
// (as every save did before the IndexedDB store): the browser's setItem copies all of it. The
// IndexedDB store (chat-session-reducer/indexeddb) writes the changed message's record and the
// meta record in one transaction, timed until it commits. Each save follows one more delta of the
// reply, as the hook saves every 500 ms while streaming. It prints figures; it asserts nothing.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { launchChromium } from "../tests/chromium.mjs";

const PKG_DIR = fileURLToPath(new URL("../pkg/", import.meta.url));
const SAVES = Number(process.env.BENCH_RUNS ?? 11) * 3;
const ORIGIN = "http://localhost:4919";
const SHAPES = [{ turns: 1_000, size: 4_000 }, { turns: 100, size: 40_000 }, { turns: 100, size: 400 }];

if (!existsSync(`${PKG_DIR}indexeddb/index.js`)) {
  console.error(`${PKG_DIR}indexeddb/index.js is missing: run npm run build first.`);
  process.exit(1);
}

const widths = [34, 22, 22];
const row = (cells) => cells.map((cell, i) => String(cell).padEnd(widths[i])).join("  ").trimEnd();
const ms = (value) => (value === undefined ? "-" : `${value.toFixed(2)} ms`);
const printed = (result) =>
  console.log(row([`${(result.bytes / 1e6).toFixed(2)} MB, ${result.messages} messages`, ms(result.webStorage), ms(result.indexedDB)]));

// In the page: a conversation of `turns` turns of `size` characters each, then a reply streaming;
// the median milliseconds of `saves` saves of each kind.
async function measure({ turns, size, saves }) {
  const part = (part) => ({ type: "part", part });
  const { pkg, indexedDBStore } = window;
  const actions = [];
  for (let turn = 0; turn < turns; turn++) {
    actions.push({ type: "send", id: `u${turn}`, text: `question ${turn}` }, part({ type: "text-delta", text: "a".repeat(size) }), part({ type: "finish" }));
  }
  actions.push({ type: "send", id: "last", text: "one more" }, part({ type: "text-delta", text: "Stream" }));
  let state = actions.reduce(pkg.sessionReducer, undefined);
  const bytes = JSON.stringify(state).length;
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const streamed = () => (state = pkg.sessionReducer(state, part({ type: "text-delta", text: " word" })));

  const times = { webStorage: [], indexedDB: [] };
  sessionStorage.clear();
  pkg.saveSession("chat", state, sessionStorage);
  for (let save = 0; save < saves; save++) {
    streamed();
    const start = performance.now();
    pkg.saveSession("chat", state, sessionStorage);
    times.webStorage.push(performance.now() - start);
  }
  sessionStorage.clear();
  const store = indexedDBStore();
  await pkg.saveSession("chat", state, store);
  for (let save = 0; save < saves; save++) {
    streamed();
    const start = performance.now();
    await pkg.saveSession("chat", state, store);
    times.indexedDB.push(performance.now() - start);
  }
  await pkg.clearSession("chat", store);
  return { bytes, messages: state.messages.length, webStorage: median(times.webStorage), indexedDB: median(times.indexedDB) };
}

// Loads the package into a page of its own origin and prints a row per conversation shape.
async function report(browser) {
  const read = (file) => readFileSync(`${PKG_DIR}${file}`, "utf8");
  await browser.context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/index.js") return route.fulfill({ contentType: "text/javascript", body: read("index.js") });
    if (path === "/indexeddb/index.js") return route.fulfill({ contentType: "text/javascript", body: read("indexeddb/index.js") });
    return route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><script type="module">import * as pkg from "/index.js"; import { indexedDBStore } from "/indexeddb/index.js";
        Object.assign(window, { pkg, indexedDBStore, ready: true });</script>`,
    });
  });
  const page = await browser.context.newPage();
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => window.ready === true);
  const version = await page.evaluate(() => navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]);
  console.log(`storage: one save while a reply streams, median of ${SAVES} saves, Chromium ${version}:`);
  console.log(row(["conversation", "sessionStorage (whole)", "IndexedDB (changed)"]));
  for (const shape of SHAPES) printed(await page.evaluate(measure, { ...shape, saves: SAVES }));
}

let browser;
try {
  browser = await launchChromium();
} catch (error) {
  console.log(`storage: not measured, ${error.message}`);
}
if (browser) {
  try {
    await report(browser);
  } finally {
    await browser.close();
  }
}
