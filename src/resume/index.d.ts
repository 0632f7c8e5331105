// chat-session-reducer/resume: loaded by the session controller (chat-session-reducer/session)
// for a run that may reconnect (`resume: true`); not an API for apps.

/** Runs a reply that may reconnect; the controller's only. */
export function runResumable(request: unknown, controller: AbortController, report: unknown, resumed: boolean): Promise<unknown>;
