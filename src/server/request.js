// TEMPORARY STUB (lead's local testing only; replaced by the request helper's module)
import { sessionReducer } from "chat-session-reducer";
export function applyRequest(protocolName, body, stored) {
  const messages = body.messages;
  const last = messages[messages.length - 1];
  const text = last.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
  const state = sessionReducer(stored, { type: "send", id: last.id, text });
  return { ok: true, id: body.id, state, actions: [], trigger: "send" };
}
export function modelInput(protocolName, state) {
  return state.messages;
}
