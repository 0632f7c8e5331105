import { memo, useContext } from "react";
import { isCancelled, waitsOnApp } from "chat-session-reducer";
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

export const ToolCall = memo(function ToolCall({ call }: { call: { type: "tool" } & ToolPart }) {
  const answers = useContext(CallAnswersContext);
  // A call the app must act on (an approval, or a client-side tool's result) looks unlike one the
  // agent is working on: waitsOnApp tells them apart, without knowing the tools' names.
  const waits = answers === null ? undefined : waitsOnApp(answers.state, call);
  const label = waits === "result" ? "waiting for you" : call.error?.code === "denied" ? "denied" : STATE_LABELS[call.state];
  return (
    <section
      className={`tool-call state-${call.state}${waits === undefined ? "" : ` waits-on-app`}`}
      data-testid="tool-call"
      data-state={call.state}
      data-waits={waits}
      data-name={call.name}
    >
      <header className="tool-header">
        <span className="tool-name">{call.name}</span>
        <span className="tool-state">{label}</span>
      </header>
      {/* While its input streams, the call shows the text so far (it is parsed once, at its end). */}
      <pre className="tool-input" data-testid="tool-input">
        {call.state === "input-streaming" ? call.inputText : JSON.stringify(call.input)}
      </pre>
      {call.prompt !== undefined && <p className="tool-prompt">{call.prompt}</p>}
      {waits === "confirmation" && answers !== null && (
        <div className="tool-decision">
          <button type="button" className="primary" data-testid="approve" onClick={() => answers.approve(call.id)}>
            Approve
          </button>
          <button type="button" data-testid="deny" onClick={() => answers.deny(call.id)}>
            Deny
          </button>
        </div>
      )}
      {waits === "result" && answers !== null && <TimePicker call={call} onPick={(time) => answers.answer(call.id, { time })} />}
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
