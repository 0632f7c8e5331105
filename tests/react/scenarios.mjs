// What useAgentSession does, as an app sees it, against a scripted endpoint (see harness.mjs).
// Each entry is { name, run }; vitest/ and jest/ register them all with registerScenarios.

import assert from "node:assert/strict";
import { act, version } from "react";
import { branchAt } from "chat-session-reducer";
import { hydrateHook, mockEndpoint, renderHook, scriptedAgent, textOf, until } from "./harness.mjs";

const idle = (hook) => hook.session().status === "idle";
const failed = (hook) => hook.session().status === "error";

async function answered(agent, hook, messageId, text) {
  agent.part({ type: "message-start", messageId });
  for (const word of text.split(/(?<= )/)) agent.part({ type: "text-delta", messageId, text: word });
  agent.part({ type: "finish", reason: "stop" });
  await until(() => idle(hook), "the run to finish");
}

/** A hook (in Strict Mode unless `render` says otherwise) on a scripted agent, after send(text)
 *  has reached the agent. */
async function sent(text, options = {}, render = {}) {
  const agent = scriptedAgent();
  const hook = await renderHook({ api: agent.api, ...options }, render);
  await act(async () => hook.session().send(text));
  await until(() => agent.requests.length === 1);
  return { agent, hook };
}

class MemoryStorage {
  items = new Map();
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  removeItem(key) {
    this.items.delete(key);
  }
}

// An asynchronous session store (as chat-session-reducer/indexeddb's) in memory, whose reads
// wait until answer() is called.
class DeferredStore {
  entries = new Map();
  writes = [];
  waiting = [];
  read(key) {
    return new Promise((resolve) => this.waiting.push(() => resolve(this.entries.get(key) ?? null)));
  }
  answer() {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
  async write(key, { state, id }) {
    this.writes.push(state);
    this.entries.set(key, { format: "chat-session-reducer", version: 3, rev: this.writes.length, id, state: structuredClone(state) });
  }
  async remove(key) {
    this.entries.delete(key);
  }
}

const streamedEntry = () => ({
  format: "chat-session-reducer",
  version: 3,
  rev: 4,
  state: {
    messages: [
      { id: "u1", role: "user", parts: [{ type: "text", text: "Hello" }] },
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "Half a rep" }] },
    ],
    status: "streaming",
  },
});

