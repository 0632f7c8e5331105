// Two real demo instances (node www/server.mjs, each its own port) on one Redis and one Postgres
// the suite starts itself (tests/server/redis-server.mjs, postgres-server.mjs), driven over HTTP
// by the package's session controller (resuming, with Stop on the server): a run on A resumed on B,
// a Stop sent to B, A killed (SIGKILL) mid-reply, a newer run refused 503 while A's lease runs, A
// killed before its run was ever stored, a delete on B of A's run, a run that lost its lease,
// Redis restarted (its data lost) and Postgres down for 5 s mid-run, then SERVER_RUNS (200)
// seeded runs with kills, cuts and stops. The
// scripted agent's "long" and "plain" replies, at DEMO_PACE_MS=1. Without redis-server or
// Postgres the suite is skipped with a note, and fails when CI or REQUIRE_REDIS/REQUIRE_POSTGRES is set.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createClient } from "redis";
import { INTERRUPTED } from "../../pkg/server/index.js";
import { DEMO_ENV, LONG, demoClient, hooks, post, latestRun, serversTest, settled, startTwoDemos, storedAsShown, until } from "./demo-instances.mjs";
import { createRandom } from "../fuzz/generate.mjs";

// The lease (DEMO_ENV's) is well over the control channel's 2 s wait for an answer: the 503 test
// needs the dead instance's lease to outlast it.
const LEASE_MS = Number(DEMO_ENV.DEMO_LEASE_MS);

let redis;
let pg;
let A;
let B;
let why;
before(async () => {
  try {
    ({ redis, pg, A, B } = await startTwoDemos());
  } catch (error) {
    why = error;
  }
});
after(async () => {
  // INSTANCES_LOGS=dir keeps what each instance printed (dir/demo-A.log, dir/demo-B.log).
  if (process.env.INSTANCES_LOGS) for (const demo of [A, B]) if (demo) writeFileSync(`${process.env.INSTANCES_LOGS}/demo-${demo.name}.log`, demo.output());
  await Promise.all([A?.stop(), B?.stop()]);
  await Promise.all([redis?.stop(), pg?.stop()]);
});

const instancesTest = serversTest("instances.test.mjs", {
  started: () => B !== undefined,
  why: () => why,
  // A test that failed may have left an instance killed.
  first: async () => {
    for (const demo of [A, B]) if (!demo.alive()) await demo.start();
  },
});


/** Sends `text` with the next run on `demo` held at `chunks`; resolves once it is held and the client shows some of it. */
async function sendHeld(client, demo, text, chunks = 40) {
  await hooks(demo, "hold", { chunks: [chunks] });
  const before = (await latestRun(demo)).run;
  client.session.send(text);
  await until(async () => {
    const run = await latestRun(demo);
    return run.run > before && run.held;
  }, `the run on ${demo.name} held`);
  await until(() => client.reply().length > 0, "the client showing the reply");
}

const FIRST_PARAGRAPH = "long: after the first paragraph";
const heldAt = (demo) => (demo.output().match(/test: long: held at long: after the first paragraph/g) ?? []).length;
const abortedOn = (demo) => (demo.output().match(/long: aborted by the client/g) ?? []).length;

/** Sends `text` with the next "long" run on `demo` held in its script after its first paragraph (a model that waits); resolves once it is. */
async function sendHeldInScript(client, demo, text) {
  await hooks(demo, "hold", { point: FIRST_PARAGRAPH });
  const before = heldAt(demo);
  client.session.send(text);
  await until(() => heldAt(demo) > before, `the run on ${demo.name} held`);
  await until(() => client.reply().length > 0, "the client showing the reply");
}

const interruptedShown = (client) => JSON.stringify(client.shown()).includes(INTERRUPTED);

instancesTest("a run on A whose connection dropped resumes on B and ends as the uninterrupted reply", async () => {
  const client = await demoClient("resume", { route: (kind) => (kind === "chat" ? A : B) });
  await sendHeld(client, A, "Tell me a long story");
  client.cut();
  await hooks(A, "release", { chunks: true });
  await until(() => settled(client), "the reply's end");
  assert.equal(client.status(), "idle");
  assert.equal(client.reply(), LONG, "nothing lost, nothing doubled");
  assert.ok(client.requests.some((request) => request.kind === "stream" && request.on === "B"), "resumed on B");
  await storedAsShown(client, B);
  client.done();
});

