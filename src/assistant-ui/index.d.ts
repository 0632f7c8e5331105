// chat-session-reducer/assistant-ui: an assistant-ui runtime (useExternalStoreRuntime) over a session.
import type { AssistantRuntime, ExternalStoreAdapter, ExternalStoreThreadListAdapter, ToolCallMessagePartProps } from "@assistant-ui/react";
import type { DataMap, ToolInput, ToolMap, ToolName, ToolOutput } from "chat-session-reducer";
import type { Conversations } from "chat-session-reducer/conversations";
import type { AgentSessionController, UseAgentSessionOptions } from "chat-session-reducer/session";

/** What the runtime takes beside the session: assistant-ui's own adapters, as useExternalStoreRuntime takes them. */
export type AgentSessionRuntimeExtras = Pick<ExternalStoreAdapter, "adapters" | "suggestions" | "isDisabled" | "isSendDisabled" | "unstable_capabilities">;

/**
 * An assistant-ui runtime for `AssistantRuntimeProvider`: `given` is useAgentSession's options
 * (the runtime makes the session) or a session controller (`createAgentSession` of
 * `chat-session-reducer/session`), the same kind for the component's whole life. Branches come
 * from the session's `forks`, sends while a reply streams are queued by the session, and every
 * callback (send, edit, reload, cancel, tool results, approvals, resume) is a session action.
 */
export function useAgentSessionRuntime<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  given: UseAgentSessionOptions<Tools, Data> | AgentSessionController<Tools, Data>,
  extras?: AgentSessionRuntimeExtras,
): AssistantRuntime;

/**
 * The props assistant-ui gives a tool UI (`makeAssistantToolUI`'s `render`) for a call of the
 * tool `Name` of the map: `args` its input, `result` its output.
 */
export type AgentToolCallProps<Tools extends ToolMap, Name extends ToolName<Tools>> = ToolCallMessagePartProps<
  ToolInput<Tools, Name> extends Record<string, unknown> ? ToolInput<Tools, Name> : Record<string, unknown>,
  ToolOutput<Tools, Name>
>;

export interface ConversationsThreadListOptions {
  /** The store of conversations (`createConversations()`), the same one the session has as `conversations`. */
  conversations: Conversations;
  /** The conversation shown (the session's `id`). */
  id: string;
  /** Shows conversation `id` (a new one: the store's new id); the app passes it to the session as `id`. */
  onSwitch: (id: string) => void;
}

/** The custom marks of a thread of the list (each thread's `custom`). */
export interface ConversationMarks {
  status: "streaming" | "idle" | "error";
  unread: boolean;
  waiting: boolean;
}

/**
 * assistant-ui's thread list (`adapters.threadList`) over a store of conversations: new, switch,
 * delete, and each thread's `custom` as `ConversationMarks`.
 */
export function useConversationsThreadList(options: ConversationsThreadListOptions): ExternalStoreThreadListAdapter;
