// Approve / Deny of a tool call that awaits confirmation. The page applies the user's decision
// to the session at once (Approve: the call runs again; Deny: it ends cancelled), then tells the
// agent, whose stream stays open meanwhile: POST /api/chat/decision { callId, approved }.
// The agent never echoes the decision back as a frame; if it did, the reducer would ignore it
// (a toolPhase that changes nothing, a tool-error for a call that is no longer open).

import type { SessionAction, ToolPart } from "chat-session-reducer";

export async function decide(call: ToolPart, approved: boolean, dispatch: (action: SessionAction) => void): Promise<void> {
  dispatch(
    approved
      ? { type: "toolPhase", name: call.name, state: "running" }
      : { type: "part", part: { type: "tool-error", id: call.id, error: { message: "Denied by the user.", code: "cancelled" } } },
  );
  try {
    const response = await fetch("/api/chat/decision", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ callId: call.id, approved }),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    const message = `Couldn't send your decision to the agent (${(error as Error).message}).`;
    dispatch({ type: "part", part: { type: "error", error: message, code: "network" } });
  }
}
