// chat-session-reducer/history: loaded by the session controller (chat-session-reducer/session)
// for its `history` option (older messages a page at a time); not an API for apps.

/** Opens a conversation held empty with the server's newest page; the controller's only. */
export function openNewestPage(...controller: unknown[]): Promise<void>;
/** Puts the next older page in front; the controller's only. */
export function loadOlder(...controller: unknown[]): Promise<void>;
