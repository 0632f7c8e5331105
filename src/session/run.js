// One agent run: the request, then every frame of the response turned into checked actions and
// handed to `deliver`. Every way a run can go wrong ends it with an error part, so the session
// shows it with Retry: nothing here throws, and nothing unchecked reaches the reducer (a reducer
// that throws inside React's render would take the page down). An abort (Stop, Reset, unmount)
// is not an error: the run just ends.

import { checkAction } from "chat-session-reducer";
import { newId } from "./ids.js";
import { CONTENT_TYPES, loadProtocol } from "./protocols.js";
import { invalidInput } from "../shared/coded-error.js";

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

/** A request to `url` with the app's `headers`; `body`, when given, is sent as JSON. */
export function request(url, method, { headers }, accept, body, signal, extraHeaders) {
  const json = body !== undefined && { "content-type": "application/json" };
  return fetch(url, { method, headers: { ...json, accept, ...(typeof headers === "function" ? headers() : headers), ...extraHeaders }, body: json ? JSON.stringify(body) : undefined, signal });
}

function post(options, protocol, body, signal) {
  return typeof options.api === "function" ? options.api(body, signal) : request(options.api, "POST", options, protocol.accept, body, signal);
}

/** The frame as checked actions; throws a coded error naming the frame (`stream[N]`, counted
 *  from 0 as the readers count them) when it is malformed. The server folds with it too. */
export function actionsOf(translate, frame, index) {
  try {
    return translate(frame).map((action) => checkAction(action));
  } catch (error) {
    throw invalidInput(`stream[${index}]`, error.message);
  }
}

// The protocols a response's headers say it speaks: the AI SDK's own header, else its content
// type, by the subtype with or without its `x-` (application/ndjson is NDJSON too).
function protocolsOf(response) {
  const header = (name) => response.headers?.get?.(name) ?? "";
  if (header("x-vercel-ai-ui-message-stream") !== "") return ["ai-sdk"];
  const type = header("content-type");
  const subtype = (mediaType) => mediaType.slice(mediaType.indexOf("/") + 1).replace(/^x-/, "");
  return Object.keys(CONTENT_TYPES).filter((name) => type.includes(subtype(CONTENT_TYPES[name])));
}

/** What to add to a malformed-frame error when the response's headers name another protocol:
 *  forgetting `protocol: "ai-sdk"` is the usual cause. */
export function protocolHint(response, protocol) {
  const spoken = response === undefined ? [] : protocolsOf(response);
  if (spoken.length === 0 || spoken.includes(protocol)) return "";
  const options = spoken.map((name) => `protocol: "${name}"`).join(" or ");
  return `; the response looks like another protocol (${response.headers.get("content-type") ?? "its headers"}), and this hook reads "${protocol}": set ${options}`;
}

/**
 * The request body: the protocol's default, or what the app's `body` option makes of it.
 * @param {{ options: any, session: any, chatId: string, startedBy?: { trigger: string, messageId?: string } }} request
 * @param {any} protocol
 */
export function bodyOf({ options, session, chatId, startedBy }, protocol) {
  const defaultBody = protocol.body({ session, chatId, runId: newId("run"), startedBy });
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
 * @param {{ translator: (hooks: { onTransientData: (part: unknown) => void, replay: boolean }) => (frame: unknown) => unknown[], read: (response: Response | ReadableStream) => AsyncIterable<unknown>, severalRuns?: boolean }} protocol
 * @param {Response | ReadableStream} response the response, or its body (watched for a stall)
 * @param {AbortController} controller
 * @param {(actions: any[]) => void} send
 * @param {RunReport} report
 * @param {{ replay?: boolean, reconnects?: boolean, onFrame?: () => void }} [options] `onFrame`: called for each frame read
 */
export async function readReply(protocol, response, controller, send, report, { replay = false, reconnects = false, onFrame } = {}) {
  const onTransientData = (part) => {
    if (!controller.signal.aborted) report.transient(part);
  };
  const translate = protocol.translator({ onTransientData, replay });
  const { ended } = report;
  // The run's frames applied (its offset on the server: where a Stop cuts, where a reconnect goes on).
  const applied = () => {
    if (report.position !== undefined) report.position.frames += 1;
  };
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
      onFrame?.();
      let actions = actionsOf(translate, frame, index++);
      const endsARun = actions.some(endsRun);
      if (held !== undefined) {
        // What follows a run's end is dropped, unless it starts the response's next run.
        if (!startsNextRun(actions)) {
          end(held);
          applied();
          continue;
        }
        clearTimeout(cutOff);
        cutOff = undefined;
        actions = [...held, ...actions];
        held = undefined;
        applied();
      }
      if (!endsARun) send(actions);
      else if (!protocol.severalRuns) end(actions);
      else {
        held = actions;
        cutOff = setTimeout(() => {
          if (held === undefined) return;
          end(held, 0);
          applied();
        }, AFTER_END_MS);
        continue;
      }
      applied();
    }
    if (held !== undefined) {
      end(held);
      applied();
    }
  } catch (error) {
    if (held !== undefined) {
      // A drop: the run may go on (the reconnect replays it). A bad frame after the end is not the run's.
      if (reconnects && !isMalformed(error)) return false;
      end(held);
      applied();
    }
    // After the run ended, what the body does (a drop, the cut-off, a bad frame) is not the run's.
    if (cutOff === undefined) throw error;
  } finally {
    clearTimeout(cutOff);
  }
  return cutOff !== undefined;
}

export const isMalformed = (error) => error?.code === "invalid" || error?.code === "invalid_json";

