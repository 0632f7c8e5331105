// A Chromium page (Debian's, driven by playwright-core) that can import the built package and the
// scenario modules of tests/js as `/pkg/index.js` and `/tests/js/<name>.mjs`, served from disk
// through request interception: nothing leaves the browser.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

import { launchChromium } from "../chromium.mjs";

const ORIGIN = "http://package.test";
const root = new URL("../../", import.meta.url);

/** Runs `body(page)` in a fresh page at the test origin, then closes the browser. */
export async function withPackagePage(body) {
  const { context, close } = await launchChromium();
  try {
    await context.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/") return route.fulfill({ body: "<!doctype html>", contentType: "text/html" });
      if (path !== "/pkg/index.js" && !/^\/tests\/js\/[\w-]+\.mjs$/.test(path)) return route.fulfill({ status: 404 });
      const body = await readFile(fileURLToPath(new URL(path.slice(1), root)));
      return route.fulfill({ body, contentType: "text/javascript" });
    });
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/`);
    return await body(page);
  } finally {
    await close();
  }
}
