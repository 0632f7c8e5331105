import { memo, useContext } from "react";
import { isCancelled } from "chat-session-reducer";
import type { JsonValue, SessionState, ToolPart, ToolState } from "chat-session-reducer";
import { Conversation } from "./Conversation";
import { DecisionContext } from "./decisionContext";

const STATE_LABELS: Record<ToolState, string> = {
  "input-streaming": "receiving input",
  running: "running",
  "awaiting-confirmation": "awaiting confirmation",
  done: "done",
  error: "error",
  cancelled: "cancelled",
};

export const ToolCall = memo(function ToolCall({ call }: { call: ToolPart }) {
  const decide = useContext(DecisionContext);
  const awaiting = call.state === "awaiting-confirmation";
  return (
    <section className={`tool-call state-${call.state}`} data-testid="tool-call" data-state={call.state} data-name={call.name}>
      <header className="tool-header">
        <span className="tool-name">{call.name}</span>
        <span className="tool-state">{STATE_LABELS[call.state]}</span>
      </header>
      {/* While its input streams, the call shows the text so far (it is parsed once, at its end). */}
      <pre className="tool-input">{call.state === "input-streaming" ? call.inputText : JSON.stringify(call.input)}</pre>
      {call.prompt !== undefined && <p className="tool-prompt">{call.prompt}</p>}
      {awaiting && decide !== null && (
        <div className="tool-decision">
          <button type="button" className="primary" data-testid="approve" onClick={() => decide(call, true)}>
            Approve
          </button>
          <button type="button" data-testid="deny" onClick={() => decide(call, false)}>
            Deny
          </button>
        </div>
      )}
      {call.agent !== undefined && <SubAgentRun run={call.agent} />}
      {call.output !== undefined && <pre className="tool-output">{outputText(call.output)}</pre>}
      {call.error !== undefined && (
        <p className="tool-failure">{isCancelled(call.error) ? `Cancelled: ${call.error.message}` : call.error.message}</p>
      )}
    </section>
  );
});

/** The sub-agent's run behind a delegate_to_* call, indented under it. */
function SubAgentRun({ run }: { run: SessionState }) {
  return (
    <div className="sub-agent">
      <p className="sub-agent-label">Sub-agent run</p>
      <Conversation messages={run.messages} />
      {run.status === "error" && <p className="tool-failure">Sub-agent failed: {run.error?.message}</p>}
    </div>
  );
}

/** MCP-style output ({ content: [{ type: "text", text }] }) as its text; anything else as JSON. */
function outputText(output: JsonValue): string {
  const content = typeof output === "object" && output !== null && !Array.isArray(output) ? output.content : undefined;
  if (Array.isArray(content)) {
    const texts = content.map((item) =>
      typeof item === "object" && item !== null && !Array.isArray(item) && item.type === "text" && typeof item.text === "string" ? item.text : null,
    );
    if (texts.every((text) => text !== null)) return texts.join("\n");
  }
  return JSON.stringify(output, null, 2);
}
