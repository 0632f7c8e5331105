import { memo, useContext, useState } from "react";
import { branchAt } from "chat-session-reducer";
import type { AgentMessage, SessionState } from "chat-session-reducer";
import { MessageActionsContext } from "./messageActions";
import { ToolCall } from "./ToolCall";

/** Whether a message has anything to show: AG-UI streams reasoning as a message of its own. */
const shown = (message: AgentMessage) => message.parts.some((part) => part.type === "text" || part.type === "tool");

/** Where a message begins one of a fork's alternatives: what "< 2/3 >" shows and switches. */
interface Branch {
  after: string | null;
  active: number;
  count: number;
}

/** A message to show, with the branch control it carries (if it begins one of a fork's alternatives). */
export interface Row {
  message: AgentMessage;
  branch?: Branch;
}

/**
 * The messages to show, each with its branch control (given `session`: the top-level
 * conversation). A fork whose first message is not shown (an AG-UI reasoning message) shows on the next one.
 */
export function rowsOf(messages: AgentMessage[], session?: SessionState): Row[] {
  const rows: Row[] = [];
  let hiddenBranch: Branch | undefined;
  messages.forEach((message, index) => {
    const branch = (session === undefined ? undefined : branchAt(session, index)) ?? hiddenBranch;
    hiddenBranch = shown(message) ? undefined : branch;
    if (shown(message)) rows.push({ message, branch });
  });
  return rows;
}

/** One row: the memoized message, given plain values so that it renders again only when they change. */
export function MessageRow({ row, top }: { row: Row; top: boolean }) {
  const { message, branch } = row;
  return <Message message={message} top={top} after={branch?.after} active={branch?.active} count={branch?.count} />;
}

/** A sub-agent's run inside a tool call: short, so every message is in the DOM (the top-level list is MessageList). */
export function Conversation({ messages }: { messages: AgentMessage[] }) {
  return (
    <ol className="messages">
      {rowsOf(messages).map((row) => (
        <li key={row.message.id} className="message-row">
          <MessageRow row={row} top={false} />
        </li>
      ))}
    </ol>
  );
}

interface MessageProps {
  message: AgentMessage;
  /** A message of the top-level conversation (not of a sub-agent's run): it can be edited or regenerated. */
  top: boolean;
  after?: string | null;
  active?: number;
  count?: number;
}

// The reducer keeps every unchanged message the very same object, and the branch control gets
// plain values, so while one reply streams only its own row renders again.
const Message = memo(function Message({ message, top, after, active, count }: MessageProps) {
  const [editing, setEditing] = useState(false);
  const body = editing ? (
    <EditForm message={message} onDone={() => setEditing(false)} />
  ) : (
    message.parts.map((part, index) => {
      switch (part.type) {
        case "text":
          return (
            <p key={index} className="text">
              {part.text}
            </p>
          );
        case "tool":
          return <ToolCall key={part.id} call={part} />;
        // Reasoning stays in the session (the next request sends it back) but is not shown,
        // and so do step boundaries.
        default:
          return null;
      }
    })
  );
  return (
    <div className={`message message-${message.role}`} data-testid="message" data-role={message.role}>
      {body}
      {top && !editing && (
        <MessageBar message={message} onEdit={() => setEditing(true)} branch={count === undefined ? undefined : { after: after ?? null, active: active ?? 0, count }} />
      )}
    </div>
  );
});

/** Under a message: "< 2/3 >" when it begins an alternative, then Edit (a user message) or Regenerate (a reply). */
function MessageBar({ message, branch, onEdit }: { message: AgentMessage; branch?: Branch; onEdit: () => void }) {
  const actions = useContext(MessageActionsContext);
  if (actions === null) return null;
  const { streaming, switchBranch, regenerate } = actions;
  return (
    <div className="message-bar">
      {branch !== undefined && (
        <span className="branch" data-testid="branch">
          <button type="button" aria-label="Previous version" data-testid="branch-previous" disabled={streaming || branch.active === 0} onClick={() => switchBranch(branch.after, branch.active - 1)}>
            &lt;
          </button>
          <span data-testid="branch-position">
            {branch.active + 1}/{branch.count}
          </span>
          <button type="button" aria-label="Next version" data-testid="branch-next" disabled={streaming || branch.active === branch.count - 1} onClick={() => switchBranch(branch.after, branch.active + 1)}>
            &gt;
          </button>
        </span>
      )}
      {message.role === "user" ? (
        <button type="button" className="link" data-testid="edit" onClick={onEdit}>
          Edit
        </button>
      ) : (
        <button type="button" className="link" data-testid="regenerate" onClick={() => regenerate(message.id)}>
          Regenerate
        </button>
      )}
    </div>
  );
}

/** Editing a user message in place: Save sends the new text as a new branch of the conversation. */
function EditForm({ message, onDone }: { message: AgentMessage; onDone: () => void }) {
  const actions = useContext(MessageActionsContext);
  const original = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
  const [draft, setDraft] = useState(original);
  return (
    <form
      className="edit-form"
      onSubmit={(event) => {
        event.preventDefault();
        const text = draft.trim();
        if (text !== "" && text !== original) actions?.edit(message.id, text);
        onDone();
      }}
    >
      <input data-testid="edit-input" aria-label="Edit message" value={draft} autoFocus onChange={(event) => setDraft(event.target.value)} />
      <button type="submit" className="primary" data-testid="edit-save">
        Save
      </button>
      <button type="button" data-testid="edit-cancel" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
