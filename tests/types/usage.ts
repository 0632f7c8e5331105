// Type-checked (never run) as a React app using the installed package would be; see types.test.mjs.
// Every `@ts-expect-error` line must fail to compile: tsc reports an unused one as an error.
import { useEffect, useReducer, useState, type Reducer } from "react";
import {
  sessionReducer,
  resumable,
  isCancelled,
  restoreSession,
  persistSession,
  loadSession,
  checkAction,
  saveSession,
  branchAt,
  type AgentMessage,
  type BranchAt,
  type Branch,
  type Fork,
  type AgentPart,
  type AgentStreamPart,
  type Approval,
  type SessionAction,
  type SessionState,
  type ToolState,
  type JsonPatch,
  type SessionReducerError,
  type SessionStorageLike,
  type QueuedMessage,
  type StepPart,
  type UserPart,
} from "chat-session-reducer";

const asReactReducer: Reducer<SessionState, SessionAction> = sessionReducer;

const empty: SessionState = { messages: [], status: "idle" };

export function useChatSession(storageKey: string) {
  const [state, dispatch] = useReducer(sessionReducer, storageKey, restoreSession);
  const retryMessages: AgentMessage[] = resumable(state.messages);
  const [saveFailure, setSaveFailure] = useState<Error | undefined>();
  useEffect(() => setSaveFailure(persistSession(storageKey, state)), [storageKey, state]);
  return { state, retryMessages, saveFailure, send: (id: string, text: string) => dispatch({ type: "send", id, text }) };
}

export function partLabel(part: AgentPart): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "reasoning":
      return `(thinking) ${part.text}`;
    case "tool": {
      const cancelled = part.error !== undefined && isCancelled(part.error);
      return `${part.name} [${part.state}]${cancelled ? " cancelled by the user" : ""}`;
    }
    case "data":
      return `[${part.name}]`;
    case "step": // v3: a step boundary, not rendered
      return "";
  }
}

export function storedSession(key: string): SessionState | null {
  return loadSession(key);
}

// A frame from the network is `unknown` until checked; then it is an action the reducer takes.
export function dispatchFrame(line: string, dispatch: (action: SessionAction) => void) {
  const frame: unknown = JSON.parse(line);
  dispatch(checkAction(frame));
  // @ts-expect-error an unchecked frame is not an action
  dispatch(frame);
}

export const allToolStates: ToolState[] = ["input-streaming", "running", "awaiting-confirmation", "done", "error", "cancelled"];

// An approval card: its question, the policy's own decisions shown without buttons, the answer
// dispatched by approval id, then the agent goes on.
export function answerApproval(part: AgentPart, approved: boolean, dispatch: (action: SessionAction) => void) {
  if (part.type !== "tool" || part.approval === undefined) return;
  const approval: Approval = part.approval;
  if (approval.automatic === true || approval.approved !== undefined) return;
  dispatch({ type: "part", part: { type: "tool-approval-response", approvalId: approval.id, approved } });
  dispatch({ type: "continue" });
}

export function streamedInput(part: AgentPart): string | undefined {
  return part.type === "tool" && part.state === "input-streaming" ? part.inputText : undefined;
}

export const v2Parts: AgentStreamPart[] = [
  { type: "reasoning-delta", text: "Thinking" },
  { type: "tool-input-delta", id: "call-2", name: "search", text: "{\"q\":" },
  { type: "tool-input-end", id: "call-2" },
  { type: "tool-approval-request", name: "search", approvalId: "ap-1", details: { signature: "s" } },
  { type: "tool-result", id: "call-2", output: { hits: 1 }, preliminary: true },
];

// @ts-expect-error an approval response needs its answer
export const unanswered: AgentStreamPart = { type: "tool-approval-response", id: "call-2" };

export const streamed: SessionState = asReactReducer(empty, {
  type: "part",
  part: { type: "tool-call", id: "call-1", name: "search", input: { query: "mugs", limit: [1, 2] } },
  within: "call-0",
});

// @ts-expect-error an unknown action type
sessionReducer(empty, { type: "sned", id: "u-1", text: "hi" });

// @ts-expect-error a send action without its text
sessionReducer(empty, { type: "send", id: "u-1" });

// @ts-expect-error "finished" is not a ToolState
export const notAToolState: ToolState = "finished";

// @ts-expect-error the reducer returns a SessionState, not `any`
export const leakedAny: number = sessionReducer(empty, { type: "reset" });

// @ts-expect-error resumable returns messages, not `any`
export const leakedMessages: string = resumable(empty.messages);

export function unnarrowedName(part: AgentPart) {
  // @ts-expect-error only a tool part has a name: narrow by `type` first
  return part.name;
}

