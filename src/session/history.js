// Older history loaded on demand (issue 34 item 2), from chat-session-reducer/server's
// `GET {conversations}/{id}?before=…&limit=…` (docs/server.md "Older history, paged"): the
// newest page when a conversation opens with nothing held, then older pages put in front with
// the reducer's `prepend` (SPEC v4). The cursor of a page is the id of the oldest message held,
// so a conversation restored from storage pages on from where it was.

import { invalid } from "../shared/coded-error.js";

/** A page's length when the options name none. */
export const PAGE_SIZE = 50;

/** Throws a coded TypeError for a bad `history` or `pageSize` option. */
export function checkHistoryOptions({ history, pageSize }) {
  if (history !== undefined && typeof history !== "string" && !(history instanceof URL)) throw invalid("options.history", "a URL (the server's conversations route)");
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)) throw invalid("options.pageSize", "an integer from 1 to 1000");
}

/**
 * One page of conversation `id`: the answer's body, or `undefined` when the server holds no such
 * conversation, or no message `before` (a conversation this browser made, never on the server).
 * A failure (the network, a 5xx) throws.
 */
export async function fetchPage({ history, pageSize = PAGE_SIZE, headers }, id, before) {
  const base = String(history).replace(/\/+$/, "");
  const query = new URLSearchParams(before === undefined ? { limit: String(pageSize) } : { before, limit: String(pageSize) });
  const response = await fetch(`${base}/${encodeURIComponent(id)}?${query}`, {
    headers: { accept: "application/json", ...(typeof headers === "function" ? headers() : headers) },
  });
  if (response.status === 404 || response.status === 400) return undefined;
  if (!response.ok) throw new Error(`chat-session-reducer: loading older messages failed: HTTP ${response.status}`);
  return response.json();
}

/** The `prepend` action of an older page's answer. */
export function prependOf(page) {
  return page.forks === undefined ? { type: "prepend", messages: page.messages } : { type: "prepend", messages: page.messages, forks: page.forks };
}
