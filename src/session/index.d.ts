// createAgentSession: a chat connected to an agent endpoint, for any framework (chat-session-reducer/session).
import type {
  AgentMessage,
  AgentStreamPart,
  DataMap,
  DataPart,
  JsonValue,
  QueuedMessage,
  SessionAction,
  SessionError,
  SessionReducerError,
  SessionState,
  SessionStore,
  ToolInput,
  ToolMap,
  ToolOutput,
  ToolError,
  ToolPart,
  UserPart,
} from "chat-session-reducer";
import type { Conversations } from "chat-session-reducer/conversations";
import type { TabCoordination } from "chat-session-reducer/tabs";

/** The wire protocol of the endpoint. */
export type AgentProtocol =
  /** This package's NDJSON: one `part` or `toolPhase` action a line; the body is `{ id, messages, trigger, messageId? }`. */
  | "actions"
  /** The Vercel AI SDK UI message stream (SSE); the body is useChat's `{ id, messages: UIMessage[], trigger, messageId? }`. */
  | "ai-sdk"
  /** AG-UI events over SSE; the body is a `RunAgentInput` (messages, resume for interrupts). */
  | "ag-ui"
  /** NDJSON `ChatStreamEvent` frames of a chat turn; the body is `{ id, messages, trigger, messageId? }`. */
  | "chat-stream";

/**
 * The hook's options. `Tools` and `Data` (the conversation's tool and data maps, as
 * `useAgentSession<Tools, Data>` got them) type the session and the parts the callbacks get.
 */
export interface UseAgentSessionOptions<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> {
  /**
   * The endpoint: a URL the hook POSTs the request body to as JSON, or a function that sends the
   * body itself and returns the response (it must honour `signal`: Stop, Reset and unmounting
   * abort it).
   */
  api: string | URL | ((body: unknown, signal: AbortSignal) => Promise<Response>);
  /** The wire protocol of the response. Default `"actions"`. */
  protocol?: AgentProtocol;
  /**
   * The request body. Gets the session at the start of the run and the protocol's default body
   * (see `AgentProtocol`), and returns what to send.
   */
  body?: (session: SessionState<Tools, Data>, defaultBody: unknown) => unknown;
  /** Extra request headers (with a URL `api`), or a function called for each request. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /**
   * Older history on demand (chat-session-reducer/server's conversations route, e.g.
   * `"/api/conversations"`): a conversation opened with nothing held starts with its newest page
   * (`GET {history}/{id}?limit=50`), and `loadOlder()` puts the 50 messages before the oldest one
   * held in front (`?before=…`). What was loaded is stored as the rest of the conversation is.
   */
  history?: string | URL;
  /** With `history`: the messages a page holds, from 1 to 1000 (the server's bound); default 50. */
  historyPageSize?: number;
  /** Where the conversation is kept; no key: nothing is stored. With `conversations`, ignored: the store's key for `id`. */
  storageKey?: string;
  /** Any object with the Web Storage methods (default `sessionStorage`), or a session store such as
   *  `indexedDBStore()` of `chat-session-reducer/indexeddb` (restored once it answers, after hydration). */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | SessionStore;
  /**
   * Several tabs on one conversation: `coordinateTabs()` of `chat-session-reducer/tabs`, with a
   * storage the tabs share (`storage: localStorage`): one request per run (the other tabs follow it
   * live and forward what their user does to the tab that streams), a save never overwrites a
   * newer one (storageError `conflict`, the newer shown), a run left by a closed tab resumed or
   * stopped. Nothing with sessionStorage (each tab's own), nor with `conversations` (refused). Read when `storageKey` or `storage` changes.
   */
  tabs?: TabCoordination;
  /**
   * How often the streamed actions are applied: `"frame"` (default) once per animation frame, or
   * every so many milliseconds, each time as one `batch` action (one render).
   */
  throttle?: "frame" | number;
  /**
   * The conversation's id: the AI SDK body's `id`, AG-UI's `threadId`. Default: a new id for each
   * conversation (at mount, after `reset`), kept with it in storage. Changing it opens another
   * conversation: the one stored under `storageKey` if it has this id, else the initial one; the
   * running reply is aborted (with `conversations`, it goes on in the background).
   */
  id?: string;
  /** The conversation shown when nothing is stored (and after `reset`); loaded as `load` loads a state. */
  initialState?: SessionState<Tools, Data>;
  /** The same as `initialState: { messages: initialMessages, status: "idle" }`; `initialState` wins. */
  initialMessages?: AgentMessage<Tools, Data>[];
  /**
   * Called once for each call that waits on the app for its result (`waitsOnApp` says
   * `"result"`: a client-side tool, once the run that made it finished). What it returns (or
   * resolves to) is the call's result, what it throws (or rejects with) the call's error;
   * `undefined`: the app answers later with `answer()`. The agent goes on once no call waits. A
   * call that needs approval is never given to it: it waits for the user, and once approved it is
   * the agent's to run. The call is `running` (its input complete): narrow `toolCall.name` to read its input.
   */
  onToolCall?: (event: {
    toolCall: Extract<ToolPart<Tools, Data>, { state: "running" }>;
  }) => ToolOutput<Tools> | undefined | void | PromiseLike<ToolOutput<Tools> | undefined | void>;
  /**
   * Called after each run ended (finished, failed, stopped, or replaced by an edit, a regenerate
   * or the queued turn; not one aborted because another conversation was opened), with the
   * session then and its last assistant message.
   */
  onFinish?: (event: { state: SessionState<Tools, Data>; message: AgentMessage<Tools, Data> | undefined; id: string }) => void;
  /** Called when a run ended in error, with the hook's `error` and the conversation's `id`. */
  onError?: (error: AgentError, event: { id: string }) => void;
  /**
   * Called with each `data` stream part as it arrives, before it is applied: the AI SDK's
   * transient ones (`transient: true`, never stored) and the others (stored as data parts).
   */
  onData?: (part: DataStreamPart<Data> | (DataStreamPart<Data> & { transient: true })) => void;
  /**
   * Resume a reply instead of cutting it, where the protocol can (`"ai-sdk"`: `GET {api}/{id}/stream`,
   * AI SDK 7's; `"ag-ui"`: `POST {api}/connect` with the `RunAgentInput`) and `api` is a URL: a
   * connection that drops mid-reply reconnects, and a conversation stored while it streamed (a
   * reload) is restored still streaming and reconnects. The server answers 204 when no run is
   * active (then a reload applies `stop` and a drop fails as without `resume`), else replays the
   * run from its start; each message is started over as the replay names it, so nothing doubles.
   * `{id}` is the conversation's (the `id` option, else the one kept with it in storage). Default `false`.
   */
  resume?: boolean;
  /**
   * With `resume`: how a broken connection is reconnected. The first reconnect goes at once, then
   * the pause doubles from `delayMs` (default 250) up to 16 times it (4 s); while the browser is
   * offline (`navigator.onLine` false) it waits for the `online` event instead. It gives up (a
   * drop fails with `network`, a reload stops the reply) once `budgetMs` (default 60,000) passed
   * without a frame from any connection of the run; a response that sends nothing for `stallMs`
   * (default 30,000) is a drop. `budgetMs` and `stallMs` may be `Infinity` (never). Meanwhile the
   * hook's `status` is `"reconnecting"`.
   */
  reconnect?: { budgetMs?: number; stallMs?: number; delayMs?: number };
  /**
   * With `resume`, closing the connection is only a disconnect: the server goes on producing. Stop,
   * Reset, and an edit or regenerate while a reply streams POST the run's request body to this URL,
   * so the server stops the run (as the AI SDK's resume guide asks of a stop endpoint).
   */
  stopApi?: string | URL;
  /**
   * A store of conversations (`createConversations()` of `chat-session-reducer/conversations`), with
   * `id` the one shown (required then): the conversation is kept under the store's key for its id,
   * and opening another (or unmounting) while a reply streams lets that reply finish in the background, stored,
   * with the callbacks of the options then; reopened, it is taken back live (no request repeated).
   */
  conversations?: Conversations;
}

