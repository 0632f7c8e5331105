// chat-session-reducer/server: runs folded on the server with the client's own reducer, stored
// conversations, resume and stop routes, web-standard handlers and a Node adapter.
import type { AgentMessage, Fork, SessionState, ToolMap } from "chat-session-reducer";

/** The protocols the server speaks. */
export type ServerProtocol = "ai-sdk" | "ag-ui" | "actions" | "chat-stream";

/** What a store says of a conversation in a thread list. */
export interface ConversationSummary {
  id: string;
  title: string;
  status: SessionState["status"];
  /** ISO 8601. */
  updatedAt: string;
}

export interface StoredConversation<Tools extends ToolMap = ToolMap> extends ConversationSummary {
  owner: string;
  state: SessionState<Tools>;
}

/** A page of a conversation's path (issue 34): its messages in order, the forks that belong to it
 *  (the one whose alternatives follow its first message as `after: null`), and the cursor of the
 *  next older page (the id of its first message; null at the conversation's start). */
export interface ConversationPage {
  messages: AgentMessage[];
  forks?: Fork[];
  older: string | null;
}

/** Where conversations are kept: rows per message, one transaction per save. */
export interface SessionStore {
  load(owner: string, id: string): Promise<StoredConversation | undefined>;
  /** Writes what changed since `previous` (the state last saved or loaded), in one transaction. */
  save(owner: string, id: string, state: SessionState, previous?: SessionState, meta?: { title?: string }): Promise<void>;
  /**
   * Optional (issue 34): the page of `limit` messages before `before` (the newest when absent) on the
   * conversation's path, reading only the page; `page` undefined when `before` names no message of
   * the path; `undefined` when there is no such conversation. Without it, the server loads the
   * whole conversation and pages it in memory.
   */
  page?(owner: string, id: string, paging: { before?: string; limit: number }): Promise<{ state: SessionState; page: ConversationPage | undefined } | undefined>;
  /** Newest first. */
  list(owner: string, options?: { limit?: number }): Promise<ConversationSummary[]>;
  delete(owner: string, id: string): Promise<boolean>;
  /** The conversations stored while a reply streamed (a restart interrupts them). */
  streaming(): Promise<Array<{ owner: string; id: string }>>;
  close(): Promise<void>;
}

/** Each run's frames with their offsets; in the process by default. */
export interface RunLog {
  /** A new run; `opening` (its protocol and start state) is kept with it where the log is shared. */
  start(key: string, runId: string, opening?: { protocol: string; start: unknown }): void | Promise<void>;
  append(runId: string, json: string): number | Promise<number>;
  end(key: string, runId: string): void | Promise<void>;
  newest(key: string): { id: string; length: number; ended: boolean } | undefined | Promise<{ id: string; length: number; ended: boolean } | undefined>;
  slice(runId: string, from: number, to: number): string[] | Promise<string[]>;
  follow(runId: string, from: number, signal?: AbortSignal): AsyncGenerator<string, void, undefined>;
  /** Ends a run another instance wrote and can no longer end (it died): `json` after its last frame, then the end. */
  abandon?(key: string, runId: string, json: string): Promise<void>;
  /** This instance no longer writes the run (another took it over): its followers here read the rest, the taker's end, from the shared log. */
  handOver?(runId: string): void;
  /** The run's opening as `start` was given it (several instances: another folds a dead run from it). */
  opening?(runId: string): Promise<{ protocol: string; start: unknown } | undefined>;
  /** Keeps a Stop the run's instance may not carry out (it died), and gives it back. */
  stopAt?(runId: string, offset: number): Promise<void>;
  stopOf?(runId: string): Promise<number | undefined>;
  /** The conversation was deleted: it has no newest run any more. */
  forget?(key: string): void | Promise<void>;
  /** The runs not ended, of any instance, that started over `ageMs` ago (another finds a dead instance's run the store never had). */
  unended?(ageMs: number): Promise<Array<{ key: string; runId: string }>>;
  /** The run is no longer one `unended` gives (it ended, or its conversation was deleted). */
  unlist?(key: string, runId: string): Promise<void>;
}

/** A channel between instances: a command sent reaches the instance that can carry it out. */
export interface RunControl {
  listen(handle: (command: any) => Promise<boolean>): void;
  send(command: unknown): Promise<boolean>;
  close?(): Promise<void>;
}

