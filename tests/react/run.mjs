// Tests chat-session-reducer/react (useAgentSession) in real consumers of the packed package.
// Each consumer is a project of its own with locked dependencies (its package-lock.json),
// copied to a temp directory and installed there (`npm ci`, then the tarball):
//   vitest/  Vitest 3 + jsdom on React 19: the hook's behaviour (scenarios.mjs) on a scripted endpoint
//   jest/    Jest 30 + jsdom on React 18: the same scenarios, with the jest.config.js and the test
//            script of the packed README's "Testing with Jest", copied from it as written (a .mjs
//            and a .js test file, each of which Jest must find); and conversations.test.mjs on its
//            React 18

//   vite/    a chat app in Vite's dev server, in headless Chromium (vite.test.mjs): a reply
//            streamed from the server, and the render count of a 2,000-delta reply
//   next/    a Next.js 16 app router app (next.test.mjs): next build, next start, Chromium:
//            server rendering, hydration without a warning, reload restoring with stop applied,
//            and the chat on useAgentSession beside the same chat on useChat (AI SDK streamText)
//
//   node tests/react/run.mjs [consumer…]     (after `npm run build`; default: all of them)
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packPackage, run } from "../consumers/pack.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const inProject = (project) => ({ cwd: project, env: { ...process.env, REACT_CONSUMER: project } });
const npmTest = (project) => run("npm", ["test", "--silent"], inProject(project));
const nodeTest = (file) => (project) => run(process.execPath, ["--test", join(here, file)], inProject(project));

// The packed README's "Testing with Jest": its jest.config.js block becomes the project's, and
// its test script must be the project's, so the setup users copy is the one that runs.
function jestSetupFromReadme(project) {
  const readme = readFileSync(join(here, "..", "..", "pkg-template", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Testing with Jest"));
  const config = section.match(/```js\n(\/\/ jest\.config\.js[\s\S]*?)```/)?.[1];
  const script = JSON.parse(section.match(/```json\n([\s\S]*?)```/)?.[1] ?? "null")?.scripts?.test;
  const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  if (!config || script !== manifest.scripts.test) {
    throw new Error("pkg-template/README.md: \"Testing with Jest\" has no jest.config.js block, or its test script is not tests/react/jest's");
  }
  writeFileSync(join(project, "jest.config.js"), config);
}

// The README says test files may be .mjs, or .js in a "type": "module" package: Jest, set up as it
// says, must list each of the project's (a file it does not find would never fail).
function jestFindsEveryTestFile(project) {
  const listed = spawnSync("npm", ["test", "--silent", "--", "--listTests"], { cwd: project, encoding: "utf8" });
  const found = new Set(listed.stdout.split("\n").filter(Boolean).map((file) => basename(file)));
  const missed = readdirSync(project).filter((name) => /\.test\.m?js$/.test(name) && !found.has(name));
  if (listed.status !== 0 || missed.length > 0) {
    throw new Error(`Jest set up as pkg-template/README.md's "Testing with Jest" says does not find ${missed.join(", ") || "its tests"}`);
  }
}

const CONSUMERS = {
  vitest: { shared: ["harness.mjs", "scenarios.mjs"], test: npmTest },
  jest: {
    shared: ["harness.mjs", "scenarios.mjs"],
    prepare: jestSetupFromReadme,
    // And the conversations in the background on React 18 (a few seeded runs: the full loop runs on React 19).
    test: (project) => {
      jestFindsEveryTestFile(project);
      npmTest(project);
      run(process.execPath, ["--test", join(here, "conversations.test.mjs")], { cwd: project, env: { ...process.env, REACT_CONSUMER: project, THREADS_RUNS: "5" } });
    },
  },
  vite: { shared: [], test: nodeTest("vite.test.mjs") },
  next: { shared: [], test: nodeTest("next.test.mjs") },
};

const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(CONSUMERS);
for (const name of names) {
  if (!Object.hasOwn(CONSUMERS, name)) {
    console.error(`tests/react: no consumer "${name}"; there are ${Object.keys(CONSUMERS).join(", ")}`);
    process.exit(1);
  }
}

const workDir = mkdtempSync(join(tmpdir(), "chat-session-reducer-react-"));
const failed = [];
const tarball = packPackage(workDir);
for (const name of names) {
  const { shared, prepare, test } = CONSUMERS[name];
  const project = join(workDir, name);
  console.log(`\n--- tests/react: ${name} (${project})`);
  try {
    cpSync(join(here, name), project, { recursive: true });
    for (const file of shared) copyFileSync(join(here, file), join(project, file));
    prepare?.(project);
    run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project });
    run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project });
    test(project);
  } catch (error) {
    console.error(`tests/react: ${name}: ${error.message}`);
    failed.push(name);
  }
}
if (failed.length === 0) rmSync(workDir, { recursive: true, force: true });
else console.error(`tests/react: failed: ${failed.join(", ")}; the projects are kept for inspection in ${workDir}`);
process.exit(failed.length === 0 ? 0 : 1);
