// ?ui=assistant-ui: the same agent, rendered by assistant-ui's primitives on
// chat-session-reducer/assistant-ui's runtime (the session stays ours: branches, queue, resume).
import {
  ActionBarPrimitive,
  AssistantRuntimeProvider,
  AuiIf,
  BranchPickerPrimitive,
  ComposerPrimitive,
  MessagePrimitive,
  SimpleImageAttachmentAdapter,
  ThreadPrimitive,
  useAuiState,
} from "@assistant-ui/react";
import type { TextMessagePartProps, ToolCallMessagePartProps } from "@assistant-ui/react";
import type { AgentProtocol } from "chat-session-reducer/react";
import { useAgentSessionRuntime } from "chat-session-reducer/assistant-ui";

/** A conversation of its own, so switching ?ui= never mixes the two pages' sessions. */
const STORAGE_KEY = "chat-session-reducer-demo-assistant-ui";
const attachments = { attachments: new SimpleImageAttachmentAdapter() };

const Text = ({ text }: TextMessagePartProps) => <span className="text">{text}</span>;

/** Any tool: its name, state and result. */
function ToolCard({ toolName, argsText, result, isError, status, children }: ToolCallMessagePartProps & { children?: React.ReactNode }) {
  return (
    <section className="tool-call" data-testid="tool-call" data-name={toolName} data-status={status.type} data-error={isError === true ? "true" : undefined}>
      <header className="tool-header">
        <span className="tool-name">{toolName}</span>
        <span className="tool-state">{status.type}</span>
      </header>
      <pre className="tool-input">{argsText}</pre>
      {children}
      {result !== undefined && <pre className="tool-output">{JSON.stringify(result)}</pre>}
    </section>
  );
}

/** delete_drafts asks for approval: assistant-ui's respondToApproval is the session's approve / deny. */
function ApprovalTool(props: ToolCallMessagePartProps) {
  const { approval, respondToApproval } = props;
  const pending = approval !== undefined && approval.approved === undefined && approval.resolution === undefined;
  return (
    <ToolCard {...props}>
      {approval?.prompt !== undefined && <p className="tool-prompt">{approval.prompt}</p>}
      {pending && (
        <div className="tool-decision">
          <button type="button" className="primary" data-testid="approve" onClick={() => void respondToApproval({ approved: true })}>
            Approve
          </button>
          <button type="button" data-testid="deny" onClick={() => void respondToApproval({ approved: false })}>
            Deny
          </button>
        </div>
      )}
    </ToolCard>
  );
}

/** pick_time runs in the page: the user's pick is its result (addResult, the session's answer). */
function TimeTool(props: ToolCallMessagePartProps<{ options?: string[] }>) {
  const { args, result, addResult } = props;
  return (
    <ToolCard {...props}>
      {result === undefined && (
        <div className="tool-decision">
          {(args.options ?? []).map((time) => (
            <button type="button" key={time} data-testid="pick-time" onClick={() => addResult({ time })}>
              {time}
            </button>
          ))}
        </div>
      )}
    </ToolCard>
  );
}

const parts = { Text, tools: { by_name: { delete_drafts: ApprovalTool, pick_time: TimeTool }, Fallback: ToolCard } };

function Branches() {
  return (
    <BranchPickerPrimitive.Root hideWhenSingleBranch className="branch-picker">
      <BranchPickerPrimitive.Previous data-testid="branch-previous">‹</BranchPickerPrimitive.Previous>
      <span data-testid="branch-position">
        <BranchPickerPrimitive.Number />/<BranchPickerPrimitive.Count />
      </span>
      <BranchPickerPrimitive.Next data-testid="branch-next">›</BranchPickerPrimitive.Next>
    </BranchPickerPrimitive.Root>
  );
}

function Attachments() {
  // The store's own array (a selector must return the same value while nothing changed).
  const shown = useAuiState((s) => s.message.attachments);
  return (shown ?? []).map(({ id, name }) => (
    <span key={id} className="attachment" data-testid="attachment">
      {name}
    </span>
  ));
}

function UserMessage() {
  return (
    <MessagePrimitive.Root className="message user" data-testid="message" data-role="user">
      <Attachments />
      <MessagePrimitive.Parts components={parts} />
      <div className="message-bar">
        <ActionBarPrimitive.Root>
          <ActionBarPrimitive.Edit data-testid="edit">Edit</ActionBarPrimitive.Edit>
        </ActionBarPrimitive.Root>
        <Branches />
      </div>
    </MessagePrimitive.Root>
  );
}

function AssistantMessage() {
  return (
    <MessagePrimitive.Root className="message assistant" data-testid="message" data-role="assistant">
      <MessagePrimitive.Parts components={parts} />
      <div className="message-bar">
        <ActionBarPrimitive.Root hideWhenRunning>
          <ActionBarPrimitive.Reload data-testid="regenerate">Regenerate</ActionBarPrimitive.Reload>
        </ActionBarPrimitive.Root>
        <Branches />
      </div>
    </MessagePrimitive.Root>
  );
}

function EditComposer() {
  return (
    <ComposerPrimitive.Root className="edit-composer">
      <ComposerPrimitive.Input data-testid="edit-input" />
      <ComposerPrimitive.Cancel>Cancel</ComposerPrimitive.Cancel>
      <ComposerPrimitive.Send data-testid="edit-save">Save</ComposerPrimitive.Send>
    </ComposerPrimitive.Root>
  );
}

function Queue() {
  const queue = useAuiState((s) => s.composer.queue);
  return queue.map((item) => (
    <p key={item.id} className="queued" data-testid="queued">
      {item.prompt}
    </p>
  ));
}

function PendingAttachments() {
  const pending = useAuiState((s) => s.composer.attachments);
  return pending.map(({ id, name }) => (
    <span key={id} className="attachment" data-testid="pending-attachment">
      {name}
    </span>
  ));
}

export function AssistantUiChat({ protocol }: { protocol: AgentProtocol }) {
  const runtime = useAgentSessionRuntime(
    { api: `/api/chat/${protocol}`, protocol, storageKey: STORAGE_KEY, resume: true, stopApi: `/api/chat/${protocol}/stop` },
    { adapters: attachments },
  );
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <div className="app assistant-ui">
        <header className="topbar">
          <h1>Chat session reducer, with assistant-ui</h1>
          <p className="subtitle">assistant-ui&apos;s primitives on a session of chat-session-reducer ({protocol}).</p>
        </header>
        <ThreadPrimitive.Root className="conversation">
          <ThreadPrimitive.Viewport data-testid="conversation">
            <ThreadPrimitive.Messages components={{ UserMessage, AssistantMessage, EditComposer }} />
          </ThreadPrimitive.Viewport>
        </ThreadPrimitive.Root>
        <ComposerPrimitive.Root className="composer-form">
          <Queue />
          <PendingAttachments />
          <ComposerPrimitive.AddAttachment data-testid="attach">Attach</ComposerPrimitive.AddAttachment>
          <ComposerPrimitive.Input data-testid="composer" placeholder="Message the agent" />
          <ComposerPrimitive.Send data-testid="send">Send</ComposerPrimitive.Send>
          <AuiIf condition={(s) => s.thread.isRunning}>
            <ComposerPrimitive.Cancel data-testid="stop">Stop</ComposerPrimitive.Cancel>
          </AuiIf>
        </ComposerPrimitive.Root>
      </div>
    </AssistantRuntimeProvider>
  );
}
