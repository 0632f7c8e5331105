// chat-session-reducer/server's routes as a client calls them over HTTP (a real node:http server
// through toNodeHandler): bad input answered 4xx with a JSON error and nothing stored, owners who
// never see each other's conversations, the owner cookie refusing a forged one, resume's 204, the
// thread list, and a restart that stores an interrupted run as interrupted.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { INTERRUPTED, createChatServer, ownerCookie, toNodeHandler } from "../../pkg/server/index.js";
import { memoryStore, scriptedRun, until } from "./helpers.mjs";

/** A server on a free port; `models` are the runs' scripted models. */
async function listen({ store = memoryStore(), authorize = ownerFromHeader, maxBodyBytes } = {}) {
  const models = [];
  const errors = [];
  const chat = createChatServer({
    protocol: "ai-sdk",
    store,
    authorize,
    maxBodyBytes,
    onError: (error) => errors.push(error),
    run: scriptedRun(models),
  });
  const server = http.createServer(toNodeHandler(chat.fetch));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const close = () => {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    return closed;
  };
  return { chat, store, models, errors, base, close };
}

// The tests' own owners: the x-owner header ("" or none refuses).
const ownerFromHeader = (request) => request.headers.get("x-owner") || null;

const userMessage = (id, text) => ({ id, role: "user", parts: [{ type: "text", text }] });
const post = (base, path, body, headers = {}) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-owner": "alice", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

