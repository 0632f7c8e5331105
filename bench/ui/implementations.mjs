// The implementations bench/ui/run.mjs measures: each one page module of bench/ui/pages/ (`page`,
// its file's extension `ext`) and what the page is told (`query`); `saves`: it stores the conversation (its first save is made before the timed deltas). Adding one is a page module and
// a line here; `available()` leaves out one whose package is not there yet.
import { existsSync } from "node:fs";

const pkg = (path) => existsSync(new URL(`../../pkg/${path}`, import.meta.url));

export const IMPLEMENTATIONS = [
  { name: "ours-react", label: "useAgentSession (React)", page: "ours-react", ext: "jsx", saves: true },
  { name: "ours-vue", label: "chat-session-reducer/vue", page: "ours-vue", ext: "js", saves: true },
  { name: "ours-assistant-ui", label: "our assistant-ui runtime", page: "ours-assistant-ui", ext: "jsx", saves: true, available: () => pkg("assistant-ui/index.js"), missing: "pkg/assistant-ui (branch wt-aui) not merged" },
  { name: "ai-sdk", label: "@ai-sdk/react useChat", page: "ai-sdk-react", ext: "jsx" },
  { name: "assistant-ui-ai-sdk", label: "assistant-ui AI SDK runtime", page: "assistant-ui-ai-sdk", ext: "jsx" },
  // Issue 34 item 3: the virtualised lists, measured at 5,000 messages (BENCH_UI_IMPLS picks them).
  { name: "ours-react-tanstack", label: "useAgentSession + TanStack Virtual", page: "ours-react-tanstack", ext: "jsx", virtual: true },
  { name: "ours-react-virtuoso", label: "useAgentSession + react-virtuoso", page: "ours-react-virtuoso", ext: "jsx", virtual: true },
];