instancesTest("a Stop sent to B stops A's model within a second, and the stored reply is the one the client shows", async () => {
  const client = await demoClient("stop", { route: (kind) => (kind === "chat" ? A : B) });
  const abortedBefore = abortedOn(A);
  await sendHeldInScript(client, A, "Tell me a long story");
  const stoppedAt = Date.now();
  client.session.stop();
  await until(() => abortedOn(A) > abortedBefore, "A's model aborted");
  const took = Date.now() - stoppedAt;
  console.log(`instances: a Stop sent to B aborted A's model ${took} ms later`);
  assert.ok(took < 1_000, `A's model aborted ${took} ms after the Stop`);
  await hooks(A, "release", {});
  assert.equal(client.status(), "idle");
  assert.ok(LONG.startsWith(client.reply()) && client.reply().length < LONG.length);
  await storedAsShown(client, B);
  client.done();
});

instancesTest("A killed (SIGKILL) mid-reply: a newer run on B is refused 503 while A's lease runs, B stores the run interrupted within the lease's time, the client following on B gets that end", async () => {
  const client = await demoClient("killed", { route: (kind) => (kind === "chat" ? A : B) });
  await sendHeld(client, A, "Tell me a long story");
  const killedAt = Date.now();
  await A.kill();
  // The AI SDK's regenerate of the reply from another page, reaching B while A's lease still runs.
  const user = client.shown().messages[0];
  const regenerate = { id: client.id, trigger: "regenerate-message", messages: [{ id: user.id, role: "user", parts: user.parts }] };
  const refused = await post(B, "/api/chat/ai-sdk", regenerate, client.cookie);
  assert.equal(refused.status, 503);
  assert.equal((await refused.json()).code, "run_elsewhere");
  await until(async () => (await client.stored(B))?.status === "error", "the run stored interrupted", 15_000);
  const took = Date.now() - killedAt;
  console.log(`instances: A killed mid-reply, its run stored interrupted by B ${took} ms later (lease ${LEASE_MS} ms)`);
  await until(() => settled(client), "the client's end").catch((error) => {
    console.log(JSON.stringify(client.requests).slice(0, 300), client.status());
    return fetch(`${B.base}/api/chat/ai-sdk/${client.id}/stream`, { headers: { cookie: client.cookie } }).then((r) => r.text()).then((t) => console.log(t.slice(-800)));
    throw error;
  });
  assert.equal(client.status(), "error");
  assert.ok(interruptedShown(client), "the client shows the interruption");
  assert.ok(client.reply().length > 0 && LONG.startsWith(client.reply()), "the partial reply kept");
  await storedAsShown(client, B);
  client.done();
});

instancesTest("A killed before its run was ever stored (its saves held): B ends the run from the log within 15 s, as the client showed it, and the client following on B gets that end", async () => {
  const client = await demoClient("unsaved", { route: (kind) => (kind === "chat" ? A : B) });
  // A's store slow to answer: the reply is answered after the first save's wait (5 s) without it.
  await hooks(A, "saves", { held: true });
  await sendHeld(client, A, "Tell me a long story");
  assert.equal(await client.stored(B), undefined, "the run never stored");
  const killedAt = Date.now();
  await A.kill();
  await until(async () => (await client.stored(B))?.status === "error", "the run stored interrupted", 15_000);
  console.log(`instances: A killed before its run's first save, the run stored interrupted by B ${Date.now() - killedAt} ms later (lease ${LEASE_MS} ms)`);
  await until(() => settled(client), "the client's end", 15_000);
  assert.ok(interruptedShown(client), "the client shows the run interrupted");
  assert.ok(client.reply().length > 0 && LONG.startsWith(client.reply()), "the partial reply kept");
  await storedAsShown(client, B);
  client.done();
});

instancesTest("a delete sent to B of a conversation whose run is on A stops A's run, and the conversation stays deleted", async () => {
  const client = await demoClient("deleted", { route: (kind) => (kind === "chat" ? A : B) });
  const abortedBefore = abortedOn(A);
  await sendHeldInScript(client, A, "Tell me a long story");
  const deleted = await fetch(`${B.base}/api/conversations/${client.id}`, { method: "DELETE", headers: { cookie: client.cookie } });
  assert.equal(deleted.status, 204);
  await until(() => abortedOn(A) > abortedBefore, "A's model aborted");
  // Anything A still saved would bring it back: A's run is stopped before B deletes.
  for (const demo of [A, B]) assert.equal(await client.stored(demo), undefined, `gone on ${demo.name}`);
  client.done();
});

