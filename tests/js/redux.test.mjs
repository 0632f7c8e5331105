// SPEC v2 "Redux": sessionReducer as a slice of a Redux Toolkit store, with RTK's development
// checks on (the serializability check and the immutability check, which throws when a reducer
// mutates state between dispatches), dispatching a whole conversation, v2 parts and a batch
// included, beside another slice whose actions the session reducer must leave alone.
import assert from "node:assert/strict";
import { test } from "node:test";
import { combineReducers, configureStore, createSlice } from "@reduxjs/toolkit";

import { sessionReducer } from "../../pkg/index.js";

const part = (part) => ({ type: "part", part });

test("a conversation under configureStore + combineReducers, with RTK's checks on", () => {
  const notes = createSlice({ name: "notes", initialState: [], reducers: { added: (state, action) => void state.push(action.payload) } });
  const warnings = [];
  const warn = console.warn;
  console.warn = (...values) => warnings.push(values.join(" "));
  let store;
  try {
    store = configureStore({
      reducer: combineReducers({ session: sessionReducer, notes: notes.reducer }),
      middleware: (getDefault) => getDefault({ immutableCheck: { warnAfter: 1000 }, serializableCheck: { warnAfter: 1000 } }),
    });
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(store.getState().session, { messages: [], status: "idle" }, "Redux's init gives the empty session");

  const before = store.getState().session;
  store.dispatch(notes.actions.added("remember the mugs"));
  assert.equal(store.getState().session, before, "another slice's action returns the same session");

  store.dispatch({ type: "send", id: "u-1", text: "Add two mugs" });
  store.dispatch(part({ type: "message-start", messageId: "a-1", metadata: { model: "m" } }));
  store.dispatch({
    type: "batch",
    actions: [
      part({ type: "text-delta", text: "Adding" }),
      part({ type: "text-delta", text: " them." }),
      part({ type: "tool-call", id: "c-1", name: "add_to_cart", input: { slug: "mug", qty: 2 } }),
    ],
  });
  store.dispatch(part({ type: "data", name: "cart", id: "cart", data: { items: [] } }));
  store.dispatch(part({ type: "data", name: "cart", id: "cart", patch: [{ op: "add", path: "/items/-", value: "mug" }] }));
  store.dispatch(part({ type: "agent-state", snapshot: { step: "checkout" } }));
  store.dispatch(part({ type: "tool-result", id: "c-1", output: { ok: true } }));
  store.dispatch(part({ type: "message-metadata", metadata: { usage: { output: 12 } } }));
  store.dispatch(part({ type: "finish" }));
  store.dispatch({ type: "send", id: "u-2", text: "Thanks" });
  store.dispatch({ type: "stop" });

  const { session, notes: saved } = store.getState();
  assert.deepEqual(saved, ["remember the mugs"]);
  assert.equal(session.status, "idle");
  assert.deepEqual(session.agentState, { step: "checkout" });
  assert.deepEqual(session.messages[1], {
    id: "a-1",
    role: "assistant",
    metadata: { model: "m", usage: { output: 12 } },
    parts: [
      { type: "text", text: "Adding them." },
      { type: "tool", id: "c-1", name: "add_to_cart", input: { slug: "mug", qty: 2 }, state: "done", output: { ok: true } },
      { type: "data", name: "cart", id: "cart", data: { items: ["mug"] } },
    ],
  });
  assert.equal(session.messages[2].parts[0].text, "Thanks");
  assert.deepEqual(warnings, [], "no check warned");
});
