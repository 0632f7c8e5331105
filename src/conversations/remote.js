// The server's side of the thread list (createConversations' `remote`): a source of the
// conversations the server stores for this user (`list`, `read`, optionally `remove`), given by the
// app or made from the URL of chat-session-reducer/server's conversations routes, and the rule
// that merges its summaries with the tab's own entries.

import { invalid } from "../shared/coded-error.js";
import { conversationsRoute } from "../shared/conversations-route.js";

const STATUSES = new Set(["streaming", "error"]);

/** A source from `remote` (a URL, or the app's `{ list, read, remove? }`); undefined without one. */
export function sourceOf(remote) {
  if (remote === undefined) return undefined;
  if (typeof remote === "string" || remote instanceof URL) return urlSource(conversationsRoute(remote));
  if (typeof remote?.list !== "function" || typeof remote.read !== "function") throw invalid("options.remote", "a URL or { list, read }");
  return remote;
}

/** The routes of chat-session-reducer/server: `GET {url}`, `GET {url}/{id}` (404: none), `DELETE {url}/{id}`. */
function urlSource({ list: url, of: at }) {
  const answer = async (response, what) => {
    if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`);
    return response.json();
  };
  return {
    list: async () => (await answer(await fetch(url, { credentials: "same-origin" }), "the server's list")).conversations,
    async read(id) {
      const response = await fetch(at(id), { credentials: "same-origin" });
      return response.status === 404 ? undefined : (await answer(response, "the server's conversation")).state;
    },
    async remove(id) {
      const response = await fetch(at(id), { method: "DELETE", credentials: "same-origin" });
      if (!response.ok && response.status !== 404) throw new Error(`the server's delete: HTTP ${response.status}`);
    },
  };
}

/** The server's summaries as thread list entries (ms since the epoch; no marks of the tab's);
 *  what is not a summary is left out. */
export function serverEntries(summaries) {
  const entries = new Map();
  for (const summary of Array.isArray(summaries) ? summaries : []) {
    if (typeof summary?.id !== "string" || summary.id === "") continue;
    const updatedAt = typeof summary.updatedAt === "number" ? summary.updatedAt : Date.parse(summary.updatedAt);
    const status = STATUSES.has(summary.status) ? summary.status : "idle";
    const title = typeof summary.title === "string" ? summary.title : "";
    entries.set(summary.id, { id: summary.id, title, status, unread: false, waiting: false, updatedAt: Number.isFinite(updatedAt) ? updatedAt : 0, count: undefined });
  }
  return entries;
}

/**
 * The entry listed for a conversation the tab has (`local`) and the server has (`server`): while
 * the tab holds it (on screen, or running in the background) the tab's own marks; else the
 * server's status (a run the tab does not follow goes on or ended there), the later activity,
 * and the tab's title and marks.
 */
export function mergedEntry(local, server, holds) {
  if (server === undefined) return local;
  if (local === undefined) return server;
  if (holds) return local;
  return { ...local, title: local.title || server.title, status: server.status, updatedAt: Math.max(local.updatedAt, server.updatedAt) };
}

/** Whether two entries list the same (the list keeps the object it showed while they do). */
export const sameEntry = (a, b) =>
  a !== undefined && a.id === b.id && a.title === b.title && a.status === b.status && a.unread === b.unread && a.waiting === b.waiting && a.updatedAt === b.updatedAt;

/**
 * Whether a tab that does not hold a conversation opens the server's copy (`state`, undefined
 * when the server has none) rather than its own (`local`, restoreSessionEntry's): the server
 * stored exactly what it streamed, so its copy is the one the user was shown, also where the tab
 * did not see a run end (a restart's interrupted error) or another browser went on. The tab's
 * own wins only where it knows more: a message the server never got (its messages are not the
 * start of the server's), a queue not sent yet, or a run both still stream (the tab knows where
 * it started, so its resume goes on from its offset).
 */
export function serverCopyWins(local, state) {
  if (state === undefined || local.state.queue !== undefined) return false;
  if (local.wasStreaming === true && state.status === "streaming") return false;
  return local.state.messages.every((message, at) => state.messages[at]?.id === message.id);
}
