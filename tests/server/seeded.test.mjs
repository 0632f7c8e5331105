// Seeded runs against chat-session-reducer/server with our own client: each run of a seeded
// length is cut at a seeded frame by one of a Stop (the model writing on after it), a dropped
// connection (resumed from the client's offset), the model's stream failing, or nothing; after
// each, the stored conversation equals the client's, byte for byte as JSON, and the next run goes
// on in the same conversation. SERVER_RUNS sets how many (200 by default); a failure prints its seed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createChatServer } from "../../pkg/server/index.js";
import { createAgentSession } from "../../pkg/session/index.js";
import { createRandom } from "../fuzz/generate.mjs";
import { dropAfter, memoryStore, routeFetch, scriptedRun, until } from "./helpers.mjs";

const RUNS = Number(process.env.SERVER_RUNS ?? 200);
const SEED = Number(process.env.SERVER_SEED ?? 7);
const ENDINGS = ["finish", "stop", "drop", "fail"];


const shownText = (client) => JSON.stringify(client.getSnapshot().state);

test(`ai-sdk: ${RUNS} seeded runs cut by Stop, drops and failures: every stored conversation equals the client's`, async () => {
  const random = createRandom(SEED);
  const store = memoryStore();
  const models = [];
  const server = createChatServer({
    protocol: "ai-sdk",
    store,
    authorize: () => "owner",
    onError: () => {},
    run: scriptedRun(models),
  });
  let cutNext;
  const undo = routeFetch(async (request) => {
    const response = await server.fetch(request);
    if (cutNext === undefined || request.method !== "POST" || new URL(request.url).pathname !== "/api/chat") return response;
    const after = cutNext;
    cutNext = undefined;
    return dropAfter(response, after);
  });
  const client = createAgentSession({ protocol: "ai-sdk", api: "/api/chat", stopApi: "/api/chat/stop", resume: true, throttle: 0, id: "seeded", reconnect: { delayMs: 1 } });
  const unsubscribe = client.subscribe(() => {});
  const counts = Object.fromEntries(ENDINGS.map((ending) => [ending, 0]));
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const ending = ENDINGS[random.below(ENDINGS.length)];
      const words = 2 + random.below(12);
      const cutAt = 1 + random.below(words - 1);
      counts[ending] += 1;
      if (ending === "drop") cutNext = cutAt;
      client.send(`question ${run}`);
      await until(() => models.length === run + 1, `run ${run}'s request`);
      const model = models[run];
      model.push({ type: "start", messageId: `reply-${run}` });
      model.push({ type: "text-start", id: "t" });
      for (let word = 0; word < words; word += 1) {
        if (word === cutAt && ending === "stop") {
          await until(() => client.getSnapshot().state.messages.at(-1).parts.length > 0, `run ${run}: the reply shown`);
          client.stop();
        }
        if (word === cutAt && ending === "fail") {
          model.fail(new Error("provider down"));
          break;
        }
        model.push({ type: "text-delta", id: "t", delta: `w${word} ` });
      }
      if (ending !== "fail") {
        model.push({ type: "text-end", id: "t" });
        model.push({ type: "finish" });
        model.end();
      }
      await until(() => !["streaming", "submitted", "reconnecting"].includes(client.getSnapshot().status), `run ${run}'s end (${ending} at word ${cutAt} of ${words}, status ${client.getSnapshot().status})`);
      await server.idle();
      const stored = JSON.stringify((await store.load("owner", "seeded")).state);
      assert.equal(stored, shownText(client), `seed ${SEED}, run ${run} (${ending} at word ${cutAt} of ${words})`);
      if (client.getSnapshot().status === "error") client.clearError?.();
    }
  } finally {
    unsubscribe();
    undo();
  }
  console.log(`  ${RUNS} runs (seed ${SEED}): ${Object.entries(counts).map(([ending, count]) => `${count} ${ending}`).join(", ")}; 0 differences`);
});
