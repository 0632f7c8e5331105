// Vitest runs only this folder's suites (the rest of tests/ is node:test and cargo).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["tests/vitest/**/*.test.mjs"], root: new URL("../..", import.meta.url).pathname },
});
