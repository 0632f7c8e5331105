// The SessionStores of chat-session-reducer/server, one suite run against PGlite (in memory and in
// a data directory) and against a real PostgreSQL server the suite starts (tests/server/postgres-server.mjs).
// Without PostgreSQL the second half is skipped with a note, and fails when CI or REQUIRE_POSTGRES is set.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { sessionReducer } from "../../pkg/index.js";
import { createPgliteStore, createPostgresStore, SCHEMA_VERSION } from "../../src/server/store/index.js";
import { importPeer } from "../../src/server/store/peer.js";
import { startPostgres } from "./postgres-server.mjs";

const requirePostgres = Boolean(process.env.CI && process.env.CI !== "0") || process.env.REQUIRE_POSTGRES === "1";

/** A conversation as the reducer makes it: a tool call, agent state, an edited message (forks) and a queue. */
function conversation() {
  let state = { messages: [], status: "idle" };
  const act = (action) => (state = sessionReducer(state, action));
  const part = (value) => act({ type: "part", part: value });
  act({ type: "send", id: "u1", text: "What is the weather in Paris?" });
  part({ type: "message-start", messageId: "a1" });
  part({ type: "reasoning-delta", text: "The user wants the weather." });
  part({ type: "text-delta", text: "Let me look." });
  part({ type: "tool-call", id: "call-1", name: "weather", input: { city: "Paris", units: "metric" } });
  part({ type: "tool-result", id: "call-1", output: { tempC: 21, sky: "clear" } });
  part({ type: "agent-state", snapshot: { step: 2, plan: ["look", "answer"] } });
  part({ type: "text-delta", text: " 21 °C and clear." });
  part({ type: "finish" });
  act({ type: "send", id: "u2", text: "And in Rome?" });
  part({ type: "message-start", messageId: "a2" });
  part({ type: "text-delta", text: "Rome: 25 °C." });
  part({ type: "finish" });
  act({ type: "edit", messageId: "u2", id: "u2b", text: "And in Berlin?" });
  part({ type: "message-start", messageId: "a2b" });
  part({ type: "text-delta", text: "Berlin: 14 °C" });
  act({ type: "send", id: "u3", text: "Thanks!" });
  return { state };
}

/** Conversations that end otherwise: a call awaiting the user's approval, a run that failed. */
function otherEndings() {
  const start = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u1", text: "Delete the old files" });
  const waiting = [
    { type: "message-start", messageId: "a1" },
    { type: "tool-call", id: "call-rm", name: "remove", input: { glob: "*.old" } },
    { type: "tool-approval-request", id: "call-rm", approvalId: "ap-1", prompt: "Delete 3 files?", details: { files: 3 } },
    { type: "finish", reason: "tool-calls" },
  ].reduce((state, part) => sessionReducer(state, { type: "part", part }), start);
  const failed = sessionReducer(start, { type: "part", part: { type: "error", error: "Too many requests", code: "rate_limited" } });
  return { waiting, failed };
}

const json = (value) => JSON.stringify(value);
let owners = 0;
const newOwner = () => `owner-${(owners += 1)}-${"ü".repeat(owners % 2)}`;

/**
 * The suite against one backend. `backend()` gives `{ store, sql, other, failing }`: `sql` runs a
 * statement on the store's database, `other()` a second store on the same database, `failing()`
 * a store and a function that makes its database fail (the last test calls it).
 */
