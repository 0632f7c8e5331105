// The entry's own declarations, the package's index.d.ts (with the storage helpers' after them):
// the types generic over a tool map and a data map, built on wasm-bindgen's (tsify's types of
// the Rust model, which the build writes beside it as bindgen.d.ts), and the functions that
// take or make them. Every type wasm-bindgen declares is re-exported as it is, but those that
// hold messages, tool parts or data parts, which are declared here under the same names.

import type * as Wasm from "./bindgen.js";
// SessionReducerError: for the storage helpers' declarations, appended to this file.
import type { JsonValue, SessionReducerError, ToolError, ToolState } from "./bindgen.js";

export * from "./bindgen.js";

/**
 * The tools a conversation calls, by name: each one's `input` and `output`, e.g.
 * `{ deleteFile: { input: { path: string }; output: { ok: boolean } } }` (a type alias: an
 * interface has no index signature). The map is the app's word for what its agent sends: the
 * reducer checks a part's shape, not its tool's input or output. Without one (`ToolMap` itself,
 * the default), names are strings and inputs and outputs `JsonValue`s.
 */
export type ToolMap = Record<string, { input: unknown; output: unknown }>;

/**
 * The `data` parts' payloads by part name, e.g. `{ weather: { city: string; temp: number } }`.
 * A map typed by name adds the AI SDK's sources and files (`BuiltInData`). Without one
 * (`DataMap` itself, the default), names are strings and payloads `JsonValue`s.
 */
export type DataMap = Record<string, unknown>;

/** A `"source-url"` data part's `data` (the AI SDK's `source-url`; its `sourceId` is the part's `id`). */
export type SourceUrlData = {
  url: string;
  title?: string;
};
/** A `"source-document"` data part's `data` (the AI SDK's `source-document`; its `sourceId` is the part's `id`). */
export type SourceDocumentData = {
  mediaType: string;
  title: string;
  filename?: string;
};
/** A `"file"` (or `"reasoning-file"`) data part's `data`: an attachment `send` sends, or a file the agent streamed. */
export type FileData = {
  mediaType: string;
  url: string;
  filename?: string;
};
/** The data parts the AI SDK adapter makes of sources and files, in every map typed by name. */
export type BuiltInData = {
  "source-url": SourceUrlData;
  "source-document": SourceDocumentData;
  file: FileData;
  "reasoning-file": FileData;
};

/** A map without names of its own (`ToolMap`, `DataMap`): its payloads are `JsonValue`s. */
type Unnamed<Map> = string extends keyof Map ? true : false;
/** A type's members as one object type (for editors' hovers; documentation kept). */
type Flat<T> = { [K in keyof T]: T[K] };
/** `T`, but no type argument is inferred from it (TypeScript 5.4's `NoInfer`, for earlier versions too). */
type NotInferred<T> = [T][T extends unknown ? 0 : never];

/** The tools' names. */
export type ToolName<Tools extends ToolMap = ToolMap> = Extract<keyof Tools, string>;
/** What a call of the tool `Name` gets. */
export type ToolInput<Tools extends ToolMap = ToolMap, Name extends ToolName<Tools> = ToolName<Tools>> =
  Unnamed<Tools> extends true ? JsonValue : Tools[Name]["input"];
/** What a call of the tool `Name` gives. */
export type ToolOutput<Tools extends ToolMap = ToolMap, Name extends ToolName<Tools> = ToolName<Tools>> =
  Unnamed<Tools> extends true ? JsonValue : Tools[Name]["output"];

/** The data payloads by name: the map's and the built-in ones (a name in the map wins). */
type DataPayloads<Data extends DataMap> = Unnamed<Data> extends true ? Data : Omit<BuiltInData, keyof Data> & Data;
/** The data parts' names. */
export type DataName<Data extends DataMap = DataMap> = Extract<keyof DataPayloads<Data>, string>;
/** The `data` of the data parts named `Name`. */
export type DataOf<Data extends DataMap = DataMap, Name extends DataName<Data> = DataName<Data>> =
  Unnamed<Data> extends true ? JsonValue : DataPayloads<Data>[Name];

/**
 * What a call holds in each state, by SPEC "Stream parts": `input` is `null` while it streams,
 * and stays `null` when the streamed input was not JSON (`error`) or never ended (`cancelled`);
 * `output` is the result once `done` (before, a streaming tool's progress); `error` is why it
 * failed once `error`, and may say why it was cancelled.
 */
interface ToolStateFields<Input, Output> {
  "input-streaming": { input: null; inputText: string; output?: Output; error?: undefined };
  running: { input: Input; inputText?: string; output?: Output; error?: undefined };
  "awaiting-confirmation": { input: Input; inputText?: string; output?: Output; error?: undefined };
  done: { input: Input; inputText?: string; output: Output; error?: undefined };
  error: { input: Input | null; inputText?: string; output?: Output; error: ToolError };
  cancelled: { input: Input | null; inputText?: string; output?: Output; error?: ToolError };
}

