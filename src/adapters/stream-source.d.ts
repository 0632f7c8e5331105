// What the adapters' stream readers read, declared structurally so that the types need neither
// the DOM library nor Node's: a fetch Response (its body is read), its body, or any async
// iterable of byte or text chunks (a Node stream, a test's generator); and the descriptor of a
// protocol, which each adapter exports.
import type { SessionAction, SessionState } from "chat-session-reducer";


/** The reader of a byte stream, as a ReadableStream's default reader is (whose last read's
 *  `value` is `undefined`, hence `| undefined` under `exactOptionalPropertyTypes`). */
export interface ByteStreamReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

/** A ReadableStream of bytes. */
export interface ByteStreamLike {
  getReader(): ByteStreamReaderLike;
}

/** A fetch Response: a status, and a body to read. */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly body: ByteStreamLike | null;
}

export type StreamSource = ResponseLike | ByteStreamLike | AsyncIterable<Uint8Array | string>;

/** What a protocol's descriptor builds a run's request body from. */
export interface ProtocolRequest {
  /** The session the run starts from. */
  session: SessionState;
  /** The conversation's id. */
  chatId: string;
  /** A new id for the run. */
  runId: string;
  /** What started the run, for a protocol whose servers read it (the AI SDK's `trigger`, `messageId`). */
  startedBy?: { trigger: string; messageId?: string };
}

/** How a client asks the server to replay a run it is still producing (the server answers 204 when none is). */
export interface ResumeRequest {
  url: string;
  /** "GET" or "POST". */
  method: string;
  /** Sent as JSON. */
  body?: unknown;
}

/** What a client needs of a protocol before its adapter is loaded. */
export interface ProtocolWire {
  /** The name `useAgentSession`'s `protocol` option and `mockEndpoint` take. */
  readonly name: string;
  /** The media type of its responses. */
  readonly contentType: string;
  /** The `accept` header of its requests. */
  readonly accept: string;
  /** The request that reconnects to a run of the conversation `id` at `api`; absent: it cannot reconnect. */
  readonly resume?: (request: { api: string; id: string; body: () => unknown }) => ResumeRequest;
}

/**
 * A wire protocol, as `useAgentSession`, its resume and chat-session-reducer/testing speak it:
 * each adapter exports one. `Options` are its translator's options (the hook gives
 * `onTransientData` and `replay`).
 */
export interface ProtocolDescriptor<Options = { replay?: boolean }> extends ProtocolWire {
  /** The headers of a server's response. */
  readonly headers: Readonly<Record<string, string>>;
  /** The request body a run sends by default. */
  body(request: ProtocolRequest): unknown;
  /** The frames of a response. */
  read(source: StreamSource): AsyncIterable<unknown>;
  /** A translator of one response's frames into actions (a fresh one per response). */
  translator(options?: Options): (frame: unknown) => SessionAction[];
  /** Whether one response may carry several runs (an AG-UI connect replays the thread's). */
  readonly severalRuns: boolean;
  /** A frame as a server writes it. */
  write(frame: unknown): string;
  /** What a server writes after the last frame ("" for nothing). */
  readonly end: string;
  /** A frame given as its JSON text, as a server writes it (the server's run log keeps the text). */
  writeJson(json: string): string;
  /** The frame chat-session-reducer/server appends when the model's stream fails. */
  failedFrame(message: string): unknown;
  /** The frame chat-session-reducer/server appends for those following a run the user stopped. */
  readonly stoppedFrame: unknown;
}
