// Debian's Chromium driven by playwright-core, never a downloaded browser: one launch for the e2e
// suite, the consumer tests and the benchmark, each time in a fresh profile that close() removes.

import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

// The flags keep Chromium off the network (this machine has none) and out of any user profile.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches headless Chromium in a fresh temporary profile and returns `{ context, close }`;
 *  `options` (e.g. `viewport`) go to playwright's launchPersistentContext. */
export async function launchChromium(options = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium chromium-driver`);
  }
  const profile = await mkdtemp(join(tmpdir(), "chromium-profile-"));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      ...options,
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async close() {
      try {
        await context.close();
      } finally {
        await rm(profile, { recursive: true, force: true });
      }
    },
  };
}