/** One call of the tool `Name` in the state `State`. */
type ToolCall<Tools extends ToolMap, Data extends DataMap, Name extends ToolName<Tools>, State extends ToolState> = Flat<
  Omit<Wasm.ToolPart, "name" | "state" | "input" | "inputText" | "output" | "error" | "agent"> & {
    /** The tool's name. */
    name: Name;
    /** Where the call is in its life: it says which of `input`, `output` and `error` it has. */
    state: State;
    /** A sub-agent's run behind this call. */
    agent?: SessionState<Tools, Data>;
  } & ToolStateFields<ToolInput<Tools, Name>, ToolOutput<Tools, Name>>[State]
>;

/**
 * SPEC "State": a `tool` part, one call of a tool, in the state its life has reached. A union
 * by `name` (with a tool map) and by `state`: narrowing `name` gives that tool's `input` and
 * `output`, narrowing `state` the fields the state has (`output` once `"done"`, `error` once
 * `"error"`). `Name` picks some tools' calls.
 */
export type ToolPart<
  Tools extends ToolMap = ToolMap,
  Data extends DataMap = DataMap,
  Name extends ToolName<Tools> = ToolName<Tools>,
> = { [N in Name]: { [S in ToolState]: ToolCall<Tools, Data, N, S> }[ToolState] }[Name];

/** SPEC "State": a `data` part; with a data map, a union by `name`, each with its `data`. */
export type DataPart<Data extends DataMap = DataMap, Name extends DataName<Data> = DataName<Data>> = {
  [N in Name]: Flat<
    Omit<Wasm.DataPart, "name" | "data"> & {
      /** What kind of data it is (an AI SDK `data-NAME`, a source or file, an AG-UI activity type). */
      name: N;
      /** The data itself. */
      data: DataOf<Data, N>;
    }
  >;
}[Name];

/** SPEC "State": a part of a message, by its `type`. */
export type AgentPart<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> =
  | Exclude<Wasm.AgentPart, { type: "tool" | "data" }>
  | ({ type: "tool" } & ToolPart<Tools, Data>)
  | ({ type: "data" } & DataPart<Data>);

/** A part a user message carries after its text (`send`'s `parts`, a queued message's): an
 *  attachment (a `data` part named `"file"`, `FileData`), sources or app data. */
export type UserPart<Data extends DataMap = DataMap> = ({ type: "text" } & Wasm.TextPart) | ({ type: "data" } & DataPart<Data>);

/** SPEC "State": a message of the conversation. */
export interface AgentMessage<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> extends Omit<Wasm.AgentMessage, "parts"> {
  /** What it holds, in order. */
  parts: AgentPart<Tools, Data>[];
}

/** A conversation, or a sub-agent's run behind a tool call. */
export interface SessionState<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>
  extends Omit<Wasm.SessionState, "messages" | "forks" | "queue"> {
  /** The run's messages, in order (the active path when it has forks). */
  messages: AgentMessage<Tools, Data>[];
  /** v3: the places on the active path (`messages`) that have alternatives, in path order; the top-level state's only. */
  forks?: Fork<Tools, Data>[];
  /** v3: messages sent while the run streamed, in order; absent, never empty. Only the top-level state has one. */
  queue?: QueuedMessage<Data>[];
}

/** v3: a message `send` queued while a run streamed, sent when the run finishes. */
export interface QueuedMessage<Data extends DataMap = DataMap> extends Omit<Wasm.QueuedMessage, "parts"> {
  /** Text and data parts sent with the text (attachments, sources, app data). */
  parts?: UserPart<Data>[];
}

/** v3: a place on a path that has alternatives. */
export interface Fork<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> extends Omit<Wasm.Fork, "alternatives"> {
  /** In creation order; null exactly at `active` (that one is live). */
  alternatives: (Branch<Tools, Data> | null)[];
}

/** v3: an alternative set aside: everything that followed its fork's `after` in it. */
export interface Branch<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> extends Omit<Wasm.Branch, "messages" | "forks"> {
  /** The messages of the alternative, from the one after the fork's `after` on. */
  messages: AgentMessage<Tools, Data>[];
  /** The forks inside this alternative, as `forks` holds them for the path. */
  forks?: Fork<Tools, Data>[];
}

/** The stream part, or action, of this `type`, with these fields in place of its own. */
type Retyped<Union, Type extends string, Fields> = Flat<Omit<Extract<Union, { type: Type }>, keyof Fields> & Fields>;
type TypedStreamParts = "tool-call" | "tool-result" | "tool-input-delta" | "tool-approval-request" | "tool-approval-response" | "data" | "snapshot";

/**
 * One part of what an adapter streams. With a tool map, a `tool-call` names one of its tools
 * and carries that tool's input; a result's output is one of the tools' outputs (its call id
 * names no tool). With a data map, a `data` part names one of its payloads.
 */
