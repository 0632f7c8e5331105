// useAgentSession's `tabs`, driven in Node (jsdom, React 19) through the packed package: several
// hooks on one shared storage stand for tabs of one browser, each with its own BroadcastChannel
// (Node's global one reaches the other instances, not the sender) and one lock manager shared by
// all, as a browser's Web Locks are. A tab closed is a hook unmounted (its locks are freed).
//
//   node --test tests/react/tabs.test.mjs            (after `npm run build`)
//   TABS_RUNS=100 TABS_SEED=3 node --test tests/react/tabs.test.mjs
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { JSDOM } from "jsdom";
import { ASKED, CONTINUED } from "./approval.mjs";
import { sleep, untilUnder } from "./waiting.mjs";

const dom = new JSDOM("<!doctype html><html><body></body></html>", { url: "http://localhost/" });
Object.assign(globalThis, { window: dom.window, document: dom.window.document, navigator: dom.window.navigator, IS_REACT_ACT_ENVIRONMENT: true });

const { StrictMode, act, createElement } = await import("react");
const { createRoot } = await import("react-dom/client");
const { useAgentSession } = await import("../../pkg/react/index.js");
const { liveReply, mockEndpoint, wait } = await import("../../pkg/testing/index.js");
const { coordinateTabs } = await import("../../pkg/tabs/index.js");
const { createRandom } = await import("../fuzz/generate.mjs");

const RUNS = Number(process.env.TABS_RUNS ?? 50);
const SEED = Number(process.env.TABS_SEED ?? 1);

/** A Web Storage the tabs share; while `frozen`, what is written is dropped (nothing saved). */
function sharedStorage() {
  const items = new Map();
  const storage = {
    frozen: false,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void (storage.frozen || items.set(key, String(value))),
    removeItem: (key) => void items.delete(key),
  };
  return storage;
}

/** Exclusive Web Locks as a browser grants them: in order, `ifAvailable`, `signal`, `query`; a
 *  lock held by a tab that closes is freed (`closeTab`). */
function lockManager() {
  const held = new Map();
  const queues = new Map();
  const grant = (name) => {
    if (held.has(name)) return;
    const next = queues.get(name)?.shift();
    if (next === undefined) return;
    let release;
    const done = new Promise((resolve) => (release = resolve));
    held.set(name, { release });
    Promise.resolve()
      .then(() => next.callback({ name, mode: "exclusive" }))
      .then(next.resolve, next.reject)
      .finally(() => {
        held.delete(name);
        grant(name);
      });
    void done;
  };
  return {
    request(name, options, callback) {
      if (typeof options === "function") [options, callback] = [{}, options];
      return new Promise((resolve, reject) => {
        if (options.signal?.aborted) return reject(new DOMException("aborted", "AbortError"));
        if (options.ifAvailable && held.has(name)) return void Promise.resolve(callback(null)).then(resolve, reject);
        const entry = { callback, resolve, reject };
        if (!queues.has(name)) queues.set(name, []);
        queues.get(name).push(entry);
        options.signal?.addEventListener("abort", () => {
          const queue = queues.get(name);
          if (queue.includes(entry)) {
            queue.splice(queue.indexOf(entry), 1);
            reject(new DOMException("aborted", "AbortError"));
          }
        });
        grant(name);
      });
    },
    query: async () => ({ held: [...held.keys()].map((name) => ({ name, mode: "exclusive" })), pending: [] }),
    held: (name) => held.has(name),
  };
}

// The tabs a test left open (it failed before closing them) are closed after it, so the next
// test starts alone and the process ends.
const opened = new Set();
afterEach(async () => {
  for (const tab of opened) await tab.close();
});

async function mount(options) {
  const tab = {};
  function Probe() {
    tab.session = useAgentSession(options);
    return null;
  }
  const root = createRoot(document.createElement("div"));
  await act(async () => root.render(createElement(StrictMode, null, createElement(Probe))));
  tab.close = async () => {
    if (!opened.delete(tab)) return;
    await act(async () => root.unmount());
  };
  opened.add(tab);
  return tab;
}

const until = untilUnder(act, { timeout: 6000, step: 5 });

