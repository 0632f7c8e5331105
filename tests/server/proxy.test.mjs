// The demo on two instances behind ONE port: scripts/instances.mjs (what `npm run start:instances`
// runs) over two `node www/server.mjs` on a Redis and a Postgres the suite starts itself, driven
// through the proxy's port only by the package's session controller (resuming, Stop on the
// server): a reply streams through the proxy as written and ends whole; a Stop (which the round
// robin sends to the other instance) stops the run; a dropped connection resumes on the other
// instance and ends as the whole reply; the stored conversation, read through the proxy, equals
// the client's; an instance killed gets 502 JSON for the requests routed to it (no retry); SIGTERM
// to the proxy stops the instances. The test hooks (hold, release) go to an instance's own port.
// Without redis-server or Postgres it is skipped with a note; it fails when CI or
// REQUIRE_REDIS/REQUIRE_POSTGRES is set.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { DEMO_ENV, LONG, SECRET, doorClient, hooks as hooksOn, latestRun as latestRunOn, newOwner, serversTest, settled, storedAsShown, until } from "./demo-instances.mjs";
import { startPostgres } from "./postgres-server.mjs";
import { startRedis } from "./redis-server.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
let redis;
let pg;
let proxy; // { child, base, output(), instances: Map(name -> { base, pid }) }
let why;

