// The request side of chat-session-reducer/server: a client applied the user's operation to its
// state and posted the protocol's body; this finds which operation it was by comparing the body's
// messages with the stored active path (following the stored branches the client switched to),
// applies it with the reducer to the stored state, and checks the result against the body, so
// the stored state becomes the client's: forks, queue and questions included. A body that no
// operation explains (another tab's stale view) is a conflict, never merged.

import { checkAction, sessionReducer } from "chat-session-reducer";
import { toAgUiInput } from "chat-session-reducer/ag-ui";
import { toAiSdkMessages } from "chat-session-reducer/ai-sdk";
import { FORMS, keyOf } from "./request-forms.js";
import { invalid } from "../shared/coded-error.js";
import { isRecord } from "../adapters/shared/fields.js";

const MAX_ID_LENGTH = 200;
const DEFAULT_MAX_MESSAGES = 10_000;
const OPEN_STATES = new Set(["input-streaming", "running", "awaiting-confirmation"]);
// How many branch switches one request may imply: a path switched at every fork of a deep tree.
const MAX_SWITCHES = 1000;

const badRequest = (path, problem) => ({ ok: false, status: 400, error: { code: "invalid", message: `${path}: ${problem}`, path } });

/** The problem of a conversation id as a 400 answer, or undefined when it is a good one. */
export function checkConversationId(id, path = "id") {
  if (typeof id !== "string" || id === "") return badRequest(path, "expected a conversation id (a non-empty string)");
  if (id.length > MAX_ID_LENGTH) return badRequest(path, `expected at most ${MAX_ID_LENGTH} characters, got ${id.length}`);
  // The id names a row, a log and a route: nothing in it may read as a path or break a header.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return badRequest(path, "expected no control characters");
  if (id.includes("/") || id.includes("\\") || id.includes("..")) return badRequest(path, 'expected no "/", "\\" or ".."');
  return undefined;
}

/** The conversation id a body of the protocol carries (unchecked). */
export function conversationIdOf(protocolName, body) {
  return isRecord(body) ? formOf(protocolName).idOf(body) : undefined;
}

function formOf(protocolName) {
  if (!Object.hasOwn(FORMS, protocolName)) throw invalid("protocolName", `one of ${Object.keys(FORMS).join(", ")}`);
  return FORMS[protocolName];
}

function checkBody(form, body, maxMessages) {
  if (!isRecord(body)) return badRequest("body", "expected a JSON object");
  const idProblem = checkConversationId(form.idOf(body), form.idPath);
  if (idProblem !== undefined) return idProblem;
  if (!Array.isArray(body.messages)) return badRequest("body.messages", "expected an array");
  if (body.messages.length > maxMessages) return badRequest("body.messages", `expected at most ${maxMessages} messages, got ${body.messages.length}`);
  const trigger = form.trigger(body);
  if (trigger !== undefined && trigger !== "submit-message" && trigger !== "regenerate-message") return badRequest("body.trigger", 'expected "submit-message" or "regenerate-message"');
  if (form.messageId(body) !== undefined && typeof form.messageId(body) !== "string") return badRequest("body.messageId", "expected a string");
  const problem = form.check(body);
  return problem === undefined ? undefined : badRequest(problem.path, problem.problem);
}

/** Bad input the reducer found in what the body holds, as a 400 answer at `path`. */
function reducerProblem(error, path, from) {
  if (error?.code !== "invalid") throw error;
  const at = typeof error.path === "string" && error.path.startsWith(from) ? `${path}${error.path.slice(from.length)}` : path;
  return badRequest(at, error.message.slice(error.message.indexOf(": ") + 2));
}

/** The body's session messages (actions, chat-stream) checked as the reducer checks a state's. */
function checkSessionMessages(protocolName, body) {
  if (protocolName !== "actions" && protocolName !== "chat-stream") return undefined;
  try {
    checkAction({ type: "load", state: { messages: body.messages, status: "idle" } });
    return undefined;
  } catch (error) {
    return reducerProblem(error, "body.messages", "action.state.messages");
  }
}

/** The send action of a message the user sent: its first text part is the text, the rest its parts. */
function sendOf(message) {
  const [first, ...others] = message.parts;
  const text = first?.type === "text" ? first.text : "";
  const parts = first?.type === "text" ? others : message.parts;
  const send = { type: "send", id: message.id, text };
  if (parts.length > 0) send.parts = parts;
  if (message.metadata !== undefined) send.metadata = message.metadata;
  return checkAction(send);
}

const queuedOf = ({ type, ...queued }) => queued;

function openCalls(messages) {
  return messages.flatMap((message) => message.parts.filter((part) => part.type === "tool" && OPEN_STATES.has(part.state)));
}

