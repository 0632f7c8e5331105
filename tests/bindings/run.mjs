// Tests chat-session-reducer/vue and chat-session-reducer/svelte in real consumers of the packed
// package. Each consumer is a project of its own with locked dependencies (its package-lock.json),
// copied to a temp directory and installed there (`npm ci`, then the tarball), and served by the
// repository's Vite with the framework's plugin (chat.test.mjs, the same scenarios for both), and
// its usage.ts type-checked there with the repository's tsc. The packed README's example for the
// framework is written into the project as it is (Readme.vue, Readme.svelte) and run too; the
// page (index.html) is the same for both:
//   vue/     a Vite + Vue 3 chat app on useAgentSession (a composable on shallowRef)
//   svelte/  a Vite + Svelte 5 chat app on useAgentSession (reactive getters on createSubscriber)
//
//   node tests/bindings/run.mjs [consumer…]     (after `npm run build`; default: both)
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { packPackage, run } from "../consumers/pack.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const CONSUMERS = ["vue", "svelte"];
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const SECTIONS = { vue: "## A chat in Vue", svelte: "## A chat in Svelte" };

// The first fenced block of the framework's section of the packed README, as the Readme component.
function writeReadmeExample(name, project) {
  const readme = readFileSync(join(here, "..", "..", "pkg-template", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(SECTIONS[name]));
  const example = section.match(new RegExp("```" + name + "\\n([\\s\\S]*?)```"))?.[1];
  if (!readme.includes(SECTIONS[name]) || !example) throw new Error(`pkg-template/README.md: no ${name} block under "${SECTIONS[name]}"`);
  writeFileSync(join(project, `Readme.${name}`), example);
}

const names = process.argv.length > 2 ? process.argv.slice(2) : CONSUMERS;
const unknown = names.filter((name) => !CONSUMERS.includes(name));
if (unknown.length > 0) {
  console.error(`tests/bindings: no consumer ${unknown.join(", ")}; there are ${CONSUMERS.join(", ")}`);
  process.exit(1);
}

const workDir = mkdtempSync(join(tmpdir(), "chat-session-reducer-bindings-"));
const failed = [];
const tarball = packPackage(workDir);
for (const name of names) {
  const project = join(workDir, name);
  console.log(`\n--- tests/bindings: ${name} (${project})`);
  try {
    cpSync(join(here, name), project, { recursive: true });
    copyFileSync(join(here, "index.html"), join(project, "index.html"));
    writeReadmeExample(name, project);
    run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project });
    run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project });
    run(process.execPath, ["--test", join(here, "chat.test.mjs")], { cwd: project, env: { ...process.env, BINDING_CONSUMER: project, BINDING: name } });
    run(process.execPath, [tsc, "-p", join(project, "tsconfig.json")], { cwd: project });
  } catch (error) {
    console.error(`tests/bindings: ${name}: ${error.message}`);
    failed.push(name);
  }
}
if (failed.length === 0) rmSync(workDir, { recursive: true, force: true });
else console.error(`tests/bindings: failed: ${failed.join(", ")}; the projects are kept for inspection in ${workDir}`);
process.exit(failed.length === 0 ? 0 : 1);
