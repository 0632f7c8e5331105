// useAgentSession's `resume: true`, driven in Node (jsdom, React 19) through the packed package's
// chat-session-reducer/testing endpoint: connections dropped and pages reloaded at random chunk
// boundaries (seeded), for each protocol that can resume. Every run must end with the very
// conversation an uninterrupted run gives: nothing lost, nothing doubled, nothing in another turn.
//
//   node --test tests/react/resume.test.mjs            (after `npm run build`)
//   RESUME_RUNS=1000 RESUME_SEED=7 node --test tests/react/resume.test.mjs
import assert from "node:assert/strict";
import { test } from "node:test";
import { JSDOM } from "jsdom";
import { createRandom } from "../fuzz/generate.mjs";
import { ASKED, CONTINUED } from "./approval.mjs";
import { sleep, untilUnder } from "./waiting.mjs";

const dom = new JSDOM("<!doctype html><html><body></body></html>", { url: "http://localhost/" });
Object.assign(globalThis, { window: dom.window, document: dom.window.document, navigator: dom.window.navigator, IS_REACT_ACT_ENVIRONMENT: true });

const { StrictMode, act, createElement } = await import("react");
const { createRoot } = await import("react-dom/client");
const { useAgentSession } = await import("../../pkg/react/index.js");
const { drop, mockEndpoint, wait } = await import("../../pkg/testing/index.js");
const { loadSession } = await import("../../pkg/index.js");

const RUNS = Number(process.env.RESUME_RUNS ?? 50);
const SEED = Number(process.env.RESUME_SEED ?? 1);
const API = "http://localhost/api/chat";

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

// What the agent streams for one turn, in each protocol: text, reasoning, a call whose input
// streams, its result, a second step. AG-UI's response carries two runs (the agent goes on after
// its tool), so it also tests a response of several runs.
const SCRIPTS = {
  "ai-sdk": [
    { type: "start", messageId: "a1" },
    { type: "start-step" },
    { type: "reasoning-start", id: "r" },
    { type: "reasoning-delta", id: "r", delta: "Plan: search, then answer." },
    { type: "reasoning-end", id: "r" },
    { type: "text-start", id: "t1" },
    ...["Let ", "me ", "look ", "it ", "up."].map((delta) => ({ type: "text-delta", id: "t1", delta })),
    { type: "text-end", id: "t1" },
    { type: "tool-input-start", toolCallId: "c1", toolName: "search" },
    ...['{"q"', ':"ru', 'st"}'].map((inputTextDelta) => ({ type: "tool-input-delta", toolCallId: "c1", inputTextDelta })),
    { type: "tool-input-available", toolCallId: "c1", toolName: "search", input: { q: "rust" } },
    { type: "tool-output-available", toolCallId: "c1", output: { hits: 3 } },
    { type: "finish-step" },
    { type: "start-step" },
    { type: "text-start", id: "t2" },
    ...["Found ", "3 ", "sources."].map((delta) => ({ type: "text-delta", id: "t2", delta })),
    { type: "text-end", id: "t2" },
    { type: "finish-step" },
    { type: "finish", finishReason: "stop" },
  ],
  "ag-ui": [
    { type: "RUN_STARTED", threadId: "t", runId: "run1" },
    { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "r1", delta: "Plan: search, then answer." },
    { type: "REASONING_MESSAGE_END", messageId: "r1" },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
    ...["Let ", "me ", "look ", "it ", "up."].map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta })),
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search", parentMessageId: "m1" },
    ...['{"q"', ':"ru', 'st"}'].map((delta) => ({ type: "TOOL_CALL_ARGS", toolCallId: "c1", delta })),
    { type: "TOOL_CALL_END", toolCallId: "c1" },
    { type: "TOOL_CALL_RESULT", messageId: "tm1", toolCallId: "c1", content: "3 hits", role: "tool" },
    { type: "RUN_FINISHED", threadId: "t", runId: "run1" },
    { type: "RUN_STARTED", threadId: "t", runId: "run2" },
    { type: "TEXT_MESSAGE_START", messageId: "m2", role: "assistant" },
    ...["Found ", "3 ", "sources."].map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m2", delta })),
    { type: "TEXT_MESSAGE_END", messageId: "m2" },
    { type: "RUN_FINISHED", threadId: "t", runId: "run2" },
  ],
};

