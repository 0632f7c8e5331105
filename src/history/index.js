// chat-session-reducer/history: older history loaded on demand (issue 34 item 2), loaded by the
// session controller (chat-session-reducer/session) when its `history` option is set; not an API
// for apps. It reads chat-session-reducer/server's `GET {conversations}/{id}?before=…&limit=…`
// (docs/server.md "Older history, paged"): the newest page when a conversation opens with nothing
// held, then older pages put in front with the reducer's `prepend` (SPEC v4). The cursor of a page
// is the id of the oldest message held, so a conversation restored from storage pages on from
// where it was.

import { conversationsRoute } from "../shared/conversations-route.js";

/** A page's length unless `historyPageSize` says: the server's default. */
const PAGE_SIZE = 50;

/** @typedef {import("chat-session-reducer/session").AgentSessionOptions} Options */
/** @typedef {() => import("chat-session-reducer").SessionState} Session */
/** @typedef {(action: import("chat-session-reducer").SessionAction) => void} Dispatch */

/**
 * A conversation opened with nothing held starts with the server's newest page. The controller
 * gives its options, the conversation's id and session now, a dispatch, and `older`: the cursor
 * of each conversation's next older page (a message id; null: none older; absent: not asked).
 * @param {Options} options @param {() => string} idNow @param {Session} session @param {Dispatch} dispatch
 * @param {Map<string, string | null>} older
 */
export async function openNewestPage(options, idNow, session, dispatch, older) {
  const id = idNow();
  if (older.has(id) || session().messages.length > 0) return;
  older.set(id, null);
  try {
    const page = await fetchPage(options, id);
    if (page === undefined || idNow() !== id || session().messages.length > 0) return;
    older.set(id, page.older);
    dispatch({ type: "load", state: page.state });
  } catch {
    // Not known after all: the next opening asks again.
    older.delete(id);
  }
}

/**
 * Puts the next older page in front (the reducer's prepend); the arguments as `openNewestPage`'s.
 * @param {Options} options @param {() => string} idNow @param {Session} session @param {Dispatch} dispatch
 * @param {Map<string, string | null>} older
 */
export async function loadOlder(options, idNow, session, dispatch, older) {
  const id = idNow();
  const before = older.get(id) ?? session().messages[0].id;
  const page = await fetchPage(options, id, before);
  if (idNow() !== id) return;
  older.set(id, page?.older ?? null);
  if (page === undefined || page.messages.length === 0) return;
  dispatch(page.forks === undefined ? { type: "prepend", messages: page.messages } : { type: "prepend", messages: page.messages, forks: page.forks });
}

/**
 * One page of conversation `id`: the answer's body, or `undefined` when the server holds no such
 * conversation, or no message `before` (a conversation this browser made, never on the server).
 * A failure (the network, a 5xx) throws.
 * @param {Options} options
 * @param {string} id
 * @param {string} [before]
 */
async function fetchPage({ history, historyPageSize = PAGE_SIZE, headers }, id, before) {
  const limit = String(historyPageSize);
  const query = new URLSearchParams(before === undefined ? { limit } : { before, limit });
  const response = await fetch(`${conversationsRoute(history).of(id)}?${query}`, {
    headers: { accept: "application/json", ...(typeof headers === "function" ? headers() : headers) },
  });
  if (response.status === 404 || response.status === 400) return undefined;
  if (!response.ok) throw new Error(`chat-session-reducer: loading older messages failed: HTTP ${response.status}`);
  return response.json();
}
