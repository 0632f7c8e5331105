// `npm run bench:prepend` (after `npm run build`): what a SPEC v4 `prepend` costs. A page of 50
// older messages put in front of a conversation the module holds, of 1,000, 10,000 and 100,000
// messages (each page after the first lands on the state the last made, as an app scrolling up
// dispatches them); then one page of 100,000 messages in front of a short conversation; the
// hand-written baseline (bench/baseline.mjs) beside each. The page's work (its ids looked up, its
// calls checked and indexed) should not grow with the conversation; what does is one copy of the
// messages array (pointers), which the new state needs. It prints figures; it asserts nothing.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import * as baseline from "./baseline.mjs";
import { median } from "./median.mjs";

const PKG_ENTRY = fileURLToPath(new URL("../pkg/index.js", import.meta.url));
if (!existsSync(PKG_ENTRY)) {
  console.error(`${PKG_ENTRY} is missing: run npm run build first.`);
  process.exit(1);
}
const pkg = await import(PKG_ENTRY);
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const PAGES = 20;

const user = (id) => ({ id, role: "user", parts: [{ type: "text", text: `question ${id}` }] });
const reply = (id, call) => ({ id, role: "assistant", parts: [{ type: "text", text: `answer ${id}` },
  { type: "tool", id: call, name: "search", input: { q: id }, state: "done", output: { hits: 3 } }] });
// `count` messages, half of them replies holding a finished call, their ids under `prefix`.
const messages = (prefix, count) => Array.from({ length: count }, (_, index) =>
  (index % 2 === 0 ? user(`${prefix}u${index}`) : reply(`${prefix}a${index}`, `${prefix}c${index}`)));

// A conversation of `count` messages that the reducer has taken in (one action on the literal).
function held(reducer, count) {
  const literal = { messages: messages("held-", count), status: "idle" };
  return reducer.sessionReducer(literal, { type: "continue" });
}

// Milliseconds for the first page of `size` and per page for the PAGES after it, the medians of
// RUNS runs. The first page is where the module reads the conversation's call and message ids
// (once per conversation, on their first use by any action); the later ones are what scrolling
// up costs.
function perPage(reducer, count, size, pages = PAGES) {
  const firsts = [];
  const laters = [];
  for (let run = 0; run < RUNS; run++) {
    let state = held(reducer, count);
    const planned = Array.from({ length: pages + 1 }, (_, page) => ({ type: "prepend", messages: messages(`r${run}p${page}-`, size) }));
    let start = performance.now();
    state = reducer.sessionReducer(state, planned[0]);
    firsts.push(performance.now() - start);
    start = performance.now();
    for (const action of planned.slice(1)) state = reducer.sessionReducer(state, action);
    laters.push((performance.now() - start) / Math.max(pages, 1));
  }
  return { first: median(firsts), later: median(laters) };
}

const ms = (value) => `${value.toFixed(2)} ms`;
console.log(`prepend: ${RUNS} runs, median; pages of 50 messages (25 with a finished call): the first, then ${PAGES} more`);
for (const count of [1_000, 10_000, 100_000]) {
  const [mine, theirs] = [perPage(pkg, count, 50), perPage(baseline, count, 50)];
  console.log(`  onto ${count.toLocaleString("en")} messages: package ${ms(mine.first)} then ${ms(mine.later)} a page; ` +
    `baseline ${ms(theirs.first)} then ${ms(theirs.later)}`);
}
const big = (reducer) => perPage(reducer, 10, 100_000, 0).first;
console.log(`  a page of 100,000 messages onto 10: package ${ms(big(pkg))}, baseline ${ms(big(baseline))}`);