/**
 * A resumable agent: each run's stream is produced at once and kept; the POST and every
 * reconnect serve it from its first chunk, up to where `cut()` says the connection goes (a drop,
 * or a stall that a reload ends), or to its end. Once a connection has served the end, the run
 * is over and a reconnect gets 204, as from an AI SDK server after `onEnd`.
 */
function resumableAgent(protocol, script, cut) {
  let active = false;
  const reply = (request) => {
    const url = new URL(request.url);
    const reconnecting = request.method === "GET" || url.pathname.endsWith("/connect");
    if (reconnecting && !active) return { status: 204 };
    active = true;
    const { at, how } = cut();
    if (at >= script.length) {
      active = false;
      return script;
    }
    return [...script.slice(0, at), how === "drop" ? drop() : wait(60_000)];
  };
  return mockEndpoint(protocol, reply);
}

async function mount(options) {
  const result = {};
  function Probe() {
    result.session = useAgentSession(options);
    return null;
  }
  const root = createRoot(document.createElement("div"));
  // Strict Mode, as apps run in development: effects run twice, a resume must still be one.
  await act(async () => root.render(createElement(StrictMode, null, createElement(Probe))));
  result.unmount = () => act(async () => root.unmount());
  return result;
}

const until = untilUnder(act);

// The user message's id is the hook's own (random): everything else must be exactly equal.
const comparable = (state) => ({ ...state, messages: state.messages.map((message, index) => (index === 0 ? { ...message, id: "user" } : message)) });

/**
 * One turn, interrupted as `plan` says: each entry a connection that ends after `at` chunks,
 * by a drop (the hook reconnects) or a reload (the page unmounts and mounts again on the same
 * storage, which resumes). The last connection serves the whole stream.
 */
async function turn(protocol, plan, script = SCRIPTS[protocol], storage = memoryStorage()) {
  const cuts = [...plan, { at: Infinity }];
  const endpoint = resumableAgent(protocol, script, () => cuts.shift());
  globalThis.fetch = endpoint.fetch;
  const options = { api: `${API}/${protocol}`, protocol, resume: true, storageKey: "chat", storage, throttle: 0 };
  let page = await mount(options);
  await act(async () => page.session.send("Go"));
  for (const [index, { at, how }] of plan.entries()) {
    if (how !== "reload") continue;
    // Connection `index` is the one this reload cuts (each connection takes the next cut).
    await until(() => endpoint.requests.length > index || page.session.state.status !== "streaming", "the request the reload cuts");
    // Whatever the page had applied when it went is what it stored.
    await act(() => sleep(at % 3));
    await page.unmount();
    page = await mount(options);
  }
  // The session's own status: the hook's says "submitted" until the reply begins.
  await until(() => page.session.state.status !== "streaming", "the end of the reply");
  const { state } = page.session;
  await page.unmount();
  return { state, requests: endpoint.requests.length, stored: loadSession("chat", options.storage) };
}

for (const protocol of Object.keys(SCRIPTS)) {
  test(`resume (${protocol}): ${RUNS} runs with connections dropped and pages reloaded at random chunk boundaries end as an uninterrupted run (seed ${SEED})`, async () => {
    const { state: uninterrupted } = await turn(protocol, []);
    assert.equal(uninterrupted.status, "idle");
    assert.equal(uninterrupted.error, undefined);
    const expected = comparable(uninterrupted);
    // Seeded (the fuzz's generator), so a failing run can be replayed from its seed.
    const random = createRandom(SEED);
    const length = SCRIPTS[protocol].length;
    const figures = { runs: 0, drops: 0, reloads: 0, requests: 0, failures: [] };
    for (let run = 0; run < RUNS; run += 1) {
      const plan = Array.from({ length: 1 + random.below(3) }, () => ({ at: random.below(length + 1), how: random.chance(0.5) ? "drop" : "reload" }));
      const { state, requests } = await turn(protocol, plan).catch((error) => {
        throw new Error(`run ${run} (${plan.map(({ at, how }) => `${how}@${at}`).join(" ")}): ${error.message}`);
      });
      figures.runs += 1;
      figures.requests += requests;
      for (const { how } of plan) figures[how === "drop" ? "drops" : "reloads"] += 1;
      try {
        assert.deepEqual(comparable(state), expected);
      } catch (error) {
        figures.failures.push({ run, plan: plan.map(({ at, how }) => `${how}@${at}`).join(" "), error: error.message.split("\n").slice(0, 12).join("\n") });
      }
    }
    console.log(`resume (${protocol}): ${figures.runs} runs, ${figures.drops} drops, ${figures.reloads} reloads, ${figures.requests} requests, ${figures.failures.length} failures`);
    assert.deepEqual(figures.failures, []);
  });
}

