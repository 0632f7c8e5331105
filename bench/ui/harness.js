// The in-page half of `npm run bench:ui` (bench/ui/run.mjs drives it), bundled into every page
// module: the thread each implementation starts from, the one reply stream all of them read (the
// AI SDK's UI message stream as SSE bytes, served by a mock fetch), and the per-delta measurement.
//
// "Painted": a requestAnimationFrame loop posts a MessageChannel message in every frame; a message
// is handled as a task after that frame's rendering (style, layout, paint). A delta is painted at
// the first such message whose frame laid out after the row's DOM changed (the change seen by a
// MutationObserver; the frame's layout by a ResizeObserver on a probe resized every frame): a
// change made in a task between a frame's rendering and its message waits for the next frame.
// Each delta is pushed from such a message, right after a paint, so every implementation starts
// from the same point of the frame. Marks: `delta-in`, `delta-committed`, `delta-painted`.

const SEARCH = new URLSearchParams(location.search);
/** How many messages the thread holds before the reply (the page's `?n=`). */
export const THREAD = Number(SEARCH.get("n") ?? 10);
/** What the page module is told to store with, when it stores (`?storage=`). */
export const STORAGE = SEARCH.get("storage") ?? "indexeddb";

// The page scrolls as a chat does: a column-reverse container keeps its end (the newest row) in view.
document.head.insertAdjacentHTML("beforeend", "<style>#root{height:100vh;overflow:auto;display:flex;flex-direction:column-reverse}</style>");

const SENTENCE = "The quick brown fox jumps over the lazy dog while the reducer keeps every row.";

/** `count` finished messages, user and assistant in turn, each one text part (the AI SDK's UIMessage and the
 *  package's AgentMessage have this same shape). */
export function threadMessages(count = THREAD) {
  const messages = [];
  for (let i = 0; i < count; i++) {
    messages.push({ id: `m${i}`, role: i % 2 === 0 ? "user" : "assistant", parts: [{ type: "text", text: `${i}: ${SENTENCE}` }] });
  }
  return messages;
}

const encoder = new TextEncoder();
const sse = (chunk) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
/** The text delta `i` adds; the leading space makes `endsWith` exact (" w12" is not the end of " w112"). */
const deltaText = (i) => ` w${i}`;

let controller;
let requested;
const requestedOnce = new Promise((resolve) => (requested = resolve));