instancesTest("a run that lost its lease to another instance stops: its model aborted, nothing more saved; the client following it there gets the taker's end", async () => {
  const client = await demoClient("lost", { route: (kind) => (kind === "chat" ? A : B) });
  const abortedBefore = abortedOn(A);
  await sendHeldInScript(client, A, "Tell me a long story");
  const other = createClient({ url: redis.url });
  other.on("error", () => {});
  await other.connect();
  // Another instance's token: what a lease taken over after A lost it looks like.
  await other.set(`chat-session-reducer:lease:${JSON.stringify([client.owner, client.id])}`, "another-instance", { PX: LEASE_MS });
  try {
    await until(() => abortedOn(A) > abortedBefore, "A's model aborted", LEASE_MS * 2);
  } finally {
    await other.quit();
  }
  // A stopped run would be stored stopped: this one is left, streaming, to the lease's holder.
  assert.equal((await client.stored(B)).status, "streaming");
  // The taker here never ends it; once its lease ran out, a sweep stores the run interrupted and
  // ends its log, and the client, still reading its reply from A, gets that end from Redis (well
  // before its 30 s stall would make it reconnect).
  await until(() => settled(client), "the client's end", 15_000);
  assert.ok(interruptedShown(client), "the client shows the run interrupted");
  // The sweep ends the log before it stores the fold: the client may see the end first.
  await storedAsShown(client, B);
  assert.deepEqual(client.requests.map(({ kind, on }) => `${kind} ${on}`), ["chat A"], "no reconnect");
  client.done();
});