function storeSuite(backend) {
  test("real conversations read back equal as JSON: forks, queue, tool calls, agentState, an approval waiting, an error, key order", async () => {
    const { store } = backend();
    const owner = newOwner();
    const { state } = conversation();
    assert.ok(state.forks && state.queue && state.agentState, "the conversation has forks, a queue and agent state");
    await store.save(owner, "c1", state);
    const stored = await store.load(owner, "c1");
    assert.equal(json(stored.state), json(state));
    assert.deepEqual({ ...stored, state: undefined, updatedAt: undefined }, {
      id: "c1", owner, state: undefined, title: "What is the weather in Paris?", status: "streaming", updatedAt: undefined,
    });
    assert.equal(new Date(stored.updatedAt).toISOString(), stored.updatedAt);
    const { waiting, failed } = otherEndings();
    assert.equal(waiting.messages[1].parts[0].state, "awaiting-confirmation");
    assert.equal(failed.status, "error");
    for (const [id, state] of Object.entries({ waiting, failed })) {
      await store.save(owner, id, state);
      assert.equal(json((await store.load(owner, id)).state), json(state));
    }
  });

  test("what JSON can hold reads back as written: NUL and lone surrogates in texts, extra fields, nested values", async () => {
    const { store } = backend();
    const owner = newOwner();
    const state = {
      status: "idle",
      messages: [
        { id: "m\u00e9\ud83d\ude00", role: "user", parts: [{ type: "text", text: "a\u0000b \ud800 \\u0000 \"quoted\"" }], createdAt: "2026-01-01" },
        { role: "assistant", id: "m2", parts: [{ type: "data", name: "file", data: { z: 1, a: [null, 1.5, { "": true }] } }], metadata: { usage: { in: 3 } } },
      ],
      agentState: { nested: { deep: [1, 2, 3] } },
    };
    await store.save(owner, "c", state);
    assert.equal(json((await store.load(owner, "c")).state), json(state));
  });

  test("a save after a change writes only the changed messages; a 4 MB conversation's last message is one row", async () => {
    const { store, sql } = backend();
    const owner = newOwner();
    const big = "x".repeat(40_000);
    let state = { messages: [], status: "idle" };
    for (let i = 0; i < 100; i += 1) {
      state = sessionReducer(state, { type: "send", id: `u${i}`, text: big });
      state = sessionReducer(state, { type: "part", part: { type: "message-start", messageId: `a${i}` } });
      state = sessionReducer(state, { type: "part", part: { type: "text-delta", text: big } });
      state = sessionReducer(state, { type: "part", part: { type: "finish" } });
    }
    assert.ok(json(state).length > 4_000_000, "the conversation is over 4 MB");
    await store.save(owner, "big", state);
    assert.equal(await rowsWrittenByLastSave(sql, owner, "big"), 200);

    const next = sessionReducer(state, { type: "send", id: "u-last", text: "one more" });
    await store.save(owner, "big", next, state);
    assert.equal(await rowsWrittenByLastSave(sql, owner, "big"), 1);
    const streamed = sessionReducer(next, { type: "part", part: { type: "text-delta", messageId: "a-last", text: "ok" } });
    await store.save(owner, "big", streamed, next);
    assert.equal(await rowsWrittenByLastSave(sql, owner, "big"), 1);
    assert.equal(json((await store.load(owner, "big")).state), json(streamed));
    assert.equal(await messageRows(sql, owner, "big"), 202);
  });

  test("messages no longer on the path are deleted (edit, regenerate), the path's order is kept, and a loaded state works as `previous`", async () => {
    const { store, sql } = backend();
    const owner = newOwner();
    const chat = conversation();
    await store.save(owner, "c", chat.state);
    const loaded = (await store.load(owner, "c")).state;
    const stopped = sessionReducer(loaded, { type: "stop" });
    const edited = sessionReducer(stopped, { type: "edit", messageId: "u1", id: "u1b", text: "Weather in Oslo?" });
    await store.save(owner, "c", edited, loaded);
    assert.equal(await messageRows(sql, owner, "c"), 1);
    assert.equal(json((await store.load(owner, "c")).state), json(edited));
    const back = sessionReducer(edited, { type: "switchBranch", after: null, to: 0 });
    await store.save(owner, "c", back, edited);
    assert.equal(json((await store.load(owner, "c")).state), json(back));
    assert.equal(await messageRows(sql, owner, "c"), back.messages.length);
  });

  test("page (issue 34): the messages before a cursor by position, the forks that belong to them, the next cursor; an unknown cursor or conversation", async () => {
    const { store } = backend();
    const owner = newOwner();
    const { state } = conversation();
    await store.save(owner, "c", state);
    const ids = state.messages.map((message) => message.id);
    const newest = await store.page(owner, "c", { limit: 2 });
    assert.deepEqual(newest.page.messages.map((message) => message.id), ids.slice(-2));
    assert.equal(newest.page.older, ids.length > 2 ? ids[ids.length - 2] : null);
    assert.equal(newest.state.status, state.status);
    const start = await store.page(owner, "c", { before: ids[1], limit: 5 });
    assert.deepEqual(start.page.messages.map((message) => message.id), [ids[0]]);
    assert.equal(start.page.older, null);
    const atStart = state.forks.filter((fork) => fork.after === null || fork.after === ids[0]);
    assert.deepEqual(start.page.forks, atStart.length > 0 ? atStart : undefined);
    // The whole path as one page: every fork (the edit's) with it, the same JSON.
    const whole = await store.page(owner, "c", { limit: 1000 });
    assert.equal(json(whole.page.forks), json(state.forks));
    assert.equal(json(whole.page.messages), json(state.messages));
    assert.deepEqual(await store.page(owner, "c", { before: "nope", limit: 5 }), { state: newest.state, page: undefined });
    assert.equal(await store.page(owner, "missing", { limit: 5 }), undefined);
  });

  test("list: newest save first, per owner (an owner never sees another's), with a limit; title from meta or the first user message", async () => {
    const { store } = backend();
    const alice = newOwner();
    const bob = newOwner();
    const { state } = conversation();
    const empty = { messages: [], status: "idle" };
    await store.save(alice, "first", state);
    await store.save(alice, "second", empty);
    await store.save(bob, "bobs", state, undefined, { title: "Bob's trip" });
    await store.save(alice, "first", state, state);
    const list = await store.list(alice);
    assert.deepEqual(list.map(({ id, title, status }) => ({ id, title, status })), [
      { id: "first", title: "What is the weather in Paris?", status: "streaming" },
      { id: "second", title: "New conversation", status: "idle" },
    ]);
    assert.deepEqual(Object.keys(list[0]).sort(), ["id", "status", "title", "updatedAt"]);
    assert.deepEqual((await store.list(alice, { limit: 1 })).map((entry) => entry.id), ["first"]);
    assert.deepEqual((await store.list(bob)).map((entry) => entry.title), ["Bob's trip"]);
    assert.equal(await store.load(bob, "first"), undefined);
    assert.equal(await store.load(alice, "bobs"), undefined);
    assert.equal(await store.delete(alice, "bobs"), false);
    assert.ok(await store.load(bob, "bobs"), "alice's delete left bob's conversation");
  });

  test("a title given in meta stays until another is given; a derived one follows the first user message, cut to 80 characters", async () => {
    const { store } = backend();
    const owner = newOwner();
    const long = sessionReducer({ messages: [], status: "idle" }, { type: "send", id: "u", text: `  ${"é".repeat(50)}\n${"😀".repeat(50)}  ` });
    await store.save(owner, "t", long);
    assert.equal((await store.load(owner, "t")).title, `${"é".repeat(50)} ${"😀".repeat(29)}`);
    await store.save(owner, "t", long, long, { title: "Trip planning" });
    await store.save(owner, "t", long, long);
    assert.equal((await store.load(owner, "t")).title, "Trip planning");
  });

  test("delete removes the conversation and its messages; true once, then false; a later save stores it whole", async () => {
    const { store, sql } = backend();
    const owner = newOwner();
    await store.save(owner, "gone", conversation().state);
    assert.equal(await store.delete(owner, "gone"), true);
    assert.equal(await store.load(owner, "gone"), undefined);
    assert.equal(await messageRows(sql, owner, "gone"), 0);
    assert.equal(await store.delete(owner, "gone"), false);
    assert.deepEqual(await store.list(owner), []);
    // A save naming a `previous` that was deleted meanwhile (a run still streaming) stores the whole state.
    const chat = conversation();
    await store.save(owner, "again", chat.state);
    await store.delete(owner, "again");
    const next = sessionReducer(chat.state, { type: "part", part: { type: "text-delta", text: " (more)" } });
    await store.save(owner, "again", next, chat.state);
    assert.equal(json((await store.load(owner, "again")).state), json(next));
  });

  test("streaming() lists the conversations stored while streaming, of every owner", async () => {
    const { store } = backend();
    const [a, b] = [newOwner(), newOwner()];
    const chat = conversation();
    await store.save(a, "live", chat.state);
    await store.save(b, "live", chat.state);
    await store.save(a, "done", sessionReducer(chat.state, { type: "stop" }));
    const streaming = await store.streaming();
    const mine = streaming.filter((entry) => entry.owner === a || entry.owner === b);
    assert.deepEqual(mine, [{ owner: a, id: "live" }, { owner: b, id: "live" }]);
    await store.save(a, "live", sessionReducer(chat.state, { type: "stop" }), chat.state);
    assert.deepEqual((await store.streaming()).filter((entry) => entry.owner === a), []);
  });

  test("saves of one conversation made without waiting land in order", async () => {
    const { store } = backend();
    const owner = newOwner();
    const chat = conversation();
    const states = [chat.state];
    for (let i = 0; i < 20; i += 1) states.push(sessionReducer(states.at(-1), { type: "part", part: { type: "text-delta", text: ` ${i}` } }));
    await Promise.all(states.map((state, i) => store.save(owner, "race", state, states[i - 1])));
    assert.equal(json((await store.load(owner, "race")).state), json(states.at(-1)));
  });

  test("another store on the same database reads what this one saved", async () => {
    const { store, other } = backend();
    const owner = newOwner();
    const { state } = conversation();
    await store.save(owner, "shared", state);
    const second = await other();
    try {
      assert.equal(json((await second.load(owner, "shared")).state), json(state));
    } finally {
      await second.close();
    }
  });

  test("bad input is a coded Error naming what is wrong, and writes nothing", async () => {
    const { store } = backend();
    const owner = newOwner();
    const { state } = conversation();
    const twice = { ...state, messages: [...state.messages, state.messages[0]] };
    const cases = [
      [() => store.save(owner, "c", twice), "state.messages[4].id"],
      [() => store.save(owner, "c", { status: "idle" }), "state.messages"],
      [() => store.save(owner, "c", { ...state, status: 3 }), "state.status"],
      [() => store.save(owner, "c", state, undefined, { title: 7 }), "meta.title"],
      [() => store.save(owner, "", state), "id"],
      [() => store.save(7, "c", state), "owner"],
      [() => store.save(owner, "c\u0000", state), "id"],
      [() => store.load(owner, 5), "id"],
      [() => store.list(owner, { limit: 0 }), "options.limit"],
    ];
    for (const [call, path] of cases) {
      await assert.rejects(call, (error) => error instanceof Error && error.code === "invalid" && error.path === path && error.message.startsWith(path));
    }
    assert.deepEqual(await store.list(owner), []);
  });

  test("a save that fails midway (the database refuses its last statement) leaves the previous state readable; the next save lands whole", async () => {
    const { store, sql } = backend();
    const owner = newOwner();
    const before = sessionReducer(conversation().state, { type: "stop" });
    await store.save(owner, "c", before);
    await sql(`create or replace function chat_test_refuse() returns trigger language plpgsql as $$
      begin if new.id = 'refused' then raise exception 'refused by the test'; end if; return new; end $$`);
    await sql("create trigger chat_test_refuse before insert or update on chat_messages for each row execute function chat_test_refuse()");
    // Rewrites the conversation row, deletes the edited tail's rows, then fails inserting the new message.
    const edited = sessionReducer(before, { type: "edit", messageId: "u2b", id: "refused", text: "And in Madrid?" });
    try {
      await assert.rejects(store.save(owner, "c", edited, before), (error) => error instanceof Error && error.code === "store" && /refused by the test/.test(error.message));
      assert.equal(json((await store.load(owner, "c")).state), json(before));
      assert.equal((await store.list(owner))[0].status, "idle");
    } finally {
      await sql("drop trigger chat_test_refuse on chat_messages");
    }
    // The next save names the failed state as `previous` (its new message never landed): the store writes everything.
    const replied = sessionReducer(edited, { type: "part", part: { type: "message-start", messageId: "a-madrid" } });
    await store.save(owner, "c", replied, edited);
    assert.equal(json((await store.load(owner, "c")).state), json(replied));
    assert.equal(await messageRows(sql, owner, "c"), replied.messages.length);
  });

  test(`the schema is created on first use with its version row (${SCHEMA_VERSION}), and a newer schema is refused`, async () => {
    const { sql, other } = backend();
    assert.deepEqual(await sql("select name, version from chat_schema"), [{ name: "chat-session-reducer", version: SCHEMA_VERSION }]);
    await sql("update chat_schema set version = version + 1");
    const newer = await other();
    try {
      await assert.rejects(newer.list("anyone"), (error) => error.code === "schema" && /newer than this release/.test(error.message));
    } finally {
      await sql("update chat_schema set version = version - 1");
      await newer.close();
    }
  });

  // Last: on PGlite it closes the database the other tests share.
  test("a store whose database is gone (closed under it) rejects save, load and list with an Error", async () => {
    const { store, breakDatabase } = await backend().failing();
    const owner = newOwner();
    const { state } = conversation();
    await store.save(owner, "c", state);
    await breakDatabase();
    const failedStore = (error) => error instanceof Error && error.code === "store";
    await assert.rejects(store.save(owner, "c", sessionReducer(state, { type: "stop" }), state), failedStore);
    await assert.rejects(store.load(owner, "c"), failedStore);
    await assert.rejects(store.list(owner), failedStore);
    await store.close();
    await assert.rejects(store.load(owner, "c"), (error) => error instanceof Error && error.code === "closed");
  });
}