export const scenarios = [
  {
    name: "send posts the conversation and streams the reply into the session",
    async run() {
      const agent = scriptedAgent();
      const hook = await renderHook({ api: agent.api });
      await act(async () => hook.session().send("Hello"));
      assert.equal(hook.session().status, "streaming");
      await until(() => agent.requests.length === 1);
      const [{ body }] = agent.requests;
      assert.equal(body.messages.length, 1);
      assert.equal(body.messages[0].role, "user");
      assert.equal(textOf(body.messages[0]), "Hello");
      await answered(agent, hook, "a1", "Hi there, how can I help?");
      const { messages } = hook.session();
      assert.deepEqual(messages.map((message) => message.role), ["user", "assistant"]);
      assert.equal(textOf(messages[1]), "Hi there, how can I help?");
      assert.equal(agent.requests.length, 1, "one request per run, in Strict Mode too");
      await hook.unmount();
    },
  },
  {
    name: "a URL api goes through fetch with JSON, the protocol's accept header and the app's headers",
    async run() {
      const agent = scriptedAgent();
      const realFetch = globalThis.fetch;
      globalThis.fetch = agent.fetch;
      try {
        const hook = await renderHook({ api: "/api/chat", headers: () => ({ authorization: "Bearer t" }) });
        await act(async () => hook.session().send("Hello"));
        await until(() => agent.requests.length === 1);
        const [{ url, method, headers }] = agent.requests;
        assert.equal(url, "/api/chat");
        assert.equal(method, "POST");
        assert.equal(headers["content-type"], "application/json");
        assert.equal(headers.accept, "application/x-ndjson");
        assert.equal(headers.authorization, "Bearer t");
        await answered(agent, hook, "a1", "Hi.");
        await hook.unmount();
      } finally {
        globalThis.fetch = realFetch;
      }
    },
  },
  {
    name: "HTTP refusals end the run with the error code the status means",
    async run() {
      for (const [status, code] of [
        [429, "rate_limited"],
        [403, "chat_disabled"],
        [400, "bad_request"],
        [502, "network"],
      ]) {
        const agent = scriptedAgent({ status });
        const hook = await renderHook({ api: agent.api });
        await act(async () => hook.session().send("Hello"));
        await until(() => failed(hook), `HTTP ${status} to end the run`);
        assert.equal(hook.session().error.code, code, `HTTP ${status}`);
        assert.match(hook.session().error.message, new RegExp(`HTTP ${status}.*refused by the test`));
        await hook.unmount();
      }
    },
  },
  {
    name: "a network failure ends the run with a network error, never an exception",
    async run() {
      const hook = await renderHook({ api: async () => Promise.reject(new TypeError("Failed to fetch")) });
      await act(async () => hook.session().send("Hello"));
      await until(() => failed(hook));
      assert.deepEqual(hook.session().error, { message: "Couldn't reach the agent: Failed to fetch", code: "network" });
      await hook.unmount();
    },
  },
  {
    name: "a malformed frame stops the reply with an error naming it, and nothing after it lands",
    async run() {
      for (const [line, problem] of [
        [JSON.stringify({ type: "part", part: { type: "tool-call", id: 42, name: "broken", input: {} } }), /stream\[2\]: action\.part\.id/],
        [JSON.stringify({ type: "reset" }), /stream\[2\]: .*"part" or "toolPhase"/],
        ['{"type": "part", "part": {', /stream\[2\]: not JSON/],
      ]) {
        const agent = scriptedAgent();
        const hook = await renderHook({ api: agent.api });
        await act(async () => hook.session().send("Hello"));
        await until(() => agent.requests.length === 1);
        agent.part({ type: "message-start", messageId: "a1" });
        agent.part({ type: "text-delta", messageId: "a1", text: "Before." });
        agent.writeLine(line);
        agent.part({ type: "text-delta", messageId: "a1", text: " After." });
        await until(() => failed(hook));
        assert.match(hook.session().error.message, /^The agent sent a malformed frame/);
        assert.match(hook.session().error.message, problem);
        assert.doesNotMatch(hook.session().error.message, /another protocol/, "NDJSON is what the hook reads");
        assert.equal(textOf(hook.session().messages[1]), "Before.");
        assert.equal(agent.requests[0].signal.aborted, true, "the request is aborted");
        await hook.unmount();
      }
    },
  },
  {
    name: "a stream that ends before the run finished is a network error",
    async run() {
      const { agent, hook } = await sent("Hello");
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "text-delta", messageId: "a1", text: "Half a" });
      agent.end();
      await until(() => failed(hook));
      assert.deepEqual(hook.session().error, { message: "The connection closed before the reply was finished.", code: "network" });
      assert.equal(textOf(hook.session().messages[1]), "Half a");
      await hook.unmount();
    },
  },
  {
    name: "stop aborts the request, keeps what arrived and cancels the running call",
    async run() {
      const { agent, hook } = await sent("Look it up");
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "tool-call", messageId: "a1", id: "c1", name: "search", input: { q: "x" } });
      await until(() => hook.session().messages.length === 2);
      agent.part({ type: "text-delta", messageId: "a1", text: "Searching" });
      await act(async () => hook.session().stop());
      const { status, messages } = hook.session();
      assert.equal(status, "idle");
      assert.equal(messages[1].parts[0].state, "cancelled");
      assert.equal(agent.requests[0].signal.aborted, true);
      await hook.unmount();
    },
  },
  {
    name: "unmounting aborts the request",
    async run() {
      const { agent, hook } = await sent("Hello");
      await hook.unmount();
      assert.equal(agent.requests[0].signal.aborted, true);
    },
  },
  {
    name: "retry sends what resumable keeps: through the finished tool call",
    async run() {
      const { agent, hook } = await sent("Weather?");
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "tool-call", messageId: "a1", id: "c1", name: "weather", input: {} });
      agent.part({ type: "tool-result", id: "c1", output: "sunny" });
      agent.part({ type: "text-delta", messageId: "a1", text: "It is" });
      agent.part({ type: "error", error: "connection reset", code: "network" });
      await until(() => failed(hook));
      await act(async () => hook.session().retry());
      await until(() => agent.requests.length === 2);
      const resent = agent.requests[1].body.messages;
      assert.equal(resent.length, 2);
      assert.deepEqual(resent[1].parts.map((part) => part.type), ["tool"]);
      await answered(agent, hook, "a1", " sunny.");
      assert.equal(hook.session().error, undefined);
      await hook.unmount();
    },
  },
  {
    name: "a stream's actions are applied once per frame, in one render",
    async run() {
      const { agent, hook } = await sent("Hello", {}, { strict: false });
      agent.part({ type: "message-start", messageId: "a1" });
      await until(() => hook.session().messages.length === 2);
      const before = hook.renders;
      for (let i = 0; i < 200; i += 1) agent.part({ type: "text-delta", messageId: "a1", text: "x" });
      await until(() => textOf(hook.session().messages[1]).length === 200);
      assert.ok(hook.renders - before <= 2, `200 deltas written at once took ${hook.renders - before} renders`);
      await hook.unmount();
    },
  },
  {
    name: "approve answers a call awaiting confirmation and starts the continuation once no call waits",
    async run() {
      const { agent, hook } = await sent("Clean up");
      agent.part({ type: "message-start", messageId: "a1" });
      for (const id of ["c1", "c2"]) {
        agent.part({ type: "tool-call", messageId: "a1", id, name: "delete", input: { id } });
        agent.part({ type: "tool-approval-request", id, approvalId: `ap-${id}`, prompt: `Delete ${id}?` });
      }
      agent.part({ type: "finish", reason: "tool-calls" });
      await until(() => idle(hook) && hook.session().messages.length === 2);
      const states = () => hook.session().messages[1].parts.map((part) => part.state);
      assert.deepEqual(states(), ["awaiting-confirmation", "awaiting-confirmation"]);

      await act(async () => hook.session().approve("c1"));
      assert.deepEqual(states(), ["running", "awaiting-confirmation"]);
      assert.equal(hook.session().status, "idle", "c2 still waits: no continuation yet");
      await act(async () => hook.session().deny("c2", "Keep it"));
      assert.equal(hook.session().status, "streaming", "both answered: the agent goes on");
      await until(() => agent.requests.length === 2);
      const [first, second] = agent.requests[1].body.messages[1].parts;
      assert.deepEqual([first.state, first.approval.approved], ["running", true]);
      assert.deepEqual([second.state, second.approval.approved, second.error.code], ["error", false, "denied"]);
      agent.part({ type: "tool-result", id: "c1", output: "deleted" });
      await answered(agent, hook, "a2", "Deleted c1, kept c2.");
      assert.deepEqual(states(), ["done", "error"]);
      await hook.unmount();
    },
  },
  {
    name: "answer gives a client-side tool call its result and lets the agent go on",
    async run() {
      const { agent, hook } = await sent("Book a table");
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "tool-call", messageId: "a1", id: "c1", name: "pick_time", input: { options: ["7 pm", "8 pm"] } });
      agent.part({ type: "finish", reason: "tool-calls" });
      await until(() => idle(hook) && hook.session().messages.length === 2);
      await act(async () => hook.session().answer("c1", { time: "8 pm" }));
      await until(() => agent.requests.length === 2);
      const call = agent.requests[1].body.messages[1].parts[0];
      assert.deepEqual([call.state, call.output], ["done", { time: "8 pm" }]);
      await answered(agent, hook, "a2", "Booked for 8 pm.");
      await hook.unmount();
    },
  },
  {
    name: "a reply that finished is never aborted: the request ends as the server ends it",
    async run() {
      const { agent, hook } = await sent("Hello");
      await answered(agent, hook, "a1", "Hi there.");
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      assert.equal(agent.requests[0].signal.aborted, false, "the finished request was aborted");
      agent.end();
      await hook.unmount();
      assert.equal(agent.requests[0].signal.aborted, false, "unmounting aborted a finished request");
    },
  },
  {
    name: "a server that keeps the connection open after the reply ended is cut off a moment later",
    async run() {
      const { agent, hook } = await sent("Hello");
      await answered(agent, hook, "a1", "Hi there.");
      agent.part({ type: "text-delta", messageId: "a1", text: " (late)" });
      await until(() => agent.requests[0].signal.aborted, "the request to be cut off");
      assert.equal(textOf(hook.session().messages[1]), "Hi there.", "nothing after the end lands");
      await hook.unmount();
    },
  },
  {
    name: "a response in another protocol than the hook's fails saying which protocol to set",
    async run() {
      const endpoint = mockEndpoint("ai-sdk", [[{ type: "start", messageId: "a1" }, { type: "finish" }]]);
      const hook = await renderHook({ api: endpoint.api });
      await act(async () => hook.session().send("Hello"));
      await until(() => failed(hook));
      const { message } = hook.session().error;
      assert.match(message, /^The agent sent a malformed frame, so this reply was stopped: stream\[0\]: not JSON/);
      assert.match(message, /the response looks like another protocol \(text\/event-stream\), and this hook reads "actions": set protocol: "ai-sdk"$/);
      await hook.unmount();
    },
  },
  {
    name: "dispatch throws a malformed action at the caller, not in render",
    async run() {
      const hook = await renderHook({ api: scriptedAgent().api });
      let thrown;
      try {
        hook.session().dispatch({ type: "send", id: 7, text: "x" });
      } catch (error) {
        thrown = error;
      }
      assert.equal(thrown?.code, "invalid");
      assert.equal(thrown?.path, "action.id");
      assert.equal(hook.session().messages.length, 0);
      await hook.unmount();
    },
  },
  {
    name: "with a storage key the conversation is saved, and restored after mount with stop applied",
    async run() {
      const storage = new MemoryStorage();
      const agent = scriptedAgent();
      const first = await renderHook({ api: agent.api, storageKey: "chat", storage });
      await act(async () => first.session().send("Look it up"));
      await until(() => agent.requests.length === 1);
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "tool-call", messageId: "a1", id: "c1", name: "search", input: {} });
      await until(() => first.session().messages.length === 2);
      await first.unmount();
      assert.ok(storage.getItem("chat")?.includes('"search"'), "saved while streaming");

      const second = await renderHook({ api: agent.api, storageKey: "chat", storage });
      const { status, messages } = second.session();
      assert.equal(status, "idle");
      assert.equal(messages.length, 2);
      assert.equal(messages[1].parts[0].state, "cancelled", "a reload never shows a call as running");
      assert.equal(agent.requests.length, 1, "restoring starts no run");
      await act(async () => second.session().reset());
      await second.unmount();
      const third = await renderHook({ api: agent.api, storageKey: "chat", storage });
      assert.equal(third.session().messages.length, 0, "reset is saved too");
      await third.unmount();
    },
  },
  {
    name: "while a reply streams the conversation is saved at most twice a second, and at once when it ends",
    async run() {
      const storage = new MemoryStorage();
      let saves = 0;
      const setItem = storage.setItem.bind(storage);
      storage.setItem = (key, value) => (saves++, setItem(key, value));
      const { agent, hook } = await sent("Hello", { storageKey: "chat", storage, throttle: 10 });
      agent.part({ type: "message-start", messageId: "a1" });
      const started = Date.now();
      for (let i = 0; i < 60; i += 1) {
        agent.part({ type: "text-delta", messageId: "a1", text: "x" });
        await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
      }
      const elapsed = Date.now() - started;
      assert.ok(saves <= 1 + Math.ceil(elapsed / 500), `${saves} saves in ${elapsed} ms of streaming`);
      agent.part({ type: "finish" });
      await until(() => idle(hook));
      assert.match(storage.getItem("chat"), /"status":"idle"/, "saved when the run ended");
      assert.match(storage.getItem("chat"), /x{60}/);
      await hook.unmount();
    },
  },
  {
    name: "without a storage key nothing is stored",
    async run() {
      const storage = new MemoryStorage();
      const { agent, hook } = await sent("Hello", { storage });
      await answered(agent, hook, "a1", "Hi.");
      assert.equal(storage.items.size, 0);
      await hook.unmount();
    },
  },
  {
    name: "server render and hydration agree on the empty session; the stored one appears right after",
    async run() {
      const storage = new MemoryStorage();
      const agent = scriptedAgent();
      const first = await renderHook({ api: agent.api, storageKey: "chat", storage });
      await act(async () => first.session().send("Hello"));
      await until(() => agent.requests.length === 1);
      await answered(agent, first, "a1", "Hi.");
      await first.unmount();

      const hydrated = await hydrateHook({ api: agent.api, storageKey: "chat", storage });
      assert.equal(hydrated.html, "<p>0 messages, idle</p>", "the server renders the empty session");
      assert.equal(hydrated.container.textContent, "2 messages, idle", "the stored session, once hydrated");
      // React 18 warns about useLayoutEffect when it renders on the "server" where a `document`
      // exists, as this test does in jsdom; a real server has none, and there the hook uses
      // useEffect. React 19 never warns. Anything else (a mismatch, a recoverable error) counts.
      const serverLayoutEffect = /^console\.error: Warning: useLayoutEffect does nothing on the server/;
      const problems = version.startsWith("18.") ? hydrated.problems.filter((problem) => !serverLayoutEffect.test(problem)) : hydrated.problems;
      assert.deepEqual(problems, []);
      await hydrated.unmount();
    },
  },
  {
    name: "an asynchronous store: hydration matches, nothing is saved before it answers, then the stored session appears",
    async run() {
      const store = new DeferredStore();
      store.entries.set("chat", streamedEntry());
      const agent = scriptedAgent();
      const hydrated = await hydrateHook({ api: agent.api, storageKey: "chat", storage: store });
      assert.equal(hydrated.html, "<p>0 messages, idle</p>");
      assert.equal(hydrated.container.textContent, "0 messages, idle", "the store has not answered yet");
      assert.deepEqual(hydrated.problems.filter((problem) => !/useLayoutEffect does nothing on the server/.test(problem)), []);
      await act(async () => store.answer());
      await until(() => hydrated.container.textContent === "2 messages, idle");
      assert.deepEqual(store.writes, [], "the empty session never overwrote it, and what was restored is not written back");
      assert.equal(store.entries.get("chat").state.messages[1].parts[0].text, "Half a rep");
      await hydrated.unmount();
    },
  },
  {
    name: "an asynchronous store: an action before it answers is kept and saved, and a later reply is saved too",
    async run() {
      const store = new DeferredStore();
      store.entries.set("chat", streamedEntry());
      const agent = scriptedAgent();
      const hook = await renderHook({ api: agent.api, storageKey: "chat", storage: store });
      await act(async () => hook.session().send("Started before the store answered"));
      await until(() => agent.requests.length === 1);
      assert.deepEqual(store.writes, [], "no save while the store has not answered");
      await act(async () => store.answer());
      await answered(agent, hook, "a2", "Done.");
      const { messages } = hook.session();
      assert.deepEqual(messages.map(textOf), ["Started before the store answered", "Done."], "the stored session did not replace it");
      await until(() => store.entries.get("chat").state.status === "idle");
      assert.equal(textOf(store.entries.get("chat").state.messages[1]), "Done.");
      await hook.unmount();
    },
  },
  {
    name: "a save refused for quota shows storageError, loses nothing, and is retried until it lands",
    async run() {
      const storage = new MemoryStorage();
      let full = false;
      const setItem = storage.setItem.bind(storage);
      storage.setItem = (key, value) => {
        if (full) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        setItem(key, value);
      };
      const { agent, hook } = await sent("Hello", { storageKey: "chat", storage });
      full = true;
      await answered(agent, hook, "a1", "Kept in memory.");
      await until(() => hook.session().storageError?.code === "quota");
      assert.equal(textOf(hook.session().messages[1]), "Kept in memory.", "the conversation in memory is intact");
      assert.doesNotMatch(storage.getItem("chat") ?? "", /Kept in memory/);
      full = false;
      // Retried after 2 s with no change in between.
      for (let waited = 0; hook.session().storageError !== undefined && waited < 5_000; waited += 50) {
        await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      }
      assert.equal(hook.session().storageError, undefined);
      assert.match(storage.getItem("chat"), /Kept in memory\./);
      await hook.unmount();
    },
  },
];