// v2: data parts, metadata, snapshots, shared state and batches.
const patch: JsonPatch = [{ op: "add", path: "/days/-", value: "Sun" }, { op: "move", from: "/a", path: "/b" }];
export const v2: SessionState = sessionReducer(undefined, {
  type: "batch",
  actions: [
    { type: "part", part: { type: "data", name: "plan", id: "p", data: { days: ["Sat"] }, metadata: { rev: 1 } } },
    { type: "part", part: { type: "data", name: "plan", id: "p", patch } },
    { type: "part", part: { type: "message-metadata", metadata: { usage: { outputTokens: 3 } } } },
    { type: "part", part: { type: "snapshot", messages: empty.messages, exact: true } },
    { type: "part", part: { type: "agent-state", snapshot: { step: 1 } }, within: "call-0" },
    { type: "batch", actions: [{ type: "part", part: { type: "text-delta", text: "", metadata: { k: 1 } } }] },
  ],
});
export const sharedState = v2.agentState;

export function dataLabel(part: AgentPart): string {
  return part.type === "data" ? `${part.name} ${part.id ?? ""} ${JSON.stringify(part.data)}` : "";
}

// @ts-expect-error a JSON Patch operation needs a known op
export const badPatch: JsonPatch = [{ op: "merge", path: "/a", value: 1 }];

// Storage: any Web Storage, or the app's own.
const memory = new Map<string, string>();
const storage: SessionStorageLike = {
  getItem: (key) => memory.get(key) ?? null,
  setItem: (key, value) => void memory.set(key, value),
  removeItem: (key) => void memory.delete(key),
};
saveSession("k", v2, storage);
export const failure: SessionReducerError | undefined = persistSession("k", v2, storage);
export const failureCode: string | undefined = failure?.code;
export const restored: SessionState = restoreSession("k", storage);

// What the package throws, as an app handles it: an Error with a code and maybe a path.
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, path, message } = error as SessionReducerError;
  const known: "invalid" | "internal" | "unavailable" | "quota" | "corrupt" | "version" | "conflict" = code;
  return path === undefined ? `${known}: ${message}` : `${known} at ${path}: ${message}`;
}

// @ts-expect-error "network" is a stream error's code, not one of the package's own errors
export const notAnErrorCode: SessionReducerError["code"] = "network";

// v3 branches: the actions, forks and the "< i/n >" control.
const edited: SessionState = sessionReducer(empty, { type: "edit", messageId: "u-1", id: "u-2", text: "Again" });
export const regenerated: SessionState = sessionReducer(edited, { type: "regenerate" });
export const switched: SessionState = sessionReducer(edited, { type: "switchBranch", after: null, to: 0 });
export const firstFork: Fork | undefined = edited.forks?.[0];
export const setAside: Branch | null | undefined = firstFork?.alternatives[0];
export const control: BranchAt | undefined = branchAt(edited, 1);
export const label: string = control === undefined ? "" : `< ${control.active + 1} / ${control.count} >`;
// @ts-expect-error switchBranch's `to` is a number
export const badSwitch: SessionAction = { type: "switchBranch", after: null, to: "1" };
// @ts-expect-error a fork's `after` is a string or null, never absent
export const badFork: Fork = { active: 0, alternatives: [null, { messages: [] }] };
// v3: the queue, send with parts and metadata, load, steps.
const attachment: UserPart = { type: "data", name: "file", data: { mediaType: "image/png", url: "data:," } };
export const withAttachment: SessionState = sessionReducer(empty, {
  type: "send",
  id: "u-2",
  text: "What is this?",
  parts: [attachment, { type: "text", text: "(a photo)" }],
  metadata: { via: "drop" },
});
export const queuedIds: string[] = (withAttachment.queue ?? []).map((queued: QueuedMessage) => queued.id);
export const firstQueuedParts: UserPart[] | undefined = withAttachment.queue?.[0]?.parts;
export const unqueued: SessionState = sessionReducer(withAttachment, { type: "unqueue", id: "u-2" });
export const loaded: SessionState = asReactReducer(empty, { type: "load", state: withAttachment });
export const stepParts: AgentStreamPart[] = [{ type: "step-start" }, { type: "step-reset", messageId: "a-1" }];
export const stepPart: StepPart = { type: "step" };
export const aStep: AgentPart = stepPart;

export function isStep(part: AgentPart): boolean {
  return part.type === "step";
}

// @ts-expect-error only text and data parts go with a send
sessionReducer(empty, { type: "send", id: "u-3", text: "hi", parts: [{ type: "tool", id: "c", name: "n", input: {}, state: "running" }] });

// @ts-expect-error unqueue names the queued message by id
sessionReducer(empty, { type: "unqueue" });

// @ts-expect-error load takes a whole state
sessionReducer(empty, { type: "load", state: { messages: [] } });

// @ts-expect-error a queued message has a text
export const queuedWithoutText: QueuedMessage = { id: "q-1" };

// v4: prepend, older history put in front.
export const older: SessionState = sessionReducer(loaded, {
  type: "prepend",
  messages: [{ id: "u-0", role: "user", parts: [{ type: "text", text: "earlier" }] }],
  forks: [{ after: "u-0", active: 1, alternatives: [{ messages: [] }, null] }],
});
export const olderWithoutForks: SessionAction = { type: "prepend", messages: older.messages };

// @ts-expect-error prepend takes the messages of older history
sessionReducer(empty, { type: "prepend" });

// @ts-expect-error prepended messages are whole messages
sessionReducer(empty, { type: "prepend", messages: [{ id: "u-0" }] });
