// Our session → assistant-ui's ExportedMessageRepository (its `messageRepository` form): every
// message of the active path and of every branch, each with its parent, so assistant-ui's
// BranchPicker counts exactly the alternatives `forks` holds and never infers one. A converted
// message is cached on our message object, so it stays the same object while ours does (an
// untouched row is never re-rendered). Pure apart from that cache.

import { fromThreadMessageLike } from "@assistant-ui/react";

const RUNNING = Object.freeze({ type: "running" });
const COMPLETE = Object.freeze({ type: "complete", reason: "unknown" });
const CANCELLED = Object.freeze({ type: "incomplete", reason: "cancelled" });
const WAITING = Object.freeze({ type: "requires-action", reason: "tool-calls" });
const ASKING = Object.freeze({ type: "requires-action", reason: "interrupt" });
const OPEN = new Set(["input-streaming", "running", "awaiting-confirmation"]);

/** A source part as assistant-ui has it, from the AI SDK adapter's `source-url` / `source-document` data parts. */
function sourceOf(part, index) {
  const { data } = part;
  const id = part.id ?? `source-${index}`;
  if (part.name === "source-url") return { type: "source", sourceType: "url", id, url: String(data?.url ?? ""), ...(typeof data?.title === "string" && { title: data.title }) };
  return {
    type: "source",
    sourceType: "document",
    id,
    title: String(data?.title ?? ""),
    mediaType: String(data?.mediaType ?? "application/octet-stream"),
    ...(typeof data?.filename === "string" && { filename: data.filename }),
  };
}

/** A `"file"` data part (`{ mediaType, url, filename? }`) as assistant-ui's file part. */
const fileOf = ({ data }) => ({
  type: "file",
  data: String(data?.url ?? ""),
  mimeType: String(data?.mediaType ?? "application/octet-stream"),
  ...(typeof data?.filename === "string" && { filename: data.filename }),
});

/** A user's `"file"` part as an attachment (what assistant-ui's composer sent is shown as it was sent). */
function attachmentOf(part, messageId, index) {
  const file = fileOf(part);
  const image = file.mimeType.startsWith("image/");
  return {
    id: `${messageId}:file:${index}`,
    type: image ? "image" : "file",
    name: file.filename ?? "file",
    contentType: file.mimeType,
    status: { type: "complete" },
    content: [image ? { type: "image", image: file.data, ...(file.filename && { filename: file.filename }) } : file],
  };
}

/** A tool part's approval, as the call's state says (a `toolPhase` question without one: the call's id). */
function approvalOf(part) {
  const { approval } = part;
  if (approval === undefined && part.state !== "awaiting-confirmation") return undefined;
  const answered = approval?.approved !== undefined;
  return {
    id: approval?.id ?? part.id,
    ...(part.prompt !== undefined && { prompt: part.prompt }),
    ...(approval?.automatic === true && { isAutomatic: true }),
    ...(answered && { approved: approval.approved }),
    ...(approval?.reason !== undefined && { reason: approval.reason }),
    ...(!answered && part.state === "cancelled" && { resolution: "cancelled" }),
  };
}

/** The result assistant-ui shows for a call that left the open states; undefined while it is open. */
function resultOf(part) {
  if (part.state === "done") return { result: part.output };
  if (part.state === "error") return { result: part.error, isError: true };
  if (part.state === "cancelled") return { result: part.error ?? { message: "Cancelled", code: "cancelled" }, isError: true };
  // A streaming tool's progress (a preliminary result) is shown while it runs.
  return part.output === undefined ? {} : { result: part.output, isPreliminary: true };
}

function toolCallOf(part, convert) {
  const input = part.input !== null && typeof part.input === "object" && !Array.isArray(part.input) ? part.input : undefined;
  const approval = approvalOf(part);
  return {
    type: "tool-call",
    toolCallId: part.id,
    toolName: part.name,
    // While the input streams, assistant-ui parses the partial text itself.
    ...(part.state === "input-streaming" ? { argsText: part.inputText ?? "" } : { args: input ?? {}, argsText: part.inputText ?? JSON.stringify(part.input ?? {}) }),
    ...resultOf(part),
    ...(approval !== undefined && { approval }),
    ...(part.agent !== undefined && { messages: convert.path(part.agent) }),
  };
}

/** Our part as assistant-ui's, or undefined for what it does not render (a step boundary). */
function partOf(part, index, convert) {
  switch (part.type) {
    case "text":
    case "reasoning":
      return { type: part.type, text: part.text };
    case "tool":
      return toolCallOf(part, convert);
    case "data":
      if (part.name === "source-url" || part.name === "source-document") return sourceOf(part, index);
      if (part.name === "file") return fileOf(part);
      return { type: "data", name: part.name, data: part.data, ...(part.id !== undefined && { id: part.id }) };
    default:
      return undefined;
  }
}