// SPEC v3: branches, the queue and a question that survives a reload, as the hook runs them.
scenarios.push(
  {
    name: "edit while a reply streams aborts its request and makes one for the edited turn; the old turn stays a branch",
    async run() {
      const { agent, hook } = await sent("Hello");
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "text-delta", messageId: "a1", text: "Half a" });
      await until(() => hook.session().messages[1]?.parts.length === 1);
      const question = hook.session().messages[0];
      await act(async () => hook.session().edit(question.id, "Hi instead"));
      await until(() => agent.requests.length === 2, "the edited turn's request");
      assert.equal(agent.requests[0].signal.aborted, true, "the request in flight is aborted");
      assert.deepEqual(agent.requests[1].body.messages.map(textOf), ["Hi instead"]);
      await answered(agent, hook, "a2", "Hi!");
      const { state, messages } = hook.session();
      assert.deepEqual(messages.map(textOf), ["Hi instead", "Hi!"]);
      assert.deepEqual(branchAt(state, 0), { after: null, active: 1, count: 2 });
      await act(async () => hook.session().switchBranch(null, 0));
      assert.equal(hook.session().messages[0], question, "switching back gives the very message set aside");
      assert.equal(textOf(hook.session().messages[1]), "Half a");
      assert.equal(agent.requests.length, 2, "one request per run; switching makes none");
      await hook.unmount();
    },
  },
  {
    name: "regenerate makes one request for a new reply, without the reply it sets aside",
    async run() {
      const { agent, hook } = await sent("Hello");
      await answered(agent, hook, "a1", "First answer.");
      const [question, first] = hook.session().messages;
      await act(async () => hook.session().regenerate(first.id));
      await until(() => agent.requests.length === 2, "the regenerated reply's request");
      assert.deepEqual(agent.requests[1].body.messages.map((message) => message.id), [question.id]);
      await answered(agent, hook, "a2", "Second answer.");
      assert.deepEqual(branchAt(hook.session().state, 1), { after: question.id, active: 1, count: 2 });
      await act(async () => hook.session().switchBranch(question.id, 0));
      assert.equal(hook.session().messages[1], first);
      assert.equal(agent.requests.length, 2);
      await hook.unmount();
    },
  },
  {
    name: "send while a reply streams queues: no request until the reply ends, then one for the queued turn",
    async run() {
      const { agent, hook } = await sent("Hello");
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "text-delta", messageId: "a1", text: "Hi, " });
      await until(() => hook.session().messages[1]?.parts.length === 1);
      await act(async () => hook.session().send("And the weather?"));
      await act(async () => hook.session().send("Never mind"));
      assert.deepEqual(hook.session().queue.map((queued) => queued.text), ["And the weather?", "Never mind"]);
      assert.equal(hook.session().messages.length, 2, "nothing lands in the middle of the reply");
      await act(async () => hook.session().unqueue(hook.session().queue[1].id));
      assert.deepEqual(hook.session().queue.map((queued) => queued.text), ["And the weather?"]);
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      assert.equal(agent.requests.length, 1, "no second request while the reply streams");

      agent.part({ type: "text-delta", messageId: "a1", text: "how can I help?" });
      agent.part({ type: "finish", reason: "stop" });
      await until(() => agent.requests.length === 2, "the queued turn's request");
      assert.equal(hook.session().status, "streaming");
      assert.deepEqual(hook.session().queue, []);
      assert.deepEqual(agent.requests[1].body.messages.map(textOf), ["Hello", "Hi, how can I help?", "And the weather?"]);
      assert.equal(agent.requests[0].signal.aborted, false, "the reply that ended is not aborted");
      await answered(agent, hook, "a2", "Sunny.");
      assert.deepEqual(hook.session().messages.map(textOf), ["Hello", "Hi, how can I help?", "And the weather?", "Sunny."]);
      assert.equal(agent.requests.length, 2, "one request per turn");
      await hook.unmount();
    },
  },
  {
    name: "an approval asked after the run is restored still waiting, and answering it lets the agent go on",
    async run() {
      const storage = new MemoryStorage();
      const { agent, hook } = await sent("Clean up", { storageKey: "chat", storage });
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "tool-call", messageId: "a1", id: "c1", name: "delete", input: {} });
      agent.part({ type: "tool-approval-request", id: "c1", prompt: "Delete it?" });
      agent.part({ type: "finish", reason: "tool-calls" });
      await until(() => idle(hook) && hook.session().messages.length === 2);
      await hook.unmount();

      const again = await renderHook({ api: agent.api, storageKey: "chat", storage });
      const call = () => again.session().messages[1].parts[0];
      assert.deepEqual([again.session().status, call().state, call().prompt], ["idle", "awaiting-confirmation", "Delete it?"]);
      await act(async () => again.session().approve("c1"));
      await until(() => agent.requests.length === 2, "the continuation's request");
      const sentCall = agent.requests[1].body.messages[1].parts[0];
      assert.deepEqual([sentCall.state, sentCall.approval.approved], ["running", true]);
      agent.part({ type: "tool-result", id: "c1", output: "deleted" });
      await answered(agent, again, "a2", "Deleted.");
      assert.equal(call().state, "done");
      await again.unmount();
    },
  },
);

/** Registers every scenario with a runner's `test`. */
export function registerScenarios(test) {
  for (const { name, run } of scenarios) test(name, run);
}
