// useAgentSession with a store of conversations (chat-session-reducer/conversations), driven in
// Node (jsdom, React 19) through the packed package: switching conversations while one streams
// lets it finish in the background, stored, never mixed into the one on screen; reopening it
// takes the live run back; the thread list's marks. Then a seeded loop switching conversations at
// random chunk boundaries: nothing lost, doubled or mixed.
//
//   node --test tests/react/conversations.test.mjs            (after `npm run build`)
//   THREADS_RUNS=200 THREADS_SEED=7 node --test tests/react/conversations.test.mjs
// tests/react/run.mjs also runs it in its Jest consumer (REACT_CONSUMER: React 18, the packed
// package installed there), where a click renders before a frame's update (the run's log).
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { createRandom } from "../fuzz/generate.mjs";
import { sleep, untilUnder } from "./waiting.mjs";

const consumer = process.env.REACT_CONSUMER;
/** A module by name from the consumer project, or from the repository (`here`: the package's file in pkg/). */
const from = (name, here) => (consumer === undefined ? here ?? name : pathToFileURL(createRequire(join(consumer, "package.json")).resolve(name)).href);
const { JSDOM } = await import(from("jsdom"));
const dom = new JSDOM("<!doctype html><html><body></body></html>", { url: "http://localhost/" });
Object.assign(globalThis, { window: dom.window, document: dom.window.document, navigator: dom.window.navigator, IS_REACT_ACT_ENVIRONMENT: true });

const React = await import(from("react"));
const { StrictMode, createElement, useState } = React;
const { createRoot } = await import(from("react-dom/client"));
const { flushSync } = await import(from("react-dom"));
// React 18 has act in react-dom/test-utils.
const act = React.act ?? (await import(from("react-dom/test-utils"))).act;
const { useAgentSession } = await import(from("chat-session-reducer/react", "../../pkg/react/index.js"));
const { createConversations, useConversations } = await import(from("chat-session-reducer/conversations", "../../pkg/conversations/index.js"));
const { liveReply, mockEndpoint } = await import(from("chat-session-reducer/testing", "../../pkg/testing/index.js"));
const { loadSession } = await import(from("chat-session-reducer", "../../pkg/index.js"));

const RUNS = Number(process.env.THREADS_RUNS ?? 20);
const SEED = Number(process.env.THREADS_SEED ?? 1);
const API = "http://localhost/api/chat";

function memoryStorage() {
  const items = new Map();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

// One reply per protocol, its text naming the conversation (so a frame landing in another shows).
const SCRIPTS = {
  actions: (name) => [
    { type: "part", part: { type: "message-start", messageId: `${name}-m` } },
    ...["Reply ", "for ", `${name} `, "in ", "five ", "chunks."].map((text) => ({ type: "part", part: { type: "text-delta", messageId: `${name}-m`, text } })),
    { type: "part", part: { type: "finish", reason: "stop" } },
  ],
  "ai-sdk": (name) => [
    { type: "start", messageId: `${name}-m` },
    { type: "text-start", id: "t" },
    ...["Reply ", "for ", `${name} `, "in ", "five ", "chunks."].map((delta) => ({ type: "text-delta", id: "t", delta })),
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: "stop" },
  ],
  "ag-ui": (name) => [
    { type: "RUN_STARTED", threadId: name, runId: `${name}-run` },
    { type: "TEXT_MESSAGE_START", messageId: `${name}-m`, role: "assistant" },
    ...["Reply ", "for ", `${name} `, "in ", "five ", "chunks."].map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId: `${name}-m`, delta })),
    { type: "TEXT_MESSAGE_END", messageId: `${name}-m` },
    { type: "RUN_FINISHED", threadId: name, runId: `${name}-run` },
  ],
};

/** An agent whose replies the test writes: one liveReply per request, in the order they came. */
function writtenAgent(protocol) {
  const replies = [];
  const endpoint = mockEndpoint(protocol, (request) => {
    const reply = liveReply();
    replies.push({ reply, request });
    return reply;
  });
  return { endpoint, replies };
}

// The user messages' ids are the hook's own (random): everything else must be exactly equal.
const comparable = (state) => ({ ...state, messages: state.messages.map((message) => (message.role === "user" ? { ...message, id: "user" } : message)) });
const textOf = (state) => state.messages.map((message) => message.parts.filter((part) => part.type === "text").map((part) => part.text).join("")).join(" | ");

