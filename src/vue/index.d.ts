// useAgentSession for Vue 3 (chat-session-reducer/vue).
import type { ComputedRef, MaybeRefOrGetter } from "vue";
import type { DataMap, ToolMap } from "chat-session-reducer";
import type { AgentSession, UseAgentSessionOptions } from "chat-session-reducer/react";

export type { AgentSession, UseAgentSessionOptions };

/** The fields of the session that change; the composable returns each as a read-only ref. */
export type AgentSessionField = "id" | "state" | "messages" | "status" | "error" | "queue" | "storageError";

/** What `useAgentSession` returns: the session's fields as refs, its actions as functions. */
export type AgentSessionRefs<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> = {
  readonly [Field in AgentSessionField]: ComputedRef<AgentSession<Tools, Data>[Field]>;
} & Omit<AgentSession<Tools, Data>, AgentSessionField>;

/**
 * A chat connected to an agent endpoint, for a component's `setup`: the React hook's options
 * (an object, a ref, or a getter whose reactive reads are watched) and its returns, the fields as
 * read-only refs holding the reducer's own objects (not deep-reactive). Started when the
 * component mounts, stopped when it unmounts.
 */
export function useAgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  options: MaybeRefOrGetter<UseAgentSessionOptions<Tools, Data>>,
): AgentSessionRefs<Tools, Data>;
