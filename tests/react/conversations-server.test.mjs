// The thread list fed by the server (createConversations({ remote })), in jsdom (React 19) through
// the packed package, against the real server: createChatServer on PGlite in memory, the page's
// fetch routed to its handler. Another profile of the same owner lists and opens a conversation
// it has never seen, with its messages; another owner sees none of it; a run the tab does not
// hold lists the server's status and is followed when opened; a run the tab did not see end opens
// as the server stored it; the list stays the same array while nothing changed, and a failed
// refresh keeps it.
//
//   node --test tests/react/conversations-server.test.mjs      (after `npm run build`)
import assert from "node:assert/strict";
import { test } from "node:test";
import { JSDOM } from "jsdom";
import { routeFetch, scriptedRun, until as untilServer } from "../server/helpers.mjs";
import { untilUnder } from "./waiting.mjs";

const dom = new JSDOM("<!doctype html><html><body></body></html>", { url: "http://app.test/" });
Object.assign(globalThis, { window: dom.window, document: dom.window.document, navigator: dom.window.navigator, IS_REACT_ACT_ENVIRONMENT: true });

const React = await import("react");
const { createElement } = React;
const { createRoot } = await import("react-dom/client");
const { act } = React;
const { useAgentSession } = await import("../../pkg/react/index.js");
const { createConversations, useConversations } = await import("../../pkg/conversations/index.js");
const { INTERRUPTED, createChatServer, createPgliteStore } = await import("../../pkg/server/index.js");
const { saveSession } = await import("../../pkg/index.js");

const until = untilUnder(act);

function memoryStorage() {
  const items = new Map();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, String(value)), removeItem: (key) => void items.delete(key) };
}

// One server for the file: PGlite in memory, the owner whoever the test says is signed in.
const store = createPgliteStore();
const signedIn = { owner: "alice" };
const models = [];
const chat = createChatServer({ protocol: "ai-sdk", store, authorize: () => signedIn.owner, run: scriptedRun(models) });
routeFetch(chat.fetch);

/** A profile's page: the hook on conversation `id` (none: no hook), the thread list beside it. */
async function profile(conversations) {
  const page = { conversations };
  function Probe({ id }) {
    page.list = useConversations(conversations);
    return id === undefined ? null : createElement(Chat, { id });
  }
  function Chat({ id }) {
    page.session = useAgentSession({ api: "/api/chat", protocol: "ai-sdk", conversations, id, resume: true, stopApi: "/api/chat/stop", throttle: 0 });
    return null;
  }
  const root = createRoot(document.createElement("div"));
  page.open = (id) => act(async () => root.render(createElement(Probe, { id })));
  page.unmount = () => act(async () => root.unmount());
  return page;
}

const remoteStore = (storage = memoryStorage()) => createConversations({ storage, remote: "/api/conversations" });