/** Leases on conversations' runs, renewed by the instance running them. */
export interface RunLeases {
  readonly leaseMs: number;
  /** `lost()` is called if another instance takes the lease while the run goes on. */
  acquire(key: string, lost?: () => void): Promise<{ release(): Promise<void> } | undefined>;
  held(key: string): Promise<boolean>;
  /** Takes over the lease of a run judged dead before it is ended elsewhere (true when taken): were it alive after all, its next renewal finds it lost. */
  takeOver?(key: string): Promise<boolean>;
  close?(): Promise<void>;
}

/** Options of the Redis run log and control: a Redis URL, or a node-redis client of the app's (left open by `close`). */
export interface RedisOptions {
  url?: string;
  client?: unknown;
  onError?(error: unknown): void;
}

/** What the app's `run` is given to call its model. */
export interface RunContext<Tools extends ToolMap = ToolMap> {
  /** The conversation's id (the client's). */
  id: string;
  /** Who it belongs to (what `authorize` returned). */
  owner: string;
  /**
   * The model's input: the active path in the protocol's message form (`UIMessage[]` for
   * "ai-sdk", AG-UI's `{ messages, resume }` for "ag-ui", the session's messages otherwise). A
   * question without its answer is not sent as an unanswered call.
   */
  messages: any;
  /** The conversation's state at the run's start (after what the user did). */
  state: SessionState<Tools>;
  /** The request body as the client sent it. */
  body: Record<string, unknown>;
  request: Request;
  /** Aborted when the user stops the run (or a newer run supersedes it), never by a closed connection. */
  signal: AbortSignal;
}

/**
 * The model's stream: a ReadableStream or async iterable of the protocol's frames (AI SDK
 * `UIMessageChunk`s, e.g. `streamText(...).toUIMessageStream()`; AG-UI events; SessionActions),
 * or a Response / byte stream in the protocol's framing (a proxied agent).
 */
export type ModelStream = ReadableStream<unknown> | AsyncIterable<unknown> | Iterable<unknown> | Response;

/** What `authorize` answers: the owner, the owner and headers to add (a Set-Cookie), or null/undefined to refuse (401). */
export type Authorization = string | { owner: string; headers?: Record<string, string> } | null | undefined;

export interface ChatServerOptions<Tools extends ToolMap = ToolMap> {
  protocol: ServerProtocol;
  /** Calls the model for a run. */
  run(context: RunContext<Tools>): ModelStream | Promise<ModelStream>;
  /** The app's session or token check. */
  authorize(request: Request): Authorization | Promise<Authorization>;
  /** Where conversations are kept (default: `createPgliteStore()`, in memory: give it a `dataDir` to keep them). */
  store?: SessionStore;
  /** A shared run log (several instances: `createRedisRunLog`); the process's own by default. */
  log?: RunLog;
  /** Several instances: how a stop (or a newer run) reaches the instance holding the run (`createRedisControl`). */
  control?: RunControl;
  /** Several instances: a lease per conversation's run (`createRedisLeases`); a run whose lease ran out is stored interrupted by another. */
  leases?: RunLeases;
  /** How often, with `leases`, conversations stored streaming are checked for a run whose instance died (default: the lease's time). */
  checkAbandonedMs?: number;
  /** The chat routes' base path (default "/api/chat"): POST {api}, POST {api}/stop, GET {api}/{id}/stream, POST {api}/connect. */
  api?: string;
  /** The thread list's base path (default "/api/conversations"): GET, GET /{id}, DELETE /{id}. */
  conversations?: string;
  /** Default 1,000,000 bytes: a larger body is answered 413. */
  maxBodyBytes?: number;
  /** How often a streaming conversation is saved at most (default 250 ms). */
  saveEveryMs?: number;
  /** How long a run that ended is held in memory for a late Stop (default 60,000 ms); the store has it after. */
  keepEndedMs?: number;
  /** A store that failed, a model stream that threw, a route that failed: the app's to log. */
  onError?(error: unknown): void;
  /** What the user reads when the model's stream throws (default: a sentence that says nothing of the server). */
  errorMessage?(error: unknown): string;
}