async function rowsWrittenByLastSave(sql, owner, id) {
  const rows = await sql(
    `select count(*)::int as n from chat_messages m join chat_conversations c on c.owner = m.owner and c.id = m.conversation_id
      where m.owner = $1 and m.conversation_id = $2 and m.xmin = c.xmin`,
    [owner, id],
  );
  return rows[0].n;
}

async function messageRows(sql, owner, id) {
  const rows = await sql("select count(*)::int as n from chat_messages where owner = $1 and conversation_id = $2", [owner, id]);
  return rows[0].n;
}

test("a store whose database package is not installed rejects naming the package to install", async () => {
  await assert.rejects(importPeer("chat-store-missing-peer", () => import("chat-store-missing-peer")), (error) =>
    error instanceof Error && error.code === "missing_dependency" && /npm install chat-store-missing-peer/.test(error.message));
});

test("a store's bad options throw a coded Error naming the option", () => {
  const cases = [
    [() => createPgliteStore({ dataDir: 5 }), "options.dataDir"],
    [() => createPgliteStore({ pglite: {} }), "options.pglite"],
    [() => createPgliteStore(null), "options"],
    [() => createPostgresStore({ max: 0 }), "options.max"],
    [() => createPostgresStore({ connectionString: 5 }), "options.connectionString"],
    [() => createPostgresStore({ pool: "pool" }), "options.pool"],
  ];
  for (const [make, path] of cases) assert.throws(make, (error) => error.code === "invalid" && error.path === path);
});

