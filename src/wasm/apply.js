// Applies the core's patches (src/core/patch.rs) to a session state, copying only the objects
// on each patch's path, as automerge's applyPatches does: every untouched message, part and
// nested object stays the very same object, and `state` itself is not touched. It runs in
// JavaScript so a step crosses the wasm boundary once; the patches arrive encoded as numbers
// by src/wasm/write.rs, which documents the encoding. Texts and JSON payloads are taken from
// the action, so they arrive exactly as given.

const STATUSES = ["idle", "streaming", "error"];
const TOOL_STATES = ["running", "awaiting-confirmation", "done", "error", "cancelled"];

export function applyPatches(state, action, ops, assistantId) {
  // The objects this step made: changed in place rather than copied again. A step makes
  // a handful, so a list beats a Set.
  const fresh = [];
  const made = (object) => {
    fresh.push(object);
    return object;
  };
  const own = (object) => (fresh.includes(object) ? object : made({ ...object }));
  const ownList = (list) => (fresh.includes(list) ? list : made(list.slice()));
  const ownMessages = (run) => (run.messages = ownList(run.messages));
  const ownMessage = (run, index) => {
    const messages = ownMessages(run);
    return (messages[index] = own(messages[index]));
  };
  const ownParts = (message) => (message.parts = ownList(message.parts));
  const ownPart = (run, message, index) => {
    const parts = ownParts(ownMessage(run, message));
    return (parts[index] = own(parts[index]));
  };

  const part = action.part;
  let root = own(state);
  let at = 0;
  const next = () => ops[at++];
  // A run: its depth, then (message, part) of each call on the way down.
  const run = (depth = next()) => {
    let node = root;
    for (let level = 0; level < depth; level++) {
      const call = ownPart(node, next(), next());
      node = call.agent = own(call.agent);
    }
    return node;
  };
  // A call: its depth, then (message, part) of each call on the way down, itself last.
  const call = () => {
    const depth = next();
    const holder = run(depth - 1);
    return ownPart(holder, next(), next());
  };

  while (at < ops.length) {
    switch (next()) {
      case 1: {
        // PushMessage: run, kind (0 the action's user message, 1 an assistant message, whose id
        // is the part's messageId, or the one the core made up when the part has none).
        const target = run();
        const message =
          next() === 0
            ? { id: action.id, role: "user", parts: made([made({ type: "text", text: action.text })]) }
            : { id: part.messageId ?? assistantId, role: "assistant", parts: made([]) };
        ownMessages(target).push(made(message));
        break;
      }
      case 2: {
        // PushPart: run, message, kind (0 text, 1 reasoning, 2 tool), from the action's part.
        const target = run();
        const owner = ownMessage(target, next());
        const kind = next();
        let added;
        if (kind === 0) added = { type: "text", text: part.text };
        else if (kind === 1) {
          added = { type: "reasoning", text: part.text };
          if (part.metadata !== undefined) added.metadata = part.metadata;
        } else added = { type: "tool", id: part.id, name: part.name, input: part.input, state: "running" };
        ownParts(owner).push(made(added));
        break;
      }
      case 3: {
        // AppendText: run, message, part.
        const target = run();
        const text = ownPart(target, next(), next());
        text.text += part.text;
        break;
      }
      case 4: {
        // SetStatus: run, status; the error is the action's part's when the status is "error".
        const target = run();
        const status = STATUSES[next()];
        target.status = status;
        if (status === "error") {
          target.error = part.code === undefined ? { message: part.error } : { message: part.error, code: part.code };
        } else delete target.error;
        break;
      }
      case 5: {
        // SetCall: call, state, change (0 toolPhase's prompt, 1 result, 2 error, 3 cancel).
        const target = call();
        target.state = TOOL_STATES[next()];
        const change = next();
        if (change === 0) {
          if (action.prompt === undefined) delete target.prompt;
          else target.prompt = action.prompt;
        } else if (change === 1) {
          target.output = part.output;
          delete target.prompt;
        } else if (change === 2) {
          const { message, code } = part.error;
          target.error = code === undefined ? { message } : { message, code };
          delete target.prompt;
        }
        break;
      }
      case 6: {
        // StartAgent: call.
        call().agent = made({ messages: made([]), status: "streaming" });
        break;
      }
      case 7: {
        // Truncate: the number of messages kept, then 1 + the parts kept of the last one (0: all).
        const kept = next();
        const parts = next();
        root.messages = made(root.messages.slice(0, kept));
        if (parts > 0) {
          const last = ownMessage(root, kept - 1);
          last.parts = made(last.parts.slice(0, parts - 1));
        }
        break;
      }
      case 8: {
        // Reset.
        root = made({ messages: made([]), status: "idle" });
        break;
      }
      default:
        throw new Error(`chat-session-reducer: unknown patch code ${ops[at - 1]}`);
    }
  }
  return root;
}
