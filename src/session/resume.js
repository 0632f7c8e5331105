// Resuming a reply instead of cutting it: useAgentSession's `resume: true`. Where the protocol can
// reconnect to a run the server is still producing (AI SDK 7: GET {api}/{id}/stream; AG-UI: a
// connect, see protocols.js) and `api` is a URL (not a function), a connection that drops
// mid-reply (or sends nothing for the stall time) reconnects, with a growing pause between
// failed tries, waiting for the browser's `online` event while it is offline, until a budget
// runs out (the `reconnect` option); the hook's status says "reconnecting" meanwhile. A
// conversation stored while it streamed (a reload, a closed tab) is restored still streaming and
// reconnects. The server replays the run from its start, which goes onto the run's start: the
// request's session after a drop, the one stored with the conversation after a reload (without
// one, the adapters' `replay` option starts each message over the first time the replay names
// it). Nothing is doubled, nothing lands in another turn. When no run is active (204), it ends
// as without `resume`: a reload applies `stop`, a drop reports the network error. Stop tells the
// server when the app gives `stopApi`: with resume, closing the connection is only a disconnect.

import { RESUME_REQUESTS, loadProtocol } from "./protocols.js";
import { MAX_TIMER_MS, bodyOf, connectionOf, failureOf, isMalformed, readReply, reporting, request as fetchOf, stallWatch, streamRun, watchedBody } from "./run.js";

/**
 * How the hook reconnects (its `reconnect` option, docs/decisions.md says why these): it gives up
 * once `budgetMs` passed with no frame from any connection of the run; a response that sends
 * nothing for `stallMs` is a drop; the pause before a reconnect after a failed one starts at
 * `delayMs` and doubles, up to MAX_DELAY_FACTOR times it. The first reconnect after a drop, and
 * the first after a connection that got further into the run than any before, go at once.
 */
const RECONNECT = { budgetMs: 60_000, stallMs: 30_000, delayMs: 250 };
const MAX_DELAY_FACTOR = 16;

/** The `reconnect` option with its defaults; throws a coded TypeError naming a field that is not
 *  a number of milliseconds (Infinity: never). */
export function reconnectOptions(reconnect) {
  const chosen = { ...RECONNECT, ...reconnect };
  for (const name in RECONNECT) {
    const path = `options.reconnect.${name}`;
    if (!(chosen[name] >= 0)) throw Object.assign(new TypeError(`${path}: expected milliseconds`), { code: "invalid", path });
  }
  return chosen;
}

/** Whether a run of the hook with these options can be resumed. */
export function resumes(options, protocolName) {
  return options.resume === true && typeof options.api !== "function" && Object.hasOwn(RESUME_REQUESTS, protocolName);
}

// What the run started from, put back before its replay (after a drop, where the hook still has
// it; after a reload, as the storage kept it): the replay then rebuilds exactly what the run
// wrote, also into a message it continued (an AI SDK reply after an approval) or into the agent's state.
function restoringRunStart(base) {
  const messages = { type: "part", part: { type: "snapshot", messages: base.messages, exact: true } };
  if (base.agentState === undefined) return [messages];
  return [messages, { type: "part", part: { type: "agent-state", snapshot: base.agentState } }];
}

/**
 * One reconnect: "none" when the server has no active run, "failed" when it could not be
 * reached, else whether the replayed run "ended" or "dropped". The replay goes onto the run's
 * start `base` when there is one, else through the adapter's `replay` option, which starts each
 * message over. `seen()` is called for each frame; `connected()` once the server answers.
 */
async function reconnectOnce(request, controller, send, report, base, stallMs, seen, connected) {
  const protocol = await loadProtocol(request.options.protocol);
  const { url, method, body } = RESUME_REQUESTS[request.options.protocol]({
    api: request.options.api,
    // The conversation's id, the one its requests carry.
    id: request.chatId,
    body: () => bodyOf(request, protocol),
  });
  const connection = connectionOf(controller);
  // A reconnect is answered at once (a 204, or the replay): silence is a stall from the start.
  const touch = stallWatch(connection, stallMs);
  const response = await fetchOf(url, method, request.options, protocol.accept, body, connection.signal);
  if (response.status === 204 || !response.ok || response.body === null) {
    await response.body?.cancel().catch(() => {});
    // A server (or a proxy in its way) that is restarting is tried again; a 204 or a 4xx: no run here.
    return response.status >= 500 ? "failed" : "none";
  }
  connected();
  let restore = base === undefined ? [] : restoringRunStart(base);
  const replayed = (actions) => {
    send(restore.length === 0 ? actions : [...restore, ...actions]);
    restore = [];
  };
  const options = { replay: base === undefined, reconnects: true, onFrame: seen };
  return (await readReply(protocol, watchedBody(response, touch), controller, replayed, report, options)) ? "ended" : "dropped";
}

