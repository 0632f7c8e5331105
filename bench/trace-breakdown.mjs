// Where a traced cold load's time goes, from a Chromium trace of a measuring page of
// bench/load.mjs: the renderer's main thread between the page's user-timing marks, cut at the
// module's responseEnd (its last byte out of the network stack) into evaluating the module and its
// first call, each split by what the main thread was doing; and the worker thread that parsed and
// compiled the module while it streamed in. Nested trace events are counted once, by the first
// kind below that covers them (a wasm compile inside the module's evaluation is a wasm compile).

export const TRACE_CATEGORIES = [
  "blink.user_timing",
  "toplevel",
  "v8",
  "v8.execute",
  "v8.wasm",
  "devtools.timeline",
  "disabled-by-default-v8.compile",
];

// The kinds of main-thread time, first match wins, by trace event name.
const KINDS = [
  ["wasm compile", (name) => name === "wasm.SyncCompile"],
  ["wasm instantiate", (name) => name === "wasm.SyncInstantiate"],
  ["wasm lazy compile", (name) => name === "wasm.CompileLazy"],
  ["JS parse and compile", (name) => /^(V8\.(Compile|Parse)|v8\.compile)/.test(name)],
  ["JS run", (name) => name === "v8.evaluateModule" || name === "RunMicrotasks"],
  ["other tasks", (name) => name === "ThreadControllerImpl::RunTask"],
];

// Chromium's script streaming, on a worker thread: the module parsed and compiled while its body
// arrives, and, within that, the waits for more of the body.
const STREAMING = "BackgroundJSStreamManager::RunScriptStreamingTask";
const STREAMING_WAIT = "v8.parseOnBackgroundWaiting";

// [start, end] intervals (microseconds) of `intervals` that do not overlap `covered`; both are
// sorted and disjoint.
function subtract(intervals, covered) {
  const left = [];
  for (let [start, end] of intervals) {
    for (const [coveredStart, coveredEnd] of covered) {
      if (coveredEnd <= start || coveredStart >= end) continue;
      if (coveredStart > start) left.push([start, coveredStart]);
      start = Math.max(start, coveredEnd);
      if (start >= end) break;
    }
    if (start < end) left.push([start, end]);
  }
  return left;
}

// The sorted disjoint union of `intervals`.
function union(intervals) {
  const merged = [];
  for (const [start, end] of [...intervals].sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

const total = (intervals) => intervals.reduce((sum, [start, end]) => sum + end - start, 0) / 1000;

// The sorted disjoint union of `events` (complete trace events) clipped to [from, to].
function clippedUnion(events, from, to) {
  return union(events
    .map((event) => [Math.max(event.ts, from), Math.min(event.ts + event.dur, to)])
    .filter(([start, end]) => start < end));
}

// Milliseconds by kind (and "idle") of the main thread's `events` clipped to [from, to].
function kindsOf(events, from, to) {
  let covered = [];
  const times = {};
  for (const [kind, matches] of KINDS) {
    const own = subtract(clippedUnion(events.filter((event) => matches(event.name)), from, to), covered);
    times[kind] = total(own);
    covered = union([...covered, ...own]);
  }
  times.idle = (to - from) / 1000 - total(covered);
  return times;
}

/** `events`: the trace of one load of a measuring page; `responseEndMs`: when the module's last
 *  byte came, in milliseconds from the "import" mark (the page's fetchMs). Returns milliseconds:
 *  { evaluate: { kind: ms }, "first call": { kind: ms }, streaming: { "parse and compile", "waiting for the body" } }. */
export function traceBreakdown(events, responseEndMs) {
  const mark = (name) => {
    const found = events.find((event) => event.name === name && event.cat.includes("blink.user_timing"));
    if (!found) throw new Error(`the trace has no user-timing mark ${name}`);
    return found;
  };
  const [start, imported, called] = ["import", "imported", "called"].map(mark);
  const renderer = events.filter((event) => event.ph === "X" && event.pid === start.pid);
  const mainThread = renderer.filter((event) => event.tid === start.tid);
  const responseEnd = start.ts + responseEndMs * 1000;
  const streaming = clippedUnion(renderer.filter((event) => event.name === STREAMING), start.ts, imported.ts);
  const waiting = clippedUnion(renderer.filter((event) => event.name === STREAMING_WAIT), start.ts, imported.ts);
  return {
    evaluate: kindsOf(mainThread, responseEnd, imported.ts),
    "first call": kindsOf(mainThread, imported.ts, called.ts),
    streaming: { "parse and compile": total(subtract(streaming, waiting)), "waiting for the body": total(waiting) },
  };
}