/** The reply "Hello there." with message id `id`, `end`ed or left open after its first words. */
function reply(model, id, { end = true } = {}) {
  for (const frame of [{ type: "start", messageId: id }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hello " }]) model.push(frame);
  if (!end) return;
  for (const frame of [{ type: "text-delta", id: "t", delta: "there." }, { type: "text-end", id: "t" }, { type: "finish" }]) model.push(frame);
  model.end();
}

const stored = async (owner, id) => (await store.load(owner, id))?.state;

test("remote: another profile of the same owner lists the conversation and opens it with its messages; another owner sees none of it", async () => {
  const first = await profile(remoteStore());
  const id = first.conversations.create();
  await first.open(id);
  await act(async () => first.session.send("Plan my trip"));
  await until(() => models.length === 1, "the run");
  reply(models[0], "a-trip");
  await until(() => first.session.state.status === "idle", "the reply's end");
  await untilServer(async () => (await stored("alice", id))?.status === "idle", "the stored end");
  const shown = first.session.state;
  await first.unmount();

  // The same owner in another profile (a sign-in gives it the cookie): an empty storage.
  const second = await profile(remoteStore());
  await second.open(undefined);
  await until(() => second.list.length === 1, "the server's list");
  const [entry] = second.list;
  assert.deepEqual({ ...entry, updatedAt: typeof entry.updatedAt }, { id, title: "Plan my trip", status: "idle", unread: false, waiting: false, updatedAt: "number" });
  const listed = second.list;
  await act(() => second.conversations.refresh());
  assert.equal(second.conversations.list(), listed, "the same array while nothing changed");
  await second.open(id);
  await until(() => second.session.messages.length === 2, "the server's copy opened");
  assert.deepEqual(second.session.state, shown, "opened as the first profile showed it");
  assert.equal(second.list.length, 1, "listed once");
  assert.equal(second.list[0].updatedAt, entry.updatedAt, "opening it is no activity");
  await second.unmount();

  // Another owner: nothing listed, and the id opens an empty conversation.
  signedIn.owner = "bob";
  const other = await profile(remoteStore());
  await other.open(id);
  await act(() => other.conversations.refresh());
  assert.deepEqual(other.list, []);
  assert.deepEqual(other.session.messages, []);
  await other.unmount();
  signedIn.owner = "alice";
});

test("remote: a run the tab does not hold lists the server's status; opened, it is followed to its end, as stored", async () => {
  const first = await profile(remoteStore());
  const id = first.conversations.create();
  await first.open(id);
  await act(async () => first.session.send("Tell me more"));
  await until(() => models.length === 2, "the run");
  const model = models[1];
  reply(model, "a-more", { end: false });
  await until(() => first.session.messages[1]?.parts.length > 0, "the first words");
  // The tab goes away mid-reply (closed); the run goes on in the server.
  await first.unmount();

  const second = await profile(remoteStore());
  await second.open(undefined);
  await until(() => second.list.find((entry) => entry.id === id)?.status === "streaming", "the server's status");
  await second.open(id);
  await until(() => second.session.state.status === "streaming" && second.session.messages.length === 2, "the run followed");
  for (const frame of [{ type: "text-delta", id: "t", delta: "and more." }, { type: "text-end", id: "t" }, { type: "finish" }]) model.push(frame);
  model.end();
  await until(() => second.session.state.status === "idle", "the run's end");
  assert.equal(second.session.messages[1].parts.find((part) => part.type === "text").text, "Hello and more.", "nothing doubled, nothing lost");
  await untilServer(async () => (await stored("alice", id))?.status === "idle", "the stored end");
  assert.deepEqual(await stored("alice", id), second.session.state, "shown as stored");
  await until(() => second.list.find((entry) => entry.id === id)?.status === "idle", "listed idle");
  await second.unmount();
});

test("remote: the tab's own copy, where another profile went on since, opens as the server's; one with a message the server never got opens as the tab's", async () => {
  const storage = memoryStorage();
  const first = await profile(remoteStore(storage));
  const id = first.conversations.create();
  await first.open(id);
  await act(async () => first.session.send("First question"));
  await until(() => models.length === 3, "the first run");
  reply(models[2], "a-first");
  await until(() => first.session.state.status === "idle", "the first reply's end");
  await first.unmount();

  const second = await profile(remoteStore());
  await second.open(id);
  await until(() => second.session.messages.length === 2, "the server's copy");
  await act(async () => second.session.send("Second question"));
  await until(() => models.length === 4, "the second run");
  reply(models[3], "a-second");
  await until(() => second.session.state.status === "idle", "the second reply's end");
  await untilServer(async () => (await stored("alice", id))?.messages.length === 4, "the stored turn");
  const continued = second.session.state;
  await second.unmount();

  // The first profile reloads: its copy has two messages, the server's four.
  const reloaded = await profile(remoteStore(storage));
  const titles = [];
  reloaded.conversations.subscribe(() => titles.push(reloaded.conversations.list().find((entry) => entry.id === id)?.title));
  await reloaded.open(id);
  await until(() => reloaded.session.messages.length === 4, "the server's copy");
  assert.deepEqual(reloaded.session.state, continued);
  assert.ok(titles.every((title) => title === "First question"), `listed as it was while the server's copy was read, no flicker: ${JSON.stringify(titles)}`);
  await reloaded.unmount();

  // A send that never reached the server (offline): the tab's copy knows more.
  const unsent = { ...continued, messages: [...continued.messages, { id: "u-offline", role: "user", parts: [{ type: "text", text: "Third question" }] }], status: "error", error: { message: "offline" } };
  saveSession(`chat:${id}`, unsent, storage);
  const offline = await profile(remoteStore(storage));
  await offline.open(id);
  await until(() => offline.session.messages.length === 5, "the tab's copy");
  await act(() => offline.conversations.refresh());
  assert.equal(offline.session.messages.length, 5, "kept: the server's copy lacks the unsent message");
  assert.equal(offline.session.state.error.message, "offline");
  await offline.unmount();
});

test("remote: a list that fails keeps the one shown, the same array", async () => {
  let failing = false;
  const source = {
    list: async () => {
      if (failing) throw new Error("offline");
      return [{ id: "s1", title: "From the server", status: "idle", updatedAt: "2026-01-02T03:04:05.000Z" }];
    },
    read: async () => undefined,
  };
  const conversations = createConversations({ storage: memoryStorage(), remote: source });
  await conversations.refresh();
  const listed = conversations.list();
  assert.deepEqual(listed.map((entry) => [entry.id, entry.title, entry.updatedAt]), [["s1", "From the server", Date.parse("2026-01-02T03:04:05.000Z")]]);
  failing = true;
  await conversations.refresh();
  assert.equal(conversations.list(), listed);
  assert.throws(() => createConversations({ remote: { list() {} } }), { code: "invalid", path: "options.remote" });
});

test("remote: remove(id) deletes it on the server and from the list; a later refresh does not bring it back", async () => {
  await store.save("alice", "c-gone", { messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Old news" }] }], status: "idle" });
  const conversations = remoteStore();
  await conversations.refresh();
  assert.ok(conversations.list().some((entry) => entry.id === "c-gone" && entry.title === "Old news"));
  await conversations.remove("c-gone");
  assert.equal(await stored("alice", "c-gone"), undefined, "deleted on the server");
  await conversations.refresh();
  assert.ok(!conversations.list().some((entry) => entry.id === "c-gone"));
});

test("remote: a conversation the tab stored mid-reply whose run the server ended (a restart) opens as the server stored it", async () => {
  const storage = memoryStorage();
  const first = await profile(remoteStore(storage));
  const id = first.conversations.create();
  await first.open(id);
  await act(async () => first.session.send("Write a poem"));
  await until(() => models.length === 5, "the run");
  reply(models[4], "a-poem", { end: false });
  await until(() => first.session.messages[1]?.parts.length > 0, "the first words");
  // The tab's copy as a reload finds it: stored while the reply streamed.
  const streaming = first.session.state;
  await first.unmount();
  saveSession(`chat:${id}`, streaming, storage);
  // The server shuts down mid-run (its SIGTERM path): the run stored interrupted.
  await chat.close();
  assert.equal((await stored("alice", id)).error?.message, INTERRUPTED);

  const reloaded = await profile(remoteStore(storage));
  await reloaded.open(id);
  await until(() => reloaded.session.state.status === "error", "the server's copy");
  assert.deepEqual(reloaded.session.state, await stored("alice", id), "the partial reply and the interrupted error, as stored");
  assert.equal(models.length, 5, "nothing sent again");
  await reloaded.unmount();
});

test.after(async () => {
  await store.close();
});
