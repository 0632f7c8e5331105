// Two instances of chat-session-reducer/server on one Redis (tests/server/redis-server.mjs starts
// a real redis-server) and one store: a run started on A is resumed from B at the client's
// offset, a Stop sent to B stops A's model and stores what the client shows, a newer run on B
// supersedes A's, a reconnect after the run ended gets its end, a run whose instance died is
// stored interrupted and ended (by the sweep, or by a newer run reaching B first), and a starting
// instance leaves live runs alone. Without redis-server the suite is skipped with a note, and
// fails when CI or REQUIRE_REDIS is set.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createClient } from "redis";
import { createChatServer, createRedisControl, createRedisLeases, createRedisRunLog, INTERRUPTED, RUN_HEADERS } from "../../pkg/server/index.js";
import { createAgentSession } from "../../pkg/session/index.js";
import { dropAfter, memoryStore, routeFetch, scriptedRun, until } from "./helpers.mjs";
import { startRedis } from "./redis-server.mjs";
import { createRandom } from "../fuzz/generate.mjs";

const requireRedis = Boolean(process.env.CI && process.env.CI !== "0") || process.env.REQUIRE_REDIS === "1";

let redis;
let why;
before(async () => {
  try {
    redis = await startRedis();
  } catch (error) {
    why = error;
  }
});
after(() => redis?.stop());

const opening = [{ type: "start", messageId: "a1" }, { type: "text-start", id: "t" }];
const word = (text) => ({ type: "text-delta", id: "t", delta: text });
const closing = [{ type: "text-end", id: "t" }, { type: "finish", finishReason: "stop" }];

// Short leases, so an instance that died is found out within about two seconds; renewed every
// third of that, so a live instance loses its lease only if its timers lag over 1.3 s.
const LEASE_MS = 2_000;

/**
 * One instance: its own run log, control and leases on the shared Redis, the shared store (whose
 * saves stop once the instance is killed); its models in `models`. `kill()` is a death as far as
 * the others can tell: no more renewals, saves or answers.
 */
function instance(shared, models, { checkAbandonedMs = 200, leasesClient } = {}) {
  let dead = false;
  const store = { ...shared, save: (...args) => (dead ? new Promise(() => {}) : shared.save(...args)) };
  // A killed instance's failures (its connections closed) are its own: the test watches the others.
  const onError = (error) => dead || console.error(error);
  const log = createRedisRunLog({ url: redis.url, onError });
  const control = createRedisControl({ url: redis.url, onError });
  const leases = createRedisLeases({ ...(leasesClient ? { client: leasesClient } : { url: redis.url }), leaseMs: LEASE_MS, onError });
  const server = createChatServer({
    protocol: "ai-sdk",
    store,
    log,
    control,
    leases,
    checkAbandonedMs,
    onError,
    authorize: () => "owner-1",
    run: scriptedRun(models),
  });
  const connections = () => Promise.all([control.close(), leases.close(), log.close()]);
  return {
    server,
    log,
    control,
    kill: async () => {
      dead = true;
      await connections();
      // Only to stop its sweep: its runs' ends reach neither Redis nor the store.
      void server.close();
    },
    close: async () => {
      if (dead) return;
      await server.close();
      await connections();
    },
  };
}

/**
 * Instances A and B; the client's chat requests go to `chatOn`, every other request to the other
 * one (its reconnects and stops), and the first chat response drops after `cutAfter` chunks.
 */
