// Issue 34 item 5 as a test, with generous bounds (the heap after a full collection is steady
// from run to run, within 0.1 MB here): switching among conversations of 10,000 messages and
// 2,000 calls each (chat-session-reducer/conversations) holds no more after a second round of
// switches than after the first, and no more than a few MB per conversation beyond one shown.
import assert from "node:assert/strict";
import { test } from "node:test";

import { launchChromium } from "../../tests/chromium.mjs";
import { measureMemory } from "./memory.mjs";
import { bundle, serve } from "./run.mjs";

const CONVERSATIONS = 5;

test(`switching among ${CONVERSATIONS} conversations of 10,000 messages does not grow the heap`, { timeout: 240_000 }, async () => {
  const browser = await launchChromium({ viewport: { width: 1000, height: 800 } });
  try {
    await serve(browser.context, new Map([["memory-react", await bundle("memory-react.jsx")]]));
    const { oneShownMB, storedMB, rounds } = await measureMemory(browser.context, CONVERSATIONS);
    console.log(`memory: stored ${storedMB.toFixed(1)} MB, one shown ${oneShownMB.toFixed(1)} MB, after each round ${rounds.map((round) => round.heapMB.toFixed(1)).join(", ")} MB`);
    // One conversation shown: its session, rows and the store's texts, within 64 MB.
    assert.ok(oneShownMB < 64, `one shown: ${oneShownMB} MB`);
    assert.ok(rounds[1].heapMB <= rounds[0].heapMB * 1.1, `round 2 ${rounds[1].heapMB} MB, round 1 ${rounds[0].heapMB} MB`);
    assert.ok(rounds[1].heapMB <= oneShownMB + CONVERSATIONS * 4, `after switching ${rounds[1].heapMB} MB, one shown ${oneShownMB} MB`);
  } finally {
    await browser.close();
  }
});
