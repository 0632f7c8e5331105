// The adapters as users import them: from the built package (pkg/, `npm run build`).
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));
const load = (subpath) => import(new URL(`../../pkg/${subpath}`, import.meta.url).href);

export const core = await load("index.js");
export const aiSdk = await load("ai-sdk/index.js");
export const agUi = await load("ag-ui/index.js");
export const chatStream = await load("chat-stream/index.js");

// The reducer of SPEC v2 (issues 8 and 9): `continue` and `batch` are actions it knows.
function hasV2Reducer() {
  try {
    core.checkAction({ type: "batch", actions: [{ type: "continue" }] });
    return true;
  } catch {
    return false;
  }
}
// Tests that apply the adapters' actions need it; until it is built they are skipped, saying why.
export const needsV2 = hasV2Reducer() ? {} : { skip: "needs the SPEC v2 reducer (issues 8 and 9) in pkg/" };

// The reducer of SPEC v3 (issue 21): `unqueue` is an action it knows.
function hasV3Reducer() {
  try {
    core.checkAction({ type: "unqueue", id: "q" });
    return true;
  } catch {
    return false;
  }
}
export const needsV3 = hasV3Reducer() ? {} : { skip: "needs the SPEC v3 reducer (issue 21) in pkg/" };

// The parts of a list of actions, for assertions on what a translator says.
export const partsOf = (actions) => actions.map((action) => action.part);

// A byte stream of the given text pieces, as a fetch body delivers them.
export function byteStream(pieces) {
  const encoder = new TextEncoder();
  return new ReadableStream({
    pull(controller) {
      if (pieces.length === 0) controller.close();
      else controller.enqueue(encoder.encode(pieces.shift()));
    },
  });
}

export async function collect(iterable) {
  const items = [];
  for await (const item of iterable) items.push(item);
  return items;
}

// Applies actions in order, each batch of a translator as one `batch` action.
export function applyAll(state, batches) {
  for (const actions of batches) state = core.sessionReducer(state, { type: "batch", actions });
  return state;
}
