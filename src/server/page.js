// Older history paged (issue 34 item 2): what `GET {conversations}/{id}?before=…&limit=…` answers,
// from a state held whole (a run in memory, a store without `page`). The SQL stores read only the
// page (sql-store.js `page`) and shape it with `pageForks`, so both answer the same.

/** A page's length when the request names none, and the most one may ask for. */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 1000;

/**
 * The request's paging (`{ before, limit }`), `undefined` when it asks for none (the whole
 * state, as before paging), or `{ refusal: { path, problem } }` for a bad `limit` or `before`.
 * @param {URLSearchParams} params
 */
export function pagingOf(params) {
  const before = params.get("before");
  const limit = params.get("limit");
  if (before === null && limit === null) return undefined;
  if (before === "") return { refusal: { path: "before", problem: "expected a message id" } };
  const count = limit === null ? DEFAULT_PAGE : Number(limit);
  if (!/^[0-9]+$/.test(limit ?? "1") || !Number.isInteger(count) || count < 1 || count > MAX_PAGE) {
    return { refusal: { path: "limit", problem: `expected an integer from 1 to ${MAX_PAGE}` } };
  }
  return { before: before ?? undefined, limit: count };
}

/**
 * The page of `state`'s path: the `limit` messages before the message `before` (the newest
 * when absent), as `{ messages, forks, older }` (`older`: the cursor of the next older page,
 * the id of the page's first message, or null at the start); `undefined` when `before` names no
 * message of the path.
 */
export function pageOf(state, { before, limit }) {
  const ids = state.messages.map((message) => message.id);
  const end = before === undefined ? ids.length : ids.indexOf(before);
  if (end < 0) return undefined;
  const start = Math.max(0, end - limit);
  const messages = state.messages.slice(start, end);
  return {
    messages,
    forks: pageForks(state.forks, messages, start === 0 ? null : ids[start - 1]),
    older: start === 0 || messages.length === 0 ? null : messages[0].id,
  };
}

/**
 * The forks of `forks` (a state's) that belong to a page of `messages`: those whose `after` is
 * one of them, and the one after the message just before the page (`previous`; null: the page
 * begins the conversation), whose alternatives follow the page's first message, as `after: null`
 * (SPEC v4: a prepend moves it after the page that comes before).
 */
export function pageForks(forks, messages, previous) {
  if (forks === undefined || messages.length === 0) return undefined;
  const ids = new Set(messages.map((message) => message.id));
  const kept = [];
  for (const fork of forks) {
    if (fork.after === previous) kept.push(previous === null ? fork : { ...fork, after: null });
    else if (fork.after !== null && ids.has(fork.after)) kept.push(fork);
  }
  return kept.length > 0 ? kept : undefined;
}

/** The answer's body: the newest page as a state (its messages the page), an older one as what a `prepend` takes. */
export function pageBody(id, state, page, paging) {
  const forks = page.forks === undefined ? {} : { forks: page.forks };
  if (paging.before !== undefined) return { id, messages: page.messages, ...forks, older: page.older };
  const { forks: _all, ...rest } = state;
  return { id, state: { ...rest, messages: page.messages, ...forks }, older: page.older };
}