async function setUp({ chatOn = "A", cutAfter, checkAbandonedMs, leasesOfA } = {}) {
  const store = memoryStore();
  const models = [];
  const A = instance(store, models, { checkAbandonedMs, leasesClient: leasesOfA });
  const B = instance(store, models, { checkAbandonedMs });
  await Promise.all([A.control.ready, B.control.ready]);
  const chatServer = chatOn === "A" ? A : B;
  const otherServer = chatOn === "A" ? B : A;
  const seen = [];
  let cut = cutAfter;
  /** Cuts the client's chat connection now (its instance died). */
  let cutChat = () => {};
  const undo = routeFetch(async (request) => {
    const isChat = request.method === "POST" && new URL(request.url).pathname === "/api/chat";
    const response = await (isChat ? chatServer : otherServer).server.fetch(request);
    seen.push({ path: new URL(request.url).pathname, on: isChat ? chatOn : chatOn === "A" ? "B" : "A", offset: response.headers.get(RUN_HEADERS.offset), status: response.status });
    if (!isChat || response.body === null) return response;
    const after = cut ?? Infinity;
    cut = undefined;
    const dropped = dropAfter(response, after);
    const body = dropped.body.pipeThrough(new TransformStream({ start: (controller) => (cutChat = () => controller.error(new TypeError("network error"))) }));
    return new Response(body, { status: response.status, headers: response.headers });
  });
  const client = createAgentSession({ protocol: "ai-sdk", api: "/api/chat", stopApi: "/api/chat/stop", resume: true, throttle: 0, id: "c1" });
  const unsubscribe = client.subscribe(() => {});
  return {
    A,
    B,
    models,
    client,
    seen,
    store,
    cutChat: () => cutChat(),
    stored: async () => {
      await A.server.idle();
      await B.server.idle();
      return JSON.stringify((await store.load("owner-1", "c1"))?.state);
    },
    shown: () => JSON.stringify(client.getSnapshot().state),
    done: async () => {
      unsubscribe();
      undo();
      await A.close();
      await B.close();
    },
  };
}


const replyText = (client) =>
  (client.getSnapshot().state.messages[1]?.parts ?? [])
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");

/** Sends "Hello" and writes the reply's opening and `words` on its model; the model, once the client shows them. */
async function replyShown(setup, words = ["Hi "]) {
  setup.client.send("Hello");
  await until(() => setup.models.length === 1, "the run");
  const model = setup.models[0];
  for (const frame of opening) model.push(frame);
  for (const text of words) model.push(word(text));
  await until(() => replyText(setup.client) === words.join(""), `${JSON.stringify(words.join(""))} shown`);
  return model;
}

/** The suite's tests, failing (CI, REQUIRE_REDIS=1) or skipped when redis-server did not start. */
function redisTest(name, body) {
  test(name, async (t) => {
    if (redis === undefined) {
      if (requireRedis) throw new Error(`redis-server could not start (required: CI or REQUIRE_REDIS=1): ${why?.message}`);
      console.log(`redis.test.mjs: redis-server could not start, so this test is SKIPPED (CI=1 or REQUIRE_REDIS=1 makes it fail): ${why?.message}`);
      return t.skip(`redis-server could not start: ${why?.message}`);
    }
    await body();
  });
}

redisTest("a run on A, its connection dropped, resumes from B at the client's offset and ends as the whole reply", async () => {
  const setup = await setUp({ cutAfter: 3 });
  // The client has applied 3 frames when its connection drops at the 4th.
  const model = await replyShown(setup);
  for (const text of ["there ", "friend."]) model.push(word(text));
  for (const frame of closing) model.push(frame);
  model.end();
  await until(() => setup.client.getSnapshot().status === "idle", "the end");
  assert.equal(replyText(setup.client), "Hi there friend.", "nothing lost, nothing doubled");
  const resumed = setup.seen.findLast((request) => request.path === "/api/chat/c1/stream");
  assert.equal(resumed?.on, "B");
  assert.equal(resumed.offset, "3", "B answered from the client's offset, not from the start");
  assert.equal(model.signal.aborted, false);
  assert.equal(await setup.stored(), setup.shown());
  await setup.done();
});