/** The agent's answer to the page's one request: a Response whose body the harness writes chunk by chunk. */
export function respond() {
  const body = new ReadableStream({ start: (c) => void (controller = c) });
  requested();
  return Promise.resolve(
    new Response(body, { headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" } }),
  );
}

/** A `fetch` for a transport (the AI SDK's DefaultChatTransport): every request answered by `respond`. */
export const mockFetch = () => respond();

/** The saves an implementation made, each `{ ms }` (bench/ui/run.mjs reads them for the save cost). */
const saves = [];
export const recordSave = (ms) => saves.push(ms);

/** A Web Storage wrapper that times each write. */
export function timedWebStorage(storage) {
  return {
    getItem: (key) => storage.getItem(key),
    removeItem: (key) => storage.removeItem(key),
    setItem(key, value) {
      const start = performance.now();
      storage.setItem(key, value);
      recordSave(performance.now() - start);
    },
  };
}

/** A SessionStore wrapper that times each write until its transaction has committed. */
export function timedStore(store) {
  return {
    read: (key) => store.read(key),
    remove: (key) => store.remove(key),
    async write(key, entry) {
      const start = performance.now();
      try {
        return await store.write(key, entry);
      } finally {
        recordSave(performance.now() - start);
      }
    },
  };
}

let list;
/** The newest row's text, or "" (rows are the list element's children). */
const lastRowText = () => list?.lastElementChild?.textContent ?? "";

// One delta waited for at a time: `{ marker, inAt, committedAt, resolve }`.
let waiting;
const afterPaint = [];
// A probe whose size changes every frame: its ResizeObserver callback runs in each frame's
// rendering, after the requestAnimationFrame callbacks and layout, before paint; `laidOutAt` is
// when the newest frame got there. A DOM change made before it is in that frame's paint.
const probe = document.createElement("div");
probe.style.cssText = "position:fixed;top:0;left:0;height:1px;width:1px;overflow:hidden;contain:strict";
document.documentElement.append(probe);
let laidOutAt = -1;
new ResizeObserver(() => void (laidOutAt = performance.now())).observe(probe);
let frames = 0;
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  const now = performance.now();
  if (waiting?.committedAt !== undefined && waiting.committedAt < laidOutAt) {
    const done = waiting;
    waiting = undefined;
    performance.mark("delta-painted");
    done.resolve({ commit: done.committedAt - done.inAt, paint: now - done.inAt });
  }
  for (const callback of afterPaint.splice(0)) callback();
};
const loop = () => {
  probe.style.width = `${1 + (++frames % 2)}px`;
  channel.port2.postMessage(0);
  requestAnimationFrame(loop);
};
requestAnimationFrame(loop);

const observer = new MutationObserver(() => {
  if (waiting !== undefined && waiting.committedAt === undefined && lastRowText().endsWith(waiting.marker)) {
    waiting.committedAt = performance.now();
    performance.mark("delta-committed");
  }
});

const nextPaint = () => new Promise((resolve) => afterPaint.push(resolve));

/** Pushes `chunks` right after a paint and resolves once the newest row ends with `marker` and is painted. */
async function pushAndWait(chunks, marker) {
  await nextPaint();
  return new Promise((resolve, reject) => {
    // A page that never shows the delta fails with what it shows instead of hanging.
    const timer = setTimeout(() => reject(new Error(`"${marker}" not shown in 60 s; the newest row: ${lastRowText().slice(-200)}`)), 60_000);
    const done = (times) => (clearTimeout(timer), resolve(times));
    waiting = { marker, inAt: performance.now(), committedAt: undefined, resolve: done };
    performance.mark("delta-in");
    for (const chunk of chunks) controller.enqueue(sse(chunk));
  });
}

let next = 1;
const TEXT_ID = "t1";

/**
 * Installs `window.bench` for the driver. `mount(root)` renders the implementation into `root` with
 * `threadMessages()` and returns `{ send }`, which starts the reply's request (a user message "go").
 */
export function runPage(mount) {
  const root = document.getElementById("root");
  const { send } = mount(root);
  const bench = {
    /** Resolves once the thread's newest row is in the DOM, the list's last child (the list is the element
     *  marked data-bench-list; a virtualised list holds a window of rows only). */
    async ready() {
      while (!(list = document.querySelector("[data-bench-list]")) || !lastRowText().startsWith(`${THREAD - 1}: `)) await nextPaint();
      observer.observe(list, { subtree: true, childList: true, characterData: true });
      return list.childElementCount;
    },
    /** Sends, then the reply's start and first delta, shown. */
    async begin() {
      send();
      await requestedOnce;
      await pushAndWait([{ type: "start", messageId: "reply" }, { type: "text-start", id: TEXT_ID }, { type: "text-delta", id: TEXT_ID, delta: deltaText(0) }], deltaText(0));
      return list.childElementCount;
    },
    /** `count` deltas, one at a time; each one's `{ commit, paint }` in ms from its push. */
    async deltas(count) {
      const times = [];
      for (let end = next + count; next < end; next++) {
        times.push(await pushAndWait([{ type: "text-delta", id: TEXT_ID, delta: deltaText(next) }], deltaText(next)));
      }
      return times;
    },
    /** Clears the saves recorded so far (the timed deltas' saves are read after them). */
    resetSaves: () => void saves.splice(0),
    saves: () => [...saves],
    /** The reply's end. */
    async end() {
      for (const chunk of [{ type: "text-end", id: TEXT_ID }, { type: "finish" }]) controller.enqueue(sse(chunk));
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
      await nextPaint();
    },
    rows: () => list.childElementCount,
  };
  Object.assign(window, { bench });
}