/** A page: the hook on conversation `id`, the thread list beside it; `open(id)` switches. */
async function mount(options) {
  const page = {};
  function Probe({ id }) {
    page.session = useAgentSession({ ...options, id });
    page.list = useConversations(options.conversations);
    return null;
  }
  const root = createRoot(document.createElement("div"));
  page.open = (id) => act(async () => root.render(createElement(StrictMode, null, createElement(Probe, { id }))));
  page.unmount = () => act(async () => root.unmount());
  return page;
}

const until = untilUnder(act);

const settle = () => act(() => sleep(5));

/** The reply `name` sent, once its request has arrived. */
async function replyOf(agent, index, what) {
  await until(() => agent.replies.length > index, what);
  return agent.replies[index].reply;
}

/** One uninterrupted turn of conversation `name`: the reference the others must end equal to. */
async function uninterrupted(protocol, name) {
  const agent = writtenAgent(protocol);
  globalThis.fetch = agent.endpoint.fetch;
  const conversations = createConversations({ storage: memoryStorage() });
  const page = await mount({ api: `${API}/${protocol}`, protocol, conversations, throttle: 0 });
  await page.open(name);
  await act(async () => page.session.send(`Go ${name}`));
  const reply = await replyOf(agent, 0, "the request");
  for (const frame of SCRIPTS[protocol](name)) reply.write(frame);
  reply.end();
  await until(() => page.session.state.status === "idle", "the end");
  const { state } = page.session;
  await page.unmount();
  assert.equal(state.error, undefined);
  assert.match(textOf(state), new RegExp(`Reply for ${name} in five chunks`));
  return comparable(state);
}

const entryOf = (page, id) => page.list.find((entry) => entry.id === id);

for (const protocol of Object.keys(SCRIPTS)) {
  test(`conversations (${protocol}): A streams on in the background while B is on screen, is stored, and reopened later shows the whole reply`, async () => {
    const expected = await uninterrupted(protocol, "A");
    const agent = writtenAgent(protocol);
    globalThis.fetch = agent.endpoint.fetch;
    const storage = memoryStorage();
    const conversations = createConversations({ storage });
    const finished = [];
    const page = await mount({ api: `${API}/${protocol}`, protocol, conversations, throttle: 0, onFinish: ({ id, state }) => finished.push([id, state.status]) });
    await page.open("A");
    await act(async () => page.session.send("Go A"));
    const a = await replyOf(agent, 0, "A's request");
    const script = SCRIPTS[protocol]("A");
    for (const frame of script.slice(0, 4)) a.write(frame);
    await until(() => page.session.messages[1]?.parts.length > 0, "A's first text");
    await page.open("B");
    assert.equal(entryOf(page, "A").status, "streaming");
    await act(async () => page.session.send("Go B"));
    const b = await replyOf(agent, 1, "B's request");
    for (const frame of script.slice(4)) {
      a.write(frame);
      await settle();
      assert.doesNotMatch(textOf(page.session.state), /for A/, "B never shows A's content");
    }
    a.end();
    await until(() => entryOf(page, "A").status === "idle", "A's end in the background");
    assert.equal(entryOf(page, "A").unread, true, "A's reply ended while B was on screen");
    for (const frame of SCRIPTS[protocol]("B")) b.write(frame);
    b.end();
    await until(() => page.session.state.status === "idle", "B's end");
    assert.doesNotMatch(textOf(page.session.state), /for A/, "B never shows A's content");
    assert.deepEqual(comparable(loadSession("chat:A", storage)), expected, "A is stored as an uninterrupted run");
    assert.deepEqual(finished, [["A", "idle"], ["B", "idle"]], "onFinish fires for the background run, with its id");
    await page.open("A");
    assert.deepEqual(comparable(page.session.state), expected);
    assert.equal(entryOf(page, "A").unread, false, "opened: read");
    assert.equal(agent.endpoint.requests.length, 2, "one request per run");
    assert.deepEqual(page.list.map((entry) => [entry.id, entry.title]), [["B", "Go B"], ["A", "Go A"]]);
    await page.unmount();
  });

  test(`conversations (${protocol}): reopening A mid-run follows the live run: no request repeated, nothing doubled or lost`, async () => {
    const expected = await uninterrupted(protocol, "A");
    const agent = writtenAgent(protocol);
    globalThis.fetch = agent.endpoint.fetch;
    const conversations = createConversations({ storage: memoryStorage() });
    const page = await mount({ api: `${API}/${protocol}`, protocol, conversations, throttle: 0 });
    await page.open("A");
    await act(async () => page.session.send("Go A"));
    const a = await replyOf(agent, 0, "A's request");
    const script = SCRIPTS[protocol]("A");
    a.write(script[0]);
    a.write(script[1]);
    await settle();
    await page.open("B");
    a.write(script[2]);
    a.write(script[3]);
    await settle();
    await page.open("A");
    assert.equal(page.session.state.status, "streaming");
    for (const frame of script.slice(4)) a.write(frame);
    a.end();
    await until(() => page.session.state.status === "idle", "A's end on screen");
    assert.deepEqual(comparable(page.session.state), expected);
    assert.equal(agent.endpoint.requests.length, 1);
    assert.equal(entryOf(page, "A").unread, false);
    await page.unmount();
  });
}

