// The load benchmark's trace breakdown (trace-breakdown.mjs) on a hand-made trace whose answer is
// known: nested events counted once, by the first kind that covers them; events clipped to the
// phases; other threads and processes left out; the worker's waits apart from its work.
import { test } from "node:test";
import assert from "node:assert/strict";

import { traceBreakdown } from "./trace-breakdown.mjs";

const MAIN = { pid: 1, tid: 1 };
const WORKER = { pid: 1, tid: 2 };
// A complete event from `from` to `to`, in milliseconds (traces count microseconds).
const span = (name, from, to, thread = MAIN) => ({ name, cat: "test", ph: "X", ts: from * 1000, dur: (to - from) * 1000, ...thread });
const mark = (name, at) => ({ name, cat: "blink.user_timing", ph: "R", ts: at * 1000, ...MAIN });

// Import at 0, the module's last byte at 4, imported at 10, the first call done at 15.
const marks = [mark("import", 0), mark("imported", 10), mark("called", 15)];
const RESPONSE_END = 4;

const round = (times) => Object.fromEntries(Object.entries(times).map(([kind, ms]) => [kind, Math.round(ms * 1000) / 1000]));

test("evaluating: a wasm compile inside the module's evaluation is a wasm compile, the rest JS run, other tasks and idle", () => {
  const { evaluate } = traceBreakdown([
    ...marks,
    span("ThreadControllerImpl::RunTask", 5, 9.5),
    span("v8.evaluateModule", 6, 9),
    span("wasm.SyncCompile", 6.5, 7.5),
    span("V8.CompileCode", 7, 7.2), // inside the wasm compile: counted there
    span("wasm.SyncInstantiate", 8, 8.25),
  ], RESPONSE_END);
  assert.deepEqual(round(evaluate), {
    "wasm compile": 1,
    "wasm instantiate": 0.25,
    "wasm lazy compile": 0,
    "JS parse and compile": 0,
    "JS run": 1.75,
    "other tasks": 1.5,
    idle: 1.5,
  });
});

test("the first call: overlapping events count once, events are clipped to the phase", () => {
  const breakdown = traceBreakdown([
    ...marks,
    span("RunMicrotasks", 9.9, 15.1),
    span("wasm.CompileLazy", 11, 12),
    span("wasm.CompileLazy", 11.5, 12.5),
    span("V8.CompileCode", 13, 13.5),
    span("V8.ParseFunction", 13.1, 13.3),
  ], RESPONSE_END);
  assert.deepEqual(round(breakdown["first call"]), {
    "wasm compile": 0,
    "wasm instantiate": 0,
    "wasm lazy compile": 1.5,
    "JS parse and compile": 0.5,
    "JS run": 3,
    "other tasks": 0,
    idle: 0,
  });
  // The microtask's 0.1 ms before the import resolved is the evaluate phase's.
  assert.equal(round(breakdown.evaluate)["JS run"], 0.1);
});

test("other threads and processes are not the main thread's; the worker's waits are apart from its work", () => {
  const breakdown = traceBreakdown([
    ...marks,
    span("v8.evaluateModule", 5, 6, WORKER),
    span("v8.evaluateModule", 5, 6, { pid: 2, tid: 1 }),
    span("BackgroundJSStreamManager::RunScriptStreamingTask", 1, 11, WORKER),
    span("v8.parseOnBackgroundWaiting", 2, 5, WORKER),
    span("BackgroundJSStreamManager::RunScriptStreamingTask", 1, 9, { pid: 2, tid: 2 }),
  ], RESPONSE_END);
  assert.equal(breakdown.evaluate.idle, 6);
  assert.deepEqual(round(breakdown.streaming), { "parse and compile": 6, "waiting for the body": 3 });
});

test("a trace without the page's marks is refused", () => {
  assert.throws(() => traceBreakdown([mark("import", 0), mark("called", 15)], RESPONSE_END), /no user-timing mark imported/);
});
