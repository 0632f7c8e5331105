// Older history paged (issue 34 item 2): `GET {conversations}/{id}?before=…&limit=…` over HTTP, on
// a store without `page` (paged in memory) and on PGlite (a SQL query by position that reads only
// the page): the newest page and its cursor, then older pages that a client puts in front with
// `prepend` until it holds exactly what is stored, forks included; bad cursors and limits 400.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { sessionReducer } from "../../pkg/index.js";
import { createChatServer, toNodeHandler } from "../../pkg/server/index.js";
import { createPgliteStore } from "../../src/server/store/index.js";
import { memoryStore, scriptedRun } from "./helpers.mjs";

async function listen(store) {
  const chat = createChatServer({ protocol: "ai-sdk", store, authorize: () => "alice", run: scriptedRun([]) });
  const server = http.createServer(toNodeHandler(chat.fetch));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}/api/conversations`;
  const close = () => {
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    return closed;
  };
  return { base, close };
}

/** 60 turns (120 messages), the 10th question edited and the 45th reply regenerated (two forks), then a queued message. */
function longConversation() {
  let state;
  const act = (action) => (state = sessionReducer(state, action));
  const reply = (id) => {
    act({ type: "part", part: { type: "message-start", messageId: id } });
    act({ type: "part", part: { type: "tool-call", id: `call-${id}`, name: "search", input: { q: id } } });
    act({ type: "part", part: { type: "tool-result", id: `call-${id}`, output: { hits: 1 } } });
    act({ type: "part", part: { type: "text-delta", text: `answer ${id}` } });
    act({ type: "part", part: { type: "finish" } });
  };
  for (let turn = 0; turn < 60; turn++) {
    if (turn === 10) {
      act({ type: "send", id: "u-10-first", text: "first try" });
      reply("a-10-first");
      act({ type: "edit", messageId: "u-10-first", id: "u-10", text: "question 10" });
    } else act({ type: "send", id: `u-${turn}`, text: `question ${turn}` });
    if (turn === 45) {
      reply("a-45-first");
      act({ type: "regenerate" });
    }
    reply(`a-${turn}`);
  }
  return state;
}

const stores = {
  "a store without page (paged in memory)": () => memoryStore(),
  // `load` refused: the route reads the page through the store's own query.
  "PGlite (the page read by position)": () => ({ ...createPgliteStore(), load: () => Promise.reject(new Error("the whole conversation was loaded")) }),
};

for (const [name, makeStore] of Object.entries(stores)) {
  test(`${name}: the newest page, then older pages prepended, give back the stored conversation`, async () => {
    const store = makeStore();
    const stored = longConversation();
    await store.save("alice", "c1", stored);
    const { base, close } = await listen(store);
    try {
      const first = await (await fetch(`${base}/c1?limit=50`)).json();
      assert.equal(first.state.messages.length, 50);
      assert.deepEqual(first.state.messages, stored.messages.slice(70));
      assert.equal(first.older, stored.messages[70].id);
      assert.equal(first.state.status, "idle");
      let client = sessionReducer(undefined, { type: "load", state: first.state });
      let cursor = first.older;
      let pages = 0;
      while (cursor !== null) {
        const response = await fetch(`${base}/c1?before=${encodeURIComponent(cursor)}&limit=50`);
        assert.equal(response.status, 200);
        const page = await response.json();
        assert.ok(page.messages.length > 0 && page.messages.length <= 50);
        client = sessionReducer(client, { type: "prepend", messages: page.messages, ...(page.forks ? { forks: page.forks } : {}) });
        cursor = page.older;
        pages++;
      }
      assert.equal(pages, 2);
      assert.deepEqual(client, stored, "the pages put together are the stored conversation, forks included");
      // A page whose cursor is the first message: nothing older.
      const none = await (await fetch(`${base}/c1?before=${stored.messages[0].id}`)).json();
      assert.deepEqual(none, { id: "c1", messages: [], older: null });
    } finally {
      await close();
      await store.close();
    }
  });

  test(`${name}: a bad cursor or limit is a 400 JSON error naming it; an unknown conversation 404; no paging, the whole state`, async () => {
    const store = makeStore();
    await store.save("alice", "c1", longConversation());
    const { base, close } = await listen(store);
    try {
      for (const [query, path] of [["before=nope", "before"], ["before=", "before"], ["limit=0", "limit"], ["limit=x", "limit"], ["limit=1.5", "limit"], ["limit=1001", "limit"], ["limit=-3", "limit"]]) {
        const response = await fetch(`${base}/c1?${query}`);
        assert.equal(response.status, 400, query);
        const body = await response.json();
        assert.equal(body.code, "invalid", query);
        assert.equal(body.path, path, query);
      }
      assert.equal((await fetch(`${base}/nope?limit=5`)).status, 404);
      if (name.startsWith("a store")) {
        const whole = await (await fetch(`${base}/c1`)).json();
        assert.equal(whole.state.messages.length, 120);
        assert.equal(whole.older, null);
      }
    } finally {
      await close();
      await store.close();
    }
  });
}
