// The request side of chat-session-reducer/server (request.js): for the lead to paste into
// src/server/index.d.ts, or to re-export from it.
import type { AgentMessage, DataMap, SessionAction, SessionState, ToolMap } from "chat-session-reducer";
import type { AgUiMessageLike, AgUiResumeEntry } from "chat-session-reducer/ag-ui";
import type { UIMessageLike } from "chat-session-reducer/ai-sdk";

/** The protocols a request body can be in. */
export type ServerProtocol = "ai-sdk" | "ag-ui" | "actions" | "chat-stream";

/** What is wrong with a request, as the server answers it (as JSON, with `status`). */
export interface RequestError {
  /** "invalid" (400: the body, a message or the id is malformed) or "conflict" (409: a stale view). */
  code: "invalid" | "conflict";
  /** For people, starting with `path`. */
  message: string;
  /** Where in the request: `body.id`, `body.threadId`, `body.messages[3].parts`, … */
  path: string;
}

/** The client's operation, applied to the stored state. */
export interface AppliedRequest<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> {
  ok: true;
  /** The conversation's id (AI SDK and the package's own bodies: `id`; AG-UI: `threadId`). */
  id: string;
  /** The stored state after the client's operation: the state the run starts from, equal (as
   *  JSON) to the client's own. */
  state: SessionState<Tools, Data>;
  /** The actions applied to the stored state, in order (branch switches first). */
  actions: SessionAction<Tools, Data>[];
  /** What started the run, as the AI SDK names it: a retry or a regenerate, or anything else. */
  trigger: "submit-message" | "regenerate-message";
}

/** A request refused: nothing was applied. */
export interface RefusedRequest<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> {
  ok: false;
  status: 400 | 409;
  error: RequestError;
  /** With a 409: the stored state, for the client to load. */
  state?: SessionState<Tools, Data>;
}

export interface ApplyRequestOptions {
  /** The most messages a body may hold (default 10,000). */
  maxMessages?: number;
}

/**
 * What the client did, applied to the stored state: the operation (send, several queued messages
 * sent as one turn, edit, regenerate, retry, an approval or a tool's answer then continue,
 * continue) found by comparing the body's messages with the stored active path, following the
 * stored branches the client switched to. `stored` undefined (a first request): the body's history
 * is loaded, then the operation. Throws a coded TypeError (`path: "protocolName"`) for an unknown
 * protocol, a programming error of the app's.
 */
export function applyRequest<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  protocolName: ServerProtocol,
  body: unknown,
  stored: SessionState<Tools, Data> | undefined,
  options?: ApplyRequestOptions,
): AppliedRequest<Tools, Data> | RefusedRequest<Tools, Data>;

/** The refusal of a conversation id (1 to 200 characters, no "/", "\\", "..", control
 *  characters) naming `path` (default "id"), or undefined when it is a good one. */
export function checkConversationId(id: unknown, path?: string): RefusedRequest | undefined;

/** The conversation id a body of the protocol carries (unchecked: see checkConversationId). */
export function conversationIdOf(protocolName: ServerProtocol, body: unknown): unknown;

/** What the model is given for `state`: the active path in the protocol's message form. */
export function modelInput(protocolName: "ai-sdk", state: SessionState): UIMessageLike[];
/** AG-UI: a `RunAgentInput`'s `threadId` (the `id` given), `messages`, `resume` and `state` (the agent's). */
export function modelInput(
  protocolName: "ag-ui",
  state: SessionState,
  options?: { id?: string },
): { threadId: string | undefined; messages: AgUiMessageLike[]; resume: AgUiResumeEntry[]; state: unknown };
export function modelInput<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  protocolName: "actions" | "chat-stream",
  state: SessionState<Tools, Data>,
): AgentMessage<Tools, Data>[];
/** Any protocol (a server that serves several): one of the above. */
export function modelInput(protocolName: ServerProtocol, state: SessionState, options?: { id?: string }): unknown;
