// Reconnecting to a run the server still produces (chat-session-reducer/resume): what the session
// controller's `resume: true` needs beyond a plain request, loaded with the first run that may
// reconnect (src/session/resume.js), so an app that does not resume never downloads it. Not an
// API of its own: the controller is its only caller.

import { reconnectOptions } from "../session/resume.js";
import { RESUME_REQUESTS, loadProtocol } from "../session/protocols.js";
import { MAX_TIMER_MS, RUN_HEADERS, bodyOf, connectionOf, failureOf, isMalformed, positionFrom, positionHeaders, readReply, reporting, request as fetchOf, stallWatch, streamRun, watchedBody } from "../session/run.js";

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
  const { position } = report;
  const response = await fetchOf(url, method, request.options, protocol.accept, body, connection.signal, positionHeaders(position));
  if (response.status === 204 || !response.ok || response.body === null) {
    await response.body?.cancel().catch(() => {});
    // A server (or a proxy in its way) that is restarting is tried again; a 204 or a 4xx: no run here.
    return response.status >= 500 ? "failed" : "none";
  }
  connected();
  // A server that sends what the client lacks (chat-session-reducer/server) goes on from there:
  // nothing is put back or replayed; any other sends the run from its start.
  if (continuesFrom(response, position)) {
    return (await readReply(protocol, watchedBody(response, touch), controller, send, report, { reconnects: true, onFrame: seen })) ? "ended" : "dropped";
  }
  positionFrom(response, position);
  let restore = base === undefined ? [] : restoringRunStart(base);
  const replayed = (actions) => {
    send(restore.length === 0 ? actions : [...restore, ...actions]);
    restore = [];
  };
  const options = { replay: base === undefined, reconnects: true, onFrame: seen };
  return (await readReply(protocol, watchedBody(response, touch), controller, replayed, report, options)) ? "ended" : "dropped";
}

/** Whether `response` goes on from where the client is in its run (the same run, at the client's offset). */
function continuesFrom(response, position) {
  if (position?.run === undefined) return false;
  return response.headers.get(RUN_HEADERS.id) === position.run && Number(response.headers.get(RUN_HEADERS.offset)) === position.frames;
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

// The pause before a reconnect after failed ones grows up to this many times `delayMs`. The first
// reconnect after a drop, and the first after a connection that got further into the run than
// any before, go at once.
const MAX_DELAY_FACTOR = 16;

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
 * Runs a reply that may reconnect: a resumed run (the conversation was opened still streaming),
 * else a request, which reconnects when the connection drops.
 * @param {{ options: any, session: any, chatId: string, runStart?: { messages: any[], agentState?: unknown } }} request
 * @param {AbortController} controller
 * @param {import("../session/run.js").RunReport} report
 * @param {boolean} resumed
 */
export function runResumable(request, controller, report, resumed) {
  if (resumed) return resumeRun(request, controller, report);
  return streamRun(request, controller, report, reconnect, reconnectOptions(request.options.reconnect).stallMs);
}
