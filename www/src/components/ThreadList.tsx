import { useEffect, useState } from "react";
import { createConversations, useConversations } from "chat-session-reducer/conversations";

/** The thread list is on with ?threads=1 in the address: several conversations, one on screen. */
export const threadsOn = new URLSearchParams(location.search).get("threads") === "1";

/** The conversations: the server's (this browser's owner's, GET /api/conversations) merged with the tab's
 *  (sessionStorage: each under "chat-session-reducer-demo:<id>", the list under the prefix). */
export const conversations = createConversations({ keyPrefix: "chat-session-reducer-demo:", remote: "/api/conversations" });

/** The conversation on screen, kept in the address (?thread=…) so a reload reopens it; else the latest, else a new one. */
export function useOpenThread(): [string, (id: string) => void] {
  const [id, setId] = useState(() => new URLSearchParams(location.search).get("thread") ?? conversations.list()[0]?.id ?? conversations.create());
  useEffect(() => {
    if (!threadsOn) return;
    const address = new URL(location.href);
    address.searchParams.set("thread", id);
    history.replaceState(null, "", address);
  }, [id]);
  return [id, setId];
}

interface ThreadListProps {
  openId: string;
  onOpen: (id: string) => void;
}

/** The conversations, most recent first: a reply streaming in the background, one that ended unseen, one waiting on you. */
export function ThreadList({ openId, onOpen }: ThreadListProps) {
  const threads = useConversations(conversations);
  const listed = threads.some((thread) => thread.id === openId);
  return (
    <nav className="threads" aria-label="Conversations">
      <button type="button" data-testid="new-conversation" onClick={() => onOpen(conversations.create())}>
        New conversation
      </button>
      <ul>
        {!listed && (
          <li>
            <button type="button" className="thread" aria-current="true" disabled>
              New conversation
            </button>
          </li>
        )}
        {threads.map((thread) => (
          <li key={thread.id}>
            <button
              type="button"
              className="thread"
              data-testid="thread"
              data-id={thread.id}
              data-status={thread.status}
              data-unread={thread.unread}
              data-waiting={thread.waiting}
              aria-current={thread.id === openId}
              onClick={() => onOpen(thread.id)}
            >
              <span className="thread-title">{thread.title || "Untitled"}</span>
              {thread.status === "streaming" && <span className="mark" title="Replying">…</span>}
              {thread.waiting && <span className="mark" title="Waiting on you">?</span>}
              {thread.unread && thread.id !== openId && <span className="mark unread" title="New" />}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
