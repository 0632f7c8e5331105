import { createContext } from "react";
import type { ToolPart } from "chat-session-reducer";

/** How a tool call's Approve / Deny reach the session: null while no run is live to hear them. */
export const DecisionContext = createContext<((call: ToolPart, approved: boolean) => void) | null>(null);
