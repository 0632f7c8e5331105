// One agent run: the request, then every frame of the response turned into checked actions and
// handed to `deliver`. Every way a run can go wrong ends it with an error part, so the session
// shows it with Retry: nothing here throws, and nothing unchecked reaches the reducer (a reducer
// that throws inside React's render would take the page down). An abort (Stop, Reset, unmount)
// is not an error: the run just ends.

import { checkAction } from "chat-session-reducer";
import { newId } from "./ids.js";
import { loadProtocol } from "./protocols.js";

/** An error part: the session ends the run in error, cancels its open calls and offers Retry. */
export function runFailed(message, code) {
  return { type: "part", part: code === undefined ? { type: "error", error: message } : { type: "error", error: message, code } };
}

/** True for an action that ends the top-level run (a nested finish or error ends only its sub-run). */
export function endsRun(action) {
  if (action.type === "batch") return action.actions.some(endsRun);
  return action.type === "part" && action.within === undefined && (action.part.type === "finish" || action.part.type === "error");
}

function codeForStatus(status) {
  if (status === 429) return "rate_limited";
  if (status === 403) return "chat_disabled";
  if (status >= 400 && status < 500) return "bad_request";
  return "network";
}

async function describeRefusal(response) {
  const text = await response.text().catch(() => "");
  let reason = response.statusText;
  try {
    const body = JSON.parse(text);
    if (typeof body?.error === "string") reason = body.error;
    else if (typeof body?.message === "string") reason = body.message;
  } catch {
    if (text.trim() !== "" && text.length <= 200) reason = text.trim();
  }
  return `The agent refused the request (HTTP ${response.status})${reason ? `: ${reason}` : "."}`;
}

function post({ api, headers }, protocol, body, signal) {
  if (typeof api === "function") return api(body, signal);
  return fetch(api, {
    method: "POST",
    headers: { "content-type": "application/json", accept: protocol.accept, ...(typeof headers === "function" ? headers() : headers) },
    body: JSON.stringify(body),
    signal,
  });
}

/** The frame as checked actions; throws a coded error naming the frame (`stream[N]`, counted
 *  from 0 as the readers count them) when it is malformed. */
function actionsOf(translate, frame, index) {
  try {
    return translate(frame).map((action) => checkAction(action));
  } catch (error) {
    throw Object.assign(new TypeError(`stream[${index}]: ${error.message}`), { code: "invalid", path: `stream[${index}]` });
  }
}

// The protocols a response's headers say it speaks: the AI SDK's own header, else its content type.
function protocolsOf(response) {
  const header = (name) => response.headers?.get?.(name) ?? "";
  if (header("x-vercel-ai-ui-message-stream") !== "") return ["ai-sdk"];
  const type = header("content-type");
  if (type.includes("text/event-stream")) return ["ai-sdk", "ag-ui"];
  if (type.includes("ndjson")) return ["actions", "chat-stream"];
  return [];
}

/** What to add to a malformed-frame error when the response's headers name another protocol:
 *  forgetting `protocol: "ai-sdk"` is the usual cause. */
export function protocolHint(response, protocol) {
  const spoken = response === undefined ? [] : protocolsOf(response);
  if (spoken.length === 0 || spoken.includes(protocol)) return "";
  const options = spoken.map((name) => `protocol: "${name}"`).join(" or ");
  return `; the response looks like another protocol (${response.headers.get("content-type") ?? "its headers"}), and this hook reads "${protocol}": set ${options}`;
}

/** The request body: the protocol's default, or what the app's `body` option makes of it. */
export function bodyOf({ options, session, chatId }, protocol) {
  const defaultBody = protocol.body({ session, chatId, runId: newId("run") });
  return options.body === undefined ? defaultBody : options.body(session, defaultBody);
}

// How long a request may stay open after the frame that ended its run. Meanwhile the rest of its
// body is read and dropped, so the request ends as the server ends it: cancelling it would tell
// the server the user had stopped a reply that was complete.
const AFTER_END_MS = 1000;

/** True for actions in which the stream starts its next run itself (a top-level `continue`). */
export function startsNextRun(actions) {
  return actions.some((action) => action.type === "continue" || (action.type === "batch" && startsNextRun(action.actions)));
}

