// useAgentSession for Vue 3 (chat-session-reducer/vue).
import type { ComputedRef, MaybeRefOrGetter } from "vue";
import type { DataMap, ToolMap } from "chat-session-reducer";
import type { AgentSession, UseAgentSessionOptions } from "chat-session-reducer/session";

// The types the signature names; the others (AgentError, SendOptions, …) are the session's.
export type { AgentSession, UseAgentSessionOptions };

/** The session's fields (`id`, `state`, `messages`, `status`, …): what is not an action. */
export type AgentSessionField<Session = AgentSession> = {
  [Name in keyof Session]: Session[Name] extends (...args: never[]) => unknown ? never : Name;
}[keyof Session];

/** What `useAgentSession` returns: the session's fields as read-only refs, its actions as functions. */
export type AgentSessionRefs<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> = {
  readonly [Field in AgentSessionField<AgentSession<Tools, Data>>]: ComputedRef<AgentSession<Tools, Data>[Field]>;
} & Omit<AgentSession<Tools, Data>, AgentSessionField<AgentSession<Tools, Data>>>;

/**
 * A chat connected to an agent endpoint, for a component's `setup`: the React hook's options
 * (an object, a ref, or a getter whose reactive reads are watched) and its returns, the fields as
 * read-only refs holding the reducer's own objects (not deep-reactive). Started when the
 * component mounts, stopped when it unmounts.
 */
export function useAgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  options: MaybeRefOrGetter<UseAgentSessionOptions<Tools, Data>>,
): AgentSessionRefs<Tools, Data>;
