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
import { bodyOf, failureOf, positionHeaders, reporting, request as fetchOf, streamRun } from "./run.js";
import { invalid } from "../shared/coded-error.js";

/**
 * How the hook reconnects (its `reconnect` option, docs/decisions.md says why these): it gives up
 * once `budgetMs` passed with no frame from any connection of the run; a response that sends
 * nothing for `stallMs` is a drop; the pause before a reconnect after a failed one starts at
 * `delayMs` and doubles (src/resume/index.js).
 */
const RECONNECT = { budgetMs: 60_000, stallMs: 30_000, delayMs: 250 };

/** The `reconnect` option with its defaults; throws a coded TypeError naming a field that is not
 *  a number of milliseconds (Infinity: never). */
export function reconnectOptions(reconnect) {
  const chosen = { ...RECONNECT, ...reconnect };
  for (const name in RECONNECT) {
    const path = `options.reconnect.${name}`;
    if (!(chosen[name] >= 0)) throw invalid(path, "milliseconds");
  }
  return chosen;
}

/** Whether a run of the hook with these options can be resumed. */
export function resumes(options, protocolName) {
  return options.resume === true && typeof options.api !== "function" && Object.hasOwn(RESUME_REQUESTS, protocolName);
}

/**
 * Runs the reply the controller's run is for: a request, and where the hook resumes (or the run is
 * one resumed: the conversation was opened still streaming, see resumesStored) the same through
 * chat-session-reducer/resume, loaded now, while the network is up, for the reconnects to come.
 * @param {{ options: any, session: any, chatId: string, runStart?: { messages: any[], agentState?: unknown } }} request
 * @param {AbortController} controller
 * @param {import("./run.js").RunReport} report
 * @param {boolean} resumed
 */
export function runReply(request, controller, report, resumed) {
  if (!resumed && !resumes(request.options, request.options.protocol)) return streamRun(request, controller, report);
  return import("chat-session-reducer/resume").then(
    ({ runResumable }) => runResumable(request, controller, report, resumed),
    (error) => reporting(controller, report).fail(failureOf(error, undefined, request.options.protocol)),
  );
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
 * on producing. POSTs the run's request body to `stopApi`, with the run's id and the frames the
 * client applied (`position`); a failure is the server's to log.
 */
export function stopOnServer(options, session, chatId, position) {
  if (options.stopApi === undefined || session.status !== "streaming") return undefined;
  // Where the client is in the run (a server of chat-session-reducer/server cuts its fold there).
  const where = positionHeaders(position);
  return loadProtocol(options.protocol)
    .then((protocol) => fetchOf(options.stopApi, "POST", options, protocol.accept, bodyOf({ options, session, chatId }, protocol), undefined, where))
    .then(
      (response) => void response.body?.cancel().catch(() => {}),
      () => {},
    );
}