/** A whole reply for `model`: "Hi." with the message id `reply`. */
function answer(model, reply) {
  for (const frame of [{ type: "start", messageId: reply }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hi." }, { type: "text-end", id: "t" }, { type: "finish" }]) model.push(frame);
  model.end();
}

test("bad input is answered 4xx with a JSON error naming what is wrong, and nothing is stored", async () => {
  const setup = await listen({ maxBodyBytes: 10_000 });
  const cases = [
    { body: "{not json", status: 400, error: /not JSON/ },
    { body: "[1,2]", status: 400, error: /object/ },
    { body: { messages: [userMessage("u1", "Hi")] }, status: 400, error: /^id/ },
    { body: { id: "../etc/passwd", messages: [userMessage("u1", "Hi")] }, status: 400, error: /expected no "\/"/ },
    { body: { id: "x".repeat(201), messages: [userMessage("u1", "Hi")] }, status: 400, error: /at most 200 characters/ },
    { body: { id: "c1", messages: [userMessage("u1", "x".repeat(20_000))] }, status: 413, error: /over 10000 bytes/ },
  ];
  for (const { body, status, error } of cases) {
    const response = await post(setup.base, "/api/chat", body);
    assert.equal(response.status, status, JSON.stringify(body).slice(0, 80));
    assert.match(response.headers.get("content-type"), /application\/json/);
    assert.match((await response.json()).error, error);
  }
  assert.equal(setup.store.rows.size, 0, "nothing stored");
  assert.equal(setup.models.length, 0, "no run started");
  // And the server keeps serving.
  const ok = await post(setup.base, "/api/chat", { id: "c1", messages: [userMessage("u1", "Hi")] });
  assert.equal(ok.status, 200);
  answer(setup.models[0], "a1");
  await ok.text();
  await setup.close();
});

test("two owners: neither lists, reads, resumes, stops or overwrites the other's conversation", async () => {
  const setup = await listen();
  const started = await post(setup.base, "/api/chat", { id: "shared-id", messages: [userMessage("u1", "Alice's secret")] });
  assert.equal(started.status, 200);
  // Bob, while Alice's reply streams: the same id is not Alice's conversation for him.
  const asBob = { "x-owner": "bob" };
  assert.equal((await fetch(`${setup.base}/api/chat/shared-id/stream`, { headers: asBob })).status, 204, "no run of his to resume");
  assert.equal((await post(setup.base, "/api/chat/stop", { id: "shared-id" }, asBob)).status, 204);
  assert.equal(setup.models[0].signal.aborted, false, "his stop did not reach her run");
  assert.deepEqual((await (await fetch(`${setup.base}/api/conversations`, { headers: asBob })).json()).conversations, []);
  assert.equal((await fetch(`${setup.base}/api/conversations/shared-id`, { headers: asBob })).status, 404);
  assert.equal((await fetch(`${setup.base}/api/conversations/shared-id`, { method: "DELETE", headers: asBob })).status, 404);
  answer(setup.models[0], "a1");
  await started.text();
  await setup.chat.idle();
  // His own conversation of that id is his alone.
  const his = await post(setup.base, "/api/chat", { id: "shared-id", messages: [userMessage("b1", "Bob's question")] }, asBob);
  answer(setup.models[1], "b2");
  await his.text();
  await setup.chat.idle();
  const hers = await (await fetch(`${setup.base}/api/conversations/shared-id`, { headers: { "x-owner": "alice" } })).json();
  assert.deepEqual(hers.state.messages.map((message) => message.id), ["u1", "a1"]);
  assert.doesNotMatch(JSON.stringify(hers), /Bob/);
  // Without an owner: 401 on every route.
  for (const [path, method] of [["/api/chat", "POST"], ["/api/chat/stop", "POST"], ["/api/chat/x/stream", "GET"], ["/api/conversations", "GET"]]) {
    assert.equal((await fetch(`${setup.base}${path}`, { method, headers: { "x-owner": "" }, body: method === "POST" ? "{}" : undefined })).status, 401, path);
  }
  await setup.close();
});

test("the owner cookie: a new browser gets a signed HttpOnly SameSite cookie; a forged or tampered one is refused", async () => {
  const setup = await listen({ authorize: ownerCookie({ secret: "a secret of the tests, long enough" }) });
  const first = await fetch(`${setup.base}/api/conversations`);
  assert.equal(first.status, 200);
  const cookie = first.headers.get("set-cookie");
  assert.match(cookie, /^chat_owner=[\w-]+\.[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  const value = cookie.split(";")[0];
  const again = await fetch(`${setup.base}/api/conversations`, { headers: { cookie: value } });
  assert.equal(again.status, 200);
  assert.equal(again.headers.get("set-cookie"), null, "a valid cookie is kept, not replaced");
  // Another instance with the same secret accepts it.
  const other = ownerCookie({ secret: "a secret of the tests, long enough" });
  assert.equal(await other(new Request("http://x/", { headers: { cookie: value } })), value.slice("chat_owner=".length).split(".")[0]);
  const [owner, signature] = value.slice("chat_owner=".length).split(".");
  for (const forged of [`chat_owner=someone-else.${signature}`, `chat_owner=${owner}.${signature.slice(0, -2)}xx`, `chat_owner=${owner}`, `chat_owner=${owner}.`]) {
    const response = await fetch(`${setup.base}/api/conversations`, { headers: { cookie: forged } });
    assert.equal(response.status, 401, forged);
  }
  await setup.close();
});

test("resume: 204 when the conversation has no run; a run that ended is answered with its end; the thread list and delete", async () => {
  const setup = await listen();
  assert.equal((await fetch(`${setup.base}/api/chat/c1/stream`, { headers: { "x-owner": "alice" } })).status, 204);
  const started = await post(setup.base, "/api/chat", { id: "c1", messages: [userMessage("u1", "Hello there")] });
  answer(setup.models[0], "a1");
  const body = await started.text();
  await setup.chat.idle();
  const resumed = await fetch(`${setup.base}/api/chat/c1/stream`, { headers: { "x-owner": "alice" } });
  assert.equal(resumed.status, 200);
  assert.equal(await resumed.text(), body, "the whole run again, to its end, for a client that names no offset");
  const listed = (await (await fetch(`${setup.base}/api/conversations`, { headers: { "x-owner": "alice" } })).json()).conversations;
  assert.deepEqual(listed.map((entry) => [entry.id, entry.status]), [["c1", "idle"]]);
  assert.equal((await fetch(`${setup.base}/api/conversations/c1`, { method: "DELETE", headers: { "x-owner": "alice" } })).status, 204);
  assert.equal((await fetch(`${setup.base}/api/conversations/c1`, { headers: { "x-owner": "alice" } })).status, 404);
  await setup.close();
});

test("a restart mid-run stores the run as interrupted: the partial reply kept, an error part saying so", async () => {
  const store = memoryStore();
  const before = await listen({ store });
  const started = await post(before.base, "/api/chat", { id: "c1", messages: [userMessage("u1", "Hello")] });
  const model = before.models[0];
  for (const frame of [{ type: "start", messageId: "a1" }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Half a repl" }]) model.push(frame);
  await until(async () => JSON.stringify((await store.load("alice", "c1"))?.state ?? {}).includes("Half a repl"), "the partial reply saved");
  // The process dies: nothing of it goes on; a new server on the same store.
  started.body.cancel();
  await before.close();
  const after = await listen({ store: memoryStore(store.rows) });
  const read = await (await fetch(`${after.base}/api/conversations/c1`, { headers: { "x-owner": "alice" } })).json();
  assert.equal(read.state.status, "error");
  assert.equal(read.state.error.message, INTERRUPTED);
  assert.match(JSON.stringify(read.state.messages[1]), /Half a repl/);
  await after.close();
});

test("a store that fails: the run still streams to the client, onError hears of it, and the save is retried until it lands", async () => {
  const store = memoryStore();
  const save = store.save;
  let failures = 0;
  store.save = async (...args) => {
    if (failures < 3) {
      failures += 1;
      throw Object.assign(new Error("disk full"), { code: "store" });
    }
    return save.apply(store, args);
  };
  const setup = await listen({ store });
  const started = await post(setup.base, "/api/chat", { id: "c1", messages: [userMessage("u1", "Hello")] });
  answer(setup.models[0], "a1");
  const body = await started.text();
  assert.match(body, /"delta":"Hi\."/, "the reply streamed whole while the store failed");
  await until(async () => (await store.load("alice", "c1"))?.state.status === "idle", "the retried save");
  assert.equal(failures, 3);
  assert.equal(setup.errors.filter((error) => error.message === "disk full").length, 3, "each failure reached onError");
  assert.deepEqual((await store.load("alice", "c1")).state.messages.map((message) => message.id), ["u1", "a1"]);
  await setup.close();
});
