// Several conversations, one on screen, the others streaming on in the background (chat-session-reducer/conversations).

import type { SessionState } from "chat-session-reducer";

/** A conversation as a thread list shows it. */
export interface ConversationSummary {
  readonly id: string;
  /** The text of its first user message. */
  readonly title: string;
  /** `"streaming"` while a reply streams (on screen or in the background), else its session's status;
   *  with `remote`, the server's for a conversation the tab does not hold. */
  readonly status: "streaming" | "idle" | "error";
  /** Something arrived, or its run ended, while it was not on screen; cleared when it is shown. */
  readonly unread: boolean;
  /** It waits on the user or the app: a call awaiting approval, an answer, or a client-side tool's result (`waitsOnApp`). */
  readonly waiting: boolean;
  /** When it last had activity (a message, a run that started or ended), in ms since the epoch: the list's order. */
  readonly updatedAt: number;
}

/** The store of conversations: make it once (module level), pass it to `useAgentSession({ conversations, id })`. */
export interface Conversations {
  /** Where the conversations and the list are kept. */
  readonly storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined;
  /** The storage key of conversation `id`: the key prefix, then the id (the list is under the prefix itself). */
  keyOf(id: string): string;
  /** A new conversation's id; it is listed once it has a message. */
  create(): string;
  /** The thread list, most recent activity first: the same array, and the same entries, while nothing changed. */
  list(): readonly ConversationSummary[];
  /** With `remote`: reads the server's list again (also done on the first subscribe, when the page
   *  gets the focus back, and after a run of this tab ends). Resolves once applied; a failure keeps the list shown. */
  refresh(): Promise<void>;
  subscribe(listener: () => void): () => void;
  /** Stops its background run, if any, and removes it from storage and the list (switch away from it first);
   *  with `remote`, from the server too where the source has `remove` (a URL's does: DELETE). */
  remove(id: string): Promise<void>;
}

/** A conversation as the server lists it (chat-session-reducer/server's `GET {conversations}`). */
export interface RemoteConversationSummary {
  readonly id: string;
  readonly title: string;
  /** The stored session's status: `"streaming"` while a run goes on there, `"error"`, else idle. */
  readonly status: string;
  /** An ISO 8601 time (as the server's routes give it), or ms since the epoch. */
  readonly updatedAt: string | number;
}

/** Where the server's conversations come from: the app's own calls to its backend. */
export interface ConversationsSource {
  /** The signed-in user's conversations. */
  list(): Promise<readonly RemoteConversationSummary[]>;
  /** Conversation `id`'s stored state; `undefined` when the server has none. */
  read(id: string): Promise<SessionState | undefined>;
  /** Deletes it on the server (used by `remove`). */
  remove?(id: string): Promise<void>;
}

export interface ConversationsOptions {
  /** Any object with the Web Storage methods. Default `sessionStorage`. */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  /** Prefix of the storage keys. Default `"chat:"`. */
  keyPrefix?: string;
  /**
   * The server's conversations: the URL of chat-session-reducer/server's conversations routes
   * (`GET {url}` → `{ conversations }`, `GET {url}/{id}` → `{ id, state }`, `DELETE {url}/{id}`;
   * fetched with the page's cookies), or a source of the app's. The list then merges the server's
   * with the tab's entries (the tab's marks while it holds a conversation, the server's status
   * for the rest), and a conversation the tab does not hold opens from the server's copy unless
   * the tab's knows more (a message the server never got, a queue, a run both still stream).
   */
  remote?: string | URL | ConversationsSource;
}

export function createConversations(options?: ConversationsOptions): Conversations;

/** The thread list of `conversations` (useSyncExternalStore): empty on the server and while hydrating. */
export function useConversations(conversations: Conversations): readonly ConversationSummary[];
