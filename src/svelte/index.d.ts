// useAgentSession for Svelte 5 (chat-session-reducer/svelte).
import type { DataMap, ToolMap } from "chat-session-reducer";
import type { AgentSession, UseAgentSessionOptions } from "chat-session-reducer/session";

// The types the signature names; the others (AgentError, SendOptions, …) are the session's.
export type { AgentSession, UseAgentSessionOptions };

/** What `useAgentSession` returns: the session's fields as reactive getters, its actions, and `setOptions`. */
export type ReactiveAgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap> = Readonly<AgentSession<Tools, Data>> & {
  /** The newest options (as the React hook's next render gives them); another `storageKey`, `storage` or `id` opens that conversation. */
  setOptions(options: UseAgentSessionOptions<Tools, Data>): void;
};

/**
 * A chat connected to an agent endpoint, for Svelte 5: the React hook's options and returns, its
 * fields reactive getters (`chat.messages`: the reducer's own objects, not `$state` proxies; read
 * them from the object, as destructuring reads them once). Started once a field is read in an
 * effect (a template, `$derived`, `$effect`), stopped when none reads one; never on the server.
 */
export function useAgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  options: UseAgentSessionOptions<Tools, Data>,
): ReactiveAgentSession<Tools, Data>;