/** Follows the conversation's newest run on `demo` as a second page would, reconnecting at its offset after a drop; the frames it got. */
async function follower(demo, client) {
  const frames = [];
  let run;
  for (let attempt = 0; attempt < 200; attempt++) {
    const headers = { cookie: client.cookie, ...(run && { "chat-run-id": run, "chat-run-offset": String(frames.length) }) };
    const response = await fetch(`${demo.base}/api/chat/ai-sdk/${client.id}/stream`, { headers }).catch(() => undefined);
    if (response?.status === 200) {
      run ??= response.headers.get("chat-run-id");
      let text = "";
      try {
        for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
          text += chunk;
          let end;
          while ((end = text.indexOf("\n\n")) !== -1) {
            const event = text.slice(0, end);
            text = text.slice(end + 2);
            if (event === "data: [DONE]") return frames;
            frames.push(JSON.parse(event.slice("data: ".length)));
          }
        }
      } catch {
        // A dropped connection: reconnect at the offset.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the follower never got the run's end");
}

instancesTest("Redis restarted mid-run (its data lost): the run goes on, its client and a follower get the whole reply, the stored conversation intact", async () => {
  const client = await demoClient("redis", { route: (kind) => (kind === "chat" ? A : B) });
  await sendHeld(client, A, "Tell me a long story");
  const following = follower(B, client);
  await redis.restart({ downMs: 300 });
  await hooks(A, "release", { chunks: true });
  await until(() => settled(client), "the reply's end");
  assert.equal(client.status(), "idle");
  assert.equal(client.reply(), LONG);
  const frames = await following;
  const text = frames.filter((frame) => frame.type === "text-delta").map((frame) => frame.delta).join("");
  assert.equal(text, LONG, "the follower got every frame once");
  await storedAsShown(client, B);
  client.done();
});

instancesTest("Postgres down for 5 s mid-run: the run goes on, its saves are retried, nothing is lost", async () => {
  const client = await demoClient("postgres", { route: (kind) => (kind === "chat" ? A : B) });
  await sendHeld(client, A, "Tell me a long story");
  await pg.down();
  await hooks(A, "release", { chunks: true });
  await until(() => settled(client), "the reply's end while Postgres is down");
  assert.equal(client.reply(), LONG);
  assert.equal(await client.stored(B), undefined, "nothing can be read meanwhile");
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  await pg.up();
  await storedAsShown(client, B);
  assert.equal(client.status(), "idle");
  client.done();
});


const HELP =
  "Hello! I'm a scripted agent served by this demo. Ask me to delete the old drafts and I'll ask " +
  "for your approval first. Ask me to research something and I'll delegate it to a sub-agent. " +
  "Ask me to write a haiku and you'll see the file's content stream in. Ask me to book a table " +
  "and I'll ask you for a time. Ask me about the weather and the connection will drop after my " +
  "tool call, so you can Retry. Ask me for a long story and you can Stop me halfway.";
const RUNS = Number(process.env.SERVER_RUNS ?? 200);
const PARALLEL = 8;
const TURNS_PER_CONVERSATION = 4;

instancesTest(`${RUNS} seeded runs with kills, cuts and stops across both instances: every stored conversation equals its client's, nothing doubled`, async () => {
  const seed = Number(process.env.SERVER_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`instances: seed ${seed} (SERVER_SEED=${seed} repeats its choices), ${RUNS} runs (SERVER_RUNS)`);
  const random = createRandom(seed);
  const { pick } = random;
  const demos = [A, B];
  const draining = new Set();
  // A load balancer's health check: requests go to live instances only.
  const route = () => pick(demos.filter((demo) => demo.alive() && !draining.has(demo)));
  const faults = { cut: 0, stop: 0, kill: 0, interrupted: 0, refused: 0 };
  let killing;

  /** Kills `demo` (SIGKILL) once no request of the clients is still waiting for its answer, then starts it again. */
  const kill = (demo) =>
    (killing ??= (async () => {
      draining.add(demo);
      await until(() => !demo.opening, `${demo.name}'s requests answered`);
      await demo.kill();
      faults.kill += 1;
      await demo.start();
      draining.delete(demo);
    })().finally(() => (killing = undefined)));

  async function oneRun(client, turn) {
    const long = random.chance(0.3);
    const expected = long ? LONG : HELP;
    const fault = pick(["none", "none", "none", "cut", "cut", "stop", "stop", "kill"]);
    // Where in the reply the fault strikes: once the client shows this many characters of it.
    const at = 1 + random.below(expected.length * 0.9);
    client.turn = turn;
    client.session.send(long ? "Tell me a long story" : `Hello ${turn}`);
    if (fault !== "none") {
      // A bound on progress, not on speed: a loaded machine's runs can wait behind a killed instance's lease.
      await until(() => settled(client) || client.reply().length >= at, "the reply to reach the fault", 60_000);
      const streaming = !settled(client);
      if (streaming && fault === "cut") client.cut();
      // A Stop before the request reached an instance stores nothing (docs/decisions.md): stop a reply that streams.
      if (fault === "stop" && client.status() !== "streaming") return oneRunEnds(client, turn, expected, "none");
      if (streaming && fault === "stop") client.session.stop();
      const chat = client.requests.findLast((request) => request.kind === "chat" && request.turn === turn);
      if (fault === "kill" && (chat === undefined || killing !== undefined)) return oneRunEnds(client, turn, expected, "none");
      if (streaming && fault === "kill") void kill(demos.find((demo) => demo.name === chat.on));
      if (streaming) faults[fault] += 1;
    }
    return oneRunEnds(client, turn, expected, fault);
  }

  /** Once the run ended: the stored conversation equals the client's, each message once, the reply whole or a part of it. */
  async function oneRunEnds(client, turn, expected, fault) {
    await until(() => settled(client), `run ${turn} of ${client.id} to end`, 30_000).catch((error) => {
      // What the client asked where, for the seed's report.
      console.log(`instances: ${client.id} (${fault}, ${client.status()}): ${JSON.stringify(client.requests.slice(-12))}`);
      throw error;
    });
    // A new run while a killed instance's lease still runs is refused 503 run_elsewhere: the client
    // keeps the message with the error (to send again), the store has it not; that conversation ends here.
    const chat = client.requests.findLast((request) => request.kind === "chat" && request.turn === turn);
    if (chat?.status === 503) {
      faults.refused += 1;
      return false;
    }
    const storedNow = () => client.stored(route() ?? B);
    let stored;
    await until(async () => JSON.stringify((stored = await storedNow())) === JSON.stringify(client.shown()), `${client.id}'s stored conversation to equal its client's`, 30_000).catch(() => {});
    if (JSON.stringify(stored) !== JSON.stringify(client.shown())) console.log(`instances: ${client.id} turn ${turn} (${fault}) differs; its requests: ${JSON.stringify(client.requests.slice(-12))}`);
    assert.deepEqual(stored, client.shown(), `seed ${seed}: ${client.id} turn ${turn} (${fault})`);
    const ids = stored.messages.map((message) => message.id);
    assert.equal(new Set(ids).size, ids.length, "no message twice");
    assert.equal(stored.messages.filter((message) => message.role === "user").length, turn + 1, "one user message per turn");
    const reply = client.reply();
    if (client.status() === "idle" && fault === "none") assert.equal(reply, expected, "the whole reply, once");
    else assert.ok(expected.startsWith(reply), `seed ${seed}: a part of the reply, once: ${JSON.stringify(reply.slice(-60))}`);
    return true;
  }

  let started = 0;
  let conversations = 0;
  async function worker() {
    while (started < RUNS) {
      const client = await demoClient(`seeded-${conversations++}`, { route });
      for (let turn = 0; turn < TURNS_PER_CONVERSATION && started < RUNS; turn++) {
        started += 1;
        if (!(await oneRun(client, turn))) break;
        if (client.status() === "error" && interruptedShown(client)) faults.interrupted += 1;
      }
      client.done();
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  await killing;
  console.log(`instances: ${RUNS} runs in ${conversations} conversations survived ${faults.kill} kills (${faults.interrupted} runs stored interrupted, ${faults.refused} new runs refused 503 while a dead instance's lease ran), ${faults.cut} cuts, ${faults.stop} stops`);
});
