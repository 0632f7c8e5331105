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

import { restoredStatus } from "chat-session-reducer";
import { canReconnect, loadProtocol, resumeRequest } from "./protocols.js";
import { bodyOf, failedRun, isMalformed, readReply, streamRun } from "./run.js";
import { RESUME } from "./session.js";
import { useClientLayoutEffect } from "./storage.js";

// Reconnects tried in a row for one run before it fails as the drop it is, and the pause before
// each after the first (the network may take a moment to come back).
const MAX_RECONNECTS = 5;
const RECONNECT_PAUSE_MS = 250;

/** Whether a run of the hook with these options can be resumed. */
export function resumes(options, protocolName) {
  return options.resume === true && typeof options.api !== "function" && canReconnect(protocolName);
}

/** The id the server knows the conversation by: the one the run's request carried. */
const conversationId = (request) => request.options.id ?? request.chatId;

function headersOf({ headers }) {
  return typeof headers === "function" ? headers() : headers;
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
async function reconnectOnce(request, controller, send, ended, fromRunStart) {
  const protocol = await loadProtocol(request.options.protocol);
  const { url, method, body } = resumeRequest(request.options.protocol, {
    api: request.options.api,
    id: conversationId(request),
    body: () => bodyOf(request, protocol),
  });
  const response = await fetch(url, {
    method,
    headers: { accept: protocol.accept, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headersOf(request.options) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: controller.signal,
  });
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
  return (await readReply(protocol, response, controller, replayed, ended, options)) ? "ended" : "dropped";
}

const pause = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve(undefined)), { once: true });
  });

/**
 * Reconnects until the replayed run ends; resolves true when it took the run over (it ended,
 * failed with a malformed frame, or was aborted), false when the server has no run to resume or
 * the network stays down. Never throws.
 */
async function reconnectUntilEnd(request, controller, send, ended, fromRunStart) {
  const { signal } = controller;
  for (let attempt = 0; attempt < MAX_RECONNECTS; attempt += 1) {
    if (attempt > 0) await pause(RECONNECT_PAUSE_MS, signal);
    if (signal.aborted) return true;
    try {
      const outcome = await reconnectOnce(request, controller, send, ended, fromRunStart);
      if (outcome !== "dropped") return outcome === "ended";
    } catch (error) {
      if (signal.aborted) return true;
      if (isMalformed(error)) {
        send([failedRun(error, undefined, request.options.protocol)]);
        return true;
      }
    }
  }
  return false;
}

/** After a drop (streamRun's `reconnect`): the run's start is the request's session. */
export const reconnect = (request, controller, send, ended) => reconnectUntilEnd(request, controller, send, ended, true);

/** A run restored while it streamed: reconnected, or, with nothing to resume, stopped. */
async function resumeRun(request, controller, deliver, ended) {
  const send = (actions) => {
    if (!controller.signal.aborted) deliver(actions);
  };
  if (!(await reconnectUntilEnd(request, controller, send, ended, false))) send([{ type: "stop" }]);
}

/**
 * Starts the run the hook's effect is for: a resumed one (the conversation was restored while it
 * streamed), else a request, which reconnects when the connection drops if the hook resumes.
 */
export function startRun(request, controller, deliver, ended, resumed) {
  if (resumed) return resumeRun(request, controller, deliver, ended);
  return streamRun(request, controller, deliver, ended, resumes(request.options, request.options.protocol) ? reconnect : undefined);
}

/**
 * After the stored session is restored (storage.js's layout effect, declared before this one):
 * when it was stored while streaming and the hook resumes, it goes on streaming and its run is
 * resumed rather than cut.
 */
export function useResumeAfterReload(options, protocolName, dispatch) {
  const { storageKey, storage } = options;
  const resuming = resumes(options, protocolName);
  useClientLayoutEffect(() => {
    if (storageKey === undefined || !resuming) return;
    if (restoredStatus(storageKey, storage) === "streaming") dispatch({ type: RESUME });
  }, [storageKey, storage, resuming]);
}

/**
 * Tells the server the user ended the run (Stop, Reset, an edit or a regenerate while it
 * streams): with `resume`, closing the connection is only a disconnect, and the server would go
 * on producing. POSTs the run's request body to `stopApi`; a failure is the server's to log.
 */
export function stopOnServer(options, protocolName, session, chatId) {
  if (options.stopApi === undefined || session.status !== "streaming") return;
  void loadProtocol(protocolName)
    .then((protocol) =>
      fetch(options.stopApi, {
        method: "POST",
        headers: { "content-type": "application/json", ...headersOf(options) },
        body: JSON.stringify(bodyOf({ options, session, chatId }, protocol)),
      }),
    )
    .catch(() => {});
}
