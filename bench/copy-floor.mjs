// The copies alone: what any immutable reducer must make for an action of the benchmark's
// workloads, and nothing else. An action changes the last message, so the message list, that
// message, its parts list and the changed part are new objects, as React needs them to be; a new
// message or part is pushed. It reads no field it does not need, checks nothing, keeps no index,
// and is not a session reducer (a `toolPhase` copies the last part, whatever it is). Timed on a
// workload beside the package and a peer, it shows how much of their time that copying is on this
// machine (docs/performance.md): the floor under every immutable reducer, the package's and
// `Chat`'s included. Each object is copied as src/wasm/apply.js copies it, by the fastest form
// on V8: a spread alone, then its new field assigned.

export function copyFloor(state, action) {
  const messages = state.messages.slice();
  const part = action.type === "part" ? action.part : undefined;
  if (action.type === "send") {
    messages.push({ id: action.id, role: "user", parts: [{ type: "text", text: action.text }] });
  } else if (part?.type === "message-start") {
    messages.push({ id: part.messageId, role: "assistant", parts: [] });
  } else if (action.type !== "stop") {
    const at = messages.length - 1;
    const message = { ...messages[at] };
    const parts = message.parts.slice();
    const last = parts.length - 1;
    if (part?.type === "text-delta" && parts[last]?.type === "text") {
      const text = { ...parts[last] };
      text.text += part.text;
      parts[last] = text;
    } else if (part?.type === "text-delta") {
      parts.push({ type: "text", text: part.text });
    } else if (part?.type === "tool-call") {
      parts.push({ type: "tool", id: part.id, name: part.name, input: part.input, state: "running" });
    } else {
      parts[last] = { ...parts[last] };
    }
    message.parts = parts;
    messages[at] = message;
  }
  const next = { ...state };
  next.messages = messages;
  return next;
}