describe("PGlite store", () => {
  let pglite;
  let store;
  const dir = mkdtempSync(join(tmpdir(), "chat-store-pglite-"));
  before(async () => {
    pglite = await PGlite.create();
    store = createPgliteStore({ pglite });
  });
  after(async () => {
    await store.close();
    if (!pglite.closed) await pglite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a save while a reply streams after an edit sends the changed message only, not the branch the edit set aside", async () => {
    const sent = [];
    const record = (db) => ({
      query: (text, params) => {
        sent.push(JSON.stringify(params ?? []).length);
        return db.query(text, params);
      },
    });
    const recording = { ...record(pglite), transaction: (fn) => pglite.transaction((tx) => fn(record(tx))) };
    const recorded = createPgliteStore({ pglite: recording });
    const owner = newOwner();
    const big = "y".repeat(20_000);
    let state = { messages: [], status: "idle" };
    for (let i = 0; i < 100; i += 1) {
      state = sessionReducer(state, { type: "send", id: `u${i}`, text: big });
      state = sessionReducer(state, { type: "part", part: { type: "message-start", messageId: `a${i}` } });
      state = sessionReducer(state, { type: "part", part: { type: "text-delta", text: big } });
      state = sessionReducer(state, { type: "part", part: { type: "finish" } });
    }
    const edited = sessionReducer(state, { type: "edit", messageId: "u1", id: "u1b", text: "Shorter, please" });
    assert.ok(JSON.stringify(edited.forks).length > 3_900_000, "the edit set aside a branch of about 4 MB");
    await recorded.save(owner, "c", edited);
    const streamed = sessionReducer(edited, { type: "part", part: { type: "message-start", messageId: "a1b" } });
    const more = sessionReducer(streamed, { type: "part", part: { type: "text-delta", text: "Sure." } });
    await recorded.save(owner, "c", streamed, edited);
    sent.length = 0;
    await recorded.save(owner, "c", more, streamed);
    const bytes = sent.reduce((sum, size) => sum + size, 0);
    assert.ok(bytes < 2_000, `the save sent ${bytes} bytes of parameters`);
    assert.equal(json((await recorded.load(owner, "c")).state), json(more));
  });

  storeSuite(() => ({
    store,
    sql: async (text, params) => (await pglite.query(text, params)).rows,
    other: async () => createPgliteStore({ pglite }),
    failing: async () => ({ store: createPgliteStore({ pglite }), breakDatabase: () => pglite.close() }),
  }));

  test("a store in a data directory keeps its conversations across close and reopen", async () => {
    const dataDir = join(dir, "reopened");
    const owner = newOwner();
    const { state } = conversation();
    const first = createPgliteStore({ dataDir });
    await first.save(owner, "kept", state);
    await first.close();
    const again = createPgliteStore({ dataDir });
    try {
      assert.equal(json((await again.load(owner, "kept")).state), json(state));
    } finally {
      await again.close();
    }
  });
});