/** A `data` stream part, as `onData` gets it, typed by the data map. */
export type DataStreamPart<Data extends DataMap = DataMap> = Extract<AgentStreamPart<ToolMap, Data>, { type: "data" }>;

/**
 * Why the last run failed: the session's `SessionError` (`message` for people, `code`) and,
 * while it is the current run's, the details: the HTTP `status` and the `body` the server sent
 * (a refusal), or the `cause` (the network error's own message).
 */
export interface AgentError extends SessionError {
  status?: number;
  body?: string;
  cause?: string;
}

/** How a call is approved; `Tools` types the edited input and the answer as the tools' own. */
export interface ApproveOptions<Tools extends ToolMap = ToolMap> {
  /** The call's input as the user edited it (approved with edits). */
  input?: ToolInput<Tools>;
  /** The user's answer as the call's result: the call ends `done` (a question, an interrupt). */
  output?: ToolOutput<Tools>;
  reason?: string;
}

export interface SendOptions<Data extends DataMap = DataMap> {
  /** Parts sent after the text: attachments (a `data` part named `"file"`), sources, app data. */
  parts?: UserPart<Data>[];
  metadata?: JsonValue;
}

/** What `useAgentSession<Tools, Data>` returns: the session typed by its tool and data maps. */
export interface AgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> {
  /** The conversation's id (the `id` option, or the hook's own). */
  id: string;
  /** The whole session: `messages` (the active path), `status`, `error`, `forks`, `queue`. */
  state: SessionState<Tools, Data>;
  messages: AgentMessage<Tools, Data>[];
  /** The session's status, `"submitted"` while it streams a run whose reply has not begun to arrive, and
   *  `"reconnecting"` while the run's connection broke and the hook reconnects (`resume`, `reconnect`). */
  status: SessionState["status"] | "submitted" | "reconnecting";
  /** Why the last run failed; `retry()` sends it again, `clearError()` dismisses it. */
  error: AgentError | undefined;
  /** The messages sent while a reply streamed, in order (`state.queue`, or an empty array). */
  queue: readonly QueuedMessage<Data>[];
  /** With `history`: whether older messages may be on the server (until a page says there are none). */
  hasOlder: boolean;
  /** With `history`: loads the next older page and puts it in front (resolved once applied; one page
   *  at a time: a call while one loads gets that one). Without `history`, or nothing older: resolved at once. */
  loadOlder(): Promise<void>;
  /** Why the conversation is not being saved (storage full, blocked, or unreadable; with `tabs`,
   *  `conflict`: another tab stored a newer one, revision `rev`, which is shown); else undefined. */
  storageError: SessionReducerError | undefined;
  /**
   * Appends a user message and starts a run. While a reply streams, the message is queued
   * instead, and sent (with the rest of the queue, as one turn) when the run finishes.
   */
  send(text: string, options?: SendOptions<Data>): void;
  /**
   * Replaces the user message `messageId` and what follows it with a new user message, keeping
   * them as a branch to switch back to, and starts a run (aborting the request in flight).
   */
  edit(messageId: string, text: string): void;
  /**
   * Sets aside the reply (the last one, or the assistant message `messageId`) as a branch and
   * starts a run for a new one (aborting the request in flight).
   */
  regenerate(messageId?: string): void;
  /** Shows alternative `to` of the fork after message `after` (`branchAt` gives both); ignored while streaming. */
  switchBranch(after: string | null, to: number): void;
  /** Removes the queued message `id`. */
  unqueue(id: string): void;
  /** Aborts the request; running and waiting calls end cancelled. */
  stop(): void;
  /** Starts the run again from what `resumable(messages)` keeps. */
  retry(): void;
  /** Starts a run without a new user message. */
  continue(): void;
  /** Approves a call that awaits confirmation; the agent goes on once no call waits. */
  approve(callId: string, options?: ApproveOptions<Tools>): void;
  /** Refuses a call that awaits confirmation (it ends `error`, code `denied`); the agent goes on. */
  deny(callId: string, reason?: string): void;
  /** Answers a client-side tool call (its result) or a question (its approval's answer). */
  answer(callId: string, output: ToolOutput<Tools>): void;
  /** Answers a client-side tool call with an error (it ends `error`, or `cancelled` for code `"cancelled"`); the agent goes on once no call waits. */
  fail(callId: string, error: ToolError): void;
  /** Aborts the request and starts a new conversation: the initial one (`initialState`, `initialMessages`), a new id. */
  reset(): void;
  /** Makes `state` the session (SPEC v3 `load`: a streaming one is loaded with `stop` applied, aborting the request). */
  load(state: SessionState<Tools, Data>): void;
  /** Replaces the messages (`load` of the session with them; its branches go); a reply in flight is stopped. */
  setMessages(messages: AgentMessage<Tools, Data>[] | ((messages: AgentMessage<Tools, Data>[]) => AgentMessage<Tools, Data>[])): void;
  /** Dismisses the error: status `idle`, the messages as they are (nothing is sent). */
  clearError(): void;
  /** Any other action; a malformed one throws here, in the caller, never in render. */
  dispatch(action: SessionAction<Tools, Data>): void;
}

