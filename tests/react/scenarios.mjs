// What useAgentSession does, as an app sees it, against a scripted endpoint (see harness.mjs).
// Each entry is { name, run }; vitest/ and jest/ register them all with registerScenarios.

import assert from "node:assert/strict";
import { act, version } from "react";
import { branchAt } from "chat-session-reducer";
import { drop, hydrateHook, mockEndpoint, raw, renderHook, renderToStringOf, scriptedAgent, textOf, until } from "./harness.mjs";

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
      assert.equal(hook.session().status, "submitted", "request sent, nothing streamed yet");
      assert.equal(hook.session().state.status, "streaming", "the session's own status is the reducer's");
      await until(() => agent.requests.length === 1);
      agent.part({ type: "message-start", messageId: "a1" });
      await until(() => hook.session().status === "streaming", "the first frame to end submitted");
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
        const errors = [];
        const agent = scriptedAgent({ status });
        const hook = await renderHook({ api: agent.api, onError: (error) => errors.push(error) });
        await act(async () => hook.session().send("Hello"));
        await until(() => failed(hook), `HTTP ${status} to end the run`);
        const { error, state } = hook.session();
        assert.equal(error.code, code, `HTTP ${status}`);
        // The status and the server's words are kept apart: the message is for people.
        assert.equal(error.status, status);
        assert.equal(error.body, JSON.stringify({ error: "refused by the test" }));
        assert.doesNotMatch(error.message, /HTTP/);
        // A refusal's reason is the server's message to the user; a server error's words are not.
        if (status < 500) assert.equal(error.message, "refused by the test");
        else assert.equal(error.message, "The agent failed to answer. Try again.");
        assert.deepEqual(state.error, { message: error.message, code }, "the session keeps the message and code");
        assert.deepEqual(errors, [error], "onError gets the same error, once");
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
      assert.deepEqual(hook.session().error, { message: "Couldn't reach the agent.", code: "network", cause: "Failed to fetch" });
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
      assert.equal(hook.session().state.status, "streaming", "both answered: the agent goes on");
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
    name: "an asynchronous store: changing storageKey opens what it holds under the new key once it answers, with its id; nothing is written meanwhile",
    async run() {
      const store = new DeferredStore();
      store.entries.set("b", { ...streamedEntry(), id: "chat-b" });
      const agent = scriptedAgent();
      const options = { api: agent.api, storage: store };
      const hook = await renderHook({ ...options, storageKey: "a" });
      await act(async () => store.answer());
      await act(async () => hook.session().send("Chat A"));
      await until(() => agent.requests.length === 1);
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "text-delta", messageId: "a1", text: "Half of A" });
      await until(() => store.entries.get("a")?.state.messages.length === 2);
      const aId = hook.session().id;

      await hook.rerender({ ...options, storageKey: "c" });
      await hook.rerender({ ...options, storageKey: "b" });
      const writes = store.writes.length;
      assert.deepEqual(hook.session().messages.map(textOf), ["Chat A", "Half of A"], "shown until the store answers");
      await act(async () => store.answer());
      await until(() => textOf(hook.session().messages[0]) === "Hello");
      assert.equal(agent.requests[0].signal.aborted, true, "the reply of the conversation left is aborted");
      assert.deepEqual([hook.session().id, hook.session().status], ["chat-b", "idle"], "its id, and stop applied");
      assert.equal(store.entries.has("c"), false, "the key left before its store answered is never written");
      assert.equal(store.writes.length, writes, "nor b, until its conversation changes");
      assert.equal(store.entries.get("a").id, aId);
      await act(async () => hook.session().send("More for B"));
      await until(() => agent.requests.length === 2);
      await until(() => store.entries.get("b").state.messages.length === 3);
      assert.equal(store.entries.get("b").id, "chat-b");
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
      assert.equal(hook.session().status, "submitted", "the queued turn's run has streamed nothing yet");
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

