// The addresses of chat-session-reducer/server's conversations routes (`GET {conversations}`,
// `{conversations}/{id}`), one rule for every client module that reads them.

/** The list's address and each conversation's, from the routes' base (a trailing slash ignored). */
export function conversationsRoute(conversations) {
  const list = String(conversations).replace(/\/+$/, "");
  return { list, of: (/** @type {string} */ id) => `${list}/${encodeURIComponent(id)}` };
}