export interface ChatServer {
  /** Every route, by path: a web handler for Next.js, Hono, Bun, Deno. */
  fetch(request: Request): Promise<Response>;
  /** POST {api}: a user's operation, then the run's stream. */
  chat(request: Request): Promise<Response>;
  /** GET {api}/{id}/stream (id given) or POST {api}/connect: the newest run from where the client is, or 204. */
  resume(request: Request, id?: string): Promise<Response>;
  /** POST {api}/stop: the run cut where the client stopped (its `chat-run-offset`), stored so. */
  stop(request: Request): Promise<Response>;
  conversations: {
    list(request: Request): Promise<Response>;
    read(request: Request, id: string): Promise<Response>;
    delete(request: Request, id: string): Promise<Response>;
  };
  /** Resolves once every run in flight has ended and its state is written. */
  idle(): Promise<void>;
  /** A graceful shutdown: the sweep for runs whose instance died (`leases`) stops, every run in flight ends as interrupted (followers get the same end the store folds); resolves once all is written. */
  close(): Promise<void>;
}

export function createChatServer<Tools extends ToolMap = ToolMap>(options: ChatServerOptions<Tools>): ChatServer;

/** The headers by which a client names the run it follows (`chat-run-id`) and how many of its frames it applied (`chat-run-offset`). */
export const RUN_HEADERS: { readonly id: "chat-run-id"; readonly offset: "chat-run-offset" };

/** The process's own run log; an ended run stays readable for `keepEndedMs` (default 10 minutes). */
export function createMemoryRunLog(options?: { keepEndedMs?: number }): RunLog;

/** The run log on Redis (several instances): each run a Redis Stream of at most `maxLength` frames (100,000), kept `ttlSeconds` (600) after it ended. */
export function createRedisRunLog(options: RedisOptions & { maxLength?: number; ttlSeconds?: number; prefix?: string }): RunLog & { close(): Promise<void> };

/** The control channel on Redis pub/sub: a stop received by one instance is carried out by the one holding the run; `send` waits at most `answerWithinMs` (2,000). */
export function createRedisControl(options: RedisOptions & { channel?: string; answerWithinMs?: number }): RunControl & { ready: Promise<void>; close(): Promise<void> };

/** Leases on Redis (SET NX PX, renewed every third of `leaseMs`, 5,000 by default): an instance that dies loses its runs' leases within `leaseMs`. */
export function createRedisLeases(options: RedisOptions & { leaseMs?: number; prefix?: string }): RunLeases & { close(): Promise<void> };

/** A Node `(req, res)` listener (Express too) from a web handler. */
export function toNodeHandler(handler: (request: Request) => Promise<Response>): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;

/** An `authorize` that gives each browser an anonymous owner in a signed, HttpOnly, SameSite cookie; a forged or tampered cookie is refused. */
export function ownerCookie(options: { secret: string; name?: string; maxAgeSeconds?: number; secure?: boolean }): (request: Request) => Promise<Authorization>;

/** The error part's text of a run a restart interrupted. */
export const INTERRUPTED: string;

// The stores (src/server/store/index.d.ts re-exports these for its own folder).
export interface PgliteStoreOptions {
  /** The data directory; in memory when absent. */
  dataDir?: string;
  /** An open PGlite (`@electric-sql/pglite`) to use instead; the app closes it. */
  pglite?: unknown;
}

export interface PostgresStoreOptions {
  /** `postgresql://user:password@host:port/database`; pg's PGHOST, PGUSER… variables when absent. */
  connectionString?: string;
  /** A `pg` Pool to use instead; the app ends it. */
  pool?: unknown;
  /** The pool's size when the store makes it. Default 10. */
  max?: number;
}

/**
 * The embedded store: PostgreSQL in WebAssembly (install `@electric-sql/pglite`), opened on first
 * use. Saves write the changed message rows only, in one transaction; a failure rejects with
 * `code: "store"` and writes nothing.
 */
export function createPgliteStore(options?: PgliteStoreOptions): SessionStore;

/** The store on a PostgreSQL server (install `pg`), the same schema and queries; connects on first use. */
export function createPostgresStore(options?: PostgresStoreOptions): SessionStore;

/** The schema version this release writes (chat_schema's row "chat-session-reducer"). */
export const SCHEMA_VERSION: number;

// The session's message type, for an app that reads stored conversations.
export type { AgentMessage };