/**
 * What a run tells the hook. `deliver(actions)` receives the checked actions in order;
 * `ended()` is called when the frame that ends the run arrives: from then on the request is left
 * to end by itself (see AFTER_END_MS); `failed(details)` just before the error part of a run the
 * hook ends in error (the HTTP status and body, or the thrown `cause`); `transient(part)` for a
 * transient data part (never stored); `reconnecting(true)` when the run's connection broke and a
 * reconnect is tried (resume.js), `reconnecting(false)` once one answers. None is called once
 * the controller has aborted.
 * @typedef {{ deliver: (actions: any[]) => void, ended: () => void, failed: (details: object) => void, transient: (part: unknown) => void, reconnecting: (on: boolean) => void, position?: { run?: string, frames: number } }} RunReport
 */

/** Why the request or its body failed, for people; the thrown error is the `cause`. */
function unreachable(error, responded) {
  const message = responded ? "The connection to the agent broke before the reply was finished." : "Couldn't reach the agent.";
  return { message, code: "network", details: { cause: error?.message ?? String(error) } };
}

/** The failure of a run that threw `error` while requesting or reading (`response`: the one answered, if any). */
export function failureOf(error, response, protocolName) {
  // A frame the reader could not parse (invalid_json), or one that is not a valid action.
  if (isMalformed(error)) {
    return { message: `The agent sent a malformed frame, so this reply was stopped: ${error.message}${protocolHint(response, protocolName)}` };
  }
  return unreachable(error, response !== undefined);
}

/** How a run delivers its actions (`send`) and its failure (`fail`) to `report`, until `controller` aborts. */
export function reporting(controller, report) {
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
  return { send, fail };
}

/** One connection of a run: aborted with the run, or alone (a stall) while the run goes on. */
export function connectionOf(run) {
  const connection = new AbortController();
  run.signal.addEventListener("abort", () => connection.abort(run.signal.reason), { once: true });
  return connection;
}

// setTimeout takes at most this (about 25 days: a longer time is never, in practice).
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Aborts `connection` when nothing arrives for `stallMs` from now or from the last `touch()` it
 * returns (a proxy can keep a response open long after its upstream dropped); a timer left after
 * the connection ended only aborts what is over.
 */
export function stallWatch(connection, stallMs) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => connection.abort(new Error("stalled")), Math.min(stallMs, MAX_TIMER_MS));
    // A watch never keeps a process alive (a server or a test in Node; browsers have no unref).
    /** @type {any} */ (timer).unref?.();
  };
  connection.signal.addEventListener("abort", () => clearTimeout(timer));
  touch();
  return touch;
}

/** The response's body, each chunk calling `touch` (bytes count, not frames: a server's
 *  keep-alive comments show the connection is alive). */
export const watchedBody = (response, touch) =>
  response.body.pipeThrough(
    new TransformStream({
      transform(chunk, out) {
        touch();
        out.enqueue(chunk);
      },
    }),
  );

/** The headers by which a server of chat-session-reducer/server names a response's run and the
 *  offset its body starts at, and by which a Stop or a reconnect says where the client is. */
export const RUN_HEADERS = Object.freeze({ id: "chat-run-id", offset: "chat-run-offset" });

/** Where a response starts, when its server says (chat-session-reducer/server does): the run's id and offset. */
export function positionFrom(response, position) {
  if (position === undefined) return;
  const run = response.headers?.get?.(RUN_HEADERS.id) ?? null;
  position.run = run ?? undefined;
  position.frames = run === null ? 0 : Number(response.headers.get(RUN_HEADERS.offset)) || 0;
}

/** The headers that tell the server where the client is in the run `position` names (none when it named none). */
export function positionHeaders(position) {
  if (position?.run === undefined) return undefined;
  return { [RUN_HEADERS.id]: position.run, [RUN_HEADERS.offset]: String(position.frames) };
}

/** A reply whose body ended before the frame that ends its run (the server folds the same). */
export const CLOSED_EARLY = Object.freeze({ message: "The connection closed before the reply was finished.", code: "network" });

/**
 * Runs one request. `request` is { options, session, chatId, startedBy }: the hook's options and
 * the session at the start of the run, the conversation's id, and what started the run. When the connection drops
 * mid-reply, `reconnect(request, controller, report)` (resume.js), if given, may take the run
 * over: it resolves true when it did. With
 * `stallMs` (given with `reconnect`), a body that sends nothing for that long is a drop.
 * @param {{ options: any, session: any, chatId: string, startedBy?: { trigger: string, messageId?: string } }} request
 * @param {AbortController} controller
 * @param {RunReport} report
 * @param {(request: any, controller: AbortController, report: RunReport) => Promise<boolean>} [reconnect]
 * @param {number} [stallMs]
 */
export async function streamRun(request, controller, report, reconnect, stallMs = Infinity) {
  const { send, fail } = reporting(controller, report);
  const protocolName = request.options.protocol;
  const connection = connectionOf(controller);
  let response;
  try {
    const protocol = await loadProtocol(protocolName);
    response = await post(request.options, protocol, bodyOf(request, protocol), connection.signal);
    if (!response.ok) return fail(await describeRefusal(response));
    if (response.body === null) return fail({ message: "The agent answered with an empty response.", code: "network" });
    positionFrom(response, report.position);
    // The server may take its time to answer; once it has, silence is a stall.
    const body = reconnect === undefined ? response : watchedBody(response, stallWatch(connection, stallMs));
    if (await readReply(protocol, body, controller, send, report, { reconnects: reconnect !== undefined })) return;
    if (await reconnect?.(request, controller, report)) return;
    fail(CLOSED_EARLY);
  } catch (error) {
    if (controller.signal.aborted) return;
    // The request was answered and the connection dropped (or stalled) while the reply streamed.
    if (response?.ok && !isMalformed(error) && (await reconnect?.(request, controller, report))) return;
    fail(failureOf(error, response, protocolName));
  }
}
