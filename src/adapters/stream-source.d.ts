// What the adapters' stream readers read, declared structurally so that the types need neither
// the DOM library nor Node's: a fetch Response (its body is read), its body, or any async
// iterable of byte or text chunks (a Node stream, a test's generator).

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