/** The body's messages that say who they are (AG-UI's tool messages are answers), with their index. */
function keyedDigests(form, digests) {
  return digests.map((digest, index) => ({ digest, index, key: keyOf(digest) })).filter(({ digest }) => form.keyed?.(digest) ?? true);
}

const keysOf = (form, group) => group.filter((digest) => form.keyed?.(digest) ?? true).map(keyOf);

/** How many stored messages the body holds as they are stored (`count`), and where it goes on (`next`). */
function align(form, messages, keyed) {
  let next = 0;
  const groups = form.groups(messages);
  for (let count = 0; count < groups.length; count++) {
    const keys = keysOf(form, groups[count]);
    if (!keys.every((key, offset) => keyed[next + offset]?.key === key)) return { count, next };
    next += keys.length;
  }
  return { count: groups.length, next };
}

/** The stored state with the branches switched to that the body's path follows (switchBranch
 *  needs no request, so the client may have switched any number of forks since). */
function followBranches(form, stored, keyed) {
  let state = stored;
  const switches = [];
  for (let step = 0; step < MAX_SWITCHES; step++) {
    const { count, next } = align(form, state.messages, keyed);
    if (next >= keyed.length) return { state, switches, count, next };
    const after = count === 0 ? null : state.messages[count - 1].id;
    const fork = state.forks?.find((candidate) => candidate.after === after);
    const to = fork?.alternatives.findIndex((branch) => branch !== null && form.groups(branch.messages).flatMap((group) => keysOf(form, group))[0] === keyed[next].key) ?? -1;
    /** @type {import("chat-session-reducer").SessionAction} */
    const action = { type: "switchBranch", after, to };
    const switched = to === -1 ? state : sessionReducer(state, action);
    if (switched === state) return { state, switches, count, next };
    switches.push(action);
    state = switched;
  }
  throw new Error("followBranches: more switches than MAX_SWITCHES");
}

/** The operations that could have led from `state` to the body, most likely first: each a list of
 *  actions, or of functions giving the action from the state reached so far. */
function candidatesFor(form, body, state, count, rest, sends) {
  const tail = state.messages.slice(count);
  const trigger = form.trigger(body);
  const regenerating = trigger === "regenerate-message";
  const answers = form.answersFor(body, openCalls(state.messages)).filter((answer) => answer !== undefined).map((part) => ({ type: "part", part }));
  const candidates = [];
  const onlyUsers = rest.length > 0 && rest.every(({ digest }) => digest.role === "user");
  if (onlyUsers && tail.length === 0 && !regenerating) {
    // Several: the client queued them while a reply streamed, and sent them as one turn.
    const queued = sends.slice(0, -1).map(queuedOf);
    const load = (current) => ({ type: "load", state: { ...current, queue: [...(current.queue ?? []), ...queued] } });
    candidates.push([...answers, ...(queued.length > 0 ? [load] : []), sends.at(-1)]);
  }
  const edited = tail[0]?.role === "user" && onlyUsers && sends.length === 1 ? sends[0] : undefined;
  // With a trigger (the AI SDK's body, the package's own), an edit names the message it sent:
  // without that name, a message in place of a stored one is a stale view.
  if (edited !== undefined && !regenerating && (trigger === undefined || form.messageId(body) === edited.id)) {
    candidates.push([{ type: "edit", messageId: tail[0].id, id: edited.id, text: edited.text }]);
  }
  if (rest.length > 0) return candidates;
  const retry = [{ type: "retry" }];
  const regenerate = tail.length === 0 ? [{ type: "regenerate" }] : tail[0].role === "assistant" ? [{ type: "regenerate", messageId: tail[0].id }] : undefined;
  const goOn = tail.length === 0 && !regenerating ? [...answers, { type: "continue" }] : undefined;
  const ordered = state.status === "error" ? [retry, regenerate, goOn] : [goOn, regenerate, retry];
  return [...candidates, ...ordered.filter((candidate) => candidate !== undefined && !(candidate === regenerate && trigger === "submit-message"))];
}

/** `state` after `candidate`'s actions, and the actions; undefined when the reducer refuses one. */
function applyCandidate(state, candidate) {
  const actions = [];
  let current = state;
  for (const step of candidate) {
    const action = typeof step === "function" ? step(current) : step;
    try {
      current = sessionReducer(current, action);
    } catch {
      return undefined;
    }
    actions.push(action);
  }
  return { state: current, actions };
}

/** Whether `state` is what the body shows (`shown`: the body's digests as JSON): its messages,
 *  and AG-UI's resume entries, as the body holds them. */