const textOf = (message) => (message?.parts ?? []).filter((part) => part.type === "text").map((part) => part.text).join("");
const replyOf = (tab) => textOf(tab.session.messages.findLast((message) => message.role === "assistant"));

/** An agent whose every request gets a live reply the test writes to (`reply(n)`: the n-th). */
function agent() {
  const replies = [];
  const endpoint = mockEndpoint("actions", () => {
    const reply = liveReply();
    replies.push(reply);
    return reply;
  });
  globalThis.fetch = endpoint.fetch;
  const part = (n, value) => replies[n].raw(JSON.stringify({ type: "part", part: value }) + "\n");
  const started = new Set();
  // Each reply's first text starts its message.
  const text = (n, delta) => {
    if (!started.has(n)) part(n, { type: "message-start", messageId: `a${n}` });
    started.add(n);
    part(n, { type: "text-delta", messageId: `a${n}`, text: delta });
  };
  const finish = (n) => {
    part(n, { type: "finish", reason: "stop" });
    replies[n].end();
  };
  return { endpoint, replies, text, finish };
}

function setup(extra = {}) {
  const storage = sharedStorage();
  const locks = lockManager();
  const options = { api: "http://localhost/api/chat", storageKey: "chat", storage, throttle: 0, tabs: coordinateTabs({ locks }), ...extra };
  return { storage, locks, options };
}

const stored = (storage) => JSON.parse(storage.getItem("chat") ?? "{}");

test("tabs: one request per run; the other tab follows the reply live and ends with the same conversation", async () => {
  const bot = agent();
  const { options, storage } = setup();
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "Hi ");
  await until(() => b.session.state.status === "streaming" && replyOf(b) === "Hi ", "the follower showing the reply so far");
  bot.text(0, "there");
  await until(() => replyOf(b) === "Hi there", "the follower following");
  bot.finish(0);
  await until(() => a.session.status === "idle" && b.session.status === "idle", "both idle");
  assert.deepEqual(b.session.state, a.session.state);
  assert.deepEqual(stored(storage).state, a.session.state);
  assert.equal(bot.endpoint.requests.length, 1);
  await a.close();
  await b.close();
});

test("tabs: a send and a stop from the tab that follows run in the tab that streams", async () => {
  const bot = agent();
  const { options } = setup();
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("One"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "Working");
  await until(() => b.session.state.status === "streaming", "the follower following");
  await act(async () => b.session.send("Two"));
  await until(() => a.session.queue.length === 1 && a.session.queue[0].text === "Two", "the send queued in the streaming tab");
  await until(() => b.session.queue.length === 1, "the follower showing the queue");
  bot.finish(0);
  // The queued message is sent as the run finishes: the second run, again from the tab that streams.
  await until(() => bot.replies.length === 2, "the queued turn's request");
  bot.text(1, "Second");
  await until(() => replyOf(b) === "Second", "the follower following the second run");
  // As `onClick={stop}` calls it: with the click's event, which cannot go to another tab.
  await act(async () => b.session.stop({ type: "click", currentTarget: { onclick() {} } }));
  await until(() => a.session.status === "idle" && b.session.status === "idle", "both stopped");
  assert.equal(bot.endpoint.requests.length, 2, "no tab but the streaming one sent a request");
  assert.equal(bot.endpoint.requests[1].signal.aborted, true, "the stop aborted the streaming tab's request");
  assert.deepEqual(b.session.state, a.session.state);
  await a.close();
  await b.close();
});

test("tabs: a run sent by the follower as the other tab's run ends keeps the stream lock: it is not taken over and stopped", async () => {
  const bot = agent();
  const { options, storage } = setup();
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("One"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "First");
  await until(() => b.session.state.status === "streaming", "the follower following (it waits for the stream lock)");
  bot.finish(0);
  // A's end stored frees the lock to B's wait; B sends in the moment before that wait reads storage.
  await until(() => stored(storage).state?.status === "idle" && b.session.status === "idle", "A's reply stored");
  await act(async () => b.session.send("Two"));
  await until(() => bot.replies.length === 2, "B's request");
  bot.text(1, "Second");
  await until(() => replyOf(a) === "Second", "A following B's run");
  // Past both tabs' settle moments (200 ms each) with nothing written: A would take the run over there.
  await act(() => sleep(600));
  assert.equal(bot.endpoint.requests[1].signal.aborted, false, "B's run goes on");
  assert.equal(b.session.status, "streaming");
  bot.finish(1);
  await until(() => a.session.status === "idle" && b.session.status === "idle", "both idle");
  assert.equal(replyOf(b), "Second");
  assert.deepEqual(a.session.state, b.session.state);
  await a.close();
  await b.close();
});

