// The nginx configuration docs/server.md gives, as written there (its upstream ports and its listen
// port replaced by free ones), in front of two demo instances on a Redis and a Postgres the suite
// starts itself: a reply streams through it while the model is held (not buffered) and ends whole;
// a dropped connection resumes through it, on whichever instance nginx picks, as the whole reply;
// a Stop through it stops the run. Debian's nginx (scripts/setup.sh installs nginx-light) runs in a
// temporary directory, in the foreground, and is stopped after. Without nginx, redis-server or
// Postgres the suite is skipped with a note; it fails when CI or REQUIRE_REDIS/REQUIRE_POSTGRES is set.
import { after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./redis-server.mjs";
import { LONG, doorClient, hooks, latestRun, serversTest, settled, startTwoDemos, storedAsShown, until } from "./demo-instances.mjs";

const NGINX = process.env.NGINX ?? "/usr/sbin/nginx";
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The ```nginx block of docs/server.md. */
function documentedConfig() {
  const block = readFileSync(join(ROOT, "docs/server.md"), "utf8").match(/```nginx\n([\s\S]*?)```/)?.[1];
  if (block === undefined) throw new Error("docs/server.md has no ```nginx block");
  return block;
}

/** nginx on the documented config, its upstreams `ports`; `{ base, stop() }` once it answers. */
async function startNginx(ports) {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed (no ${NGINX}): run scripts/setup.sh`);
  const dir = mkdtempSync(join(tmpdir(), "chat-nginx-"));
  // Its workers may run as another user (nobody, when started as root): they write its temp files here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const [first, second] = ports;
  const site = documentedConfig()
    .replace("127.0.0.1:3000", `127.0.0.1:${first}`)
    .replace("127.0.0.1:3001", `127.0.0.1:${second}`)
    .replace("listen 8080;", `listen 127.0.0.1:${port};`);
  if (!site.includes(`127.0.0.1:${first}`) || !site.includes(`127.0.0.1:${second}`) || !site.includes(`:${port};`)) {
    throw new Error(`docs/server.md's nginx block no longer names 127.0.0.1:3000, 127.0.0.1:3001 and listen 8080: ${site}`);
  }
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `${kind}_temp_path ${dir}/${kind};`).join(" ");
  writeFileSync(
    join(dir, "nginx.conf"),
    `daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log;\nevents {}\nhttp { access_log off; ${temp}\n${site}}\n`,
  );
  const child = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  process.once("exit", () => child.exitCode === null && child.kill("SIGKILL"));
  const base = `http://127.0.0.1:${port}`;
  await until(async () => child.exitCode !== null || (await fetch(`${base}/api/conversations`).then(() => true, () => false)), "nginx to answer", 15_000);
  if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${output}${existsSync(`${dir}/error.log`) ? readFileSync(`${dir}/error.log`, "utf8") : ""}`);
  return {
    base,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGQUIT");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let redis;
let pg;
let A;
let B;
let nginx;
let why;
before(async () => {
  try {
    ({ redis, pg, A, B } = await startTwoDemos());
    nginx = await startNginx([A, B].map((demo) => new URL(demo.base).port));
  } catch (error) {
    why = error;
  }
});
after(async () => {
  await nginx?.stop();
  await Promise.all([A?.stop(), B?.stop()]);
  await Promise.all([redis?.stop(), pg?.stop()]);
});

const nginxTest = serversTest("nginx.test.mjs", { started: () => nginx !== undefined, why: () => why });
const demos = () => [A, B];
/** A client whose every request goes to nginx's port; `stored()` reads through it too. */
const nginxClient = (name) => doorClient(name, { name: "nginx", base: nginx.base });

/** Sends `text` with the next run of both instances held at 40 chunks (nginx picks one); resolves with the instance that runs it, once held and shown in part. */
async function sendHeld(client, text) {
  const before = await Promise.all(demos().map(async (demo) => (await hooks(demo, "hold", { chunks: [40] }), (await latestRun(demo)).run)));
  client.session.send(text);
  let on;
  await until(async () => {
    const runs = await Promise.all(demos().map(latestRun));
    on = demos().find((demo, index) => runs[index].run > before[index] && runs[index].held);
    return on !== undefined;
  }, "a run held on either instance");
  await until(() => client.reply().length > 0, "the client showing the reply");
  // The other instance's hold is not wanted any more.
  for (const demo of demos()) if (demo !== on) await hooks(demo, "release", {});
  return on;
}

nginxTest("through the documented nginx config: a reply streams as it is written (shown while the model is held) and ends whole, stored as shown", async () => {
  const client = await nginxClient("nginx-streams");
  const on = await sendHeld(client, "Tell me a long story");
  assert.equal(client.status(), "streaming");
  assert.ok(client.reply().length < LONG.length, "a part of the reply shown while the rest is held: not buffered");
  await hooks(on, "release", {});
  await until(() => settled(client), "the reply's end");
  assert.equal(client.status(), "idle");
  assert.equal(client.reply(), LONG);
  await storedAsShown(client);
  client.done();
});

nginxTest("through the documented nginx config: a connection dropped mid-reply resumes, on whichever instance nginx picks, as the whole reply", async () => {
  const client = await nginxClient("nginx-resumes");
  const on = await sendHeld(client, "Tell me a long story");
  client.cut();
  await until(() => client.requests.some((request) => request.kind === "stream" && request.status === 200), "the reconnect answered");
  await hooks(on, "release", {});
  await until(() => settled(client), "the reply's end");
  assert.equal(client.status(), "idle");
  assert.equal(client.reply(), LONG, "nothing lost, nothing doubled");
  await storedAsShown(client);
  client.done();
});

nginxTest("through the documented nginx config: Stop stops the run wherever it runs, and the stored reply is the one shown", async () => {
  const client = await nginxClient("nginx-stops");
  const on = await sendHeld(client, "Tell me a long story");
  client.session.stop();
  await until(() => client.requests.find((request) => request.kind === "stop")?.status !== undefined, "the Stop answered");
  assert.ok(client.requests.find((request) => request.kind === "stop").status < 300);
  await hooks(on, "release", {});
  assert.equal(client.status(), "idle");
  assert.ok(LONG.startsWith(client.reply()) && client.reply().length < LONG.length);
  await storedAsShown(client);
  client.done();
});
