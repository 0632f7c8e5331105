// A tiny app that uses the package the way a bundled web app does: imported by name, no init
// call, no bundler plugin. It publishes what it observed as `globalThis.consumerResult` for the
// test that loads the page (tests/consumers/browser.mjs).
import { sessionReducer, resumable, saveSession, loadSession } from "chat-session-reducer";
import { emptySession, seedActions } from "../seed.mjs";

function observe() {
  const state = seedActions.reduce(sessionReducer, emptySession);
  const streaming = seedActions.slice(0, 3).reduce(sessionReducer, emptySession);
  const afterStepFinish = sessionReducer(streaming, { type: "part", part: { type: "step-finish" } });
  let invalid = null;
  try {
    sessionReducer(state, { type: "send", id: 42, text: "hi" });
  } catch (error) {
    invalid = { isError: error instanceof Error, code: error.code, path: error.path };
  }
  // A reload in the middle of a tool call: what was saved comes back stopped.
  saveSession("consumer-chat", streaming);
  const reloaded = loadSession("consumer-chat");
  return {
    status: state.status,
    error: state.error,
    resumableLength: resumable(state.messages).length,
    stepFinishKeepsState: Object.is(afterStepFinish, streaming),
    invalid,
    reloaded: { status: reloaded.status, toolState: reloaded.messages[1].parts[0].state },
    nothingStored: loadSession("nothing-stored-here"),
  };
}

let result;
try {
  result = observe();
} catch (error) {
  result = { thrown: String(error && error.stack ? error.stack : error) };
}
globalThis.consumerResult = result;
document.getElementById("result").textContent = JSON.stringify(result, null, 2);
