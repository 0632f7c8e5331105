// Turns one NDJSON line from POST /api/chat into an action the page may dispatch, or says
// clearly why it cannot. Nothing from the network reaches useReducer unchecked: a reducer that
// throws inside React's render would take the whole page down.

import { checkAction } from "chat-session-reducer";
import type { SessionAction, SessionErrorCode } from "chat-session-reducer";

export type FrameResult = { ok: true; action: SessionAction } | { ok: false; problem: string };

/** The agent may only stream parts and tool phases; send, stop, retry and reset are the user's. */
const AGENT_ACTION_TYPES = new Set(["part", "toolPhase"]);

export function parseFrame(line: string, lineNumber: number): FrameResult {
  const where = `line ${lineNumber}`;
  let frame: unknown;
  try {
    frame = JSON.parse(line);
  } catch (error) {
    return { ok: false, problem: `${where} is not JSON (${(error as Error).message}).` };
  }
  const type = typeof frame === "object" && frame !== null ? (frame as { type?: unknown }).type : undefined;
  if (typeof type !== "string" || !AGENT_ACTION_TYPES.has(type)) {
    return { ok: false, problem: `${where} is not a "part" or "toolPhase" frame: ${preview(line)}` };
  }
  // The reducer's own check: an Error whose message starts with the offending path
  // ("action.part.id: expected a string").
  try {
    return { ok: true, action: checkAction(frame) };
  } catch (error) {
    return { ok: false, problem: `${where}: ${(error as Error).message}` };
  }
}

/** An error part: the session ends the run in error, cancels its open calls and offers Retry. */
export function runFailed(message: string, code?: SessionErrorCode): SessionAction {
  return { type: "part", part: code === undefined ? { type: "error", error: message } : { type: "error", error: message, code } };
}

/** True for the frames that end the top-level run (a nested finish or error ends only its sub-run). */
export function endsRun(action: SessionAction): boolean {
  return action.type === "part" && action.within === undefined && (action.part.type === "finish" || action.part.type === "error");
}

function preview(line: string): string {
  return line.length > 80 ? `${line.slice(0, 80)}…` : line;
}