/** Starts scripts/instances.mjs on PORT=0; resolves once it printed its port. */
async function startProxy(env) {
  const child = spawn(process.execPath, ["scripts/instances.mjs"], { cwd: ROOT, env: { ...process.env, ...env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  process.once("exit", () => child.exitCode === null && child.kill("SIGKILL"));
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await until(() => /Chat demo on 2 instances: http:\/\/localhost:(\d+)\//.test(output) || child.exitCode !== null, "the proxy to listen", 60_000).catch(() => {});
  const port = output.match(/Chat demo on 2 instances: http:\/\/localhost:(\d+)\//)?.[1];
  if (port === undefined) throw new Error(`the proxy did not start: ${output}`);
  const instances = new Map([...output.matchAll(/^instance (\d+): (http:\/\/127\.0\.0\.1:\d+)\/ \(pid (\d+)\)$/gm)].map(([, name, base, pid]) => [name, { name, base, pid: Number(pid) }]));
  return { child, exited, base: `http://127.0.0.1:${port}`, output: () => output, instances };
}

before(async () => {
  try {
    [redis, pg] = await Promise.all([startRedis(), startPostgres()]);
    proxy = await startProxy({ ...DEMO_ENV, REDIS_URL: redis.url, DATABASE_URL: pg.connectionString, DEMO_OWNER_SECRET: SECRET });
  } catch (error) {
    why = error;
  }
});
after(async () => {
  if (proxy?.child.exitCode === null) {
    proxy.child.kill("SIGTERM");
    await proxy.exited;
  }
  await Promise.all([redis?.stop(), pg?.stop()]);
});

const proxyTest = serversTest("proxy.test.mjs", { started: () => proxy !== undefined, why: () => why });

/** The instance the proxy sends the next request to (round robin over "1", "2"), known from the last answer. */
let last;
const nextInstance = () => (last === "1" ? "2" : "1");

/** A request straight through the proxy (not a client's); records which instance answered. */
async function viaProxy(path, init) {
  const response = await fetch(`${proxy.base}${path}`, init);
  last = response.headers.get("x-chat-instance") ?? last;
  return response;
}

/** A client whose every request goes to the proxy's one port; `stored()` reads through it too. */
const proxyClient = (name) => doorClient(name, { name: "proxy", base: proxy.base });

const instance = (name) => proxy.instances.get(name);
const hooks = (name, path, body) => hooksOn(instance(name), path, body);
const latestRun = (name) => latestRunOn(instance(name));
const linesOf = (name, pattern) => proxy.output().split("\n").filter((line) => line.startsWith(`[${name}] `) && pattern.test(line)).length;

/** Learns where the next request goes (one GET through the proxy), holds that instance's next run at `chunks`, sends; resolves once held and shown in part. */
async function sendHeld(client, text, chunks = 40) {
  await viaProxy("/api/conversations", { headers: { cookie: client.cookie } });
  const on = nextInstance();
  await hooks(on, "hold", { chunks: [chunks] });
  const before = (await latestRun(on)).run;
  client.session.send(text);
  await until(async () => {
    const run = await latestRun(on);
    return run.run > before && run.held;
  }, `the run on instance ${on} held`);
  await until(() => client.reply().length > 0, "the client showing the reply");
  return on;
}

proxyTest("a run streams through the proxy as it is written (shown while the model is held) and ends as the whole reply, stored as shown", async () => {
  const client = await proxyClient("streams");
  const on = await sendHeld(client, "Tell me a long story");
  assert.equal(client.status(), "streaming");
  assert.ok(client.reply().length < LONG.length, "a part of the reply shown while the rest is held: not buffered");
  await hooks(on, "release", { chunks: true });
  await until(() => settled(client), "the reply's end");
  assert.equal(client.status(), "idle");
  assert.equal(client.reply(), LONG);
  const chat = client.requests.find((request) => request.kind === "chat");
  assert.deepEqual([chat.on, chat.status], [on, 200], "the run went to the instance the round robin picked");
  await storedAsShown(client);
  client.done();
});

proxyTest("a Stop sent through the proxy (to the other instance) stops the run's model, and the stored reply is the one shown", async () => {
  const client = await proxyClient("stops");
  await viaProxy("/api/conversations", { headers: { cookie: client.cookie } });
  const on = nextInstance();
  const point = "long: after the first paragraph";
  await hooks(on, "hold", { point });
  const heldBefore = linesOf(on, /test: long: held at long: after the first paragraph/);
  const abortedBefore = linesOf(on, /long: aborted by the client/);
  client.session.send("Tell me a long story");
  await until(() => linesOf(on, /test: long: held at long: after the first paragraph/) > heldBefore, `the run on instance ${on} held`);
  await until(() => client.reply().length > 0, "the client showing the reply");
  client.session.stop();
  await until(() => linesOf(on, /long: aborted by the client/) > abortedBefore, `instance ${on}'s model aborted`);
  await hooks(on, "release", {});
  // The instance aborts the model before it answers the Stop: wait for the answer.
  await until(() => client.requests.find((request) => request.kind === "stop")?.status !== undefined, "the Stop answered");
  const stop = client.requests.find((request) => request.kind === "stop");
  assert.ok(stop && stop.on !== on && stop.status < 300, `the Stop went to the other instance: ${JSON.stringify(client.requests)}`);
  assert.equal(client.status(), "idle");
  assert.ok(LONG.startsWith(client.reply()) && client.reply().length < LONG.length);
  await storedAsShown(client);
  client.done();
});

proxyTest("a connection dropped mid-reply resumes through the proxy on the other instance and ends as the whole reply, stored as shown", async () => {
  const client = await proxyClient("resumes");
  const on = await sendHeld(client, "Tell me a long story");
  client.cut();
  await hooks(on, "release", { chunks: true });
  await until(() => settled(client), "the reply's end");
  assert.equal(client.status(), "idle");
  assert.equal(client.reply(), LONG, "nothing lost, nothing doubled");
  assert.ok(
    client.requests.some((request) => request.kind === "stream" && request.on !== on && request.status === 200),
    `resumed on the other instance: ${JSON.stringify(client.requests)}`,
  );
  await storedAsShown(client);
  client.done();
});

proxyTest("an instance killed (SIGKILL): the requests the proxy routes to it get 502 JSON, the others are answered by the other instance", async () => {
  const { cookie } = await newOwner();
  const killed = instance("2");
  process.kill(killed.pid, "SIGKILL");
  await until(() => /^instance 2 exited/m.test(proxy.output()), "the proxy to see instance 2 exit");
  const answers = [];
  for (let i = 0; i < 4; i++) {
    const response = await viaProxy("/api/conversations", { headers: { cookie } });
    answers.push({ on: response.headers.get("x-chat-instance"), status: response.status, type: response.headers.get("content-type"), body: await response.json() });
  }
  for (const answer of answers) {
    if (answer.on === "2") {
      assert.equal(answer.status, 502);
      assert.match(answer.type, /^application\/json/);
      assert.equal(answer.body.code, "bad_gateway");
      assert.equal(typeof answer.body.error, "string");
    } else assert.equal(answer.status, 200, JSON.stringify(answer));
  }
  assert.deepEqual(answers.map((answer) => answer.on).sort(), ["1", "1", "2", "2"], "round robin, no retry");
});

proxyTest("SIGTERM to the proxy stops it and its instances", async () => {
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const survivor = instance("1");
  assert.ok(alive(survivor.pid));
  proxy.child.kill("SIGTERM");
  assert.equal(await proxy.exited, 0);
  await until(() => !alive(survivor.pid), "instance 1 to exit");
  await assert.rejects(fetch(`${proxy.base}/`), "the proxy's port closed");
});

// The proxy's forwarding alone (createProxy over an in-process upstream; no Redis, no Postgres).
test("createProxy forwards method, path, body, headers (the cookie) and status, streams the reply, and a client abort closes the upstream request", async () => {
  const http = await import("node:http");
  const { createProxy } = await import("../../scripts/instances.mjs");
  const seen = [];
  let closedEarly = false;
  let release;
  const upstream = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method, url: req.url, cookie: req.headers.cookie, body });
    if (req.url === "/hang") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first ");
      res.once("close", () => (closedEarly = !res.writableFinished));
      return;
    }
    res.writeHead(201, { "content-type": "text/plain", "set-cookie": "owner=x; HttpOnly" });
    res.write("part one, ");
    await new Promise((resolve) => (release = resolve));
    res.end("part two");
  });
  await new Promise((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const server = createProxy([{ name: "only", port: upstream.address().port }]);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const response = await fetch(`${base}/echo?x=1`, { method: "POST", headers: { cookie: "owner=abc" }, body: "hello" });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("set-cookie"), "owner=x; HttpOnly");
    assert.equal(response.headers.get("x-chat-instance"), "only");
    const reader = response.body.getReader();
    // The first write arrives while the upstream still holds the rest: streamed, not buffered.
    assert.equal(new TextDecoder().decode((await reader.read()).value), "part one, ");
    release();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    assert.equal(rest, "part two");
    assert.deepEqual(seen[0], { method: "POST", url: "/echo?x=1", cookie: "owner=abc", body: "hello" });

    const abort = new AbortController();
    const hanging = await fetch(`${base}/hang`, { signal: abort.signal });
    await hanging.body.getReader().read();
    abort.abort();
    await until(() => closedEarly, "the upstream request closed after the client's abort");
  } finally {
    server.closeAllConnections();
    server.close();
    upstream.closeAllConnections();
    upstream.close();
  }
});
