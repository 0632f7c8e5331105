// Several conversations, one on screen, the others streaming on in the background (chat-session-reducer/conversations).

/** A conversation as a thread list shows it. */
export interface ConversationSummary {
  readonly id: string;
  /** The text of its first user message. */
  readonly title: string;
  /** `"streaming"` while a reply streams (on screen or in the background), else its session's status. */
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
  subscribe(listener: () => void): () => void;
  /** Stops its background run, if any, and removes it from storage and the list (switch away from it first). */
  remove(id: string): void;
}

export interface ConversationsOptions {
  /** Any object with the Web Storage methods. Default `sessionStorage`. */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  /** Prefix of the storage keys. Default `"chat:"`. */
  keyPrefix?: string;
}

export function createConversations(options?: ConversationsOptions): Conversations;

/** The thread list of `conversations` (useSyncExternalStore): empty on the server and while hydrating. */
export function useConversations(conversations: Conversations): readonly ConversationSummary[];