/** The options of `createAgentSession` (and of `useAgentSession`, the Vue and Svelte bindings). */
export type AgentSessionOptions<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> = UseAgentSessionOptions<Tools, Data>;

/**
 * A session controller: everything a chat binding needs but rendering. `getSnapshot()` is what
 * `useAgentSession` returns, the same object while nothing changed; the first `subscribe` starts
 * it (opens the stored conversation, connects the tabs, resumes a run), the last unsubscribe
 * stops it (the run is aborted, or goes on in `options.conversations`).
 */
export interface AgentSessionController<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>
  extends Omit<AgentSession<Tools, Data>, "id" | "state" | "messages" | "status" | "error" | "queue" | "storageError"> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): AgentSession<Tools, Data>;
  /** The snapshot before anything stored was opened: what a server renders, and hydration. */
  getServerSnapshot(): AgentSession<Tools, Data>;
  /** The newest options: the callbacks are read from them; a new `storageKey`, `storage` or `id` opens that conversation. */
  setOptions(options: AgentSessionOptions<Tools, Data>): void;
}

/** A session controller for `options`; throws a coded `TypeError` (`code: "invalid"`, `path`) for a wrong option. */
export function createAgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  options: AgentSessionOptions<Tools, Data>,
): AgentSessionController<Tools, Data>;

/** Throws the coded `TypeError` `createAgentSession` would throw for `options`. */
export function checkOptions(options: AgentSessionOptions): void;