test("conversations: a frame A's run dispatched just before a click opened B (a sync render) goes on in the background, not lost", async () => {
  const expected = await uninterrupted("ai-sdk", "A");
  const agent = writtenAgent("ai-sdk");
  globalThis.fetch = agent.endpoint.fetch;
  const storage = memoryStorage();
  const conversations = createConversations({ storage });
  const page = {};
  function Clicked() {
    const [id, setId] = useState("A");
    page.setId = setId;
    page.session = useAgentSession({ api: `${API}/ai-sdk`, protocol: "ai-sdk", conversations, id, throttle: 0 });
    return null;
  }
  const root = createRoot(document.createElement("div"));
  await act(async () => root.render(createElement(Clicked)));
  await act(async () => page.session.send("Go A"));
  const a = await replyOf(agent, 0, "A's request");
  const script = SCRIPTS["ai-sdk"]("A");
  for (const frame of script.slice(0, 3)) a.write(frame);
  await until(() => textOf(page.session.state) === "Go A | Reply ", "A's first text on screen");
  await act(async () => {
    a.write(script[3]);
    // The frame is read and dispatched (into the session controller, outside React's render),
    // then a click's sync render opens B.
    await sleep(10);
    flushSync(() => page.setId("B"));
  });
  for (const frame of script.slice(4)) a.write(frame);
  a.end();
  await until(() => conversations.list().find((entry) => entry.id === "A")?.status === "idle", "A's end in the background");
  assert.deepEqual(comparable(loadSession("chat:A", storage)), expected);
  await act(async () => root.unmount());
});

test("conversations: a page that unmounts and mounts again (Strict Mode) on A while A runs in the background takes the run back: one request", async () => {
  const expected = await uninterrupted("ai-sdk", "A");
  const agent = writtenAgent("ai-sdk");
  globalThis.fetch = agent.endpoint.fetch;
  const conversations = createConversations({ storage: memoryStorage() });
  const options = { api: `${API}/ai-sdk`, protocol: "ai-sdk", conversations, throttle: 0 };
  let page = await mount(options);
  await page.open("A");
  await act(async () => page.session.send("Go A"));
  const a = await replyOf(agent, 0, "A's request");
  const script = SCRIPTS["ai-sdk"]("A");
  for (const frame of script.slice(0, 3)) a.write(frame);
  await settle();
  await page.open("B");
  await page.unmount();
  a.write(script[3]);
  await settle();
  page = await mount(options);
  await page.open("A");
  assert.equal(page.session.state.status, "streaming");
  for (const frame of script.slice(4)) a.write(frame);
  a.end();
  await until(() => page.session.state.status === "idle", "A's end on screen");
  assert.deepEqual(comparable(page.session.state), expected);
  assert.equal(agent.endpoint.requests.length, 1);
  await page.unmount();
});