test("tabs: a tab opened mid-run shows the run so far and follows it; no second request", async () => {
  const bot = agent();
  const { options, storage } = setup();
  const a = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "So far");
  // Opened once the run so far is stored (saved at most every 500 ms while it streams).
  await until(() => textOf(stored(storage).state?.messages.at(-1)) === "So far", "the run so far stored");
  const c = await mount(options);
  await until(() => c.session.state.status === "streaming" && replyOf(c) === "So far", "the new tab showing the run so far");
  bot.text(0, ", and more");
  bot.finish(0);
  await until(() => c.session.status === "idle" && replyOf(c) === "So far, and more", "the new tab following to the end");
  assert.equal(bot.endpoint.requests.length, 1);
  assert.deepEqual(c.session.state, a.session.state);
  await a.close();
  await c.close();
});

test("tabs: the tab that follows shows each frame as the tab that streams applies it, not only what is saved", async () => {
  const bot = agent();
  const { options, storage } = setup();
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "So far");
  await until(() => replyOf(b) === "So far" && b.session.status === "streaming", "B following the run");
  // Nothing is saved from now on: what B shows next can only come from A's frames.
  storage.frozen = true;
  bot.text(0, ", and more");
  await until(() => replyOf(b) === "So far, and more", "B showing A's next frame");
  bot.text(0, ", and the rest");
  await until(() => replyOf(b) === "So far, and more, and the rest", "B showing the frame after it");
  assert.equal(textOf(stored(storage).state.messages.at(-1)), "So far", "neither frame was saved");
  assert.deepEqual(b.session.messages, a.session.messages, "B shows what A shows");
  storage.frozen = false;
  bot.finish(0);
  await until(() => a.session.status === "idle" && b.session.status === "idle" && stored(storage).state?.status === "idle", "the end, stored");
  assert.deepEqual(b.session.state, a.session.state);
  assert.equal(bot.endpoint.requests.length, 1);
  await a.close();
  await b.close();
});

test("tabs: a tab opened while another streams says streaming for that run and the next, never submitted (resume on)", async () => {
  // Resuming, the new tab opens the stored run as its own to resume, gated by the stream lock,
  // then follows the tab that holds it.
  const replies = [];
  const endpoint = mockEndpoint("ai-sdk", () => {
    const reply = liveReply();
    replies.push(reply);
    return reply;
  });
  globalThis.fetch = endpoint.fetch;
  const text = (n, delta) => {
    if (delta === "") return replies[n].write({ type: "start", messageId: `a${n}` });
    replies[n].write({ type: "text-start", id: `t${n}` });
    replies[n].write({ type: "text-delta", id: `t${n}`, delta });
    replies[n].write({ type: "text-end", id: `t${n}` });
  };
  const finish = (n) => {
    replies[n].write({ type: "finish" });
    replies[n].end();
  };
  const { options, storage } = setup({ protocol: "ai-sdk", resume: true });
  const a = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => replies.length === 1, "the request");
  text(0, "");
  text(0, "So far");
  await until(() => textOf(stored(storage).state?.messages?.at(-1)) === "So far", "the run so far stored");
  const c = await mount(options);
  await until(() => c.session.state.status === "streaming" && replyOf(c) === "So far", "the new tab showing the run so far");
  assert.equal(c.session.status, "streaming", "the run another tab streams has begun");
  finish(0);
  await until(() => c.session.status === "idle", "the first run's end");
  await act(async () => a.session.send("Again"));
  await until(() => replies.length === 2, "the second request");
  text(1, "");
  text(1, "Second");
  await until(() => replyOf(c) === "Second", "the new tab following the second run");
  assert.equal(c.session.status, "streaming");
  finish(1);
  await until(() => c.session.status === "idle" && a.session.status === "idle", "the second run's end");
  assert.equal(endpoint.requests.length, 2, "one request per run, none from the tab that follows");
  await a.close();
  await c.close();
});

