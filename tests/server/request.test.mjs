// chat-session-reducer/server's request side (src/server/request.js), driven by the package's
// own client: each user operation is performed on a real createAgentSession, its request body
// goes through applyRequest against the server's stored state (which folds each reply as the
// server does), and the state applyRequest returns must be, as JSON, the client's state at that
// moment: forks, queue and questions included. Then the conflicts (a stale view) and bad bodies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { register } from "node:module";
import { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { sessionReducer } from "../../pkg/index.js";
import { agUiProtocol, toAgUiInput } from "../../pkg/ag-ui/index.js";
import { aiSdkProtocol, toAiSdkMessages } from "../../pkg/ai-sdk/index.js";
import { actionsProtocol } from "../../pkg/chat-stream/index.js";
import { createAgentSession } from "../../pkg/session/index.js";
import { liveReply, mockEndpoint } from "../../pkg/testing/index.js";

register("./package-hooks.mjs", import.meta.url);
const { applyRequest, checkConversationId, modelInput } = await import("../../src/server/request.js");

const DESCRIPTORS = { actions: actionsProtocol, "ai-sdk": aiSdkProtocol, "ag-ui": agUiProtocol };
const CONVERSATION = "conversation-1";

/** Resolves once `check()` holds, polling the event loop (bounded: fails after 5 s). */
async function until(check, what) {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// ---- a reply in each protocol: { id, result?, text?, call?, error? } ----

// `call` or `calls`: calls of the reply, each `{ id, name, input, approval? }` (approval: asked for).
const callsOf = ({ call, calls }) => calls ?? (call ? [call] : []);

const actionFrames = ({ id, result, text, error, ...spec }) => [
  { type: "part", part: { type: "message-start", messageId: id } },
  ...(result ? [{ type: "part", part: { type: "tool-result", id: result.id, output: result.output } }] : []),
  ...(text ? [{ type: "part", part: { type: "text-delta", text } }] : []),
  ...callsOf(spec).map((call) => ({ type: "part", part: { type: "tool-call", id: call.id, name: call.name, input: call.input } })),
  ...callsOf(spec).filter((call) => call.approval).map((call) => ({ type: "part", part: { type: "tool-approval-request", id: call.id, prompt: "May I?" } })),
  { type: "part", part: error ? { type: "error", error } : { type: "finish", reason: "stop" } },
];

const aiSdkFrames = ({ id, result, text, error, ...spec }) => [
  { type: "start", messageId: id },
  { type: "start-step" },
  ...(result ? [{ type: "tool-output-available", toolCallId: result.id, output: result.output }] : []),
  ...(text ? [{ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: text }, { type: "text-end", id: "t" }] : []),
  ...callsOf(spec).map((call) => ({ type: "tool-input-available", toolCallId: call.id, toolName: call.name, input: call.input })),
  ...callsOf(spec).filter((call) => call.approval).map((call) => ({ type: "tool-approval-request", approvalId: `approval-${call.id}`, toolCallId: call.id })),
  { type: "finish-step" },
  error ? { type: "error", errorText: error } : { type: "finish" },
];

function agUiFrames({ id, result, text, error, ...spec }) {
  const run = { threadId: CONVERSATION, runId: `run-${id}` };
  const asked = callsOf(spec).filter((call) => call.approval);
  const interrupts = asked.map((call) => ({ id: `interrupt-${call.id}`, reason: "approval", toolCallId: call.id }));
  const interrupt = asked.length > 0 ? { outcome: { type: "interrupt", interrupts } } : {};
  return [
    { type: "RUN_STARTED", ...run },
    ...(result ? [{ type: "TOOL_CALL_RESULT", messageId: `${result.id}-result`, toolCallId: result.id, content: JSON.stringify(result.output) }] : []),
    ...(text
      ? [{ type: "TEXT_MESSAGE_START", messageId: id, role: "assistant" }, { type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: text }, { type: "TEXT_MESSAGE_END", messageId: id }]
      : []),
    ...callsOf(spec).flatMap((call) => [
      { type: "TOOL_CALL_START", toolCallId: call.id, toolCallName: call.name, parentMessageId: id },
      { type: "TOOL_CALL_ARGS", toolCallId: call.id, delta: JSON.stringify(call.input) },
      { type: "TOOL_CALL_END", toolCallId: call.id },
    ]),
    error ? { type: "RUN_ERROR", message: error } : { type: "RUN_FINISHED", ...run, ...interrupt },
  ];
}

const FRAMES = { actions: actionFrames, "ai-sdk": aiSdkFrames, "ag-ui": agUiFrames };

/** A run's frames folded as the server folds them: the protocol's translator, then the reducer. */
function fold(protocol, start, frames) {
  const translate = DESCRIPTORS[protocol].translator({ onTransientData() {}, replay: false });
  return frames.flatMap((frame) => translate(frame)).reduce(sessionReducer, start);
}

/**
 * A client on `protocol` and a server beside it. Each request the client makes goes through
 * applyRequest against the server's state; `reply(spec)` scripts the answer to the next request
 * (`live: true`: written later with `write`). The server folds each reply before the next request.
 */
function clientAndServer(protocol, options = {}) {
  const server = { state: undefined, start: undefined, frames: [] };
  const planned = [];
  const seen = [];
  const endpoint = mockEndpoint(protocol, (_request, index) => planned[index].reply);
  let session;
  const api = (body, signal) => {
    if (server.start !== undefined) server.state = fold(protocol, server.start, server.frames);
    const result = applyRequest(protocol, JSON.parse(JSON.stringify(body)), server.state);
    seen.push({ body, result, client: session.getSnapshot().state });
    if (result.ok) Object.assign(server, { state: result.state, start: result.state, frames: planned[seen.length - 1]?.frames ?? [] });
    return endpoint.api(body, signal);
  };
  session = createAgentSession({ protocol, api, id: CONVERSATION, throttle: 0, ...options });
  const unsubscribe = session.subscribe(() => {});
  return {
    session,
    server,
    seen,
    unsubscribe,
    reply(spec) {
      const frames = FRAMES[protocol](spec);
      if (!spec.live) return planned.push({ reply: frames, frames });
      const live = liveReply();
      const written = [];
      planned.push({ reply: live, frames: written });
      return { write: () => frames.forEach((frame) => (written.push(frame), live.write(frame))), end: () => live.end() };
    },
    /** Performs `operation`, waits for its request, and checks the server's state is the client's. */
    async requestOf(operation, what) {
      const before = seen.length;
      operation();
      await until(() => seen.length > before, `the request of ${what}`);
      const { result, client } = seen.at(-1);
      assert.equal(result.ok, true, `${what}: ${JSON.stringify(result.error)}`);
      assert.equal(result.id, CONVERSATION);
      assert.equal(JSON.stringify(result.state), JSON.stringify(client), `${what}: the server's state is the client's`);
      return result;
    },
    idle: (what) => until(() => session.getSnapshot().status === "idle" || session.getSnapshot().status === "error", `the end of ${what}`),
  };
}

// An attachment as the session holds it (SPEC v3 `send` with `parts`); each body must carry it and
// the server must store it as it was sent.
const attachment = { type: "data", name: "file", data: { mediaType: "image/png", url: "data:image/png;base64,AAAA", filename: "dot.png" } };
const attachmentInBody = {
  actions: attachment,
  "ai-sdk": { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA", filename: "dot.png" },
  "ag-ui": { type: "image", source: { type: "data", value: "AAAA", mimeType: "image/png" }, metadata: { filename: "dot.png" } },
};
const userParts = (message) => message.parts ?? message.content;

for (const protocol of ["actions", "ai-sdk", "ag-ui"]) {
  test(`${protocol}: every operation of the client, applied to the stored state, gives the client's state`, async () => {
    const { session, server, seen, unsubscribe, reply, requestOf, idle } = clientAndServer(protocol);
    const ask = (text, options) => () => session.send(text, options);

    reply({ id: "a1", text: "Hi there" });
    const first = await requestOf(ask("Hello", { parts: [attachment], metadata: { from: "test" } }), "a first send, with an attachment");
    assert.deepEqual(userParts(seen[0].body.messages[0]).at(-1), attachmentInBody[protocol], "the body carries the attachment");
    assert.deepEqual(first.state.messages[0].parts.at(-1), attachment, "the stored message keeps the attachment");
    assert.equal(first.state.messages[0].id, seen[0].client.messages[0].id, "the user's message keeps the client's id");
    assert.equal(first.trigger, "submit-message");
    await idle("the first reply");

    reply({ id: "a2", text: "I'll delete it once you approve.", call: { id: "c1", name: "delete_file", input: { path: "/scratch" }, approval: true } });
    await requestOf(ask("Delete /scratch"), "a send");
    await idle("the question");
    assert.equal(session.getSnapshot().state.messages.at(-1).parts.at(-1).state, "awaiting-confirmation");

    reply({ id: "a3", result: { id: "c1", output: { deleted: true } }, text: "Deleted." });
    const approved = await requestOf(() => session.approve("c1"), "an approval");
    assert.deepEqual(approved.actions.map((action) => action.part?.type ?? action.type), ["tool-approval-response", "continue"]);
    await idle("the reply after the approval");

    reply({ id: "a4", call: { id: "c2", name: "get_location", input: {} } });
    await requestOf(ask("Where am I?"), "a send answered by a client-side tool");
    await idle("the client-side call");
    reply({ id: "a5", text: "You are in Paris." });
    await requestOf(() => session.answer("c2", { city: "Paris" }), "a client-side tool's answer");
    await idle("the reply after the answer");

    const streaming = reply({ id: "a6", text: "One", live: true });
    reply({ id: "a7", text: "Two and three" });
    await requestOf(ask("Q1"), "a send whose reply streams while more is sent");
    session.send("Q2");
    session.send("Q3");
    assert.equal(session.getSnapshot().queue.length, 2);
    const flushed = requestOf(() => (streaming.write(), streaming.end()), "the queued messages sent as one turn");
    assert.deepEqual((await flushed).state.messages.slice(-2).map((message) => message.parts[0].text), ["Q2", "Q3"]);
    await idle("the queued turn's reply");

    reply({ id: "a8", text: "Hello again to you" });
    const firstUser = session.getSnapshot().messages[0].id;
    const edited = await requestOf(() => session.edit(firstUser, "Hello again"), "an edit of the first message");
    assert.equal(edited.state.forks[0].alternatives.length, 2, "the edit kept the old path as a branch");
    await idle("the edited message's reply");

    reply({ id: "a9", text: "Hello again, once more" });
    const regenerated = await requestOf(() => session.regenerate(session.getSnapshot().messages.at(-1).id), "a regenerate");
    assert.equal(regenerated.trigger, "regenerate-message");
    await idle("the regenerated reply");

    session.switchBranch(null, 0);
    assert.equal(session.getSnapshot().messages[0].id, firstUser, "switched back to the first path (no request)");
    reply({ id: "a10", text: "Back where we were" });
    const switched = await requestOf(ask("Back on the first path"), "a send after a switch of branch");
    assert.equal(switched.actions[0].type, "switchBranch");
    await idle("the reply on the first path");

    reply({ id: "a11", text: "Half a", error: "The model failed" });
    await requestOf(ask("Fail, please"), "a send whose reply fails");
    await idle("the failure");
    assert.equal(session.getSnapshot().status, "error");
    reply({ id: "a12", text: "Second try" });
    await requestOf(() => session.retry(), "a retry");
    await idle("the retried reply");

    reply({ id: "a13", text: "And more" });
    await requestOf(() => session.continue(), "a continue");
    await idle("the continued reply");

    assert.equal(fold(protocol, server.start, server.frames).messages.length, session.getSnapshot().messages.length, "the server folded every reply");
    unsubscribe();
  });
}

for (const protocol of ["actions", "ai-sdk", "ag-ui"]) {
  test(`${protocol}: a denial, a send past a question left open, an approval with edited input, two branch switches`, async () => {
    const { session, unsubscribe, reply, requestOf, idle } = clientAndServer(protocol);
    const deletes = (id, path) => ({ id, name: "delete_file", input: { path }, approval: true });
    reply({ id: "a1", text: "Both?", calls: [deletes("c1", "/a"), deletes("c2", "/b")] });
    await requestOf(() => session.send("Delete /a and /b"), "a send");
    await idle("the questions");
    session.deny("c1", "Keep /a");
    assert.equal(session.getSnapshot().status, "idle", "c2 still waits: no request yet");
    reply({ id: "a2", text: "Kept both." });
    const moved = await requestOf(() => session.send("Never mind"), "a send while c2 waits (it is cancelled)");
    assert.deepEqual(moved.actions.map((action) => action.part?.type ?? action.type), ["tool-approval-response", "send"]);
    await idle("the reply");

    reply({ id: "a3", calls: [deletes("c3", "/c")] });
    await requestOf(() => session.send("Delete /c"), "a send");
    await idle("the question");
    reply({ id: "a4", result: { id: "c3", output: { deleted: "/tmp/c" } }, text: "Done." });
    await requestOf(() => session.approve("c3", { input: { path: "/tmp/c" } }), "an approval with edited input");
    await idle("the reply");

    // A fork after "Delete /c" (regenerate), then one at the start (an edit): the client switches
    // both back without a request, and the server follows both.
    const deleteC = session.getSnapshot().messages.at(-3).id;
    reply({ id: "a5", text: "Done again." });
    await requestOf(() => session.regenerate(), "a regenerate");
    await idle("the regenerated reply");
    reply({ id: "a6", text: "Which files?" });
    await requestOf(() => session.edit(session.getSnapshot().messages[0].id, "Delete nothing"), "an edit of the first message");
    await idle("the edited message's reply");
    session.switchBranch(null, 0);
    session.switchBranch(deleteC, 0);
    reply({ id: "a7", text: "Still here." });
    const followed = await requestOf(() => session.send("Where were we?"), "a send after two switches");
    assert.deepEqual(followed.actions.map((action) => action.type), ["switchBranch", "switchBranch", "send"]);
    await idle("the last reply");
    unsubscribe();
  });
}

// ---- the AI SDK's own client: ai's AbstractChat, which useChat runs ----

class ChatState {
  status = "ready";
  error = undefined;
  messages = [];
  pushMessage = (message) => (this.messages = [...this.messages, message]);
  popMessage = () => (this.messages = this.messages.slice(0, -1));
  replaceMessage = (index, message) => (this.messages = this.messages.with(index, message));
  snapshot = (thing) => structuredClone(thing);
}

class Chat extends AbstractChat {
  constructor(init) {
    super({ ...init, state: new ChatState() });
  }
}

test("ai-sdk: the AI SDK's own chat (useChat's): a send, an approval sent automatically, a regenerate and an edit, each applied", async () => {
  const server = { state: undefined, results: [] };
  const planned = [];
  const respond = (text) => {
    const body = JSON.parse(text);
    const result = applyRequest("ai-sdk", body, server.state);
    server.results.push({ body, result });
    if (!result.ok) return new Response(JSON.stringify(result.error), { status: result.status });
    const frames = planned.shift();
    server.state = fold("ai-sdk", result.state, frames);
    return new Response(frames.map((frame) => aiSdkProtocol.write(frame)).join("") + aiSdkProtocol.end, { headers: aiSdkProtocol.headers });
  };
  const transport = new DefaultChatTransport({ api: "http://agent.test/chat", fetch: async (_, init) => respond(init.body) });
  let ids = 0;
  const chat = new Chat({ id: CONVERSATION, transport, generateId: () => `u${++ids}`, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
  const settled = (count) => until(() => server.results.length === count && chat.status === "ready", `request ${count}`);
  // The server stores what useChat shows: the same messages, ids and words.
  const sameAsChat = (what, applied) => {
    const last = server.results.at(-1).result;
    assert.equal(last.ok, true, `${what}: ${JSON.stringify(last.error)}`);
    assert.deepEqual(last.actions.map((action) => action.part?.type ?? action.type), applied, what);
    assert.deepEqual(server.state.messages.map((message) => message.id), chat.messages.map((message) => message.id), what);
    const words = (messages) => messages.map((message) => message.parts.filter((part) => part.type === "text").map((part) => part.text).join(""));
    assert.deepEqual(words(server.state.messages), words(chat.messages), what);
  };

  planned.push(aiSdkFrames({ id: "a1", text: "Hi there" }));
  await chat.sendMessage({ text: "Hello" });
  await settled(1);
  sameAsChat("a send", ["load", "send"]);

  planned.push(aiSdkFrames({ id: "a2", text: "Shall I?", call: { id: "c1", name: "delete_file", input: { path: "/a" }, approval: true } }));
  planned.push(aiSdkFrames({ id: "a2", result: { id: "c1", output: { deleted: true } }, text: " Deleted." }));
  await chat.sendMessage({ text: "Delete /a" });
  await settled(2);
  const asked = chat.messages.at(-1).parts.find((part) => part.state === "approval-requested");
  await chat.addToolApprovalResponse({ id: asked.approval.id, approved: true });
  await settled(3);
  sameAsChat("an approval", ["tool-approval-response", "continue"]);
  assert.equal(server.state.messages.at(-1).parts.find((part) => part.type === "tool").state, "done");

  planned.push(aiSdkFrames({ id: "a3", text: "Deleted, again." }));
  await chat.regenerate();
  await settled(4);
  sameAsChat("a regenerate", ["regenerate"]);
  assert.equal(server.state.forks.length, 1, "the reply regenerated is kept as a branch");

  planned.push(aiSdkFrames({ id: "a4", text: "Hello again to you" }));
  await chat.sendMessage({ text: "Hello again", messageId: chat.messages[0].id });
  await settled(5);
  sameAsChat("an edit (useChat keeps the message's id)", ["edit"]);
  assert.equal(server.state.forks[0].after, null, "the first path is kept as a branch");
});

for (const protocol of ["actions", "ai-sdk", "ag-ui"]) {
  test(`${protocol}: a client with history the server never had: its first request is loaded, then sent`, async () => {
    const initialMessages = [
      { id: "u0", role: "user", parts: [{ type: "text", text: "Earlier" }] },
      { id: "a0", role: "assistant", parts: [{ type: "text", text: "Earlier reply" }] },
    ];
    const { session, unsubscribe, reply, requestOf, idle } = clientAndServer(protocol, { initialMessages });
    reply({ id: "a1", text: "Now" });
    const first = await requestOf(() => session.send("Now?"), "a first request with history");
    assert.deepEqual(first.actions.map((action) => action.type), ["load", "send"]);
    await idle("the reply");
    unsubscribe();
  });
}

// ---- conflicts: a body that no operation explains ----

const user = (id, text) => ({ id, role: "user", parts: [{ type: "text", text }] });
const assistant = (id, text) => ({ id, role: "assistant", parts: [{ type: "text", text }] });
const stored = { messages: [user("u1", "Hi"), assistant("a1", "Hello"), user("u2", "More"), assistant("a2", "Sure")], status: "idle" };

test("a stale view is a 409 with the stored state: a message sent in place of one the store has, a changed or removed message", () => {
  const cases = [
    ["a send from a view without u2 and a2", { messages: [...stored.messages.slice(0, 2), user("u3", "Other")], trigger: "submit-message" }, "body.messages[2]"],
    ["u1's text changed", { messages: [user("u1", "Hi!"), ...stored.messages.slice(1), user("u3", "Next")], trigger: "submit-message" }, "body.messages[0]"],
    ["a1 removed", { messages: [stored.messages[0], ...stored.messages.slice(2), user("u3", "Next")], trigger: "submit-message" }, "body.messages[1]"],
    ["a2's text changed", { messages: [...stored.messages.slice(0, 3), assistant("a2", "No"), user("u3", "Next")], trigger: "submit-message" }, "body.messages[4]"],
    ["a reply the store never sent", { messages: [...stored.messages, assistant("a3", "Invented")], trigger: "submit-message" }, "body.messages[4]"],
  ];
  for (const [what, body, path] of cases) {
    const result = applyRequest("actions", { id: "c", ...body }, stored);
    assert.equal(result.ok, false, what);
    assert.equal(result.status, 409, what);
    assert.equal(result.error.code, "conflict", what);
    assert.equal(result.error.path, path, what);
    assert.equal(result.state, stored, `${what}: the stored state comes back`);
  }
  // The same edit with the message it sent named: an edit, not a conflict.
  const edit = applyRequest("actions", { id: "c", messages: [...stored.messages.slice(0, 2), user("u3", "Other")], trigger: "submit-message", messageId: "u3" }, stored);
  assert.equal(edit.ok, true);
  assert.deepEqual(edit.actions, [{ type: "edit", messageId: "u2", id: "u3", text: "Other" }]);
});

test("a stale view in the AI SDK's and AG-UI's bodies is a 409 too", () => {
  const ui = toAiSdkMessages(stored.messages);
  const stale = applyRequest("ai-sdk", { id: "c", messages: [...ui.slice(0, 2), { id: "u3", role: "user", parts: [{ type: "text", text: "Other" }] }], trigger: "submit-message" }, stored);
  assert.equal(stale.status, 409);
  const changed = applyRequest("ai-sdk", { id: "c", messages: [ui[0], { ...ui[1], parts: [{ type: "text", text: "Changed" }] }, ...ui.slice(2)], trigger: "submit-message", messageId: "a2" }, stored);
  assert.equal(changed.status, 409);
  const agUi = toAgUiInput(stored);
  const removed = applyRequest("ag-ui", { threadId: "c", messages: [agUi.messages[0], ...agUi.messages.slice(2), { id: "u3", role: "user", content: "Next" }], resume: [] }, stored);
  assert.equal(removed.status, 409);
  assert.equal(removed.state, stored);
});

test("ag-ui: a user message in place of a stored one is an edit (RunAgentInput names no trigger): the replaced path is kept", () => {
  const messages = toAgUiInput(stored).messages;
  const result = applyRequest("ag-ui", { threadId: "c", messages: [...messages.slice(0, 2), { id: "u3", role: "user", content: "Instead" }], resume: [] }, stored);
  assert.equal(result.ok, true);
  assert.deepEqual(result.actions, [{ type: "edit", messageId: "u2", id: "u3", text: "Instead" }]);
  assert.deepEqual(result.state.forks[0].alternatives[0].messages, stored.messages.slice(2));
});

// ---- bad bodies: 400 naming what is wrong ----

test("a bad body is a 400 naming what is wrong, and nothing is applied", () => {
  const good = { id: "c", messages: [user("u1", "Hi")] };
  const cases = [
    ["actions", null, "body"],
    ["actions", [good], "body"],
    ["actions", "text", "body"],
    ["actions", { messages: [] }, "body.id"],
    ["actions", { ...good, id: "" }, "body.id"],
    ["actions", { ...good, id: "x".repeat(201) }, "body.id"],
    ["actions", { ...good, id: "a/b" }, "body.id"],
    ["actions", { ...good, id: "a\\b" }, "body.id"],
    ["actions", { ...good, id: "a..b" }, "body.id"],
    ["actions", { ...good, id: "a\u0001b" }, "body.id"],
    ["ag-ui", { threadId: "a/b", messages: [] }, "body.threadId"],
    ["ai-sdk", { messages: [] }, "body.id"],
    ["actions", { id: "c", messages: {} }, "body.messages"],
    ["actions", { id: "c", messages: ["hi"] }, "body.messages[0]"],
    ["actions", { id: "c", messages: [{ role: "user", parts: [] }] }, "body.messages[0].id"],
    ["actions", { id: "c", messages: [{ id: "u1", role: "user", parts: [{ type: "text" }] }] }, "body.messages[0].parts[0].text"],
    ["actions", { ...good, trigger: "again" }, "body.trigger"],
    ["ai-sdk", { id: "c", messages: [{ id: "u1", role: "user", parts: "Hi" }] }, "body.messages[0].parts"],
    ["ai-sdk", { id: "c", messages: [{ id: "u1", role: "robot", parts: [] }] }, "body.messages[0].role"],
    ["ai-sdk", { id: "c", messages: [{ id: "u1", role: "user", parts: [{ text: "Hi" }] }] }, "body.messages[0].parts[0]"],
    ["ag-ui", { threadId: "c", messages: [{ id: "u1", role: "user" }] }, "body.messages[0].content"],
    ["ag-ui", { threadId: "c", messages: [{ id: "u1", role: "user", content: "Hi" }], resume: {} }, "body.resume"],
    ["actions", { id: "c", messages: [] }, "body.messages"],
  ];
  for (const [protocol, body, path] of cases) {
    const result = applyRequest(protocol, body, undefined);
    assert.equal(result.status, 400, `${JSON.stringify(body)?.slice(0, 80)}: ${JSON.stringify(result.error)}`);
    assert.equal(result.error.code, "invalid");
    assert.equal(result.error.path, path, JSON.stringify(result.error));
    assert.ok(result.error.message.startsWith(`${path}: `), result.error.message);
  }
  const tooMany = applyRequest("actions", { id: "c", messages: [user("u1", "a"), assistant("a1", "b"), user("u2", "c")] }, undefined, { maxMessages: 2 });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.error.path, "body.messages");
  assert.equal(checkConversationId("fine-id_1"), undefined);
  assert.throws(() => applyRequest("smoke-signals", good, undefined), { code: "invalid", path: "protocolName" });
});

// ---- a first request, and what the model is given ----

test("a first request folds in the history the client sends, then its operation", () => {
  const history = [user("u1", "Hi"), { id: "a1", role: "assistant", parts: [{ type: "tool", id: "c1", name: "look", input: {}, state: "done", output: 1 }, { type: "text", text: "Found" }] }];
  const sent = applyRequest("actions", { id: "c", messages: [...history, user("u2", "Next")], trigger: "submit-message" }, undefined);
  assert.deepEqual(sent.state, { messages: [...history, user("u2", "Next")], status: "streaming" });
  assert.deepEqual(sent.actions.map((action) => action.type), ["load", "send"]);
  const ui = toAiSdkMessages([user("u1", "Hi"), assistant("a1", "Hello"), user("u2", "More")]);
  const fromUi = applyRequest("ai-sdk", { id: "c", messages: ui, trigger: "submit-message" }, undefined);
  assert.deepEqual(toAiSdkMessages(fromUi.state.messages), ui);
  const resumed = applyRequest("ag-ui", { threadId: "c", messages: toAgUiInput({ messages: history }).messages, state: { step: 2 } }, undefined);
  assert.deepEqual(resumed.actions.map((action) => action.type), ["load", "continue"]);
  assert.deepEqual(resumed.state.agentState, { step: 2 });
  assert.equal(resumed.state.status, "streaming");
});

test("modelInput: the active path in the protocol's message form", () => {
  const state = { messages: [user("u1", "Hi"), assistant("a1", "Hello")], status: "streaming", agentState: { step: 1 } };
  assert.deepEqual(modelInput("ai-sdk", state), toAiSdkMessages(state.messages));
  assert.deepEqual(modelInput("ag-ui", state, { id: "c" }), { threadId: "c", ...toAgUiInput(state), state: { step: 1 } });
  assert.equal(modelInput("actions", state), state.messages);
});
