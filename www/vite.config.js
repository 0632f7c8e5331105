import { defineConfig } from "vite";

// `npm run dev` serves the page with hot reload; the agent still runs in server.mjs
// (start it with PORT=3000 npm run serve after a build, or keep npm start running).
export default defineConfig({
  server: {
    proxy: { "/api": `http://localhost:${process.env.API_PORT ?? 3000}` },
  },
  // The package is linked from ../pkg (file:../pkg), so its React hook would otherwise resolve
  // React (and assistant-ui, for ?ui=assistant-ui) from the repository root's node_modules: one
  // of each for the page, as an npm install has.
  resolve: { dedupe: ["react", "react-dom", "@assistant-ui/react"] },
});