test("conversations: unmounting the hook while A streams (a chat keyed by its conversation) hands A's run to the store; mounted on A again, it follows it", async () => {
  const expected = await uninterrupted("ag-ui", "A");
  const agent = writtenAgent("ag-ui");
  globalThis.fetch = agent.endpoint.fetch;
  const storage = memoryStorage();
  const conversations = createConversations({ storage });
  const options = { api: `${API}/ag-ui`, protocol: "ag-ui", conversations, throttle: 0 };
  let page = await mount(options);
  await page.open("A");
  await act(async () => page.session.send("Go A"));
  const a = await replyOf(agent, 0, "A's request");
  const script = SCRIPTS["ag-ui"]("A");
  for (const frame of script.slice(0, 3)) a.write(frame);
  await settle();
  await page.unmount();
  assert.equal(conversations.list()[0].status, "streaming");
  for (const frame of script.slice(3, 6)) a.write(frame);
  await settle();
  page = await mount(options);
  await page.open("A");
  for (const frame of script.slice(6)) a.write(frame);
  a.end();
  await until(() => page.session.state.status === "idle", "A's end on screen");
  assert.deepEqual(comparable(page.session.state), expected);
  assert.deepEqual(comparable(loadSession("chat:A", storage)), expected);
  assert.equal(agent.endpoint.requests.length, 1);
  await page.unmount();
});

test("conversations: a message queued in A is sent by A's finish in the background, as the hook sends it", async () => {
  const agent = writtenAgent("ai-sdk");
  globalThis.fetch = agent.endpoint.fetch;
  const storage = memoryStorage();
  const conversations = createConversations({ storage });
  const page = await mount({ api: `${API}/ai-sdk`, protocol: "ai-sdk", conversations, throttle: 0 });
  await page.open("A");
  await act(async () => page.session.send("Go A"));
  const first = await replyOf(agent, 0, "A's request");
  first.write(SCRIPTS["ai-sdk"]("A")[0]);
  await act(async () => page.session.send("And then?"));
  assert.equal(page.session.queue.length, 1);
  await page.open("B");
  for (const frame of SCRIPTS["ai-sdk"]("A").slice(1)) first.write(frame);
  first.end();
  const second = await replyOf(agent, 1, "the queued turn's request, from the background");
  assert.equal(agent.replies[1].request.body.id, "A", "the next run is A's");
  for (const frame of SCRIPTS["ai-sdk"]("A2")) second.write(frame);
  second.end();
  await until(() => entryOf(page, "A")?.status === "idle", "the queued turn's end");
  const stored = loadSession("chat:A", storage);
  assert.deepEqual(stored.messages.map((message) => message.role), ["user", "assistant", "user", "assistant"]);
  assert.equal(page.session.messages.length, 0, "B is untouched");
  await page.unmount();
});