test("tabs: a tab that slept never overwrites newer stored state: it shows the newer one and reports a conflict", async () => {
  const bot = agent();
  const { options, storage, locks } = setup();
  const a = await mount(options);
  // This tab hears nothing (a frozen tab): only the revision check stands between it and A's state.
  const deaf = { postMessage() {}, addEventListener() {}, removeEventListener() {} };
  const b = await mount({ ...options, tabs: coordinateTabs({ locks, channel: deaf }) });
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "Reply");
  bot.finish(0);
  await until(() => a.session.status === "idle" && stored(storage).state?.status === "idle", "A's reply stored");
  const newer = stored(storage);
  assert.equal(b.session.messages.length, 0, "B slept through it");
  await act(async () => b.session.setMessages([{ id: "u-b", role: "user", parts: [{ type: "text", text: "stale" }] }]));
  await until(() => b.session.storageError?.code === "conflict", "the conflict reported");
  assert.equal(b.session.storageError.rev, newer.rev);
  assert.deepEqual(stored(storage), newer, "what A stored is kept");
  assert.deepEqual(b.session.state, a.session.state, "B shows the newer state");
  await a.close();
  await b.close();
});

test("tabs: a run started in a tab that slept is not sent when a newer session is stored: the tab follows it", async () => {
  const bot = agent();
  const { options, storage, locks } = setup();
  const a = await mount(options);
  const deaf = { postMessage() {}, addEventListener() {}, removeEventListener() {} };
  const b = await mount({ ...options, tabs: coordinateTabs({ locks, channel: deaf }) });
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.finish(0);
  await until(() => stored(storage).state?.status === "idle", "A's reply stored");
  await act(async () => b.session.send("From a stale tab"));
  await until(() => b.session.state.status === "idle" && b.session.messages.length === a.session.messages.length, "B following the newer state");
  assert.equal(bot.endpoint.requests.length, 1);
  assert.deepEqual(b.session.state, a.session.state);
  await a.close();
  await b.close();
});

test("tabs: a tab that slept and saves nothing new (a reset of its empty conversation) takes no revision it did not read: it shows the newer one, and its next run starts from it", async () => {
  const bot = agent();
  const { options, storage, locks } = setup();
  const deaf = { postMessage() {}, addEventListener() {}, removeEventListener() {} };
  const b = await mount({ ...options, tabs: coordinateTabs({ locks, channel: deaf }) });
  const a = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.finish(0);
  await until(() => stored(storage).state?.status === "idle", "A's reply stored");
  const newer = stored(storage);
  // Empty already, the reset changes only the conversation's id: nothing is written, and the
  // newer session stored is seen.
  await act(async () => b.session.reset());
  await until(() => b.session.messages.length === a.session.messages.length, "B showing the newer state");
  assert.deepEqual(stored(storage), newer, "what A stored is kept");
  await act(async () => b.session.send("Next"));
  await until(() => bot.replies.length === 2, "B's request");
  assert.deepEqual(bot.endpoint.requests[1].body.messages.map(textOf), ["Hello", "Next"], "B's run starts from A's conversation");
  bot.finish(1);
  await until(() => b.session.status === "idle" && stored(storage).state?.status === "idle", "B's reply stored");
  assert.deepEqual(stored(storage).state, b.session.state);
  await a.close();
  await b.close();
});

test("tabs: the streaming tab closed mid-run frees the lock; the follower stops the run (no resume), nothing lost, no tab stuck", async () => {
  const bot = agent();
  const { options, storage, locks } = setup();
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "Half a reply");
  await until(() => replyOf(b) === "Half a reply", "the follower following");
  await a.close();
  await until(() => b.session.status === "idle", "the follower taking the run over");
  assert.equal(replyOf(b), "Half a reply");
  assert.equal(bot.endpoint.requests.length, 1);
  await until(() => stored(storage).state?.status === "idle", "the stopped run stored");
  assert.deepEqual(stored(storage).state, b.session.state);
  assert.equal(locks.held("csr:chat:stream"), false);
  await b.close();
});

