// chat-session-reducer/ag-ui: AG-UI 1.0 events in, RunAgentInput messages and resume entries out.
// The protocol's shapes are declared structurally here: this package does not depend on @ag-ui/*.
import type { AgentMessage, DataMap, JsonValue, SessionAction, SessionState, ToolMap } from "chat-session-reducer";
import type { ProtocolDescriptor, ProtocolRequest, ProtocolWire, ResumeRequest, StreamSource } from "../stream-source.js";

export type { ProtocolDescriptor, ProtocolRequest, ProtocolWire, ResumeRequest, StreamSource };

/** One AG-UI event (`BaseEvent` of `@ag-ui/core` 1.0 fits it). */
export interface AgUiEventLike {
  type: string;
  [field: string]: unknown;
}

/**
 * Translates one stream's events (create one per stream; a stream may carry several runs). It
 * remembers only what the events leave implicit: which call a sub-agent's events belong to, the
 * entity an id-less `*_CHUNK` event continues, who opened each streamed entity, what the run
 * has open, and the last assistant message (for `RUN_FINISHED`'s usage).
 */
export type AgUiTranslator = (event: AgUiEventLike | unknown) => SessionAction[];

/** `Tools` and `Data`: the session's tool and data maps. */
export interface AgUiTranslatorOptions<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> {
  /**
   * The messages the session holds when the stream starts (`state.messages`). With them,
   * `RUN_STARTED.input.messages` the session does not hold are added before the run's events
   * (one `snapshot`), and `ACTIVITY_SNAPSHOT` with `replace: false` leaves a held message of
   * its id as it is. Without them, `input.messages` are not added: the translator cannot tell
   * which the session holds, and the input's copy of a held message would replace it.
   */
  messages?: readonly AgentMessage<Tools, Data>[];
  /**
   * The stream replays what the session may already hold (a reconnect to an active run, which
   * sends the run's events from its start, or a `MESSAGES_SNAPSHOT` then them): the first
   * `TEXT_MESSAGE_START`, `REASONING_MESSAGE_START` or `TOOL_CALL_START` naming a message (its
   * `messageId`, a call's `parentMessageId`, or the call's own id when it has none) empties that
   * message, so its replayed content replaces what was held instead of doubling it; later
   * events append. Leave it off for a stream that resumes where the last one stopped (an
   * offset): there nothing is sent twice.
   */
  replay?: boolean;
}

/**
 * A translator for all 31 AG-UI 1.0 event types, and the retired `THINKING_*` ones (as
 * reasoning). It never throws: unknown events give `[]`, and every action it returns is one the
 * reducer accepts (a `STATE_DELTA` or `ACTIVITY_DELTA` patch loses the operations of an unknown
 * `op`, and one that is not then an RFC 6902 patch is dropped).
 *
 * A `RUN_STARTED` after a finished or failed run gives `continue` (the next run's events apply),
 * and so does a `RUN_ERROR` after a finished run (the failure lands). `MESSAGES_SNAPSHOT` is the
 * conversation: an exact `snapshot`. A stream the protocol says must fail ends the run in an
 * `error` part saying why, keeping what arrived, and the rest of the stream is ignored:
 * `RUN_FINISHED` while a text or reasoning message, a tool call or a sub-agent is still open, or
 * with an `outcome` that is not an object or two interrupts of one id; a `*_CHUNK` continuation
 * changing its opener's `toolCallName`, `parentMessageId` or `role`; a `TOOL_CALL_START`
 * renaming a call; an event whose `subagentRunId` is not that of its message's or call's opener
 * (an event without one belongs to the opener's sub-agent).
 */
export function createAgUiTranslator<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  options?: AgUiTranslatorOptions<Tools, Data>,
): AgUiTranslator;

/**
 * The events of an AG-UI SSE stream (`data: <json>` events). An event that is not JSON throws
 * an Error with `code: "invalid_json"` and `path: "stream[N]"`; a Response that is not ok throws
 * `code: "http"` with its `status`. Breaking out of the loop cancels the body.
 */
export function readAgUiStream(source: StreamSource): AsyncIterable<unknown>;

/**
 * AG-UI over server-sent events as `useAgentSession` (`protocol: "ag-ui"`), its resume (POST
 * `{api}/connect` with the thread's RunAgentInput, CopilotKit's shape) and
 * chat-session-reducer/testing speak it: the body is a RunAgentInput, and a response may carry
 * several runs.
 */
export const agUiProtocol: ProtocolDescriptor<AgUiTranslatorOptions> & { readonly resume: NonNullable<ProtocolWire["resume"]> };

export type AgUiContentPart =
  | { type: "text"; text: string; [field: string]: unknown }
  | { type: "image" | "audio" | "video" | "document"; source: { type: string; value: string; [field: string]: unknown }; [field: string]: unknown };

export interface AgUiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  encryptedValue?: string;
  metadata?: { [key: string]: JsonValue };
}

/** An AG-UI `Message` (roles user, assistant, tool, reasoning, activity, system, developer). */
export type AgUiMessageLike =
  | { id: string; role: "user"; content: string | AgUiContentPart[]; metadata?: { [key: string]: JsonValue }; [field: string]: unknown }
  | { id: string; role: "assistant"; content?: string; toolCalls?: AgUiToolCall[]; metadata?: { [key: string]: JsonValue }; [field: string]: unknown }
  | { id: string; role: "tool"; toolCallId: string; content: string | AgUiContentPart[]; error?: string; [field: string]: unknown }
  | { id: string; role: "reasoning"; content: string; encryptedValue?: string; [field: string]: unknown }
  | { id: string; role: "activity"; activityType: string; content: { [key: string]: JsonValue }; [field: string]: unknown }
  | { id: string; role: "system" | "developer"; content: string; [field: string]: unknown };

/**
 * AG-UI messages (a `MESSAGES_SNAPSHOT`, a stored thread) as session messages: a user's media
 * part is a `"file"` data part when `toAgUiInput` would write it back unchanged (else a data part
 * named after its type, holding the rest of it), each tool
 * message is folded into its call (`done`, or `error` with its `error`), a reasoning message
 * becomes an assistant message with a reasoning part, an activity one with a data part;
 * system and developer messages are left out. Entries that are not messages are skipped. The
 * tool and data maps are the caller's word for what the messages hold.
 */
export function fromAgUiMessages<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  messages: readonly (AgUiMessageLike | unknown)[],
): AgentMessage<Tools, Data>[];

export interface AgUiResumeEntry {
  interruptId: string;
  status: "resolved" | "cancelled";
  payload?: JsonValue;
}

export interface ToAgUiInputOptions {
  /**
   * The interrupts to answer (the ids of the last `RUN_FINISHED`'s interrupt outcome). By
   * default, the last run's: the interrupt calls after the conversation's last text, reasoning
   * or data part (user messages aside), except those the server has answered since.
   */
  interruptIds?: readonly string[];
}

/**
 * `RunAgentInput`'s `messages` (a user message's text as one string, or, when it holds
 * attachments, content parts: each `"file"` data part as an image, audio, video or document part
 * by its media type, the bytes of a base64 `data:` URL inline, any other URL as a URL source, the
 * filename under the part's `metadata.filename`; calls with their `arguments` as JSON text, tool
 * messages with their results) and `resume` (one entry per open interrupt: `resolved` with the answer as
 * payload, `cancelled` when it was refused, cancelled or left unanswered).
 */
export function toAgUiInput<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  state: SessionState<Tools, Data>,
  options?: ToAgUiInputOptions,
): { messages: AgUiMessageLike[]; resume: AgUiResumeEntry[] };
