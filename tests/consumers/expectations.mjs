// What the bundled app (app/main.js) must observe when the package works in the page.
import assert from "node:assert/strict";

export function assertAppObservedSeed(result) {
  assert.ok(result, "the page published no consumerResult");
  assert.equal(result.thrown, undefined, `the app threw: ${result.thrown}`);
  assert.equal(result.status, "error");
  assert.deepEqual(result.error, { message: "Couldn't reach the assistant.", code: "network" });
  assert.equal(result.resumableLength, 2);
  assert.equal(result.stepFinishKeepsState, true);
  assert.deepEqual(result.invalid, { isError: true, code: "invalid", path: "action.id" });
  assert.deepEqual(result.reloaded, { status: "idle", toolState: "cancelled" });
  assert.equal(result.nothingStored, null, "loadSession says nothing is stored with null");
}
