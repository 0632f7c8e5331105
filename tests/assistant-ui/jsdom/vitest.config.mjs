import { defineConfig } from "vitest/config";

export default defineConfig({
  // The README's example (readme-example.jsx, written by ../run.mjs) is JSX on React's automatic runtime.
  esbuild: { jsx: "automatic" },
  test: { environment: "jsdom", include: ["*.test.mjs"], testTimeout: 20000 },
});