function matchesBody(form, body, state, shown) {
  return JSON.stringify(form.storedDigests(state.messages)) === shown && JSON.stringify(form.storedExtra(state)) === JSON.stringify(form.extra(body));
}

const triggerOf = (actions) => (actions.some((action) => action.type === "retry" || action.type === "regenerate") ? "regenerate-message" : "submit-message");

function conflict(stored, keyed, next, body) {
  const index = keyed[next]?.index ?? body.messages.length;
  const path = `body.messages[${index}]`;
  const message = `${path}: the messages do not follow from the stored conversation (a stale view, e.g. another tab's): load the conversation again`;
  return { ok: false, status: 409, error: { code: "conflict", message, path }, state: stored };
}

/** The sends of the body's messages `rest` (all the user's), or a 400 answer for one the reducer refuses. */
function sendsOf(form, body, rest) {
  const sends = [];
  for (const { digest, index } of rest) {
    if (digest.role !== "user") return { sends: [] };
    try {
      sends.push(sendOf(form.sent(body, index)));
    } catch (error) {
      return { problem: reducerProblem(error, `body.messages[${index}]`, "action") };
    }
  }
  return { sends };
}

/** A conversation the server does not hold yet: the body's history is loaded, then the operation. */
function firstRequest(form, body, id) {
  const messages = body.messages;
  const last = messages.at(-1);
  if (last === undefined) return badRequest("body.messages", "expected at least one message (the server holds no conversation with this id)");
  const sends = last.role === "user" && form.trigger(body) !== "regenerate-message";
  const history = form.history(sends ? messages.slice(0, -1) : messages);
  const agentState = form === FORMS["ag-ui"] && isRecord(body.state) && Object.keys(body.state).length > 0 ? { agentState: body.state } : {};
  let load;
  try {
    load = checkAction({ type: "load", state: { messages: history, status: "idle", ...agentState } });
  } catch (error) {
    return reducerProblem(error, "body.messages", "action.state.messages");
  }
  /** @type {import("chat-session-reducer").SessionAction} */
  let operation = { type: "continue" };
  if (sends) {
    const { sends: sent, problem } = sendsOf(form, body, [{ digest: { role: "user" }, index: messages.length - 1 }]);
    if (problem !== undefined) return problem;
    operation = sent[0];
  }
  const actions = [load, operation];
  return { ok: true, id, state: sessionReducer(sessionReducer(undefined, load), operation), actions, trigger: triggerOf(actions) };
}

/**
 * The stored state after what the client did, from its request body. See request.d.ts.
 * @param {"ai-sdk" | "ag-ui" | "actions" | "chat-stream"} protocolName
 * @param {unknown} body the parsed JSON body
 * @param {import("chat-session-reducer").SessionState | undefined} stored
 * @param {{ maxMessages?: number }} [options]
 */
export function applyRequest(protocolName, body, stored, { maxMessages = DEFAULT_MAX_MESSAGES } = {}) {
  const form = formOf(protocolName);
  const problem = checkBody(form, body, maxMessages) ?? checkSessionMessages(protocolName, body);
  if (problem !== undefined) return problem;
  const id = form.idOf(body);
  if (stored === undefined) return firstRequest(form, body, id);
  const digests = form.digests(body);
  const keyed = keyedDigests(form, digests);
  const { state, switches, count, next } = followBranches(form, stored, keyed);
  const rest = keyed.slice(next);
  const { sends, problem: sendProblem } = sendsOf(form, body, rest);
  if (sendProblem !== undefined) return sendProblem;
  const shown = JSON.stringify(digests);
  for (const candidate of candidatesFor(form, body, state, count, rest, sends)) {
    const applied = applyCandidate(state, candidate);
    if (applied === undefined || !matchesBody(form, body, applied.state, shown)) continue;
    const actions = [...switches, ...applied.actions];
    return { ok: true, id, state: applied.state, actions, trigger: triggerOf(actions) };
  }
  return conflict(stored, keyed, next, body);
}

/**
 * What the app's model is given for `state`: the active path in the protocol's message form.
 * @param {"ai-sdk" | "ag-ui" | "actions" | "chat-stream"} protocolName
 * @param {import("chat-session-reducer").SessionState} state
 * @param {{ id?: string }} [options] `id`: the conversation's, AG-UI's `threadId`
 */
export function modelInput(protocolName, state, { id } = {}) {
  formOf(protocolName);
  if (protocolName === "ai-sdk") return toAiSdkMessages(state.messages);
  if (protocolName === "ag-ui") return { threadId: id, ...toAgUiInput(state), state: state.agentState ?? {} };
  return state.messages;
}
