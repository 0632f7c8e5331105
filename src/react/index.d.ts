// useAgentSession: a chat connected to an agent endpoint (chat-session-reducer/react).
import type { AgentMessage, JsonValue, QueuedMessage, SessionAction, SessionError, SessionState } from "chat-session-reducer";

/** The wire protocol of the endpoint. */
export type AgentProtocol =
  /** This package's NDJSON: one `part` or `toolPhase` action a line; the body is `{ messages }`. */
  | "actions"
  /** The Vercel AI SDK UI message stream (SSE); the body is `{ id, messages: UIMessage[] }`. */
  | "ai-sdk"
  /** AG-UI events over SSE; the body is a `RunAgentInput` (messages, resume for interrupts). */
  | "ag-ui"
  /** NDJSON `ChatStreamEvent` frames of a chat turn; the body is `{ messages }`. */
  | "chat-stream";

export interface UseAgentSessionOptions {
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
  body?: (session: SessionState, defaultBody: unknown) => unknown;
  /** Extra request headers (with a URL `api`), or a function called for each request. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Where the conversation is kept; no key: nothing is stored. */
  storageKey?: string;
  /** Any object with the Web Storage methods; default `sessionStorage`. */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  /**
   * How often the streamed actions are applied: `"frame"` (default) once per animation frame, or
   * every so many milliseconds, each time as one `batch` action (one render).
   */
  throttle?: "frame" | number;
  /**
   * Resume a reply instead of cutting it, where the protocol can (`"ai-sdk"`: `GET {api}/{id}/stream`,
   * AI SDK 7's; `"ag-ui"`: `POST {api}/connect` with the `RunAgentInput`) and `api` is a URL: a
   * connection that drops mid-reply reconnects, and a conversation stored while it streamed (a
   * reload) is restored still streaming and reconnects. The server answers 204 when no run is
   * active (then a reload applies `stop` and a drop fails as without `resume`), else replays the
   * run from its start; each message is started over as the replay names it, so nothing doubles.
   * `id` is the conversation's id (`storageKey` until the hook's `id` option). Default `false`.
   */
  resume?: boolean;
  /**
   * With `resume`, closing the connection is only a disconnect: the server goes on producing. Stop,
   * Reset, and an edit or regenerate while a reply streams POST the run's request body to this URL,
   * so the server stops the run (as the AI SDK's resume guide asks of a stop endpoint).
   */
  stopApi?: string | URL;
}

export interface ApproveOptions {
  /** The call's input as the user edited it (approved with edits). */
  input?: JsonValue;
  /** The user's answer as the call's result: the call ends `done` (a question, an interrupt). */
  output?: JsonValue;
  reason?: string;
}

export interface SendOptions {
  /** Parts sent after the text: attachments (a `data` part named `"file"`), sources, app data. */
  parts?: QueuedMessage["parts"];
  metadata?: JsonValue;
}

export interface AgentSession {
  /** The whole session: `messages` (the active path), `status`, `error`, `forks`, `queue`. */
  state: SessionState;
  messages: AgentMessage[];
  status: SessionState["status"];
  /** Why the last run failed; `retry()` sends it again. */
  error: SessionError | undefined;
  /** The messages sent while a reply streamed, in order (`state.queue`, or an empty array). */
  queue: readonly QueuedMessage[];
  /** Why the conversation is not being saved (storage full, blocked, or unreadable); else undefined. */
  storageError: (Error & { code: string }) | undefined;
  /**
   * Appends a user message and starts a run. While a reply streams, the message is queued
   * instead, and sent (with the rest of the queue, as one turn) when the run finishes.
   */
  send(text: string, options?: SendOptions): void;
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
  approve(callId: string, options?: ApproveOptions): void;
  /** Refuses a call that awaits confirmation (it ends `error`, code `denied`); the agent goes on. */
  deny(callId: string, reason?: string): void;
  /** Answers a client-side tool call (its result) or a question (its approval's answer). */
  answer(callId: string, output: JsonValue): void;
  /** Aborts the request and empties the conversation (and what is stored). */
  reset(): void;
  /** Any other action; a malformed one throws here, in the caller, never in render. */
  dispatch(action: SessionAction): void;
}

export function useAgentSession(options: UseAgentSessionOptions): AgentSession;