// Issue 22: the options and returns a useChat user reaches for.
const aiSdkTurn = (messageId, text) => [
  { type: "start", messageId },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: text },
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: "stop" },
];
const aiSdkUserText = (message) => message.parts.filter((part) => part.type === "text").map((part) => part.text).join("");

async function sentOn(endpoint, text, options = {}) {
  const hook = await renderHook({ api: endpoint.api, ...options });
  await act(async () => hook.session().send(text));
  await until(() => hook.session().state.status !== "streaming", "the run to end");
  return hook;
}

scenarios.push(
  {
    name: "id: one id per conversation, sent as the AI SDK body's id and AG-UI's threadId, new after reset",
    async run() {
      const aiSdk = mockEndpoint("ai-sdk", [aiSdkTurn("a1", "One."), aiSdkTurn("a2", "Two."), aiSdkTurn("a3", "Three.")]);
      const hook = await sentOn(aiSdk, "Hello", { protocol: "ai-sdk" });
      const { id } = hook.session();
      assert.match(id, /^chat_[0-9a-f]{16}$/);
      await act(async () => hook.session().send("Again"));
      await until(() => aiSdk.requests.length === 2 && idle(hook));
      assert.deepEqual(aiSdk.requests.map((request) => request.body.id), [id, id], "the same conversation, the same id");
      await act(async () => hook.session().reset());
      assert.notEqual(hook.session().id, id, "a reset starts a new conversation");
      await act(async () => hook.session().send("New"));
      await until(() => aiSdk.requests.length === 3 && idle(hook));
      assert.equal(aiSdk.requests[2].body.id, hook.session().id);
      await hook.unmount();

      const other = await renderHook({ api: mockEndpoint("ai-sdk", []).api, protocol: "ai-sdk" });
      assert.notEqual(other.session().id, hook.session().id, "another hook, another conversation");
      await other.unmount();

      const agUi = mockEndpoint("ag-ui", [[{ type: "RUN_STARTED", threadId: "x", runId: "r" }, { type: "RUN_FINISHED", threadId: "x", runId: "r" }]]);
      const given = await sentOn(agUi, "Hello", { protocol: "ag-ui", id: "thread-42" });
      assert.equal(given.session().id, "thread-42");
      assert.equal(agUi.requests[0].body.threadId, "thread-42");
      await given.unmount();
    },
  },
  {
    name: "id: kept with the conversation in storage, and a stored conversation of another id is not opened",
    async run() {
      const storage = new MemoryStorage();
      const endpoint = mockEndpoint("ai-sdk", [aiSdkTurn("a1", "Hi."), aiSdkTurn("a2", "Hi again.")]);
      const first = await sentOn(endpoint, "Hello", { protocol: "ai-sdk", storageKey: "chat", storage });
      const { id } = first.session();
      await first.unmount();
      assert.equal(JSON.parse(storage.getItem("chat")).id, id, "the envelope keeps the id");

      const again = await renderHook({ api: endpoint.api, protocol: "ai-sdk", storageKey: "chat", storage });
      assert.equal(again.session().id, id, "restored with its conversation");
      assert.equal(again.session().messages.length, 2);
      await act(async () => again.session().send("More"));
      await until(() => endpoint.requests.length === 2 && idle(again));
      assert.equal(endpoint.requests[1].body.id, id);
      await again.unmount();

      const another = await renderHook({ api: endpoint.api, protocol: "ai-sdk", storageKey: "chat", storage, id: "someone-else" });
      assert.deepEqual([another.session().id, another.session().messages.length], ["someone-else", 0]);
      await another.unmount();
    },
  },
  {
    name: "changing storageKey opens the conversation stored under it and aborts the reply; neither is overwritten",
    async run() {
      const storage = new MemoryStorage();
      const agent = scriptedAgent();
      const options = { api: agent.api, storage };
      const hook = await renderHook({ ...options, storageKey: "a" });
      await act(async () => hook.session().send("Chat A"));
      await until(() => agent.requests.length === 1);
      await answered(agent, hook, "a1", "Answer A.");
      const aId = hook.session().id;

      await hook.rerender({ ...options, storageKey: "b" });
      assert.equal(hook.session().messages.length, 0, "nothing stored under b: a new conversation");
      assert.notEqual(hook.session().id, aId);
      await act(async () => hook.session().send("Chat B"));
      await until(() => agent.requests.length === 2);
      agent.part({ type: "message-start", messageId: "b1" });
      agent.part({ type: "text-delta", messageId: "b1", text: "Half of B" });
      await until(() => hook.session().messages.length === 2);

      await hook.rerender({ ...options, storageKey: "a" });
      assert.equal(agent.requests[1].signal.aborted, true, "the reply of the conversation left is aborted");
      assert.deepEqual(hook.session().messages.map(textOf), ["Chat A", "Answer A."]);
      assert.equal(hook.session().id, aId);
      await hook.unmount();
      assert.match(storage.getItem("a"), /Answer A\./);
      assert.match(storage.getItem("b"), /Half of B/, "b kept what it streamed");
      assert.doesNotMatch(storage.getItem("b"), /Answer A\./);
    },
  },
  {
    name: "changing id opens a new conversation (the initial one), as useChat does",
    async run() {
      const agent = scriptedAgent();
      const initialMessages = [{ id: "hello", role: "assistant", parts: [{ type: "text", text: "How can I help?" }] }];
      const finished = [];
      const onFinish = (event) => finished.push(event);
      const hook = await renderHook({ api: agent.api, id: "one", initialMessages, onFinish });
      await act(async () => hook.session().send("Hi"));
      await until(() => agent.requests.length === 1);
      assert.equal(agent.requests[0].body.messages.length, 2, "the initial message is sent too");
      await hook.rerender({ api: agent.api, id: "two", initialMessages, onFinish });
      assert.equal(agent.requests[0].signal.aborted, true);
      assert.deepEqual(finished, [], "the aborted run was the conversation left's: not reported");
      assert.deepEqual([hook.session().id, hook.session().status], ["two", "idle"]);
      assert.deepEqual(hook.session().messages.map(textOf), ["How can I help?"]);
      await hook.unmount();
    },
  },
  {
    name: "initialMessages and initialState: rendered on the server too, sent with the first request; a stored conversation wins",
    async run() {
      const initialMessages = [{ id: "hello", role: "assistant", parts: [{ type: "text", text: "How can I help?" }] }];
      const hydrated = await hydrateHook({ api: scriptedAgent().api, initialMessages });
      assert.equal(hydrated.html, "<p>1 messages, idle</p>");
      assert.deepEqual(hydrated.problems.filter((problem) => !/useLayoutEffect does nothing on the server/.test(problem)), []);
      await hydrated.unmount();

      const { agent, hook } = await sent("Hi", { initialState: { messages: initialMessages, status: "idle", agentState: { step: 1 } } });
      assert.deepEqual(agent.requests[0].body.messages.map(textOf), ["How can I help?", "Hi"]);
      assert.deepEqual(hook.session().state.agentState, { step: 1 });
      await hook.unmount();

      const storage = new MemoryStorage();
      const stored = await renderHook({ api: agent.api, storageKey: "chat", storage });
      await act(async () => stored.session().send("Stored"));
      await until(() => agent.requests.length === 2);
      await answered(agent, stored, "s1", "Kept.");
      await stored.unmount();
      const restored = await renderHook({ api: agent.api, storageKey: "chat", storage, initialMessages });
      assert.deepEqual(restored.session().messages.map(textOf), ["Stored", "Kept."]);
      await restored.unmount();

      assert.throws(
        () => renderToStringOf({ api: agent.api, initialMessages: [{ id: 7, role: "user", parts: [] }] }),
        (error) => error.code === "invalid" && error.path === "options.initialMessages[0].id",
      );
    },
  },
  {
    name: "status is submitted from the request until the first frame, then streaming",
    async run() {
      const { agent, hook } = await sent("Hello");
      assert.equal(hook.session().status, "submitted");
      await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
      assert.equal(hook.session().status, "submitted", "nothing arrived: still submitted");
      agent.part({ type: "message-start", messageId: "a1" });
      await until(() => hook.session().status === "streaming");
      await answered(agent, hook, "a1", "Hi.");
      assert.equal(hook.session().status, "idle");
      await hook.unmount();
    },
  },
  {
    name: "onFinish after each run with the state and the last assistant message; onError when it failed",
    async run() {
      const finished = [];
      const errors = [];
      const { agent, hook } = await sent("Hello", { onFinish: (event) => finished.push(event), onError: (error) => errors.push(error) });
      await answered(agent, hook, "a1", "Hi there.");
      assert.equal(finished.length, 1);
      assert.equal(finished[0].state, hook.session().state);
      assert.equal(textOf(finished[0].message), "Hi there.");
      await act(async () => hook.session().send("More"));
      await until(() => agent.requests.length === 2);
      agent.part({ type: "error", error: "The model is overloaded." });
      await until(() => failed(hook));
      assert.equal(finished.length, 2, "a failed run ends too");
      assert.deepEqual(errors, [{ message: "The model is overloaded." }]);
      await act(async () => hook.session().send("Once more"));
      await until(() => agent.requests.length === 3);
      await act(async () => hook.session().stop());
      await until(() => finished.length === 3, "a stopped run ends too");
      assert.equal(errors.length, 1);
      await hook.unmount();
    },
  },
  {
    name: "onToolCall answers a client-side call with its result, or its error, and the agent goes on",
    async run() {
      const calls = [];
      const onToolCall = async ({ toolCall }) => {
        calls.push(toolCall.name);
        if (toolCall.name === "fail") throw new Error("No location permission");
        if (toolCall.name === "later") return undefined;
        return { city: "Lisbon" };
      };
      const { agent, hook } = await sent("Where am I?", { onToolCall });
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "tool-call", messageId: "a1", id: "c1", name: "locate", input: {} });
      agent.part({ type: "tool-call", messageId: "a1", id: "c2", name: "fail", input: {} });
      await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
      assert.deepEqual(calls, [], "not while the run streams: the agent may answer it");
      agent.part({ type: "finish", reason: "tool-calls" });
      await until(() => agent.requests.length === 2, "the continuation");
      assert.deepEqual(calls, ["locate", "fail"]);
      const [located, refused] = agent.requests[1].body.messages[1].parts;
      assert.deepEqual([located.state, located.output], ["done", { city: "Lisbon" }]);
      assert.deepEqual([refused.state, refused.error.message], ["error", "No location permission"]);
      agent.part({ type: "message-start", messageId: "a2" });
      agent.part({ type: "tool-call", messageId: "a2", id: "c3", name: "later", input: {} });
      agent.part({ type: "finish", reason: "tool-calls" });
      await until(() => idle(hook) && calls.length === 3);
      await act(() => new Promise((resolve) => setTimeout(resolve, 30)));
      assert.equal(agent.requests.length, 2, "undefined: the call waits for answer()");
      await act(async () => hook.session().answer("c3", "ok"));
      await until(() => agent.requests.length === 3);
      assert.deepEqual(calls, ["locate", "fail", "later"], "once per call");
      await hook.unmount();
    },
  },
  {
    name: "onToolCall is not given a call that awaits approval, nor the approved call (the agent runs it)",
    async run() {
      const calls = [];
      const { agent, hook } = await sent("Delete it", { onToolCall: ({ toolCall }) => void calls.push(toolCall.id) });
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "tool-call", messageId: "a1", id: "c1", name: "delete", input: {} });
      agent.part({ type: "tool-approval-request", id: "c1", prompt: "Delete?" });
      agent.part({ type: "finish", reason: "tool-calls" });
      await until(() => idle(hook) && hook.session().messages.length === 2);
      await act(async () => hook.session().approve("c1"));
      await until(() => agent.requests.length === 2);
      agent.part({ type: "tool-result", id: "c1", output: "deleted" });
      await answered(agent, hook, "a2", "Done.");
      assert.deepEqual(calls, []);
      await hook.unmount();
    },
  },
  {
    name: "onData gets transient data parts, which are never stored, and the stored ones as they arrive",
    async run() {
      const data = [];
      const endpoint = mockEndpoint("ai-sdk", [
        [
          { type: "start", messageId: "a1" },
          { type: "data-progress", data: { percent: 50 }, transient: true },
          { type: "data-weather", id: "w1", data: { city: "Oslo" } },
          ...aiSdkTurn("a1", "Done.").slice(1),
        ],
      ]);
      const hook = await sentOn(endpoint, "Weather?", { protocol: "ai-sdk", onData: (part) => data.push(part) });
      await until(() => data.length === 2);
      assert.deepEqual(data, [
        { type: "data", name: "progress", data: { percent: 50 }, transient: true },
        { type: "data", name: "weather", id: "w1", data: { city: "Oslo" } },
      ]);
      const names = hook.session().messages[1].parts.filter((part) => part.type === "data").map((part) => part.name);
      assert.deepEqual(names, ["weather"], "the transient part is not in the session");
      await hook.unmount();
    },
  },
  {
    name: "send with files and metadata: a file data part reaches an AI SDK server as a file part",
    async run() {
      const endpoint = mockEndpoint("ai-sdk", [aiSdkTurn("a1", "A cat.")]);
      const hook = await renderHook({ api: endpoint.api, protocol: "ai-sdk" });
      const file = { type: "data", name: "file", data: { mediaType: "image/png", url: "data:image/png;base64,AAAA", filename: "cat.png" } };
      await act(async () => hook.session().send("What is this?", { parts: [file], metadata: { from: "test" } }));
      await until(() => idle(hook));
      const [message] = endpoint.requests[0].body.messages;
      assert.deepEqual(message.parts, [
        { type: "text", text: "What is this?" },
        { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA", filename: "cat.png" },
      ]);
      assert.deepEqual(message.metadata, { from: "test" });
      assert.equal(aiSdkUserText(message), "What is this?");
      await hook.unmount();
    },
  },
  {
    name: "the AI SDK body says what started the run, as useChat's does: trigger and messageId",
    async run() {
      const locate = [{ type: "start", messageId: "a3" }, { type: "tool-input-available", toolCallId: "c1", toolName: "locate", input: {} }, { type: "finish", finishReason: "tool-calls" }];
      const failing = [{ type: "start", messageId: "a5" }, { type: "error", errorText: "Overloaded" }];
      const turns = [aiSdkTurn("a1", "Hi."), aiSdkTurn("a2", "Hello."), locate, aiSdkTurn("a3", "Paris."), failing, aiSdkTurn("a6", "Back."), aiSdkTurn("a7", "Hey.")];
      const endpoint = mockEndpoint("ai-sdk", turns);
      const hook = await sentOn(endpoint, "Hello", { protocol: "ai-sdk" });
      const startedBy = () => endpoint.requests.map(({ body: { trigger, messageId } }) => (messageId === undefined ? [trigger] : [trigger, messageId]));
      const step = async (action) => {
        const count = endpoint.requests.length;
        await act(async () => action(hook.session()));
        await until(() => endpoint.requests.length === count + 1 && hook.session().state.status !== "streaming", "the run to end");
      };
      await step((session) => session.regenerate());
      await step((session) => session.send("Where am I?"));
      await step((session) => session.answer("c1", { city: "Paris" }));
      await step((session) => session.send("Fail"));
      await step((session) => session.retry());
      await step((session) => session.edit(session.messages[0].id, "Hey"));
      const edited = endpoint.requests.at(-1).body.messages.at(-1);
      assert.equal(aiSdkUserText(edited), "Hey");
      assert.deepEqual(startedBy(), [
        ["submit-message"], // a new message
        ["regenerate-message", "a1"], // the reply redone
        ["submit-message"],
        ["submit-message", "a3"], // the answered call's reply goes on
        ["submit-message"],
        ["regenerate-message", "a5"], // Retry: the failed reply redone
        ["submit-message", edited.id], // the edited message
      ]);
      await hook.unmount();
    },
  },
  {
    name: "setMessages and load replace the conversation (stopping a reply in flight); clearError clears the error",
    async run() {
      const { agent, hook } = await sent("Hello");
      agent.part({ type: "message-start", messageId: "a1" });
      agent.part({ type: "text-delta", messageId: "a1", text: "Half" });
      await until(() => hook.session().messages.length === 2);
      await act(async () => hook.session().setMessages((messages) => messages.slice(0, 1)));
      assert.equal(agent.requests[0].signal.aborted, true, "the reply in flight is stopped");
      assert.deepEqual([hook.session().status, hook.session().messages.map(textOf)], ["idle", ["Hello"]]);
      const other = { messages: [{ id: "u9", role: "user", parts: [{ type: "text", text: "Elsewhere" }] }], status: "idle" };
      await act(async () => hook.session().load(other));
      assert.equal(hook.session().state, other, "load keeps the given state");
      assert.throws(() => hook.session().setMessages([{ id: 1 }]), (error) => error.code === "invalid");

      await act(async () => hook.session().retry());
      await until(() => agent.requests.length === 2);
      agent.part({ type: "error", error: "boom" });
      await until(() => failed(hook));
      await act(async () => hook.session().clearError());
      assert.deepEqual([hook.session().status, hook.session().error], ["idle", undefined]);
      assert.deepEqual(hook.session().messages.map(textOf), ["Elsewhere"]);
      await hook.unmount();
    },
  },
  {
    name: "a finished AI SDK reply's body is read to its end, never cancelled, however late the server closes it",
    async run() {
      let cancelled = false;
      const encoder = new TextEncoder();
      const api = async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (const chunk of aiSdkTurn("a1", "Hi.")) controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
              controller.enqueue(encoder.encode("data: [DONE]\n\n"));
              setTimeout(() => controller.close(), 30);
            },
            cancel: () => void (cancelled = true),
          }),
          { headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" } },
        );
      const finished = [];
      const hook = await sentOn({ api }, "Hello", { protocol: "ai-sdk", onFinish: () => finished.push(true) });
      await until(() => finished.length === 1);
      await act(() => new Promise((resolve) => setTimeout(resolve, 60)));
      assert.equal(cancelled, false, "the finished request's body was cancelled");
      await hook.unmount();
      assert.equal(cancelled, false);
    },
  },
  {
    name: "a stream that broke after the server sent an error reports the server's error",
    async run() {
      for (const [protocol, error] of [
        ["ai-sdk", { type: "error", errorText: "Quota exhausted" }],
        ["actions", { type: "part", part: { type: "error", error: "Quota exhausted" } }],
      ]) {
        const endpoint = mockEndpoint(protocol, [[error, drop()]]);
        const hook = await sentOn(endpoint, "Hello", { protocol });
        assert.equal(hook.session().error.message, "Quota exhausted", protocol);
        await hook.unmount();
      }
      // A hand-written SSE server whose last event lost its blank line to the break.
      const unterminated = mockEndpoint("ai-sdk", [[raw('data: {"type":"error","errorText":"Quota exhausted"}\n'), drop()]]);
      const cut = await sentOn(unterminated, "Hello", { protocol: "ai-sdk" });
      assert.equal(cut.session().error.message, "Quota exhausted");
      await cut.unmount();
      const broken = mockEndpoint("actions", [[{ type: "part", part: { type: "message-start", messageId: "a1" } }, drop()]]);
      const hook = await sentOn(broken, "Hello");
      assert.deepEqual(hook.session().error, { message: "The connection to the agent broke before the reply was finished.", code: "network", cause: "network error" });
      await hook.unmount();
    },
  },
);

/** Registers every scenario with a runner's `test`. */
export function registerScenarios(test) {
  for (const { name, run } of scenarios) test(name, run);
}
