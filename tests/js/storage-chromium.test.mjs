// The storage helpers in headless Chromium (Debian's, through tests/chromium.mjs), against the
// browser's own sessionStorage: a round trip with stop applied, a question that survives a
// reload (v3), what cannot be read, a full storage (a real QuotaExceededError), restore/persist,
// and a sessionStorage that throws on access as privacy settings and sandboxed frames make it.
// The IndexedDB store (chat-session-reducer/indexeddb) against the browser's IndexedDB: a
// conversation beyond sessionStorage's 5 MiB across a reload, and the origin's quota exhausted
// mid-reply (set through the DevTools protocol): refused with code quota, nothing lost, retried.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";

import { launchChromium } from "../chromium.mjs";

const ORIGIN = "http://storage.test";
const packageModule = readFileSync(new URL("../../pkg/index.js", import.meta.url), "utf8");
let browser;
let page;

before(async () => {
  browser = await launchChromium();
  await browser.context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/index.js") return route.fulfill({ contentType: "text/javascript", body: packageModule });
    return route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><script type="module">import * as pkg from "/index.js"; window.pkg = pkg; window.ready = true;</script>`,
    });
  });
  page = await browser.context.newPage();
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => window.ready === true);
});

after(() => browser?.close());

// Runs `body` in the page with the package's exports as `pkg`; returns what it returns.
const inPage = (body, arg) => page.evaluate(({ source, arg }) => new Function("pkg", "arg", source)(window.pkg, arg), { source: body, arg });

const NESTED = `
  const part = (part, within) => (within === undefined ? { type: "part", part } : { type: "part", part, within });
  const nested = () => [
    { type: "send", id: "u1", text: "Plan my trip" },
    part({ type: "text-delta", text: "Asking the planner." }),
    part({ type: "tool-call", id: "d1", name: "delegate_to_planner", input: { city: "Lyon" } }),
    part({ type: "tool-call", id: "n1", name: "book", input: {} }, "d1"),
    { type: "toolPhase", name: "book", state: "awaiting-confirmation", prompt: "Book it?" },
  ].reduce(pkg.sessionReducer, undefined);
`;
const caught = `const caught = (fn) => { try { fn(); return null; } catch (e) { return { code: e.code, path: e.path, message: e.message, isError: e instanceof Error }; } };`;

test("a saved session loads with stop applied to nested calls; clearSession removes it", async () => {
  const result = await inPage(`${NESTED}
    const state = nested();
    pkg.saveSession("round-trip", state);
    const loaded = pkg.loadSession("round-trip");
    pkg.clearSession("round-trip");
    return { loaded, savedState: state.messages[1].parts[1].state, afterClear: pkg.loadSession("round-trip"), never: pkg.loadSession("never-saved") };
  `);
  const delegate = result.loaded.messages[1].parts[1];
  assert.equal(result.loaded.status, "idle");
  assert.equal(delegate.state, "cancelled");
  assert.equal(delegate.agent.status, "idle");
  assert.equal(delegate.agent.messages[0].parts[0].state, "cancelled");
  assert.equal(delegate.agent.messages[0].parts[0].prompt, "Book it?");
  assert.deepEqual(delegate.input, { city: "Lyon" });
  assert.equal(result.savedState, "running");
  assert.equal(result.afterClear, null);
  assert.equal(result.never, null);
});

test("unreadable entries are coded errors, with a path when corrupt, and stay stored", async () => {
  const results = await inPage(`${caught}
    return arg.map((stored) => {
      sessionStorage.setItem("k", stored);
      return { error: caught(() => pkg.loadSession("k")), kept: sessionStorage.getItem("k") === stored };
    });
  `, [
    "{ not json",
    JSON.stringify({ theme: "dark" }),
    JSON.stringify({ format: "chat-session-reducer", version: 1, state: { messages: [{ id: 1 }], status: "idle" } }),
    JSON.stringify({ format: "chat-session-reducer", version: 4, state: {} }),
  ]);
  assert.deepEqual(results.map(({ error }) => [error.code, error.path, error.isError]), [
    ["corrupt", "stored", true],
    ["corrupt", "stored.format", true],
    ["corrupt", "stored.state.messages[0].id", true],
    ["version", undefined, true],
  ]);
  assert.match(results[0].error.message, /not JSON/);
  assert.ok(results.every(({ kept }) => kept), "a read never destroys what is stored");
});

test("a question asked after the run survives a real reload, open and answerable (SPEC v3)", async () => {
  await inPage(`
    const part = (part) => ({ type: "part", part });
    const asked = [
      { type: "send", id: "u1", text: "Clean up" },
      part({ type: "tool-call", id: "c1", name: "delete", input: {} }),
      part({ type: "tool-approval-request", id: "c1", prompt: "Delete?" }),
      part({ type: "finish", reason: "tool-calls" }),
    ].reduce(pkg.sessionReducer, undefined);
    pkg.saveSession("asked", asked);
  `);
  await page.reload();
  await page.waitForFunction(() => window.ready === true);
  const result = await inPage(`
    const loaded = pkg.loadSession("asked");
    pkg.clearSession("asked");
    const approved = pkg.sessionReducer(loaded, { type: "part", part: { type: "tool-approval-response", id: "c1", approved: true } });
    return { loaded: loaded.messages[1].parts[0], status: loaded.status, approved: approved.messages[1].parts[0].state };
  `);
  assert.equal(result.status, "idle");
  assert.deepEqual([result.loaded.state, result.loaded.prompt], ["awaiting-confirmation", "Delete?"]);
  assert.equal(result.approved, "running");
});

test("a full storage refuses the save with code quota and keeps everything", async () => {
  const result = await inPage(`${NESTED}${caught}
    sessionStorage.clear();
    pkg.saveSession("earlier", nested());
    const chunk = "x".repeat(512 * 1024);
    for (let filled = 0; ; filled++) {
      try { sessionStorage.setItem("filler-" + filled, chunk); } catch { break; }
    }
    const big = pkg.sessionReducer(undefined, { type: "send", id: "u", text: "y".repeat(1024 * 1024) });
    const before = JSON.stringify(big);
    const error = caught(() => pkg.saveSession("big", big));
    const quiet = pkg.persistSession("big", big);
    const result = {
      error, quiet: quiet?.code, unchanged: JSON.stringify(big) === before,
      earlier: pkg.loadSession("earlier").messages[0].parts[0].text, big: pkg.loadSession("big"),
    };
    sessionStorage.clear();
    return result;
  `);
  assert.equal(result.error.code, "quota", result.error.message);
  assert.equal(result.quiet, "quota");
  assert.ok(result.unchanged, "the state in memory is unchanged");
  assert.equal(result.earlier, "Plan my trip");
  assert.equal(result.big, null);
});

test("restoreSession then persistSession does not overwrite what could not be read", async () => {
  const result = await inPage(`
    sessionStorage.setItem("unreadable", "{ not json");
    const warnings = [];
    const warn = console.warn;
    console.warn = (...values) => warnings.push(values[1]?.code);
    const restored = pkg.restoreSession("unreadable");
    const again = pkg.restoreSession("unreadable");
    console.warn = warn;
    const skipped = pkg.persistSession("unreadable", restored);
    const kept = sessionStorage.getItem("unreadable");
    const changed = pkg.sessionReducer(restored, { type: "send", id: "u", text: "new start" });
    const saved = pkg.persistSession("unreadable", changed);
    return { restored, same: again === restored, warnings, skipped, kept, saved, loaded: pkg.loadSession("unreadable").messages[0].parts[0].text };
  `);
  assert.deepEqual(result.restored, { messages: [], status: "idle" });
  assert.ok(result.same);
  assert.deepEqual(result.warnings, ["corrupt"]);
  assert.equal(result.skipped, undefined);
  assert.equal(result.kept, "{ not json");
  assert.equal(result.saved, undefined);
  assert.equal(result.loaded, "new start");
});

test("a sessionStorage that throws on access is unavailable, and restoreSession starts anew", async () => {
  const result = await inPage(`${NESTED}${caught}
    const original = Object.getOwnPropertyDescriptor(window, "sessionStorage");
    Object.defineProperty(window, "sessionStorage", { configurable: true, get() { throw new DOMException("blocked", "SecurityError"); } });
    const state = nested();
    const warn = console.warn;
    console.warn = () => {};
    let errors, restored;
    try {
      errors = [caught(() => pkg.saveSession("blocked", state)), caught(() => pkg.loadSession("blocked")), caught(() => pkg.clearSession("blocked"))];
      restored = pkg.restoreSession("blocked");
    } finally {
      console.warn = warn;
      if (original) Object.defineProperty(window, "sessionStorage", original);
      else delete window.sessionStorage;
    }
    return { errors, restored };
  `);
  for (const error of result.errors) {
    assert.equal(error.code, "unavailable");
    assert.match(error.message, /SecurityError/);
  }
  assert.equal(result.restored.status, "idle");
});

// The IndexedDB store, in a page of an origin of its own so that its quota can be set: localhost,
// a secure context (Chromium applies an origin's quota override there, when set before the origin
// first uses its storage; the requests never leave the browser, routed as the others are).
const IDB_ORIGIN = "http://localhost:4917";
const QUOTA_ORIGIN = "http://localhost:4918";
const indexedDBModule = () => readFileSync(new URL("../../pkg/indexeddb/index.js", import.meta.url), "utf8");

async function indexedDBPage(origin = IDB_ORIGIN) {
  await browser.context.route(`${origin}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/index.js") return route.fulfill({ contentType: "text/javascript", body: packageModule });
    if (path === "/indexeddb/index.js") return route.fulfill({ contentType: "text/javascript", body: indexedDBModule() });
    return route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><script type="module">import * as pkg from "/index.js"; import { indexedDBStore } from "/indexeddb/index.js";
        window.pkg = { ...pkg, indexedDBStore }; window.ready = true;</script>`,
    });
  });
  const idbPage = await browser.context.newPage();
  await idbPage.goto(`${origin}/`);
  await idbPage.waitForFunction(() => window.ready === true);
  const run = (body, arg) => idbPage.evaluate(({ source, arg }) => new Function("pkg", "arg", `return (async () => { ${source} })()`)(window.pkg, arg), { source: body, arg });
  return { idbPage, run };
}

const CONVERSATION = `
  const part = (part) => ({ type: "part", part });
  const conversation = (turns, size) => {
    const actions = [];
    for (let turn = 0; turn < turns; turn++) {
      actions.push({ type: "send", id: "u" + turn, text: "question " + turn }, part({ type: "text-delta", text: "a".repeat(size) }), part({ type: "finish" }));
    }
    actions.push({ type: "send", id: "last", text: "one more" }, part({ type: "text-delta", text: "Stream" }));
    return actions.reduce(pkg.sessionReducer, undefined);
  };
`;

test("IndexedDB: a 6 MB conversation (beyond sessionStorage) is saved as it streams and survives a reload, stop applied", async () => {
  const { idbPage, run } = await indexedDBPage();
  const saved = await run(`${CONVERSATION}
    const store = pkg.indexedDBStore();
    let state = conversation(60, 100_000);
    await pkg.saveSession("big", state, store, { id: "chat-big" });
    for (const text of [" and", " on"]) {
      state = pkg.sessionReducer(state, part({ type: "text-delta", text }));
      await pkg.saveSession("big", state, store, { id: "chat-big" });
    }
    return { size: JSON.stringify(state).length, messages: state.messages.length };
  `);
  assert.ok(saved.size > 6_000_000, `${saved.size} characters`);
  await idbPage.reload();
  await idbPage.waitForFunction(() => window.ready === true);
  const result = await run(`
    const entry = await pkg.loadSessionEntry("big", pkg.indexedDBStore());
    await pkg.clearSession("big", pkg.indexedDBStore());
    return { id: entry.id, rev: entry.rev, status: entry.state.status, count: entry.state.messages.length, last: entry.state.messages.at(-1).parts[0].text,
      cleared: await pkg.loadSession("big", pkg.indexedDBStore()) };
  `);
  assert.deepEqual(result, { id: "chat-big", rev: 3, status: "idle", count: saved.messages, last: "Stream and on", cleared: null });
  await idbPage.close();
});

test("IndexedDB: an origin quota exhausted mid-reply rejects with code quota, keeps what was stored, and the retry lands", async () => {
  const { idbPage, run } = await indexedDBPage(QUOTA_ORIGIN);
  const cdp = await browser.context.newCDPSession(idbPage);
  // A real quota, the browser's: the origin may hold about 1 MB.
  await cdp.send("Storage.overrideQuotaForOrigin", { origin: QUOTA_ORIGIN, quotaSize: 1_000_000 });
  const result = await run(`${CONVERSATION}
    const store = pkg.indexedDBStore();
    let state = conversation(2, 1_000);
    await pkg.saveSession("chat", state, store);
    return { rev: (await pkg.loadSessionEntry("chat", store)).rev };
  `);
  assert.equal(result.rev, 1);
  const full = await run(`${CONVERSATION}
    window.store = pkg.indexedDBStore();
    window.state = await pkg.loadSession("chat", window.store);
    const before = JSON.stringify(window.state);
    // Random text: Chromium compresses what it stores in IndexedDB, and a repeated letter would fit.
    let seed = 1;
    const random = Array.from({ length: 4_000_000 }, () => String.fromCharCode(33 + ((seed = (seed * 48271) % 2147483647) % 90))).join("");
    window.state = pkg.sessionReducer(pkg.sessionReducer(window.state, { type: "send", id: "u9", text: "next" }), part({ type: "text-delta", text: random }));
    const failure = await pkg.persistSession("chat", window.state, window.store);
    const kept = await pkg.loadSessionEntry("chat", pkg.indexedDBStore());
    return { code: failure?.code, message: failure?.message, kept: kept.rev, inMemory: window.state.messages.at(-1).parts[0].text.length, intact: JSON.stringify(kept.state) === before };
  `);
  assert.equal(full.code, "quota", full.message);
  assert.equal(full.kept, 1, "the refused transaction wrote nothing");
  assert.ok(full.intact, "what was stored is as it was");
  assert.equal(full.inMemory, 4_000_000, "the conversation in memory is intact");
  await cdp.send("Storage.overrideQuotaForOrigin", { origin: QUOTA_ORIGIN });
  const retried = await run(`
    const failure = await pkg.persistSession("chat", window.state, window.store);
    const entry = await pkg.loadSessionEntry("chat", pkg.indexedDBStore());
    return { failure: failure?.code ?? null, rev: entry.rev, last: entry.state.messages.at(-1).parts[0].text.length };
  `);
  assert.deepEqual(retried, { failure: null, rev: 2, last: 4_000_000 });
  await cdp.detach();
  await idbPage.close();
});