/**
 * Reads the reply's frames and delivers their actions, up to the frame that ends the run; then
 * `ended()`, and the rest of the body is drained for at most AFTER_END_MS. Returns whether that
 * frame came. For a protocol whose response may carry several runs (AG-UI: RUN_STARTED after
 * RUN_FINISHED, as a connect replaying a thread's runs sends them), the frame that ends a run is
 * held until the next frame: delivered with it when it starts the next run, else as the end; at
 * the body's end, or after AFTER_END_MS, as the end. With `reconnects`, a drop while a run's end
 * is held is a drop (the reconnect replays it), not the end.
 * @param {{ translator: (options?: { replay?: boolean }) => (frame: unknown) => unknown[], read: (response: Response) => AsyncIterable<unknown>, severalRuns?: boolean }} protocol
 * @param {Response} response
 * @param {AbortController} controller
 * @param {(actions: any[]) => void} send
 * @param {() => void} ended
 * @param {{ replay?: boolean, reconnects?: boolean }} [options]
 */
export async function readReply(protocol, response, controller, send, ended, { replay = false, reconnects = false } = {}) {
  const translate = protocol.translator({ replay });
  let index = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let cutOff;
  // The actions of the frame that ended a run, while the response's next run may follow.
  /** @type {any[] | undefined} */
  let held;
  const end = (actions, drainFor = AFTER_END_MS) => {
    clearTimeout(cutOff);
    held = undefined;
    ended();
    cutOff = setTimeout(() => controller.abort(), drainFor);
    send(actions);
  };
  try {
    for await (const frame of protocol.read(response)) {
      if (held === undefined && cutOff !== undefined) continue;
      let actions = actionsOf(translate, frame, index++);
      const endsARun = actions.some(endsRun);
      if (held !== undefined) {
        // What follows a run's end is dropped, unless it starts the response's next run.
        if (!startsNextRun(actions)) {
          end(held);
          continue;
        }
        clearTimeout(cutOff);
        cutOff = undefined;
        actions = [...held, ...actions];
        held = undefined;
      }
      if (!endsARun) send(actions);
      else if (!protocol.severalRuns) end(actions);
      else {
        held = actions;
        cutOff = setTimeout(() => held !== undefined && end(held, 0), AFTER_END_MS);
      }
    }
    if (held !== undefined) end(held);
  } catch (error) {
    if (held !== undefined) {
      // A drop: the run may go on (the reconnect replays it). A bad frame after the end is not the run's.
      if (reconnects && !isMalformed(error)) return false;
      end(held);
    }
    // After the run ended, what the body does (a drop, the cut-off, a bad frame) is not the run's.
    if (cutOff === undefined) throw error;
  } finally {
    clearTimeout(cutOff);
  }
  return cutOff !== undefined;
}

/** The error part for a run that failed with `error` (thrown while requesting or reading). */
export function failedRun(error, response, protocolName) {
  // A frame the reader could not parse (invalid_json), or one that is not a valid action.
  if (isMalformed(error)) {
    return runFailed(`The agent sent a malformed frame, so this reply was stopped: ${error.message}${protocolHint(response, protocolName)}`);
  }
  return runFailed(`Couldn't reach the agent: ${error?.message ?? String(error)}`, "network");
}

export const isMalformed = (error) => error?.code === "invalid" || error?.code === "invalid_json";

/**
 * Runs one request. `request` is { options, session, chatId }: the hook's options and the
 * session at the start of the run; `deliver(actions)` receives the checked actions in order; it
 * is not called once `controller` has aborted. `ended()` is called when the frame that ends the
 * run arrives: from then on the request is left to end by itself (see AFTER_END_MS). When the
 * connection drops mid-reply, `reconnect(request, controller, send, ended)` (resume.js), if
 * given, may take the run over: it resolves true when it did.
 */
export async function streamRun(request, controller, deliver, ended, reconnect) {
  const { signal } = controller;
  const send = (actions) => {
    if (!signal.aborted) deliver(actions);
  };
  const protocolName = request.options.protocol;
  let response;
  try {
    const protocol = await loadProtocol(protocolName);
    response = await post(request.options, protocol, bodyOf(request, protocol), signal);
    if (!response.ok) return send([runFailed(await describeRefusal(response), codeForStatus(response.status))]);
    if (response.body === null) return send([runFailed("The agent answered with an empty response.", "network")]);
    if (await readReply(protocol, response, controller, send, ended, { reconnects: reconnect !== undefined })) return;
    if (await reconnect?.(request, controller, send, ended)) return;
    send([runFailed("The connection closed before the reply was finished.", "network")]);
  } catch (error) {
    if (signal.aborted) return;
    // The request was answered and the connection dropped while the reply streamed.
    if (response?.ok && !isMalformed(error) && (await reconnect?.(request, controller, send, ended))) return;
    send([failedRun(error, response, protocolName)]);
  }
}
