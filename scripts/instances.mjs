// npm run start:instances: the demo on several instances behind one port. In scripts/ because it
// runs www/server.mjs as a child as scripts/start.sh does (www/ is the demo app itself).
//
// Starts INSTANCES (default 2) `node www/server.mjs` on free ports (PORT=0, each port read from
// its first line) with the same environment, and listens on PORT (default 3000, 0: any free one)
// forwarding each request to the next instance in turn (round robin, no stickiness: any instance
// resumes or stops any run through Redis). Responses stream as written; request bodies, headers
// (the owner cookie) and status pass through; a client that goes away aborts its upstream request.
// An instance that is down answers 502 `{ error, code: "bad_gateway" }` (the server's refusals'
// shape); nothing is retried. SIGINT/SIGTERM stops the proxy and then the instances (SIGTERM: they
// store their runs in flight as interrupted). Needs REDIS_URL and DATABASE_URL (shared runs and
// store); DEMO_OWNER_SECRET is made once here when unset, so each instance accepts the others'
// cookies. Prints `Chat demo on N instances: http://localhost:PORT/` once listening.

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const READY_WITHIN_MS = 30_000;
// Headers of one connection, not of the message: each side sets its own.
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"];
const started = [];

/** Starts one `node www/server.mjs` with `env`; resolves `{ name, port, child }` once it listens. */
export function startInstance(name, env) {
  const child = spawn(process.execPath, ["www/server.mjs"], { cwd: ROOT, env: { ...env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  started.push(child);
  let output = "";
  // Its lines, each whole and named: `[1] chat: ai-sdk: long: finished after 30 frames`.
  const prefixed = (stream) => {
    let partial = "";
    return (chunk) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop();
      for (const line of lines) stream.write(`[${name}] ${line}\n`);
    };
  };
  const toStdout = prefixed(process.stdout);
  child.stderr.on("data", prefixed(process.stderr));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not listen within ${READY_WITHIN_MS} ms:\n${output}`)), READY_WITHIN_MS);
    const early = (code, signal) => reject(new Error(`instance ${name} exited (${code ?? signal}) before listening:\n${output}`));
    child.once("exit", early);
    child.stdout.on("data", (chunk) => {
      toStdout(chunk);
      if (output === undefined) return;
      output += chunk;
      const port = output.match(/Chat demo: http:\/\/localhost:(\d+)\//)?.[1];
      if (port === undefined) return;
      output = undefined;
      clearTimeout(timer);
      child.off("exit", early);
      child.once("exit", (code, signal) => console.log(`instance ${name} exited (${code ?? signal}); its requests get 502`));
      resolve({ name, port: Number(port), child });
    });
  });
}

const withoutHopByHop = (headers) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.includes(name)));

/** The 502 an instance that is down gets, as www/server.mjs and the package's server refuse. */
function badGateway(res, instance, error) {
  if (res.headersSent) return res.destroy(error);
  const body = JSON.stringify({ error: `instance ${instance.name} did not answer (${error.code ?? error.message})`, code: "bad_gateway" });
  const headers = { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), "x-chat-instance": instance.name };
  res.writeHead(502, headers).end(body);
}

/** An http.Server forwarding each request to the next of `instances` (round robin). */
export function createProxy(instances) {
  let next = 0;
  return http.createServer((req, res) => {
    const instance = instances[next];
    next = (next + 1) % instances.length;
    const upstream = http.request({ host: "127.0.0.1", port: instance.port, method: req.method, path: req.url, headers: withoutHopByHop(req.headers) }, (reply) => {
      // Which instance answered (the tests read it; handy in the browser's network panel too).
      const headers = { ...withoutHopByHop(reply.headers), "x-chat-instance": instance.name };
      res.writeHead(reply.statusCode, reply.statusMessage, headers);
      res.flushHeaders();
      reply.pipe(res);
      reply.on("error", (error) => res.destroy(error));
    });
    upstream.on("error", (error) => badGateway(res, instance, error));
    req.on("error", () => upstream.destroy());
    // The client went away (an abort, a closed tab) before the reply ended: so does the upstream request.
    res.once("close", () => res.writableFinished || upstream.destroy());
    req.pipe(upstream);
  });
}

/** Stops the proxy and then each instance (SIGTERM), resolving once they all exited. */
async function stopAll(server, instances) {
  server.close();
  server.closeAllConnections();
  await Promise.all(
    instances.map(({ child }) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      return exited;
    }),
  );
}

async function main() {
  const missing = ["REDIS_URL", "DATABASE_URL"].filter((name) => !process.env[name]);
  if (missing.length) {
    console.error(
      `start:instances: set ${missing.join(" and ")}: the instances share their runs through Redis (REDIS_URL=redis://127.0.0.1:6379) ` +
        "and their conversations in PostgreSQL (DATABASE_URL=postgresql://postgres@/chat?host=/var/run/postgresql); docs/server.md, \"The demo on two instances\".",
    );
    process.exit(2);
  }
  const count = Number(process.env.INSTANCES ?? 2);
  if (!Number.isInteger(count) || count < 1) throw new Error(`INSTANCES must be a positive integer, not ${process.env.INSTANCES}`);
  const env = { ...process.env, DEMO_OWNER_SECRET: process.env.DEMO_OWNER_SECRET || randomBytes(32).toString("base64url") };
  // The first alone, so the schema is made once; then the others together.
  const instances = [await startInstance("1", env)];
  instances.push(...(await Promise.all(Array.from({ length: count - 1 }, (_, i) => startInstance(String(i + 2), env)))));
  for (const { name, port, child } of instances) console.log(`instance ${name}: http://127.0.0.1:${port}/ (pid ${child.pid})`);
  const server = createProxy(instances);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, async () => {
      await stopAll(server, instances);
      process.exit(0);
    });
  }
  server.listen(Number(process.env.PORT ?? 3000), () => console.log(`Chat demo on ${count} instances: http://localhost:${server.address().port}/`));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error.message);
    for (const child of started) if (child.exitCode === null) child.kill("SIGTERM");
    process.exit(1);
  });
}
