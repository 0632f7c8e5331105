// Starts the demo server (www/server.mjs) on a free port for the end-to-end tests and keeps
// what it prints, so tests can check what the agent did (e.g. that a Stop aborted its run), and
// calls its test hooks (POST /api/test/hold and /api/test/release: www/server.mjs says what they take).
// The agent streams at DEMO_PACE_MS (1 ms a word unless set; `npm start`'s agent, 35): the tests
// hold a reply wherever they act while it streams, so they pass at any pace, the model's too.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SERVER = fileURLToPath(new URL("../../www/server.mjs", import.meta.url));
const URL_LINE = /^Chat demo: (http:\/\/\S+)$/;

export async function startServer() {
  // Its conversations in a directory of its own, removed when it stops.
  const dataDir = mkdtempSync(join(tmpdir(), "chat-demo-e2e-"));
  const lines = [];
  const listeners = new Set();
  let child;

  /** Starts the demo's process on `port` (0: a free one), its lines added to `lines`. */
  function spawnDemo(port) {
    child = spawn(process.execPath, [SERVER], {
      // The test hooks: POST /api/test/disconnect cuts the connections that follow a run, …/hold holds one.
      env: { ...process.env, PORT: String(port), DEMO_TEST_HOOKS: "1", DEMO_PACE_MS: process.env.DEMO_PACE_MS ?? "1", DATA_DIR: dataDir, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      pending += chunk;
      const complete = pending.split("\n");
      pending = complete.pop();
      for (const line of complete) {
        lines.push(line);
        for (const listener of listeners) listener();
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => process.stderr.write(`[server] ${chunk}`));
  }
  spawnDemo(0);

  /** Resolves with the first line from index `from` on that matches `pattern`. */
  const waitForLine = (pattern, from = 0, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const watched = child;
      const check = () => {
        const line = lines.slice(from).find((candidate) => pattern.test(candidate));
        if (line === undefined) return false;
        finish();
        resolve(line);
        return true;
      };
      const onExit = () => {
        finish();
        reject(new Error(`the demo server exited (code ${watched.exitCode}) before printing ${pattern}`));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`the demo server printed no line matching ${pattern} within ${timeoutMs} ms`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        listeners.delete(check);
        watched.off("exit", onExit);
      };
      if (check()) return;
      listeners.add(check);
      watched.once("exit", onExit);
    });

  /** Ends the demo's process with `signal` and resolves once it has exited. */
  const kill = (signal) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          child.once("exit", resolve);
          child.kill(signal);
        });

  const url = URL_LINE.exec(await waitForLine(URL_LINE))[1];
  const testHook = async (name, body) => (await fetch(new URL(`/api/test/${name}`, url), { method: "POST", body: JSON.stringify(body) })).json();
  const latestRun = async () => (await fetch(new URL("/api/test/chunks", url))).json();
  return {
    url,
    /** Holds the next run that reaches `point` of its script (agent.hold in www/agent/scenarios.mjs). */
    hold: (point) => testHook("hold", { point }),
    /** Lets the run held at `point` go on; every hold (by point or by chunks) when `point` is undefined. */
    release: (point) => testHook("release", point === undefined ? {} : { point }),
    /** Resolves once a run is held at `point`, from the line the server prints from index `from` on. */
    held: (point, from = 0) => waitForLine(new RegExp(`^test: .+: held at ${point.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`), from, 30_000),
    /** The run started last: its number (1 for the first, 0 before any), how many chunks it has written, and whether it is held. */
    latestRun,
    /** Stops the output of the next run that outlives its connection (AI SDK, AG-UI) at each of `stops` (ascending chunk counts). */
    holdChunks: (stops) => testHook("hold", { chunks: stops }),
    /** Moves the run started last on from the stop it is held at to its next. */
    releaseChunks: () => testHook("release", { chunks: true }),
    /** Resolves once run number `run` is held at `chunks` chunks (a page following it has those and no more). */
    async heldAtChunk(run, chunks) {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) {
        const latest = await latestRun();
        if (latest.run === run && latest.chunks === chunks && latest.held) return;
      }
      throw new Error(`run ${run} was not held at chunk ${chunks}`);
    },
    /** How many lines the server has printed so far: pass it to waitForLine to see only later ones. */
    get lineCount() {
      return lines.length;
    },
    waitForLine,
    /**
     * Restarts the demo on the same data directory and port: its process ended with `signal`
     * (SIGTERM: its graceful path, which stores the runs in flight as interrupted; SIGKILL: a
     * crash, left to the next start); resolves once the new one listens.
     */
    async restart(signal) {
      await kill(signal);
      const from = lines.length;
      spawnDemo(new URL(url).port);
      await waitForLine(URL_LINE, from);
    },
    async stop() {
      await kill("SIGTERM");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
