import { memo, useContext } from "react";
import { isCancelled } from "chat-session-reducer";
import type { JsonValue, SessionState, ToolPart, ToolState } from "chat-session-reducer";
import { Conversation } from "./Conversation";
import { CallAnswersContext } from "./callAnswers";

const STATE_LABELS: Record<ToolState, string> = {
  "input-streaming": "receiving input",
  running: "running",
  "awaiting-confirmation": "awaiting confirmation",
  done: "done",
  error: "error",
  cancelled: "cancelled",
};

/** Tools that run in this page: the user's choice is the result. */
const CLIENT_TOOLS = new Set(["pick_time"]);

export const ToolCall = memo(function ToolCall({ call }: { call: ToolPart }) {
  const answers = useContext(CallAnswersContext);
  const awaiting = call.state === "awaiting-confirmation";
  const asksUser = CLIENT_TOOLS.has(call.name) && call.state === "running";
  return (
    <section className={`tool-call state-${call.state}`} data-testid="tool-call" data-state={call.state} data-name={call.name}>
      <header className="tool-header">
        <span className="tool-name">{call.name}</span>
        <span className="tool-state">{call.error?.code === "denied" ? "denied" : STATE_LABELS[call.state]}</span>
      </header>
      {/* While its input streams, the call shows the text so far (it is parsed once, at its end). */}
      <pre className="tool-input" data-testid="tool-input">
        {call.state === "input-streaming" ? call.inputText : JSON.stringify(call.input)}
      </pre>
      {call.prompt !== undefined && <p className="tool-prompt">{call.prompt}</p>}
      {awaiting && answers !== null && (
        <div className="tool-decision">
          <button type="button" className="primary" data-testid="approve" onClick={() => answers.approve(call.id)}>
            Approve
          </button>
          <button type="button" data-testid="deny" onClick={() => answers.deny(call.id)}>
            Deny
          </button>
        </div>
      )}
      {asksUser && answers !== null && <TimePicker call={call} onPick={(time) => answers.answer(call.id, { time })} />}
      {call.agent !== undefined && <SubAgentRun run={call.agent} />}
      {call.output !== undefined && <pre className="tool-output">{outputText(call.output)}</pre>}
      {call.error !== undefined && (
        <p className="tool-failure">{isCancelled(call.error) ? `Cancelled: ${call.error.message}` : call.error.message}</p>
      )}
    </section>
  );
});

/** pick_time's UI: one button per option the agent offered. */
function TimePicker({ call, onPick }: { call: ToolPart; onPick: (time: string) => void }) {
  const options = typeof call.input === "object" && call.input !== null && !Array.isArray(call.input) ? call.input.options : undefined;
  return (
    <div className="tool-decision">
      {(Array.isArray(options) ? options : []).map((option) => (
        <button key={String(option)} type="button" data-testid="answer" onClick={() => onPick(String(option))}>
          {String(option)}
        </button>
      ))}
    </div>
  );
}

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

/** Text as is; MCP-style output ({ content: [{ type: "text", text }] }) as its text; anything else as JSON. */
function outputText(output: JsonValue): string {
  if (typeof output === "string") return output;
  const content = typeof output === "object" && output !== null && !Array.isArray(output) ? output.content : undefined;
  if (Array.isArray(content)) {
    const texts = content.map((item) =>
      typeof item === "object" && item !== null && !Array.isArray(item) && item.type === "text" && typeof item.text === "string" ? item.text : null,
    );
    if (texts.every((text) => text !== null)) return texts.join("\n");
  }
  return JSON.stringify(output, null, 2);
}