test("conversations: a background run that ends waiting on the user shows as waiting; the list survives a reload, most recent first, and remove() clears an entry", async () => {
  const asking = [
    { type: "start", messageId: "q" },
    { type: "tool-input-available", toolCallId: "c1", toolName: "delete_drafts", input: {} },
    { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c1" },
    { type: "finish", finishReason: "tool-calls" },
  ];
  const agent = writtenAgent("ai-sdk");
  globalThis.fetch = agent.endpoint.fetch;
  const storage = memoryStorage();
  const conversations = createConversations({ storage });
  const page = await mount({ api: `${API}/ai-sdk`, protocol: "ai-sdk", conversations, throttle: 0 });
  await page.open("A");
  await act(async () => page.session.send("Clean up"));
  const a = await replyOf(agent, 0, "A's request");
  a.write(asking[0]);
  await settle();
  await page.open("B");
  for (const frame of asking.slice(1)) a.write(frame);
  a.end();
  await until(() => entryOf(page, "A")?.status === "idle", "A's end");
  assert.equal(entryOf(page, "A").waiting, true);
  const before = page.list;
  await settle();
  assert.equal(page.list, before, "nothing changed: the same list");
  await act(async () => page.session.send("Hello B"));
  const b = await replyOf(agent, 1, "B's request");
  for (const frame of SCRIPTS["ai-sdk"]("B")) b.write(frame);
  b.end();
  await until(() => page.session.state.status === "idle", "B's end");
  assert.equal(page.list[1], entryOf(page, "A"));
  assert.equal(entryOf(page, "A"), before.find((entry) => entry.id === "A"), "A's entry is the same object: nothing of it changed");
  await page.unmount();

  // A reload: a new store on the same storage lists them as they were.
  const reloaded = createConversations({ storage });
  assert.deepEqual(
    reloaded.list().map(({ id, title, status, unread, waiting }) => ({ id, title, status, unread, waiting })),
    [
      { id: "B", title: "Hello B", status: "idle", unread: false, waiting: false },
      { id: "A", title: "Clean up", status: "idle", unread: true, waiting: true },
    ],
  );
  assert.equal(reloaded.list(), reloaded.list());
  reloaded.remove("A");
  assert.equal(storage.getItem("chat:A"), null);
  assert.deepEqual(createConversations({ storage }).list().map((entry) => entry.id), ["B"]);
});

test("conversations: the hook with `conversations` needs the `id` it shows", async () => {
  const conversations = createConversations({ storage: memoryStorage() });
  const errors = [];
  function Probe() {
    try {
      useAgentSession({ api: API, conversations });
    } catch (error) {
      errors.push(error);
    }
    return null;
  }
  const root = createRoot(document.createElement("div"));
  await act(async () => root.render(createElement(Probe)));
  await act(async () => root.unmount());
  assert.equal(errors[0].path, "options.id");
});

// Item 5: conversations switched at random chunk boundaries (seeded). Three conversations, each
// one turn whose frames the test writes in a random interleaving; before each frame the page may
// open another conversation. Each must end stored (and shown, reopened) as its uninterrupted turn.
for (const protocol of Object.keys(SCRIPTS)) {
  test(`conversations (${protocol}): ${RUNS} runs switching among three conversations at random chunk boundaries lose, double and mix nothing (seed ${SEED})`, async () => {
    const names = ["A", "B", "C"];
    const expected = {};
    for (const name of names) expected[name] = await uninterrupted(protocol, name);
    const random = createRandom(SEED);
    const figures = { runs: 0, switches: 0, reopenedMidRun: 0, requests: 0, failures: [] };
    for (let run = 0; run < RUNS; run += 1) {
      const agent = writtenAgent(protocol);
      globalThis.fetch = agent.endpoint.fetch;
      const storage = memoryStorage();
      const conversations = createConversations({ storage });
      const page = await mount({ api: `${API}/${protocol}`, protocol, conversations, throttle: 0 });
      try {
        const replies = {};
        const left = {};
        for (const name of names) {
          await page.open(name);
          await act(async () => page.session.send(`Go ${name}`));
          replies[name] = await replyOf(agent, names.indexOf(name), `${name}'s request`);
          left[name] = SCRIPTS[protocol](name);
        }
        let shown = "C";
        while (names.some((name) => left[name].length > 0)) {
          if (random.chance(0.4)) {
            const next = names[random.below(names.length)];
            if (next !== shown) {
              figures.switches += 1;
              if (left[next].length > 0) figures.reopenedMidRun += 1;
              shown = next;
              await page.open(next);
            }
          }
          const writing = names.filter((name) => left[name].length > 0);
          const name = writing[random.below(writing.length)];
          replies[name].write(left[name].shift());
          if (left[name].length === 0) replies[name].end();
          if (random.chance(0.5)) {
            await settle();
            // The conversation on screen shows its own reply and no other's.
            const others = names.filter((other) => other !== shown).map((other) => `for ${other}`);
            assert.ok(!others.some((other) => textOf(page.session.state).includes(other)), `${shown} on screen shows only its own reply`);
          }
        }
        await until(() => names.every((name) => entryOf(page, name)?.status === "idle"), "every reply's end");
        for (const name of names) {
          assert.deepEqual(comparable(loadSession(`chat:${name}`, storage)), expected[name], `${name} as stored`);
          await page.open(name);
          assert.deepEqual(comparable(page.session.state), expected[name], `${name} reopened`);
        }
        assert.equal(agent.endpoint.requests.length, names.length, "one request per turn");
        figures.requests += agent.endpoint.requests.length;
      } catch (error) {
        figures.failures.push({ run, error: error.message.split("\n").slice(0, 12).join("\n") });
      }
      figures.runs += 1;
      await page.unmount();
    }
    console.log(`conversations (${protocol}): ${figures.runs} runs, ${figures.switches} switches (${figures.reopenedMidRun} onto a reply still streaming), ${figures.requests} requests, ${figures.failures.length} failures`);
    assert.deepEqual(figures.failures, []);
  });
}
