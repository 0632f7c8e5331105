// Tests chat-session-reducer/assistant-ui (useAgentSessionRuntime) under the real
// @assistant-ui/react, in a consumer of the packed package: jsdom/ is a Vitest + jsdom project
// with locked dependencies (its package-lock.json, @assistant-ui/react 0.15.22 on React 19),
// copied to a temp directory, installed there (`npm ci`, then the tarball) and run, with the
// packed README's example beside it (readme.test.mjs renders it as written).
//
//   node tests/assistant-ui/run.mjs     (after `npm run build`)
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packPackage, run } from "../consumers/pack.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/** The packed README's assistant-ui example, as written. */
function readmeExample() {
  const readme = readFileSync(join(here, "..", "..", "pkg-template", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## assistant-ui on a session"));
  const example = section.match(/```jsx\n([\s\S]*?)```/)?.[1];
  if (example === undefined) throw new Error("pkg-template/README.md: no jsx block under \"assistant-ui on a session\"");
  return example;
}
const workDir = mkdtempSync(join(tmpdir(), "chat-session-reducer-assistant-ui-"));
const project = join(workDir, "jsdom");
let failed = false;
try {
  const tarball = packPackage(workDir);
  cpSync(join(here, "jsdom"), project, { recursive: true });
  // The scripted endpoint of the React hook's tests.
  copyFileSync(join(here, "..", "react", "harness.mjs"), join(project, "harness-react.mjs"));
  writeFileSync(join(project, "readme-example.jsx"), readmeExample());
  run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project });
  run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: project });
  run("npm", ["test", "--silent"], { cwd: project });
} catch (error) {
  console.error(`tests/assistant-ui: ${error.message}; the project is kept for inspection in ${project}`);
  failed = true;
}
if (!failed) rmSync(workDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