describe("PostgreSQL server store", async () => {
  let server;
  let why;
  try {
    server = await startPostgres();
  } catch (error) {
    why = error;
  }
  if (!server) {
    if (requirePostgres) {
      test("PostgreSQL starts (required: CI or REQUIRE_POSTGRES=1)", () => {
        throw why;
      });
    } else {
      console.log(`store.test.mjs: PostgreSQL could not start, so its half of the store suite is SKIPPED (CI=1 or REQUIRE_POSTGRES=1 makes it fail): ${why?.message}`);
      test("PostgreSQL server store", { skip: `PostgreSQL could not start: ${why?.message}` }, () => {});
    }
    return;
  }
  const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
  const store = createPostgresStore({ connectionString: server.connectionString, max: 4 });
  after(async () => {
    await store.close();
    await pool.end();
    await server.stop();
  });

  test("a store whose server does not answer rejects with code \"store\" and tries again at the next call", async () => {
    const down = createPostgresStore({ connectionString: server.connectionString.replace(/:\d+\//, ":1/") });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await assert.rejects(down.list("anyone"), (error) => error instanceof Error && error.code === "store" && /opening the database failed/.test(error.message));
    }
    await down.close();
  });

  storeSuite(() => ({
    store,
    sql: async (text, params) => (await pool.query(text, params)).rows,
    other: async () => createPostgresStore({ connectionString: server.connectionString, max: 2 }),
    failing: async () => {
      const own = new pg.Pool({ connectionString: server.connectionString, max: 2 });
      return { store: createPostgresStore({ pool: own }), breakDatabase: () => own.end() };
    },
  }));
});