test("tabs (ai-sdk, resume): the tab streaming the reply after an approval closes; the follower resumes it onto the run's start, losing nothing the message held", async () => {
  // The continuation's POST streams its first two chunks and stays open; the reconnect replays it whole.
  const endpoint = mockEndpoint("ai-sdk", (request) => (request.method === "GET" ? CONTINUED : request.body.messages.length === 1 ? ASKED : [...CONTINUED.slice(0, 2), wait(60_000)]));
  globalThis.fetch = endpoint.fetch;
  const { options } = setup({ api: "http://localhost/api/chat", protocol: "ai-sdk", resume: true });
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("Delete the drafts"));
  await until(() => a.session.state.messages[1]?.parts.some((part) => part.state === "awaiting-confirmation"), "the question");
  await act(async () => a.session.approve("c1"));
  await until(() => b.session.state.messages[1]?.parts.some((part) => part.state === "done"), "the follower showing the call done");
  await a.close();
  await until(() => b.session.state.status === "idle", "the follower resuming the run to its end");
  assert.deepEqual(b.session.messages[1].parts.map((part) => part.text ?? part.state), ["Delete 3 drafts?", "done", " Done: 3 drafts deleted."]);
  assert.deepEqual(endpoint.requests.map((request) => request.method), ["POST", "POST", "GET"]);
  await b.close();
});

test("tabs: without Web Locks, a stale save is still refused (the unlocked check), and following works", async () => {
  const bot = agent();
  const storage = sharedStorage();
  const options = { api: "http://localhost/api/chat", storageKey: "chat", storage, throttle: 0, tabs: coordinateTabs() };
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "Hi");
  bot.finish(0);
  await until(() => b.session.status === "idle" && replyOf(b) === "Hi", "the follower following");
  assert.deepEqual(b.session.state, a.session.state);
  await a.close();
  await b.close();
});

test("tabs: with sessionStorage (each tab's own, a duplicated tab's a copy) nothing is coordinated", async () => {
  const bot = agent();
  globalThis.sessionStorage = dom.window.sessionStorage;
  const a = await mount({ api: "http://localhost/api/chat", storageKey: "chat", throttle: 0, tabs: coordinateTabs() });
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.finish(0);
  await until(() => a.session.status === "idle", "the reply");
  assert.deepEqual(JSON.parse(dom.window.sessionStorage.getItem("chat")).state, a.session.state, "saved as without tabs");
  await a.close();
  delete globalThis.sessionStorage;
});

test("tabs: another tab writes garbage under the key mid-run and announces it: nothing lost, no tab stuck", async () => {
  const bot = agent();
  const { options, storage } = setup();
  const a = await mount(options);
  const b = await mount(options);
  await act(async () => a.session.send("Hello"));
  await until(() => bot.replies.length === 1, "the request");
  bot.text(0, "Before ");
  await until(() => replyOf(b) === "Before ", "the follower following");
  storage.setItem("chat", "{not a session");
  const other = new BroadcastChannel("chat-session-reducer");
  other.postMessage({ key: "chat", rev: 99 });
  bot.text(0, "after");
  bot.finish(0);
  await until(() => a.session.status === "idle" && b.session.status === "idle", "both idle");
  other.close();
  assert.equal(replyOf(a), "Before after");
  await until(() => stored(storage).state?.status === "idle", "the end stored over the garbage");
  assert.deepEqual(stored(storage).state, a.session.state);
  assert.deepEqual(b.session.state, a.session.state);
  assert.equal(bot.endpoint.requests.length, 1);
  await a.close();
  await b.close();
});

test("tabs: true (the option before chat-session-reducer/tabs) is an error naming options.tabs", async () => {
  function Probe() {
    useAgentSession({ api: "http://localhost/api/chat", storageKey: "chat", storage: sharedStorage(), tabs: true });
    return null;
  }
  const root = createRoot(document.createElement("div"));
  await assert.rejects(async () => act(async () => root.render(createElement(Probe))), (error) => {
    assert.equal(error.code, "invalid");
    assert.equal(error.path, "options.tabs");
    assert.match(error.message, /^options\.tabs: expected coordinateTabs\(\)/);
    return true;
  });
  await act(async () => root.unmount());
});

