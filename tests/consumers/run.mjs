// Tests the built package (pkg/) as its users get it. It packs pkg/ with `npm pack`, installs the
// tarball by name into a scratch project in a temp directory (with @types/react, as a React app
// has it), copies the consumer sources there, and runs with `node --test`:
//   node/seed.test.mjs     from inside the scratch project: a Node 20 ESM user importing by name
//   package.test.mjs       what the install put in node_modules
//   lint.test.mjs          the tarball: publint, @arethetypeswrong/cli, LICENSE, links, files
//   csp.test.mjs           a page under a strict Content-Security-Policy, in headless Chromium
//   size.test.mjs          what importing only sessionReducer adds to a Vite build; subpaths left out
//   vite.test.mjs          a Vite 7 build with no plugins, run in headless Chromium
//   webpack.test.mjs       a webpack 5 build with no wasm config, run in headless Chromium
//   ../types/types.test.mjs  tsc over a user's TypeScript
// The bundlers, tsc and playwright-core come from the repo's own (locked) devDependencies.
//
//   node tests/consumers/run.mjs        (after `npm run build`)
import { cpSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packPackage, root, run } from "./pack.mjs";

const here = dirname(fileURLToPath(import.meta.url));

const workDir = mkdtempSync(join(tmpdir(), "chat-session-reducer-consumers-"));
const project = join(workDir, "project");
let passed = false;
try {
  const tarball = packPackage(workDir);

  cpSync(join(here, "app"), join(project, "app"), { recursive: true });
  copyFileSync(join(here, "seed.mjs"), join(project, "seed.mjs"));
  copyFileSync(join(here, "node", "seed.test.mjs"), join(project, "seed.test.mjs"));
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "chat-session-reducer-consumer", private: true, type: "module" }, null, 2) + "\n",
  );
  const reactTypes = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies["@types/react"];
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", tarball, `@types/react@${reactTypes}`], {
    cwd: project,
  });

  run(
    process.execPath,
    [
      "--test",
      join(project, "seed.test.mjs"),
      join(here, "package.test.mjs"),
      join(here, "lint.test.mjs"),
      join(here, "csp.test.mjs"),
      join(here, "size.test.mjs"),
      join(here, "vite.test.mjs"),
      join(here, "webpack.test.mjs"),
      join(root, "tests", "types", "types.test.mjs"),
    ],
    { cwd: project, env: { ...process.env, CONSUMER_PROJECT: project, CONSUMER_TARBALL: tarball } },
  );
  passed = true;
} catch (error) {
  console.error(`tests/consumers: ${error.message}`);
} finally {
  if (passed) rmSync(workDir, { recursive: true, force: true });
  else console.error(`tests/consumers: the scratch project is kept for inspection: ${project}`);
}
process.exit(passed ? 0 : 1);
