// useAgentSession for Svelte 5 (chat-session-reducer/svelte).
import type { Readable } from "svelte/store";
import type { DataMap, ToolMap } from "chat-session-reducer";
import type { AgentSession, UseAgentSessionOptions } from "chat-session-reducer/react";

export type { AgentSession, UseAgentSessionOptions };

/** The fields of the session that change, which the store's value holds. */
export type AgentSessionField = "id" | "state" | "messages" | "status" | "error" | "queue" | "storageError";

/** What `useAgentSession` returns: a store of the session, with its actions. */
export type AgentSessionStore<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> = Readable<AgentSession<Tools, Data>> &
  Omit<AgentSession<Tools, Data>, AgentSessionField> & {
    /** The newest options (as the React hook's next render gives them); another `storageKey`, `storage` or `id` opens that conversation. */
    setOptions(options: UseAgentSessionOptions<Tools, Data>): void;
  };

/**
 * A chat connected to an agent endpoint: a readable store whose value is what the React hook
 * returns (`$chat.messages`, the reducer's own objects), the actions on the store (`chat.send`).
 * Started by its first subscriber, stopped after its last; on the server it never starts.
 */
export function useAgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  options: UseAgentSessionOptions<Tools, Data>,
): AgentSessionStore<Tools, Data>;
