// `npm run bench:ui:memory` (after `npm run build`): issue 34's bounded memory, in headless Chromium.
// 50 conversations of 10,000 messages and 2,000 finished tool calls each, kept in a Web Storage
// object in the page's memory (so what the store holds is in the heap, and counted), shown one at a
// time by useAgentSession with chat-session-reducer/conversations. The JS heap after a full
// collection (CDP HeapProfiler.collectGarbage, Runtime.getHeapUsage): with the store filled and
// one conversation shown, then after showing each of the 50 in turn, twice. Prints MB; asserts nothing.
import { launchChromium } from "../../tests/chromium.mjs";
import { bundle, heapAfterGC, serve } from "./run.mjs";

const CONVERSATIONS = Number(process.env.BENCH_UI_CONVERSATIONS ?? 50);

/** The heap figures of one page, in MB. */
export async function measureMemory(context, conversations = CONVERSATIONS) {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await page.goto(`http://localhost:4921/?impl=memory-react&conversations=${conversations}`);
    await page.waitForFunction(() => window.memory !== undefined, undefined, { timeout: 300_000 });
    await page.evaluate(() => window.memory.show(0));
    const stored = (await page.evaluate(() => window.memory.storedChars())) / (1024 * 1024);
    const one = await heapAfterGC(cdp);
    const rounds = [];
    for (let round = 0; round < 2; round++) {
      const started = Date.now();
      for (let c = 1; c <= conversations; c++) await page.evaluate((n) => window.memory.show(n), c % conversations);
      rounds.push({ heapMB: await heapAfterGC(cdp), msPerSwitch: (Date.now() - started) / conversations });
    }
    return { conversations, storedMB: stored, oneShownMB: one, rounds };
  } finally {
    await page.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const browser = await launchChromium({ viewport: { width: 1000, height: 800 } });
  try {
    await serve(browser.context, new Map([["memory-react", await bundle("memory-react.jsx")]]));
    const empty = await measureMemory(browser.context, 1);
    const result = await measureMemory(browser.context);
    const mb = (value) => `${value.toFixed(1)} MB`;
    console.log(`memory: one conversation of 10,000 messages and 2,000 calls shown, the store holding it: heap ${mb(empty.oneShownMB)} (its stored text ${mb(empty.storedMB)})`);
    console.log(`memory: ${result.conversations} such conversations in the store (stored text ${mb(result.storedMB)}), one shown: heap ${mb(result.oneShownMB)}`);
    result.rounds.forEach((round, i) => console.log(`memory: after showing each of the ${result.conversations} in turn (round ${i + 1}): heap ${mb(round.heapMB)}, ${round.msPerSwitch.toFixed(0)} ms a switch`));
    console.log(JSON.stringify({ one: empty, fifty: result }));
  } finally {
    await browser.close();
  }
}