test("tabs with a store of conversations is refused, naming options.tabs (not designed together yet)", async () => {
  const { createConversations } = await import("../../pkg/conversations/index.js");
  const conversations = createConversations({ storage: sharedStorage(), keyPrefix: "chat:" });
  function Probe() {
    useAgentSession({ api: "http://localhost/api/chat", conversations, id: "a", tabs: coordinateTabs() });
    return null;
  }
  const root = createRoot(document.createElement("div"));
  await assert.rejects(async () => act(async () => root.render(createElement(Probe))), (error) => {
    assert.equal(error.code, "invalid");
    assert.equal(error.path, "options.tabs");
    assert.match(error.message, /^options\.tabs: not with options\.conversations/);
    return true;
  });
  await act(async () => root.unmount());
});

test("coordinateTabs: stand-ins that are not a channel or a lock manager are errors naming them", () => {
  const invalid = (path) => (error) => error instanceof TypeError && error.code === "invalid" && error.path === path && error.message.startsWith(`${path}: expected`);
  assert.throws(() => coordinateTabs(null), invalid("options"));
  assert.throws(() => coordinateTabs({ channel: "chat" }), invalid("options.channel"));
  assert.throws(() => coordinateTabs({ locks: {} }), invalid("options.locks"));
  // Nothing to coordinate outside a storage the tabs share: the hook saves as without it.
  assert.equal(coordinateTabs().connect("chat", undefined, {}), undefined);
});

test(`tabs: ${RUNS} seeded runs, tabs opened and closed at random moments mid-run: one request per run, nothing lost, nothing doubled, no tab stuck (seed ${SEED})`, async () => {
  const random = createRandom(SEED);
  const figures = { runs: 0, opened: 0, closed: 0, takeovers: 0, failures: [] };
  for (let run = 0; run < RUNS; run += 1) {
    const bot = agent();
    const { options, storage } = setup();
    const tabs = [await mount(options), await mount(options)];
    const streamer = tabs[0];
    await act(async () => streamer.session.send(`Run ${run}`));
    await until(() => bot.replies.length === 1, "the request");
    const deltas = 2 + random.below(4);
    const openAt = random.below(deltas);
    const closeAt = random.chance(0.5) ? random.below(deltas) : -1;
    let closed = false;
    try {
      for (let index = 0; index < deltas; index += 1) {
        if (index === openAt) {
          tabs.push(await mount(options));
          figures.opened += 1;
        }
        if (index === closeAt) {
          await streamer.close();
          closed = true;
          figures.closed += 1;
          break;
        }
        bot.text(0, `d${index} `);
        await act(() => sleep(random.below(40)));
      }
      if (!closed) bot.finish(0);
      const open = tabs.filter((tab) => tab !== streamer || !closed);
      await until(() => open.every((tab) => tab.session.status === "idle"), "every tab idle");
      await until(() => stored(storage).state?.status === "idle", "the end stored");
      if (closed) figures.takeovers += 1;
      const expected = stored(storage).state;
      for (const tab of open) assert.deepEqual(tab.session.state, expected);
      assert.equal(bot.endpoint.requests.length, 1, "one request");
      const text = replyOf(open[0]);
      assert.match(text, /^(d\d )*$/, "nothing doubled");
      // Nothing lost: what was written before the close, all of it when the run finished.
      if (!closed) assert.equal(text, Array.from({ length: deltas }, (_, index) => `d${index} `).join(""));
      figures.runs += 1;
      for (const tab of open) await tab.close();
    } catch (error) {
      figures.failures.push({ run, deltas, openAt, closeAt, error: error.message.split("\n").slice(0, 6).join("\n") });
      for (const tab of tabs) await tab.close();
    }
  }
  console.log(`tabs: ${figures.runs + figures.failures.length} runs, ${figures.opened} tabs opened mid-run, ${figures.closed} closed mid-run (${figures.takeovers} taken over), ${figures.failures.length} failures`);
  assert.deepEqual(figures.failures, []);
});
