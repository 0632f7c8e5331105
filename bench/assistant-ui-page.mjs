// A first look at what a streamed delta costs in assistant-ui's thread on
// chat-session-reducer/assistant-ui, in headless Chromium with React's production build: a thread
// of N messages (assistant-ui's ThreadPrimitive and MessagePrimitive, plain text parts), then each
// delta dispatched into the session and rendered synchronously (flushSync), timed from dispatch to
// commit; medians after 20 of warm-up. Beside assistant-ui's own AI SDK runtime it is bench:ui's.
//
//   node bench/assistant-ui-page.mjs     (after `npm run build`)
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { launchChromium } from "../tests/chromium.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const PAGE = `
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { AssistantRuntimeProvider, MessagePrimitive, ThreadPrimitive } from "@assistant-ui/react";
import { useAgentSessionRuntime } from "chat-session-reducer/assistant-ui";
import { createAgentSession } from "chat-session-reducer/session";

const parts = { Text: ({ text }) => <span>{text}</span> };
const Row = () => <MessagePrimitive.Root className="row"><MessagePrimitive.Parts components={parts} /></MessagePrimitive.Root>;
const components = { UserMessage: Row, AssistantMessage: Row };
function Chat({ controller }) {
  const runtime = useAgentSessionRuntime(controller);
  return <AssistantRuntimeProvider runtime={runtime}><ThreadPrimitive.Root><ThreadPrimitive.Messages components={components} /></ThreadPrimitive.Root></AssistantRuntimeProvider>;
}
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
window.measure = async (n, deltas) => {
  const messages = Array.from({ length: n }, (_, i) => ({ id: "m" + i, role: i % 2 ? "assistant" : "user", parts: [{ type: "text", text: ("message " + i + " ").repeat(5) }] }));
  messages.push({ id: "live", role: "assistant", parts: [{ type: "text", text: "" }] });
  // A request that never answers: the session streams, and the deltas are dispatched here.
  const controller = createAgentSession({ api: () => new Promise(() => {}), initialState: { messages, status: "idle" }, throttle: 0 });
  const container = document.body.appendChild(document.createElement("div"));
  const root = createRoot(container);
  flushSync(() => root.render(<Chat controller={controller} />));
  await pause();
  controller.dispatch({ type: "continue" });
  await pause();
  const times = [];
  for (let i = 0; i < deltas; i += 1) {
    const started = performance.now();
    flushSync(() => controller.dispatch({ type: "part", part: { type: "text-delta", messageId: "live", text: "x" } }));
    times.push(performance.now() - started);
  }
  const shown = container.querySelectorAll(".row")[n].textContent.length;
  root.unmount();
  container.remove();
  times.splice(0, 20);
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], p90: times[Math.floor(times.length * 0.9)], shown };
};
`;

const dir = mkdtempSync(join(tmpdir(), "assistant-ui-page-"));
writeFileSync(join(dir, "page.jsx"), PAGE);
const alias = Object.fromEntries(["session", "assistant-ui"].map((subpath) => [`chat-session-reducer/${subpath}`, join(root, "pkg", subpath, "index.js")]));
await build({
  entryPoints: [join(dir, "page.jsx")],
  bundle: true,
  format: "iife",
  minify: true,
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  alias,
  nodePaths: [join(root, "node_modules")],
  outfile: join(dir, "page.js"),
  logLevel: "error",
});
const browser = await launchChromium();
try {
  const page = await browser.context.newPage();
  await page.setContent("<!doctype html><html><body></body></html>");
  await page.addScriptTag({ content: readFileSync(join(dir, "page.js"), "utf8") });
  for (const [n, deltas] of [[10, 220], [100, 220], [1000, 220], [10000, 60]]) {
    const { median, p90, shown } = await page.evaluate(([count, times]) => window.measure(count, times), [n, deltas]);
    if (shown !== deltas) throw new Error(`${n} messages: the reply shows ${shown} of ${deltas} deltas`);
    console.log(`${String(n).padStart(5)} messages: ${median.toFixed(1)} ms per delta (median), p90 ${p90.toFixed(1)} ms`);
  }
} finally {
  await browser.close();
}
