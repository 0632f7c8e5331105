// A throwaway PostgreSQL server for the tests: initdb and postgres (Debian's, as scripts/setup.sh
// installs them) as the `postgres` OS user, in a temporary directory that also holds the unix
// socket, on a free TCP port; stop() kills its process group and removes the directory;
// down() shuts it down (fast shutdown), up() starts it again on the same port and data.

import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./redis-server.mjs";

const READY_WITHIN_MS = 30_000;

/** The newest installed server's bin directory, or undefined. */
export function postgresBin() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, "bin", "postgres")));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], "bin") : undefined;
}

/**
 * Starts a server; resolves `{ connectionString, stop }` once it accepts connections, or rejects
 * with why it could not start.
 */
export async function startPostgres() {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres): run scripts/setup.sh");
  const dir = mkdtempSync(join(tmpdir(), "chat-store-pg-"));
  const data = join(dir, "data");
  const asPostgres = userOptions("postgres", dir);
  let server;
  const stop = async () => {
    if (server?.exitCode === null) {
      // SIGQUIT is postgres's immediate shutdown (it still frees its shared memory); SIGKILL if it lingers.
      const exited = new Promise((resolve) => server.once("exit", resolve));
      process.kill(-server.pid, "SIGQUIT");
      const lingering = setTimeout(() => process.kill(-server.pid, "SIGKILL"), 5000);
      await exited;
      clearTimeout(lingering);
    }
    process.off("exit", leftBehind);
    rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without stop() (a crash, an uncaught error) takes its server along
  // (SIGQUIT: postgres frees its shared memory as it goes; SIGKILL would leave it behind).
  const leftBehind = () => {
    if (server?.exitCode === null) process.kill(-server.pid, "SIGQUIT");
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", leftBehind);
  try {
    const initArgs = ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"];
    const init = spawnSync(join(bin, "initdb"), initArgs, { ...asPostgres, encoding: "utf8" });
    if (init.status !== 0) throw new Error(`initdb failed (${init.status ?? init.error}): ${init.stderr || init.stdout}`);
    const port = await freePort();
    const args = ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off"];
    let log = "";
    const spawnServer = async () => {
      server = spawn(join(bin, "postgres"), args, { ...asPostgres, detached: true, stdio: ["ignore", "ignore", "pipe"] });
      server.stderr.on("data", (chunk) => (log = (log + chunk).slice(-4000)));
      await untilReady(join(bin, "pg_isready"), port, server, () => log);
    };
    await spawnServer();
    return {
      connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      stop,
      /** Makes the server unavailable: a fast shutdown (SIGINT: every connection closed); `up()` starts it again on the same data. */
      async down() {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        process.kill(server.pid, "SIGINT");
        await exited;
      },
      up: spawnServer,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

// Root may not run postgres: the spawn options that run it as `user`, who gets the temporary directory.
function userOptions(user, dir) {
  if (process.getuid?.() !== 0) return { cwd: dir };
  const { uid, gid } = userIds(user);
  chownSync(dir, uid, gid);
  chmodSync(dir, 0o700);
  return { uid, gid, cwd: dir };
}

function userIds(user) {
  const id = (flag) => Number(spawnSync("id", [flag, user], { encoding: "utf8" }).stdout.trim());
  const uid = id("-u");
  if (!Number.isInteger(uid) || uid === 0) throw new Error(`no OS user ${user} to run PostgreSQL as`);
  return { uid, gid: id("-g") };
}

/** Resolves once pg_isready says the server accepts connections; rejects when it exits or takes too long. */
async function untilReady(isReady, port, server, log) {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`postgres exited (${server.exitCode}): ${log()}`);
    if (spawnSync(isReady, ["-q", "-h", "127.0.0.1", "-p", String(port)]).status === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`postgres did not accept connections on port ${port} within ${READY_WITHIN_MS} ms: ${log()}`);
}
