// One agent run: POST the conversation to /api/chat and dispatch each NDJSON frame it streams
// back, after checking it. Every way a run can go wrong becomes an error in the session, shown
// by the page with Retry; an abort (Stop, Reset, leaving the page) is not an error.

import type { AgentMessage, SessionAction, SessionErrorCode } from "chat-session-reducer";
import { endsRun, parseFrame, runFailed } from "./frames";

type Dispatch = (action: SessionAction) => void;

export async function streamRun(messages: AgentMessage[], dispatch: Dispatch, signal: AbortSignal): Promise<void> {
  try {
    const response = await fetch("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages }),
      signal,
    });
    if (!response.ok || response.body === null) {
      dispatch(runFailed(await describeRefusal(response), codeForStatus(response.status)));
      return;
    }
    let lineNumber = 0;
    for await (const line of lines(response.body)) {
      lineNumber += 1;
      const frame = parseFrame(line, lineNumber);
      if (!frame.ok) {
        dispatch(runFailed(`The agent sent a malformed frame, so this reply was stopped: ${frame.problem}`));
        return;
      }
      dispatch(frame.action);
      if (endsRun(frame.action)) return;
    }
    dispatch(runFailed("The connection closed before the reply was finished.", "network"));
  } catch (error) {
    if (signal.aborted) return;
    dispatch(runFailed(`Couldn't reach the agent: ${(error as Error).message}`, "network"));
  }
}

/** The non-empty lines of an NDJSON body; leaving the loop early cancels the body. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const complete = buffered.split("\n");
      buffered = complete.pop() ?? "";
      for (const line of complete) if (line.trim() !== "") yield line;
    }
    buffered += decoder.decode();
    if (buffered.trim() !== "") yield buffered;
  } finally {
    // A body that failed or was aborted rejects here again; the caller has already seen why.
    await reader.cancel().catch(() => {});
  }
}

async function describeRefusal(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  const reason = typeof body?.error === "string" ? body.error : response.statusText;
  return `The agent refused the request (HTTP ${response.status}): ${reason}`;
}

function codeForStatus(status: number): SessionErrorCode {
  if (status === 429) return "rate_limited";
  if (status === 403) return "chat_disabled";
  if (status >= 400 && status < 500) return "bad_request";
  return "network";
}