test("resume: a reload with no active run (204) stops the reply as without resume", async () => {
  const endpoint = mockEndpoint("ai-sdk", (request) => (request.method === "GET" ? { status: 204 } : [...SCRIPTS["ai-sdk"].slice(0, 8), wait(60_000)]));
  globalThis.fetch = endpoint.fetch;
  const options = { api: `${API}/ai-sdk`, protocol: "ai-sdk", resume: true, storageKey: "chat", storage: memoryStorage(), throttle: 0 };
  let page = await mount(options);
  await act(async () => page.session.send("Go"));
  await until(() => page.session.messages[1]?.parts.some((part) => part.type === "text"), "the reply's text");
  const { id } = page.session;
  assert.equal(endpoint.requests[0].body.id, id);
  await page.unmount();
  page = await mount(options);
  await until(() => endpoint.requests.length === 2 && page.session.status === "idle", "the reconnect and the stop");
  // The conversation's id is kept with it in storage: the reconnect names the run's.
  assert.equal(page.session.id, id);
  assert.deepEqual(endpoint.requests.map((request) => [request.method, new URL(request.url).pathname]), [["POST", "/api/chat/ai-sdk"], ["GET", `/api/chat/ai-sdk/${id}/stream`]]);
  assert.equal(page.session.error, undefined);
  assert.match(page.session.messages[1].parts.filter((part) => part.type === "text").map((part) => part.text).join(""), /^Let me/);
  await page.unmount();
});

test("resume: a drop with no active run left fails as without resume; without `resume`, no reconnect is tried", async () => {
  for (const resume of [true, false]) {
    const endpoint = mockEndpoint("ag-ui", (request) => (new URL(request.url).pathname.endsWith("/connect") ? { status: 204 } : [...SCRIPTS["ag-ui"].slice(0, 6), drop()]));
    globalThis.fetch = endpoint.fetch;
    const page = await mount({ api: `${API}/ag-ui`, protocol: "ag-ui", resume, storageKey: "chat", storage: memoryStorage(), throttle: 0 });
    await act(async () => page.session.send("Go"));
    await until(() => page.session.status === "error", "the error");
    assert.equal(page.session.error.code, "network");
    assert.equal(endpoint.requests.length, resume ? 2 : 1);
    if (resume) assert.equal(endpoint.requests[1].body.threadId, page.session.id, "the connect names the thread");
    await page.unmount();
  }
});

test("resume: Stop tells the server at stopApi, and the run is not resumed after a reload", async () => {
  const endpoint = mockEndpoint("ai-sdk", (request) => (request.url.endsWith("/stop") ? { status: 200, body: {} } : request.method === "GET" ? { status: 204 } : [...SCRIPTS["ai-sdk"].slice(0, 8), wait(60_000)]));
  globalThis.fetch = endpoint.fetch;
  const options = { api: `${API}/ai-sdk`, protocol: "ai-sdk", resume: true, stopApi: `${API}/ai-sdk/stop`, storageKey: "chat", storage: memoryStorage(), throttle: 0 };
  let page = await mount(options);
  await act(async () => page.session.send("Go"));
  await until(() => page.session.messages[1]?.parts.some((part) => part.type === "text"), "the reply's text");
  await act(async () => page.session.stop());
  await until(() => endpoint.requests.length === 2, "the stop request");
  assert.deepEqual([endpoint.requests[1].method, endpoint.requests[1].body.id], ["POST", page.session.id]);
  await page.unmount();
  page = await mount(options);
  await act(() => sleep(20));
  assert.equal(endpoint.requests.length, 2, "a stopped conversation is not resumed");
  assert.equal(page.session.status, "idle");
  await page.unmount();
});

