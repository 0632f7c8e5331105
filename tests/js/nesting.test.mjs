// Issue 10, item 3: one nesting limit everywhere. Runs built by `within` stop at the depth a read
// state may have, so a state the reducer made is never "invalid" when read afresh, and a saved
// conversation loads back (before, it was stored, then called `corrupt` on reload).
import assert from "node:assert/strict";
import { test } from "node:test";

import { sessionReducer } from "../../pkg/index.js";
import { LIMIT, nestByWithin, nesting } from "./nesting.mjs";
import { withPackagePage } from "./package-page.mjs";

const api = { sessionReducer };

test("within nests up to the limit; a part that would go deeper is ignored", () => {
  const state = nestByWithin(api, LIMIT + 10);
  assert.equal(nesting(state), LIMIT);
  const deeper = { type: "part", part: { type: "text-delta", text: "x" }, within: `c-${LIMIT + 1}` };
  assert.equal(sessionReducer(state, deeper), state);
});

test("the deepest state within makes reads afresh as it is, and one level more is refused", () => {
  const state = nestByWithin(api, LIMIT + 10);
  const copy = JSON.parse(JSON.stringify(state)); // not the module's: read in full
  const stop = { type: "stop" };
  assert.equal(JSON.stringify(sessionReducer(copy, stop)), JSON.stringify(sessionReducer(state, stop)));
  const deeper = JSON.parse(JSON.stringify(state));
  let run = deeper;
  for (let level = 0; level < LIMIT; level++) run = run.messages.at(-1).parts.at(-1).agent;
  run.messages.at(-1).parts.at(-1).agent = { messages: [], status: "idle" };
  assert.throws(
    () => sessionReducer(deeper, stop),
    (error) => error.code === "invalid" && error.message.endsWith(`sub-agent runs nest deeper than ${LIMIT}`),
  );
});

test("in Chromium: the deepest conversation is saved and loaded back", async () => {
  const result = await withPackagePage((page) =>
    page.evaluate(async () => {
      const api = await import("/pkg/index.js");
      const { LIMIT, nestByWithin, nesting } = await import("/tests/js/nesting.mjs");
      const state = nestByWithin(api, LIMIT + 10);
      api.saveSession("deep", state);
      const loaded = api.loadSession("deep");
      return { saved: nesting(state), loaded: nesting(loaded), status: loaded.status };
    }),
  );
  assert.deepEqual(result, { saved: LIMIT, loaded: LIMIT, status: "idle" });
});
