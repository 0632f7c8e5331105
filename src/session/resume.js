// Resuming a reply instead of cutting it: useAgentSession's `resume: true`. Where the protocol can
// reconnect to a run the server is still producing (AI SDK 7: GET {api}/{id}/stream; AG-UI: a
// connect, see protocols.js) and `api` is a URL (not a function), a connection that drops
// mid-reply reconnects at once, and a conversation stored while it streamed (a reload, a closed
// tab) is restored still streaming and reconnects. The server replays the run from its start:
// after a drop it goes onto the run's start (the request's session); after a reload the
// adapters' `replay` option starts each message over the first time the replay names it.
// Nothing is doubled, nothing lands in another turn. When no run is active (204), it ends as
// without `resume`: a reload applies `stop`, a drop reports the network error. Stop tells the
// server when the app gives `stopApi`: with resume, closing the connection is only a disconnect.

import { RESUME_REQUESTS, loadProtocol } from "./protocols.js";
import { bodyOf, failureOf, isMalformed, readReply, reporting, request as fetchOf, streamRun } from "./run.js";

// Reconnects tried in a row for one run before it fails as the drop it is, and the pause before
// each after the first (the network may take a moment to come back).
const MAX_RECONNECTS = 5;
const RECONNECT_PAUSE_MS = 250;

/** Whether a run of the hook with these options can be resumed. */
export function resumes(options, protocolName) {
  return options.resume === true && typeof options.api !== "function" && Object.hasOwn(RESUME_REQUESTS, protocolName);
}

// What the run started from, put back before its replay (after a drop, where the hook still has
// it): the replay then rebuilds exactly what the run wrote, also into a message it continued (an
// AI SDK reply after an approval) or into the agent's state.
function restoringRunStart(base) {
  const messages = { type: "part", part: { type: "snapshot", messages: base.messages, exact: true } };
  if (base.agentState === undefined) return [messages];
  return [messages, { type: "part", part: { type: "agent-state", snapshot: base.agentState } }];
}

/**
 * Reads the replayed run; "none" when the server has no active run, else whether it ended. The
 * replay goes onto the run's start when `fromRunStart` (a drop), else (a reload: the run's start
 * is not stored) through the adapter's `replay` option, which starts each message over.
 */
async function reconnectOnce(request, controller, send, report, fromRunStart) {
  const protocol = await loadProtocol(request.options.protocol);
  const { url, method, body } = RESUME_REQUESTS[request.options.protocol]({
    api: request.options.api,
    // The conversation's id, the one its requests carry.
    id: request.chatId,
    body: () => bodyOf(request, protocol),
  });
  const response = await fetchOf(url, method, request.options, protocol.accept, body, controller.signal);
  if (response.status === 204 || !response.ok || response.body === null) {
    await response.body?.cancel().catch(() => {});
    return "none";
  }
  let restore = fromRunStart ? restoringRunStart(request.session) : [];
  const replayed = (actions) => {
    send(restore.length === 0 ? actions : [...restore, ...actions]);
    restore = [];
  };
  const options = { replay: !fromRunStart, reconnects: true };
  return (await readReply(protocol, response, controller, replayed, report, options)) ? "ended" : "dropped";
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reconnects until the replayed run ends; resolves true when it took the run over (it ended,
 * failed with a malformed frame, or was aborted), false when the server has no run to resume or
 * the network stays down. Never throws.
 */
async function reconnectUntilEnd(request, controller, report, fromRunStart) {
  const { signal } = controller;
  const { send, fail } = reporting(controller, report);
  for (let attempt = 0; attempt < MAX_RECONNECTS; attempt += 1) {
    if (attempt > 0) await pause(RECONNECT_PAUSE_MS);
    if (signal.aborted) return true;
    try {
      const outcome = await reconnectOnce(request, controller, send, report, fromRunStart);
      if (outcome !== "dropped") return outcome === "ended";
    } catch (error) {
      if (signal.aborted) return true;
      if (isMalformed(error)) {
        fail(failureOf(error, undefined, request.options.protocol));
        return true;
      }
    }
  }
  return false;
}

/** After a drop (streamRun's `reconnect`): the run's start is the request's session. */
export const reconnect = (request, controller, report) => reconnectUntilEnd(request, controller, report, true);

/** A run restored while it streamed: reconnected, or, with nothing to resume, stopped. */
async function resumeRun(request, controller, report) {
  if (!(await reconnectUntilEnd(request, controller, report, false))) reporting(controller, report).send([{ type: "stop" }]);
}

/**
 * Runs the reply the hook's effect is for: a resumed run (the conversation was opened still
 * streaming, see resumesStored), else a request, which reconnects when the connection drops if
 * the hook resumes.
 * @param {{ options: any, session: any, chatId: string }} request
 * @param {AbortController} controller
 * @param {import("./run.js").RunReport} report
 * @param {boolean} resumed
 */
export function runReply(request, controller, report, resumed) {
  if (resumed) return resumeRun(request, controller, report);
  return streamRun(request, controller, report, resumes(request.options, request.options.protocol) ? reconnect : undefined);
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