export type AgentStreamPart<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> =
  | Exclude<Wasm.AgentStreamPart, { type: TypedStreamParts }>
  | { [N in ToolName<Tools>]: Retyped<Wasm.AgentStreamPart, "tool-call", { name: N; input: ToolInput<Tools, N> }> }[ToolName<Tools>]
  | Retyped<Wasm.AgentStreamPart, "tool-result", { output: ToolOutput<Tools> }>
  | Retyped<Wasm.AgentStreamPart, "tool-input-delta", { name?: ToolName<Tools> }>
  | Retyped<Wasm.AgentStreamPart, "tool-approval-request", { name?: ToolName<Tools> }>
  | Retyped<Wasm.AgentStreamPart, "tool-approval-response", { input?: ToolInput<Tools>; output?: ToolOutput<Tools> }>
  | { [N in DataName<Data>]: Retyped<Wasm.AgentStreamPart, "data", { name: N; data?: DataOf<Data, N> }> }[DataName<Data>]
  | Retyped<Wasm.AgentStreamPart, "snapshot", { messages: AgentMessage<Tools, Data>[] }>;

/** SPEC "Actions": what the host dispatches to the reducer, by its `type`. */
export type SessionAction<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> =
  | Exclude<Wasm.SessionAction, { type: "send" | "part" | "toolPhase" | "batch" | "load" | "prepend" }>
  | Retyped<Wasm.SessionAction, "send", { parts?: UserPart<Data>[] }>
  | Retyped<Wasm.SessionAction, "part", { part: AgentStreamPart<Tools, Data> }>
  | Retyped<Wasm.SessionAction, "toolPhase", { name: ToolName<Tools> }>
  | { type: "batch"; actions: SessionAction<Tools, Data>[] }
  | Retyped<Wasm.SessionAction, "load", { state: SessionState<Tools, Data> }>
  | Retyped<Wasm.SessionAction, "prepend", { messages: AgentMessage<Tools, Data>[]; forks?: Fork<Tools, Data>[] }>;

/**
 * The next session state. Returns `state` itself when the action changes nothing; otherwise
 * a new state that shares every untouched message, part and nested object with `state`.
 * `undefined` is the empty session, and an action whose `type` is a string this version does
 * not know returns `state` (as Redux requires of a reducer). Throws a `TypeError` with
 * `code: "invalid"` and `path` when `state` or `action` is not of its type; nothing is
 * changed then. The state's tool and data maps type the state it returns; the action may be
 * typed by them or by none (an adapter's, a checked frame's: what streams is the server's word).
 */
export function sessionReducer<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  state: SessionState<Tools, Data> | undefined,
  action: NotInferred<SessionAction<Tools, Data>> | SessionAction,
): SessionState<Tools, Data>;

/**
 * Checks that a value (a frame from the network, say) is a `SessionAction` before it is
 * dispatched, and returns it. Throws what `sessionReducer` would throw for it: a `TypeError`
 * with `code: "invalid"` and the `path` of the first thing that is wrong; and, unlike
 * `sessionReducer`, for an action type this version does not know, in a batch too. It checks
 * the action's shape, not a tool map's names, inputs and outputs: the action is typed by none,
 * and `sessionReducer` takes it into a typed state.
 */
export function checkAction(value: unknown): SessionAction;

/**
 * What Retry sends: a new array, through the last finished call after the last user
 * message, else through that user message; `messages` unchanged when there is none.
 */
export function resumable<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  messages: AgentMessage<Tools, Data>[],
): AgentMessage<Tools, Data>[];

/** Where a UI draws "< active+1 / count >": the fork that `messages[index]` begins an alternative of. */
export interface BranchAt {
  /** The id of `messages[index - 1]`; null for index 0. */
  after: string | null;
  /** The index of the alternative the path shows. */
  active: number;
  /** How many alternatives the fork has. */
  count: number;
}

/**
 * The fork that `state.messages[index]` begins an alternative of, or `undefined` when it begins
 * none. `index` may be `messages.length`: the fork after the last message (a regenerate whose
 * reply has not begun). It reads `state.forks` in JavaScript, without a call into the module.
 */
export function branchAt<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  state: SessionState<Tools, Data>,
  index: number,
): BranchAt | undefined;

/**
 * Whether the tool part `part` of `state` waits on the app, for a UI to tell a call it must act
 * on from one the agent is working on: `"confirmation"`, a call awaiting the user's approval or
 * answer to a question (`approve`, `deny`, `answer`); `"result"`, a client-side tool whose result
 * the app must give (`running` after every run holding it stopped streaming, not approved, with
 * no sub-agent run); `undefined`, the agent is working on it, or it is done. It reads the state in
 * JavaScript, without a call into the module.
 */
export function waitsOnApp<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  state: SessionState<Tools, Data>,
  part: AgentPart<Tools, Data>,
): "confirmation" | "result" | undefined;