redisTest("a Stop sent to B stops A's model, and the stored reply is the one the client shows", async () => {
  const setup = await setUp();
  const model = await replyShown(setup, ["Hi ", "there "]);
  setup.client.stop();
  // The model writes on before the stop reaches it: none of it may be stored.
  model.push(word("friend."));
  await until(() => model.signal.aborted, "A's model aborted");
  await until(() => setup.seen.some((request) => request.path === "/api/chat/stop" && request.on === "B"), "B answered the stop");
  assert.equal(replyText(setup.client), "Hi there ");
  assert.equal(await setup.stored(), setup.shown());
  await setup.done();
});

redisTest("a newer run sent to B supersedes A's: A's model aborted, the stopped reply stored, B's run on top of it", async () => {
  const setup = await setUp();
  const first = await replyShown(setup);
  // The AI SDK's own regenerate of the reply, as another page's useChat sends it, reaching B.
  const user = setup.client.getSnapshot().state.messages[0];
  const body = { id: "c1", trigger: "regenerate-message", messages: [{ id: user.id, role: "user", parts: [{ type: "text", text: "Hello" }] }] };
  const response = await setup.B.server.fetch(new Request("http://app.test/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  assert.equal(response.status, 200);
  assert.equal(first.signal.aborted, true, "A's model was aborted before B's run started");
  await until(() => setup.models.length === 2, "B's run");
  const second = setup.models[1];
  for (const frame of [{ type: "start", messageId: "a2" }, { type: "text-start", id: "t" }, word("Again."), ...closing]) second.push(frame);
  second.end();
  await response.text();
  const stored = JSON.parse(await setup.stored());
  assert.deepEqual(stored.messages.map((message) => message.id), [user.id, "a2"]);
  assert.equal(stored.status, "idle");
  await setup.done();
});

redisTest("a reconnect after the run ended, on the other instance, gets the end (and only what the client lacks)", async () => {
  const setup = await setUp();
  setup.client.send("Hello");
  await until(() => setup.models.length === 1, "the run");
  const model = setup.models[0];
  for (const frame of [...opening, word("Done."), ...closing]) model.push(frame);
  model.end();
  await until(() => setup.client.getSnapshot().status === "idle", "the end");
  await setup.stored();
  const runId = setup.client.getSnapshot().run?.id ?? (await setup.B.log.newest(JSON.stringify(["owner-1", "c1"]))).id;
  const frames = opening.length + 1 + closing.length;
  const late = await setup.B.server.fetch(new Request("http://app.test/api/chat/c1/stream", { headers: { [RUN_HEADERS.id]: runId, [RUN_HEADERS.offset]: String(frames) } }));
  assert.equal(late.status, 200);
  assert.equal(late.headers.get(RUN_HEADERS.offset), String(frames));
  assert.equal(await late.text(), "data: [DONE]\n\n", "the end, nothing the client had");
  const fresh = await setup.A.server.fetch(new Request("http://app.test/api/chat/c1/stream"));
  assert.equal((await fresh.text()).match(/^data: \{/gm)?.length, frames, "a client with nothing gets the whole run");
  await setup.done();
});

redisTest("A dies mid-reply: B stores the run interrupted within the lease's time, and the client following it gets its end", async () => {
  const setup = await setUp();
  const model = await replyShown(setup);
  await until(async () => (await setup.store.load("owner-1", "c1"))?.state.messages[1]?.parts.some((part) => part.text === "Hi "), "the word saved");
  const died = Date.now();
  await setup.A.kill();
  setup.cutChat();
  await until(async () => (await setup.store.load("owner-1", "c1"))?.state.status === "error", "the run stored interrupted");
  const after = Date.now() - died;
  assert.ok(after < 15_000, `stored interrupted ${after} ms after A died`);
  await until(() => setup.client.getSnapshot().status === "error", "the client's end");
  const stored = (await setup.store.load("owner-1", "c1")).state;
  assert.equal(replyText(setup.client), "Hi ", "the partial reply kept");
  assert.match(JSON.stringify(stored), new RegExp(INTERRUPTED.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  assert.equal(JSON.stringify(stored), setup.shown());
  await setup.done();
});

/** A node-redis client whose lease renewals (the EVAL that PEXPIREs) wait while `stalled`: an instance whose timers lag. */
async function stallingClient() {
  const real = createClient({ url: redis.url });
  real.on("error", () => {});
  await real.connect();
  const waiting = [];
  const client = {
    stalled: false,
    isOpen: true,
    on: () => client,
    duplicate: () => real.duplicate(),
    async sendCommand(args) {
      if (client.stalled && args[0] === "EVAL" && args[1].includes("PEXPIRE")) await new Promise((resolve) => waiting.push(resolve));
      return real.sendCommand(args);
    },
    resume() {
      client.stalled = false;
      for (const resolve of waiting.splice(0)) resolve();
    },
    quit: () => real.quit(),
  };
  return client;
}

redisTest("A alive but stalled past its lease: B stores the run interrupted and takes the lease over; A, renewing again, finds it lost and stops (its model aborted, nothing more written or saved), and the client reading from A ends as stored", async () => {
  const leasesOfA = await stallingClient();
  const setup = await setUp({ leasesOfA });
  try {
    const model = await replyShown(setup);
    leasesOfA.stalled = true;
    await until(async () => (await setup.store.load("owner-1", "c1"))?.state.status === "error", "the run stored interrupted (by B's sweep)", 15_000);
    leasesOfA.resume();
    await until(() => model.signal.aborted, "A's model aborted once its renewal found the lease taken over", 5_000);
    // What A's model would still have written reaches neither the log nor the store.
    model.push(word("there"));
    await until(() => setup.client.getSnapshot().status === "error", "the client's end");
    assert.equal(replyText(setup.client), "Hi ");
    assert.ok(JSON.stringify(setup.client.getSnapshot().state).includes(INTERRUPTED));
    assert.equal(await setup.stored(), setup.shown());
    assert.ok(!setup.seen.some((request) => request.path.endsWith("/stream")), "no reconnect: A's response got B's end from Redis");
  } finally {
    await setup.done();
    await leasesOfA.quit();
  }
});

redisTest("an instance starting while A's run streams leaves it streaming: the lease says it is alive", async () => {
  const setup = await setUp();
  const model = await replyShown(setup);
  const C = instance(setup.store, setup.models);
  // Any route waits for the start-up recovery first.
  assert.equal((await C.server.fetch(new Request("http://app.test/api/conversations"))).status, 200);
  assert.equal((await setup.store.load("owner-1", "c1")).state.status, "streaming");
  for (const frame of [word("there."), ...closing]) model.push(frame);
  model.end();
  await until(() => setup.client.getSnapshot().status === "idle", "the end");
  assert.equal(replyText(setup.client), "Hi there.");
  assert.equal(await setup.stored(), setup.shown());
  await C.close();
  await setup.done();
});

redisTest("A dies mid-reply and a newer run reaches B before any sweep: B stores A's run interrupted, then runs the new one", async () => {
  const setup = await setUp({ checkAbandonedMs: 60_000 });
  setup.client.send("Hello");
  await until(() => setup.models.length === 1, "the run");
  for (const frame of opening) setup.models[0].push(frame);
  setup.models[0].push(word("Hi "));
  await until(async () => (await setup.store.load("owner-1", "c1"))?.state.messages[1]?.parts.some((part) => part.text === "Hi "), "the word saved");
  await setup.A.kill();
  setup.cutChat();
  const user = setup.client.getSnapshot().state.messages[0];
  const body = { id: "c1", trigger: "regenerate-message", messages: [{ id: user.id, role: "user", parts: [{ type: "text", text: "Hello" }] }] };
  // Nobody answers B's stop (A is dead): B waits for that (2 s), by when A's lease (1 s) ran out.
  const response = await setup.B.server.fetch(new Request("http://app.test/api/chat", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  assert.equal(response.status, 200);
  await until(() => setup.models.length === 2, "B's run");
  for (const frame of [{ type: "start", messageId: "a2" }, { type: "text-start", id: "t" }, word("Again."), ...closing]) setup.models[1].push(frame);
  setup.models[1].end();
  await response.text();
  // A's run never ends (its instance is "dead"): B's is the one to wait for.
  await setup.B.server.idle();
  const stored = (await setup.store.load("owner-1", "c1")).state;
  assert.deepEqual(stored.messages.map((message) => message.id), [user.id, "a2"]);
  assert.equal(stored.status, "idle");
  // The client following A's run got its end from B: the interrupted reply, as stored before the new run.
  await until(() => setup.client.getSnapshot().status === "error", "the client's end");
  assert.equal(replyText(setup.client), "Hi ");
  assert.match(JSON.stringify(setup.client.getSnapshot().state), /interrupted/);
  await setup.done();
});


redisTest("followers on B of 12 runs A writes share one blocking reader: 60 followers joining at seeded offsets while the runs stream each get every frame from their offset once, one that leaves ends alone", async () => {
  const writer = createRedisRunLog({ url: redis.url });
  const reader = createRedisRunLog({ url: redis.url });
  const { createClient } = await import("redis");
  const admin = createClient({ url: redis.url });
  await admin.connect();
  const clients = async () => (await admin.sendCommand(["CLIENT", "LIST"])).trim().split("\n").length;
  try {
    const random = createRandom(34);
    const RUNS = 12;
    const FRAMES = 40;
    const runs = Array.from({ length: RUNS }, (_, r) => ({ id: `pool-run-${r}`, key: `owner-1:pool-${r}`, written: 0, frames: Array.from({ length: FRAMES }, (_, f) => `frame ${r}/${f}`) }));
    for (const run of runs) await writer.start(run.key, run.id, { protocol: "ai-sdk" });
    // Both logs' shared connections exist once each has sent a command.
    await reader.newest("owner-1:nothing");
    const before = await clients();
    /** A frame of a random run with frames left below `upTo`; the run ended after its last. */
    const writeOne = (upTo) => {
      const open = runs.filter((run) => run.written < upTo);
      const run = random.pick(open);
      writer.append(run.id, run.frames[run.written]);
      run.written += 1;
      if (run.written === FRAMES) writer.end(run.key, run.id);
    };
    const followed = [];
    const leaver = new AbortController();
    /** A follower of a random run from an offset it has written (Redis may not hold it yet). */
    const follow = () => {
      const run = random.pick(runs);
      const from = random.below(run.written + 1);
      const signal = followed.length === 0 ? leaver.signal : undefined;
      const got = [];
      const done = (async () => {
        for await (const frame of reader.follow(run.id, from, signal)) {
          got.push(frame);
          if (signal !== undefined && got.length === 3) leaver.abort();
        }
      })();
      followed.push({ run, from, got, done, leaves: signal !== undefined });
    };
    // The first half of each run written while the followers join between the frames.
    for (let step = 0; step < (RUNS * FRAMES) / 2; step++) {
      writeOne(FRAMES / 2);
      if (step % 4 === 0) follow();
      if (step % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(followed.length, 60);
    // Every follower is waiting on frames not written yet: one reader connection for all of them
    // (a connection each would be 60 more).
    await until(() => followed.every(({ run, from, got, leaves }) => leaves || got.length === Math.max(0, run.written - from)), "the followers to have what was written");
    const during = (await clients()) - before;
    assert.ok(during <= 1, `${during} connections more than before the followers`);
    for (let step = 0; step < (RUNS * FRAMES) / 2; step++) {
      writeOne(FRAMES);
      if (step % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(followed.map((follower) => follower.done));
    for (const { run, from, got, leaves } of followed) {
      if (leaves) assert.deepEqual(got, run.frames.slice(from, from + 3), "the follower that left got what it read, and ended");
      else assert.deepEqual(got, run.frames.slice(from), `${run.id} from ${from}: every frame once, in order`);
    }
  } finally {
    await admin.quit();
    await Promise.all([writer.close(), reader.close()]);
  }
});