test("resume: a drop or a reload in an AI SDK continuation (the reply after an approval goes on in the same message) loses nothing the message held, in the page and in storage", async () => {
  const [asked, continued] = [ASKED, CONTINUED];
  // The continuation is cut after `cutAt` chunks: dropped (the hook reconnects), or left open
  // while the page reloads (the new page resumes from what the old one stored).
  const approvedTurn = async (cutAt, how = "drop") => {
    let posts = 0;
    let active = false;
    const endpoint = mockEndpoint("ai-sdk", (request) => {
      if (request.method === "GET") {
        if (!active) return { status: 204 };
        active = false;
        return continued;
      }
      posts += 1;
      if (posts === 1) return asked;
      active = cutAt < continued.length;
      return active ? [...continued.slice(0, cutAt), how === "drop" ? drop() : wait(60_000)] : continued;
    });
    globalThis.fetch = endpoint.fetch;
    const options = { api: `${API}/ai-sdk`, protocol: "ai-sdk", resume: true, storageKey: "chat", storage: memoryStorage(), throttle: 0 };
    let page = await mount(options);
    await act(async () => page.session.send("Delete the drafts"));
    await until(() => page.session.state.messages[1]?.parts.some((part) => part.state === "awaiting-confirmation"), "the question");
    await act(async () => page.session.approve("c1"));
    if (how === "reload" && active) {
      await until(() => endpoint.requests.length === 2, "the continuation's request");
      await act(() => sleep(cutAt % 3));
      await page.unmount();
      page = await mount(options);
    }
    await until(() => page.session.status === "idle" && endpoint.requests.length >= 2, "the continuation's end");
    const { state } = page.session;
    await page.unmount();
    return { state: comparable(state), stored: comparable(loadSession("chat", options.storage)) };
  };
  const { state: uninterrupted } = await approvedTurn(Infinity);
  assert.deepEqual(uninterrupted.messages[1].parts.map((part) => part.text ?? part.state), ["Delete 3 drafts?", "done", " Done: 3 drafts deleted."]);
  for (let cut = 0; cut < continued.length; cut += 1) {
    for (const how of ["drop", "reload"]) {
      const { state, stored } = await approvedTurn(cut, how);
      assert.deepEqual(state, uninterrupted, `${how} after ${cut} chunks: the page`);
      assert.deepEqual(stored, uninterrupted, `${how} after ${cut} chunks: the storage`);
    }
  }
});

