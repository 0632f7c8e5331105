// What every consumer test starts from: the built package (pkg/) packed with `npm pack`, as
// `npm install chat-session-reducer` would download it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkgDir = join(root, "pkg");

/** Runs a command, inheriting stdio; throws when it fails. */
export function run(command, args, options) {
  const { status } = spawnSync(command, args, { stdio: "inherit", ...options });
  if (status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${status}`);
}

/** Packs pkg/ into `dir` and returns the tarball's path; exits when pkg/ is not built. */
export function packPackage(dir) {
  if (!existsSync(join(pkgDir, "package.json"))) {
    console.error("pkg/ is not built; run `npm run build` first");
    process.exit(1);
  }
  const packed = spawnSync("npm", ["pack", pkgDir, "--pack-destination", dir, "--json"], { encoding: "utf8" });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  return join(dir, JSON.parse(packed.stdout)[0].filename);
}
