// chat-session-reducer/testing: a scripted agent endpoint for tests of a chat UI.
import type { ResponseLike } from "../stream-source.js";

/** The wire protocols the endpoint frames replies in: those `useAgentSession` speaks. */
export type TestProtocol = "actions" | "ai-sdk" | "ag-ui" | "chat-stream";

/** A frame of the protocol: an action, an AI SDK chunk, an AG-UI event or a chat-stream frame. */
export interface ScriptFrame {
  type: string;
  [field: string]: unknown;
}

/** A pause before the next step, in milliseconds. */
export interface WaitStep {
  wait: number;
}
/** The connection drops: reading the body fails with `TypeError("network error")`. */
export interface DropStep {
  drop: true;
}
/** Text sent unframed: a malformed frame, or half of one. */
export interface RawStep {
  raw: string;
}
export type ScriptStep = ScriptFrame | WaitStep | DropStep | RawStep;

/** An HTTP answer instead of a stream: the status, and a body (a string is sent as text, anything else as JSON). */
export interface HttpReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A reply the test writes as it runs; frames written before the request arrives wait for it. */
export interface LiveReply {
  write(frame: ScriptFrame): void;
  raw(text: string): void;
  /** Finishes the reply (the AI SDK protocol then sends `[DONE]`). */
  end(): void;
  /** Drops the connection. */
  drop(): void;
}

/** One reply of a script. */
export type ScriptedReply = ScriptStep[] | HttpReply | LiveReply;

/** A request the endpoint received; `body` is parsed when it is JSON. */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

export interface MockEndpoint {
  /** Every request so far, in order. */
  readonly requests: RecordedRequest[];
  /** A `fetch` stand-in: where the app fetches a URL (`globalThis.fetch`, or a test's own). */
  fetch(input: string | URL | { url: string }, init?: RequestInit): Promise<Response>;
  /** The function form of `useAgentSession`'s `api` option. */
  api(body: unknown, signal: AbortSignal): Promise<Response>;
}

export interface MockEndpointOptions {
  /** A pause before each frame after the first, in milliseconds (default 0). */
  delay?: number;
}

/** Makes the reply to a request (`index` counts requests from 0). */
export type ReplyMaker = (request: RecordedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

/**
 * An endpoint that answers request N with `replies[N]`, framed for `protocol` (a request past the
 * script rejects). A reply may also be a function of the request that returns one, and `replies`
 * itself such a function, called for every request.
 */
export function mockEndpoint(
  protocol: TestProtocol,
  replies: (ScriptedReply | ReplyMaker)[] | ReplyMaker,
  options?: MockEndpointOptions,
): MockEndpoint;

export function wait(ms: number): WaitStep;
export function drop(): DropStep;
export function raw(text: string): RawStep;
export function liveReply(): LiveReply;

export interface RecordOptions {
  /** Keep the pauses between frames as `wait` steps (default false). */
  timing?: boolean;
}

/** A real response as a scripted reply: its frames (and `drop()` if it dropped), or `{ status, body }` for an HTTP error. */
export function recordResponse(
  response: ResponseLike & { text(): Promise<string> },
  protocol: TestProtocol,
  options?: RecordOptions,
): Promise<ScriptStep[] | HttpReply>;
