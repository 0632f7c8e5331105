// chat-session-reducer/chat-stream: the NDJSON ChatStreamEvent frames of a chat turn
// (`POST /api/chat`: start, delta, tool, thinking, plan, state, queue, compaction, retry, done, error).
import type { SessionAction } from "chat-session-reducer";
import type { ProtocolDescriptor, ProtocolRequest, ProtocolWire, ResumeRequest, StreamSource } from "../stream-source.js";

export type { ProtocolDescriptor, ProtocolRequest, ProtocolWire, ResumeRequest, StreamSource };

/** One frame (`ChatStreamEvent`). */
export interface ChatStreamFrameLike {
  type: string;
  [field: string]: unknown;
}

/**
 * Translates one turn's frames (create one per turn). It remembers the assistant message the
 * turn writes to (from `start`, then each frame's `messageId`), because `delta`, `thinking` and
 * `tool` frames may leave it out. Never throws: unknown frames give `[]`; `state`, `queue`,
 * `compaction` and `retry` frames describe the agent's activity, not the conversation, and
 * give `[]` (read them from the frame for an activity label).
 */
export type ChatStreamTranslator = (frame: ChatStreamFrameLike | unknown) => SessionAction[];

export function createChatStreamTranslator(): ChatStreamTranslator;

/**
 * One JSON value per line (blank lines skipped). A line that is not JSON throws an Error with
 * `code: "invalid_json"` and `path: "stream[N]"` (N counts the non-blank lines from 0); a
 * Response that is not ok throws `code: "http"` with its `status`. Breaking out of the loop
 * cancels the body.
 */
export function readNdjson(source: StreamSource): AsyncIterable<unknown>;

/**
 * The ChatStreamEvent frames as `useAgentSession` (`protocol: "chat-stream"`) and
 * chat-session-reducer/testing speak them: the body is `{ id, messages, trigger?, messageId? }`, one frame a line. It
 * cannot reconnect to a run.
 */
export const chatStreamProtocol: ProtocolDescriptor;

/**
 * This package's own NDJSON, one `SessionAction` a line, as `useAgentSession` (`protocol:
 * "actions"`, its default) and chat-session-reducer/testing speak it: the body is `{ id, messages, trigger?, messageId? }`,
 * and a line that is not a "part" or "toolPhase" action is bad input (`frame.type`). It cannot
 * reconnect to a run.
 */
export const actionsProtocol: ProtocolDescriptor;