/** Resolves after `ms`, when `signal` aborts, or with `online`, at the window's `online` event. */
function pause(ms, signal, online) {
  const target = online ? (globalThis.window ?? globalThis) : undefined;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      target?.removeEventListener?.("online", done);
      resolve(undefined);
    };
    const timer = setTimeout(done, Math.min(ms, MAX_TIMER_MS));
    signal.addEventListener("abort", done);
    target?.addEventListener?.("online", done);
  });
}

// The browser says so only where it knows (navigator.onLine false: no network at all).
const offline = () => globalThis.navigator?.onLine === false;

/**
 * Reconnects until the replayed run ends; resolves true when it took the run over (it ended,
 * failed with a malformed frame, or was aborted), false when the server has no run to resume or
 * the budget ran out. `base`: the run's start (see reconnectOnce); `dropped`: the run's
 * connection broke, so the status says "reconnecting" at once. Never throws.
 */
async function reconnectUntilEnd(request, controller, report, base, dropped) {
  const { signal } = controller;
  const { send, fail } = reporting(controller, report);
  const reconnecting = (on) => signal.aborted || report.reconnecting(on);
  const { budgetMs, stallMs, delayMs } = reconnectOptions(request.options.reconnect);
  // The most frames a reconnect of the run delivered, this one's, and when the last frame came.
  let reached = 0;
  let count = 0;
  let lastFrameAt = Date.now();
  const seen = () => void ((count += 1), (lastFrameAt = Date.now()));
  let delay = 0;
  for (let failed = dropped; ; failed = true) {
    const until = lastFrameAt + budgetMs;
    if (failed || offline()) reconnecting(true);
    // Offline, nothing is tried until the browser's online event (or the budget's end).
    if (!offline()) await pause(Math.min(delay, until - Date.now()), signal);
    while (offline() && !signal.aborted && Date.now() < until) await pause(until - Date.now(), signal, true);
    if (signal.aborted || offline()) return signal.aborted;
    count = 0;
    try {
      const outcome = await reconnectOnce(request, controller, send, report, base, stallMs, seen, () => reconnecting(false));
      if (outcome === "ended" || outcome === "none") return outcome === "ended";
    } catch (error) {
      if (isMalformed(error) && !signal.aborted) {
        fail(failureOf(error, undefined, request.options.protocol));
        return true;
      }
    }
    if (signal.aborted) return true;
    if (Date.now() - lastFrameAt >= budgetMs) return false;
    // Further into the run than any reconnect before: the network works, so try again at once.
    if (count > reached) {
      reached = count;
      delay = 0;
    } else delay = delay === 0 ? delayMs : Math.min(delay * 2, delayMs * MAX_DELAY_FACTOR);
  }
}

/** After a drop (streamRun's `reconnect`): the run's start is the request's session. */
const reconnect = (request, controller, report) => reconnectUntilEnd(request, controller, report, request.session, true);

/** A run restored while it streamed: reconnected, or, with nothing to resume, stopped. Its start
 *  is the one stored with it (undefined when none was: the replay starts each message over). */
async function resumeRun(request, controller, report) {
  if (!(await reconnectUntilEnd(request, controller, report, request.runStart, false))) reporting(controller, report).send([{ type: "stop" }]);
}

/**
 * Runs the reply the hook's effect is for: a resumed run (the conversation was opened still
 * streaming, see resumesStored), else a request, which reconnects when the connection drops if
 * the hook resumes.
 * @param {{ options: any, session: any, chatId: string, runStart?: { messages: any[], agentState?: unknown } }} request
 * @param {AbortController} controller
 * @param {import("./run.js").RunReport} report
 * @param {boolean} resumed
 */
export function runReply(request, controller, report, resumed) {
  if (resumed) return resumeRun(request, controller, report);
  if (!resumes(request.options, request.options.protocol)) return streamRun(request, controller, report);
  return streamRun(request, controller, report, reconnect, reconnectOptions(request.options.reconnect).stallMs);
}

/**
 * Whether the conversation restored from `entry` (restoreSessionEntry's) goes on streaming, its
 * run resumed rather than cut (conversation.js opens it so): it was stored while streaming, and
 * the hook resumes.
 */
export function resumesStored(options, entry) {
  return entry.wasStreaming === true && resumes(options, options.protocol ?? "actions");
}

/**
 * Tells the server the user ended the run (Stop, Reset, an edit or a regenerate while it
 * streams): with `resume`, closing the connection is only a disconnect, and the server would go
 * on producing. POSTs the run's request body to `stopApi`; a failure is the server's to log.
 */
export function stopOnServer(options, session, chatId) {
  if (options.stopApi === undefined || session.status !== "streaming") return;
  void loadProtocol(options.protocol)
    .then((protocol) => fetchOf(options.stopApi, "POST", options, protocol.accept, bodyOf({ options, session, chatId }, protocol)))
    .catch(() => {});
}
