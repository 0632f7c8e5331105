// A throwaway Redis for the tests: Debian's redis-server (scripts/setup.sh installs it) on a free
// port in a temporary directory, nothing persisted; stop() kills it and removes the directory;
// restart() kills it (SIGKILL, its data lost) and starts another on the same port.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Debian's by default; REDIS_SERVER names another (a laptop's Homebrew one).
const SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";
const READY_WITHIN_MS = 10_000;

/** Starts a server; resolves `{ url, port, stop, restart }` once it answers PING, or rejects with why it could not start. */
export async function startRedis() {
  if (!existsSync(SERVER)) throw new Error(`Redis is not installed (no ${SERVER}): run scripts/setup.sh`);
  const dir = mkdtempSync(join(tmpdir(), "chat-redis-"));
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no"];
  let server;
  let log = "";
  const keep = (chunk) => (log = (log + chunk).slice(-4000));
  const spawnServer = async () => {
    server = spawn(SERVER, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    server.stdout.on("data", keep);
    server.stderr.on("data", keep);
    await untilPong(port, server, () => log);
  };
  const kill = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGKILL");
    await exited;
  };
  // A test process that ends without stop() takes its server along.
  const leftBehind = () => {
    if (server.exitCode === null) server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", leftBehind);
  const stop = async () => {
    await kill();
    process.off("exit", leftBehind);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await spawnServer();
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop,
      /** Kills the server (nothing it held survives) and, after `downMs`, starts a new one on the same port. */
      async restart({ downMs = 0 } = {}) {
        await kill();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        await spawnServer();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A port free on 127.0.0.1 now (the suites' servers listen on it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (probe.address());
      probe.close(() => resolve(port));
    });
  });
}

/** True when the server on `port` answers PING with PONG. */
function pong(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    socket.once("error", () => resolve(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(String(data).startsWith("+PONG"));
    });
  });
}

async function untilPong(port, server, log) {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`redis-server exited (${server.exitCode}): ${log()}`);
    if (await pong(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not answer on port ${port} within ${READY_WITHIN_MS} ms: ${log()}`);
}