test("without resume, an AG-UI response of two runs shows both in one request; what follows a run's end and starts none is dropped", async () => {
  const twoRuns = SCRIPTS["ag-ui"];
  const oneRun = [
    { type: "RUN_STARTED", threadId: "t", runId: "run3" },
    { type: "TEXT_MESSAGE_START", messageId: "m3", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m3", delta: "Again." },
    { type: "TEXT_MESSAGE_END", messageId: "m3" },
    { type: "RUN_FINISHED", threadId: "t", runId: "run3" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m3", delta: " (late)" },
  ];
  const endpoint = mockEndpoint("ag-ui", [twoRuns, oneRun]);
  globalThis.fetch = endpoint.fetch;
  const page = await mount({ api: `${API}/ag-ui`, protocol: "ag-ui", storageKey: "chat", storage: memoryStorage(), throttle: 0 });
  await act(async () => page.session.send("Go"));
  await until(() => page.session.status === "idle", "the end of both runs");
  assert.deepEqual(page.session.messages.map((message) => message.id).slice(1), ["r1", "m1", "m2"]);
  assert.equal(endpoint.requests.length, 1);
  await act(async () => page.session.send("Again"));
  await until(() => page.session.status === "idle", "the end of the first run");
  assert.equal(endpoint.requests.length, 2);
  assert.equal(page.session.messages.at(-1).parts[0].text, "Again.");
  await page.unmount();
});

// Issue 30 item 7: a connection down for a while, offline, or stalled; a reload after an approval.

const isReconnect = (url, init = {}) => (init.method ?? "GET") === "GET" || new URL(url).pathname.endsWith("/connect");

/** The turn's uninterrupted end, per protocol, for the tests below. */
const uninterruptedOf = async (protocol) => comparable((await turn(protocol, [])).state);

/**
 * A resumable agent whose POST serves `first` (the script cut as the test wants), and whose
 * reconnects serve the whole script; `network(url, init)`, when given, runs before each request
 * and may throw (the network is down) or wait (the test holds a reconnect).
 */
function agentOnNetwork(protocol, first, network) {
  const endpoint = mockEndpoint(protocol, (request) => (isReconnect(request.url, request) ? SCRIPTS[protocol] : first));
  const fetch = async (url, init) => {
    await network?.(url, init);
    return endpoint.fetch(url, init);
  };
  return { endpoint, fetch };
}

test("resume: a connection down for longer than 5 reconnects (8 fail in a row) is reconnected with backoff, the status says reconnecting, and the reply ends as an uninterrupted run", async () => {
  for (const protocol of Object.keys(SCRIPTS)) {
    const expected = await uninterruptedOf(protocol);
    let failing = 8;
    let release;
    const held = new Promise((resolve) => (release = resolve));
    const { endpoint, fetch } = agentOnNetwork(protocol, [...SCRIPTS[protocol].slice(0, 10), drop()], async (url, init) => {
      if (!isReconnect(url, init)) return;
      if (failing > 0) {
        failing -= 1;
        throw new TypeError("Failed to fetch");
      }
      // The reconnect that gets through waits until the test has seen the status.
      await held;
    });
    globalThis.fetch = fetch;
    const page = await mount({ api: `${API}/${protocol}`, protocol, resume: true, storageKey: "chat", storage: memoryStorage(), throttle: 0, reconnect: { delayMs: 1 } });
    await act(async () => page.session.send("Go"));
    await until(() => failing === 0 && page.session.status === "reconnecting", "the status reconnecting after 8 failed reconnects");
    release();
    await until(() => page.session.state.status !== "streaming", "the end of the reply");
    assert.deepEqual(comparable(page.session.state), expected, protocol);
    assert.equal(page.session.status, "idle");
    assert.equal(endpoint.requests.length, 2, "the POST and the reconnect that got through");
    await page.unmount();
  }
});

test("resume: the reconnect gives up once its budget passed without a frame: the drop fails with network", async () => {
  let reconnects = 0;
  const { fetch } = agentOnNetwork("ai-sdk", [...SCRIPTS["ai-sdk"].slice(0, 10), drop()], (url, init) => {
    if (!isReconnect(url, init)) return;
    reconnects += 1;
    throw new TypeError("Failed to fetch");
  });
  globalThis.fetch = fetch;
  const page = await mount({ api: `${API}/ai-sdk`, protocol: "ai-sdk", resume: true, storageKey: "chat", storage: memoryStorage(), throttle: 0, reconnect: { delayMs: 1, budgetMs: 30 } });
  await act(async () => page.session.send("Go"));
  await until(() => page.session.status === "error", "the error");
  assert.equal(page.session.error.code, "network");
  assert.ok(reconnects >= 1, "reconnects were tried");
  assert.match(page.session.messages[1].parts.map((part) => part.text ?? "").join(""), /^Plan/, "what arrived stays");
  await page.unmount();
});

test("resume: while the browser is offline the hook waits for its online event, then reconnects at once", async () => {
  const navigator = globalThis.navigator;
  let online = true;
  Object.defineProperty(navigator, "onLine", { configurable: true, get: () => online });
  try {
    for (const protocol of Object.keys(SCRIPTS)) {
      const expected = await uninterruptedOf(protocol);
      online = true;
      let offlineRequests = 0;
      const { endpoint, fetch } = agentOnNetwork(protocol, [...SCRIPTS[protocol].slice(0, 10), drop()], (url, init) => {
        if (!online) {
          offlineRequests += 1;
          throw new TypeError("Failed to fetch");
        }
        // The network goes as the reply streams.
        if (!isReconnect(url, init)) online = false;
      });
      globalThis.fetch = fetch;
      // A minute's pause after a failed try: only the online event can bring the reply back in time.
      const page = await mount({ api: `${API}/${protocol}`, protocol, resume: true, storageKey: "chat", storage: memoryStorage(), throttle: 0, reconnect: { delayMs: 60_000 } });
      await act(async () => page.session.send("Go"));
      await until(() => page.session.status === "reconnecting", "the status reconnecting while offline");
      await act(() => sleep(20));
      assert.equal(offlineRequests, 0, "nothing is requested while offline");
      assert.equal(page.session.status, "reconnecting");
      online = true;
      await act(async () => window.dispatchEvent(new window.Event("online")));
      await until(() => page.session.state.status !== "streaming", "the end of the reply");
      assert.deepEqual(comparable(page.session.state), expected, protocol);
      assert.equal(endpoint.requests.length, 2);
      await page.unmount();
    }
  } finally {
    delete navigator.onLine;
  }
});

test("resume: a response that stays open and sends nothing is a drop after the stall time, and the reply ends as an uninterrupted run", async () => {
  for (const protocol of Object.keys(SCRIPTS)) {
    const expected = await uninterruptedOf(protocol);
    // The POST stalls after 10 frames (a proxy holding a dropped upstream open).
    const { endpoint, fetch } = agentOnNetwork(protocol, [...SCRIPTS[protocol].slice(0, 10), wait(60_000)]);
    globalThis.fetch = fetch;
    const page = await mount({ api: `${API}/${protocol}`, protocol, resume: true, storageKey: "chat", storage: memoryStorage(), throttle: 0, reconnect: { stallMs: 50 } });
    await act(async () => page.session.send("Go"));
    await until(() => page.session.state.status !== "streaming", "the end of the reply");
    assert.deepEqual(comparable(page.session.state), expected, protocol);
    assert.ok(endpoint.requests.length >= 2, "the stalled response was reconnected");
    await page.unmount();
  }
});

test("resume: a bad reconnect option is a coded error naming it", async () => {
  const { renderToString } = await import("react-dom/server");
  const Probe = () => (useAgentSession({ api: API, protocol: "ai-sdk", resume: true, reconnect: { budgetMs: -1 } }), null);
  assert.throws(() => renderToString(createElement(Probe)), { code: "invalid", path: "options.reconnect.budgetMs" });
});

// The AI SDK script, its `start` without `messageId`: the reply keeps the id the reducer gives it.
const UNKEYED = [{ type: "start" }, ...SCRIPTS["ai-sdk"].slice(1)];

test("resume (ai-sdk): a stream whose start has no messageId is resumed after a reload without doubling (the run's start is stored)", async () => {
  const { state: uninterrupted } = await turn("ai-sdk", [], UNKEYED);
  const expected = comparable(uninterrupted);
  for (const at of [3, 9, 20, UNKEYED.length - 1]) {
    const { state, stored } = await turn("ai-sdk", [{ at, how: "reload" }], UNKEYED);
    assert.deepEqual(comparable(state), expected, `reload after ${at} chunks`);
    assert.deepEqual(comparable(stored), expected, `reload after ${at} chunks: the storage`);
  }
});

test("resume (ai-sdk): without the run's start stored (an entry of an earlier version), a replay whose start has no messageId fails the run instead of doubling it", async () => {
  const storage = memoryStorage();
  // What an earlier version stored: the envelope without `run`.
  const setItem = storage.setItem;
  storage.setItem = (key, value) => {
    const { run, ...envelope } = JSON.parse(value);
    setItem(key, JSON.stringify(envelope));
  };
  const { state } = await turn("ai-sdk", [{ at: 9, how: "reload" }], UNKEYED, storage);
  assert.equal(state.status, "error");
  assert.match(state.error.message, /messageId/);
  const texts = state.messages[1].parts.filter((part) => part.type === "reasoning").map((part) => part.text);
  assert.deepEqual(texts, ["Plan: search, then answer."], "nothing doubled");
});