/**
 * The status of an assistant message: `last` while its session streams is running.
 * @returns {import("@assistant-ui/react").MessageStatus}
 */
function statusOf(message, last, session) {
  if (last && session.status === "streaming") return RUNNING;
  if (last && session.status === "error") return { type: "incomplete", reason: "error", error: session.error?.message ?? "error" };
  const calls = message.parts.filter((part) => part.type === "tool");
  if (calls.some((part) => part.state === "awaiting-confirmation")) return ASKING;
  if (calls.some((part) => OPEN.has(part.state))) return WAITING;
  if (calls.some((part) => part.state === "cancelled")) return CANCELLED;
  return COMPLETE;
}

function likeOf(message, convert) {
  const content = [];
  const attachments = [];
  message.parts.forEach((part, index) => {
    if (message.role === "user" && part.type === "data" && part.name === "file") attachments.push(attachmentOf(part, message.id, attachments.length));
    else {
      const converted = partOf(part, index, convert);
      if (converted !== undefined) content.push(converted);
    }
  });
  return { role: message.role, content, ...(attachments.length > 0 && { attachments }) };
}

/**
 * A converter with its cache: `message(ours, id, status)` is the same ThreadMessage while `ours`,
 * the id it is shown under and its status are the same. `createdAt` is kept per id (assistant-ui
 * shows it), so a streaming message keeps the time it began.
 */
export function createConverter() {
  const cache = new WeakMap();
  const createdAt = new Map();
  const convert = {
    message(ours, id, session, last) {
      const status = ours.role === "assistant" ? statusOf(ours, last, session) : undefined;
      const cached = cache.get(ours);
      if (cached !== undefined && cached.id === id && sameStatus(cached.status, status)) return cached.thread;
      if (!createdAt.has(id)) createdAt.set(id, new Date());
      const like = { ...likeOf(ours, convert), id, createdAt: createdAt.get(id) };
      const thread = fromThreadMessageLike(like, id, status ?? COMPLETE);
      cache.set(ours, { id, status, thread });
      return thread;
    },
    /** The messages of a session (a sub-agent's run), each under its own id. */
    path(session) {
      const { messages } = session;
      return messages.map((message, index) => convert.message(message, message.id, session, index === messages.length - 1));
    },
  };
  return convert;
}

const sameStatus = (a, b) => a === b || (a?.type === "incomplete" && b?.type === "incomplete" && a.reason === b.reason && a.error === b.error);

/**
 * The session as assistant-ui's message repository: `headId` the active path's last message,
 * each message with its `parentId`; `switches` maps the id of each branch's first message to
 * the `switchBranch` that shows it. Message ids are unique on the active path but a branch may
 * reuse one (a regenerated reply): such a branch message is shown as `id~n`.
 */
export function toRepository(session, convert) {
  const items = [];
  const switches = new Map();
  const used = new Set(session.messages.map((message) => message.id));
  const uniqueId = (id) => {
    if (!used.has(id)) return (used.add(id), id);
    let n = 1;
    while (used.has(`${id}~${n}`)) n += 1;
    used.add(`${id}~${n}`);
    return `${id}~${n}`;
  };
  // A walk with a stack: branches nest up to 64 levels, each level a scope of its own ids.
  const scopes = [{ messages: session.messages, forks: session.forks, parent: null, shown: (id) => id, live: true }];
  for (let scope = scopes.pop(); scope !== undefined; scope = scopes.pop()) {
    const shownIds = new Map();
    let parent = scope.parent;
    scope.messages.forEach((message, index) => {
      const id = scope.live ? message.id : uniqueId(message.id);
      shownIds.set(message.id, id);
      const last = scope.live && index === scope.messages.length - 1;
      items.push({ message: convert.message(message, id, scope.live ? session : IDLE, last), parentId: parent });
      if (index === 0 && scope.first !== undefined) switches.set(id, scope.first);
      parent = id;
    });
    const shownOf = (after) => (after === null ? scope.parent : (shownIds.get(after) ?? scope.shown(after)));
    for (const fork of scope.forks ?? []) {
      fork.alternatives.forEach((branch, to) => {
        if (branch === null || branch.messages.length === 0) return;
        scopes.push({ messages: branch.messages, forks: branch.forks, parent: shownOf(fork.after), shown: shownOf, live: false, first: { after: fork.after, to } });
      });
    }
  }
  const headId = session.messages.at(-1)?.id ?? null;
  return { repository: { headId, messages: items }, switches };
}

// A branch set aside is not streaming: its messages are shown as a finished session's.
const IDLE = Object.freeze({ messages: [], status: "idle" });

/**
 * The `switchBranch` actions that show `path` (assistant-ui's visible messages after a
 * BranchPicker click), in order: one for each branch's first message on it.
 */
export const switchesTo = (path, switches) => path.map((message) => switches.get(message.id)).filter((step) => step !== undefined);
