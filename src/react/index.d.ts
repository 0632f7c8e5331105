// useAgentSession: a chat connected to an agent endpoint (chat-session-reducer/react), the React
// binding of the session controller (chat-session-reducer/session), whose types it re-exports.
import type { DataMap, ToolMap } from "chat-session-reducer";
import type { AgentSession, UseAgentSessionOptions } from "chat-session-reducer/session";

export type {
  AgentError,
  AgentProtocol,
  AgentSession,
  ApproveOptions,
  DataStreamPart,
  SendOptions,
  UseAgentSessionOptions,
} from "chat-session-reducer/session";

/**
 * A chat connected to an agent endpoint. `Tools` (a `ToolMap`) and `Data` (a `DataMap`) type
 * the session by the conversation's tools and data parts: a tool part narrows by `name` to its
 * tool's input and output and by `state` to the fields that state has.
 */
export function useAgentSession<Tools extends ToolMap = ToolMap, Data extends DataMap = DataMap>(
  options: UseAgentSessionOptions<Tools, Data>,
): AgentSession<Tools, Data>;
