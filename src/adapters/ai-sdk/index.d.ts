// chat-session-reducer/ai-sdk: the Vercel AI SDK 7 UI message stream in, UIMessages out.
// The protocol's shapes are declared structurally here: this package does not depend on `ai`.
import type { AgentMessage, DataMap, JsonValue, SessionAction, ToolMap } from "chat-session-reducer";
import type { ProtocolDescriptor, ProtocolRequest, ProtocolWire, ResumeRequest, StreamSource } from "../stream-source.js";

export type { ProtocolDescriptor, ProtocolRequest, ProtocolWire, ResumeRequest, StreamSource };

/** One chunk of the UI message stream (`UIMessageChunk` of `ai` 7 fits it). */
export interface UIMessageChunkLike {
  type: string;
  [field: string]: unknown;
}

export interface FromAiSdkChunkOptions {
  /**
   * The stream replays a whole message (a resumed stream, `resumeStreamIsReplay`): its `start`
   * chunk first empties the message of that id, so text is not doubled. A `start` without
   * `messageId` cannot be keyed so: it fails the run (an `error` part saying so) instead.
   */
  replay?: boolean;
  /**
   * Receives each transient data part (`data-NAME` with `transient: true`) as
   * `{ type: "data", name, id?, data, transient: true }`; it gives no action either way (a
   * transient part is not conversation state).
   */
  onTransientData?: (part: { type: "data"; name: string; id?: string; data: JsonValue; transient: true }) => void;
}

/**
 * The actions for one chunk; dispatch them as `{ type: "batch", actions }`. Never throws: a
 * value that is not a chunk, or a chunk of an unknown type, gives `[]`. Typed by no tool map
 * (the chunk's tool names are the server's); `sessionReducer` takes them into a typed state.
 */
export function fromAiSdkChunk(chunk: UIMessageChunkLike | unknown, options?: FromAiSdkChunkOptions): SessionAction[];

/**
 * The chunks of a UI message stream (SSE `data:` events, up to `data: [DONE]`). An event that is
 * not JSON throws an Error with `code: "invalid_json"` and `path: "stream[N]"`; a Response that
 * is not ok throws `code: "http"` with its `status`. Breaking out of the loop cancels the body;
 * after `[DONE]` the rest of the body is read to its end, so the request ends as the server ends it.
 */
export function readAiSdkStream(source: StreamSource): AsyncIterable<unknown>;

/**
 * The UI message stream as `useAgentSession` (`protocol: "ai-sdk"`), its resume (GET
 * `{api}/{id}/stream`, as AI SDK 7's `useChat({ resume: true })`) and
 * chat-session-reducer/testing speak it: the body is useChat's (`id`, `messages`, `trigger`,
 * `messageId`), the frames `data:` events up to `data: [DONE]`.
 */
export const aiSdkProtocol: ProtocolDescriptor<FromAiSdkChunkOptions> & { readonly resume: NonNullable<ProtocolWire["resume"]> };

export type ProviderMetadataLike = { [provider: string]: { [key: string]: JsonValue } };

export interface UIToolApprovalLike {
  id: string;
  approved?: boolean;
  reason?: string;
  descriptor?: JsonValue;
  requestReason?: string;
  isAutomatic?: boolean;
  signature?: string;
  inputSchemaInput?: JsonValue;
}

/** A tool part (`tool-${name}`, or `dynamic-tool` with `toolName`) in one of the AI SDK's states. */
export interface UIToolPartLike {
  type: `tool-${string}` | "dynamic-tool";
  toolName?: string;
  toolCallId: string;
  state:
    | "input-available"
    | "approval-requested"
    | "approval-responded"
    | "output-available"
    | "output-error"
    | "output-denied";
  input: JsonValue;
  output?: JsonValue;
  errorText?: string;
  rawInput?: string;
  approval?: UIToolApprovalLike;
  title?: string;
  toolMetadata?: { [key: string]: JsonValue };
  providerExecuted?: boolean;
  callProviderMetadata?: ProviderMetadataLike;
  resultProviderMetadata?: ProviderMetadataLike;
}

export type UIMessagePartLike =
  | { type: "text"; text: string; providerMetadata?: ProviderMetadataLike; citations?: JsonValue[] }
  | { type: "reasoning"; text: string; providerMetadata?: ProviderMetadataLike }
  | { type: "step-start" }
  | { type: `data-${string}`; id?: string; data: JsonValue }
  | { type: "source-url"; sourceId?: string; url: string; title?: string; providerMetadata?: ProviderMetadataLike }
  | { type: "source-document"; sourceId?: string; mediaType: string; title: string; filename?: string; providerMetadata?: ProviderMetadataLike }
  | { type: "file" | "reasoning-file"; url: string; mediaType: string; filename?: string; providerMetadata?: ProviderMetadataLike }
  | { type: "custom"; kind: string; providerMetadata?: ProviderMetadataLike }
  | UIToolPartLike;

/** A `UIMessage` of `ai` 7, as `convertToModelMessages` and `validateUIMessages` accept it. */
export interface UIMessageLike {
  id: string;
  role: "user" | "assistant";
  metadata?: JsonValue;
  parts: UIMessagePartLike[];
}

/**
 * The messages as the body of the next request to an AI SDK server: provider metadata
 * (reasoning signatures), approvals and their answers; a denial as `output-denied` once the
 * conversation went on after it, and as `approval-responded` (approved: false) while it is the
 * user's answer the server has not seen (the last step of the last message), as useChat sends it; a
 * cancelled call, or one whose input was cut short, as `output-error` with its reason.
 */
export function toAiSdkMessages<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  messages: readonly AgentMessage<Tools, Data>[],
): UIMessageLike[];
