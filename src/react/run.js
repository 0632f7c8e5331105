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

// What the app's user reads when the server refused the request and said nothing of its own.
function sentenceForStatus(status) {
  if (status === 429) return "Too many requests: wait a moment and try again.";
  if (status === 401 || status === 403) return "The agent refused the request.";
  if (status === 404) return "The agent was not found at this address.";
  if (status === 413) return "The message is too large for the agent.";
  if (status >= 400 && status < 500) return "The agent could not accept the request.";
  return "The agent failed to answer. Try again.";
}

/**
 * An HTTP refusal: `message` for people (the server's own words when it refused the request and
 * gave a reason, `{ error }` or `{ message }` or a short text; else a sentence for the status),
 * and the details apart (`status`, `body`: the text the server sent). A server error's words
 * (5xx) are for developers, never the message.
 */
async function describeRefusal(response) {
  const body = await response.text().catch(() => "");
  let reason;
  try {
    const parsed = JSON.parse(body);
    reason = typeof parsed?.error === "string" ? parsed.error : typeof parsed?.message === "string" ? parsed.message : undefined;
  } catch {
    if (body.trim() !== "" && body.length <= 200 && !body.trimStart().startsWith("<")) reason = body.trim();
  }
  const status = response.status;
  const message = status < 500 && reason ? reason : sentenceForStatus(status);
  return { message, code: codeForStatus(status), details: { status, body } };
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
function bodyOf({ options, session, chatId, startedBy }, protocol) {
  const defaultBody = protocol.body({ session, chatId, runId: newId("run"), startedBy });
  return options.body === undefined ? defaultBody : options.body(session, defaultBody);
}

// How long a request may stay open after the frame that ended its run. Meanwhile the rest of its
// body is read and dropped, so the request ends as the server ends it: cancelling it would tell
// the server the user had stopped a reply that was complete.
const AFTER_END_MS = 1000;

/**
 * Reads the reply's frames and delivers their actions, up to the frame that ends the run; then
 * `ended()`, and the rest of the body is drained for at most AFTER_END_MS. Returns whether that
 * frame came.
 * @param {{ translator: (hooks: { onTransientData: (part: unknown) => void }) => (frame: unknown) => unknown[], read: (response: Response) => AsyncIterable<unknown> }} protocol
 * @param {Response} response
 * @param {AbortController} controller
 * @param {(actions: any[]) => void} send
 * @param {RunReport} report
 */
async function readReply(protocol, response, controller, send, report) {
  const onTransientData = (part) => {
    if (!controller.signal.aborted) report.transient(part);
  };
  const translate = protocol.translator({ onTransientData });
  const { ended } = report;
  let index = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let cutOff;
  try {
    for await (const frame of protocol.read(response)) {
      if (cutOff !== undefined) continue;
      const actions = actionsOf(translate, frame, index++);
      if (actions.some(endsRun)) {
        ended();
        cutOff = setTimeout(() => controller.abort(), AFTER_END_MS);
      }
      send(actions);
    }
  } catch (error) {
    // After the run ended, what the body does (a drop, the cut-off, a bad frame) is not the run's.
    if (cutOff === undefined) throw error;
  } finally {
    clearTimeout(cutOff);
  }
  return cutOff !== undefined;
}

/**
 * What a run tells the hook. `deliver(actions)` receives the checked actions in order;
 * `ended()` is called when the frame that ends the run arrives: from then on the request is left
 * to end by itself (see AFTER_END_MS); `failed(details)` just before the error part of a run the
 * hook ends in error (the HTTP status and body, or the thrown `cause`); `transient(part)` for a
 * transient data part (never stored). None is called once the controller has aborted.
 * @typedef {{ deliver: (actions: any[]) => void, ended: () => void, failed: (details: object) => void, transient: (part: unknown) => void }} RunReport
 */

/** Why the request or its body failed, for people; the thrown error is the `cause`. */
function unreachable(error, responded) {
  const message = responded ? "The connection to the agent broke before the reply was finished." : "Couldn't reach the agent.";
  return { message, code: "network", details: { cause: error?.message ?? String(error) } };
}

/**
 * Runs one request. `request` is { options, session, chatId, startedBy }: the hook's options and
 * the session at the start of the run, the conversation's id, and what started the run.
 * @param {{ options: any, session: any, chatId: string, startedBy: { trigger: string, messageId?: string } | undefined }} request
 * @param {AbortController} controller
 * @param {RunReport} report
 */
export async function streamRun(request, controller, report) {
  const { signal } = controller;
  const send = (actions) => {
    if (!signal.aborted) report.deliver(actions);
  };
  /** @param {{ message: string, code?: string, details?: object }} failure */
  const fail = ({ message, code, details }) => {
    if (signal.aborted) return;
    if (details !== undefined) report.failed(details);
    send([runFailed(message, code)]);
  };
  const protocolName = request.options.protocol;
  let response;
  try {
    const protocol = await loadProtocol(protocolName);
    response = await post(request.options, protocol, bodyOf(request, protocol), signal);
    if (!response.ok) return fail(await describeRefusal(response));
    if (response.body === null) return fail({ message: "The agent answered with an empty response.", code: "network" });
    if (await readReply(protocol, response, controller, send, report)) return;
    fail({ message: "The connection closed before the reply was finished.", code: "network" });
  } catch (error) {
    // A frame the reader could not parse (invalid_json), or one that is not a valid action.
    if (error?.code === "invalid" || error?.code === "invalid_json") {
      fail({ message: `The agent sent a malformed frame, so this reply was stopped: ${error.message}${protocolHint(response, protocolName)}` });
    } else {
      fail(unreachable(error, response !== undefined));
    }
  }
}
