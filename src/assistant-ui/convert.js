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
    /** The id each message object is shown under (toRepository). */
    names: new WeakMap(),
    /** The last session converted and its repository (toRepository's fast path). @type {any} */
    previous: undefined,
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
 * The messages of the session's tree in the order assistant-ui must get them: each after its
 * parent, and the alternatives of a fork in their order (assistant-ui orders siblings by when
 * it last saw them). `first`: the `switchBranch` that shows a branch's first message.
 */
function treeOf(session) {
  const nodes = [];
  const emit = (messages, forks, parent, after, live) => {
    const forkAt = new Map((forks ?? []).map((fork) => [fork.after, fork]));
    const branches = (fork, from, to, at) => {
      for (let index = from; index < to; index += 1) {
        const branch = fork.alternatives[index];
        if (branch?.messages.length) emit(branch.messages, branch.forks, at, fork.after, { first: { after: fork.after, to: index } });
      }
    };
    let at = parent;
    for (let index = 0; index <= messages.length; index += 1) {
      const fork = forkAt.get(index === 0 ? after : messages[index - 1].id);
      if (fork !== undefined) branches(fork, 0, fork.active, at);
      const here = at;
      if (index < messages.length) {
        nodes.push({ message: messages[index], parent: here, live: live === LIVE, last: live === LIVE && index === messages.length - 1, first: index === 0 ? live.first : undefined });
        at = nodes.length - 1;
      }
      if (fork !== undefined) branches(fork, fork.active + 1, fork.alternatives.length, here);
    }
  };
  emit(session.messages, session.forks, -1, null, LIVE);
  return nodes;
}

const LIVE = {};

/**
 * The ids messages are shown under: unique in the tree (a branch may reuse an id of the active
 * path, a regenerated reply's), and kept for a message object once given (so a row keeps its
 * key while it streams beside a branch, and after a switch). Otherwise a message's own id, or
 * `id~n` when that is taken.
 */
function namesOf(nodes, given) {
  const names = new Array(nodes.length);
  const used = new Set();
  nodes.forEach((node, index) => {
    const name = given.get(node.message);
    if (name !== undefined && !used.has(name)) {
      names[index] = name;
      used.add(name);
    }
  });
  nodes.forEach((node, index) => {
    if (names[index] !== undefined) return;
    let name = node.message.id;
    for (let n = 1; used.has(name); n += 1) name = `${node.message.id}~${n}`;
    names[index] = name;
    used.add(name);
    given.set(node.message, name);
  });
  return names;
}

/**
 * The session as assistant-ui's message repository: `headId` the active path's last message,
 * each message with its `parentId`; `switches` maps the shown id of each branch's first message
 * to the `switchBranch` that shows it, `ours` the shown id of each active-path message to its id.
 */
export function toRepository(session, convert) {
  const result = lastChanged(session, convert) ?? wholeRepository(session, convert);
  convert.previous = { session, result };
  return result;
}

/**
 * A streaming delta changes only the active path's last message: the repository before it, with
 * that one item converted again under the same name (the walk would give the same tree and
 * names), so a delta costs no walk of the thread. Otherwise undefined.
 */
function lastChanged(session, convert) {
  const { previous } = convert;
  if (previous === undefined || session.forks !== previous.session.forks) return undefined;
  const { messages } = session;
  const before = previous.session.messages;
  const { repository } = previous.result;
  const item = repository.messages.at(-1);
  if (messages.length === 0 || messages.length !== before.length || messages.at(-1).id !== before.at(-1).id || item?.message.id !== repository.headId) return undefined;
  for (let index = messages.length - 2; index >= 0; index -= 1) if (messages[index] !== before[index]) return undefined;
  const last = messages.at(-1);
  convert.names.set(last, repository.headId);
  const message = convert.message(last, repository.headId, session, true);
  return { ...previous.result, repository: { headId: repository.headId, messages: [...repository.messages.slice(0, -1), { message, parentId: item.parentId }] } };
}

function wholeRepository(session, convert) {
  const nodes = treeOf(session);
  const names = namesOf(nodes, convert.names);
  const switches = new Map();
  const ours = new Map();
  const messages = nodes.map((node, index) => {
    if (node.first !== undefined) switches.set(names[index], node.first);
    if (node.live) ours.set(names[index], node.message.id);
    return { message: convert.message(node.message, names[index], node.live ? session : IDLE, node.last), parentId: node.parent < 0 ? null : names[node.parent] };
  });
  const head = nodes.findLastIndex((node) => node.live);
  return { repository: { headId: head < 0 ? null : names[head], messages }, switches, ours };
}

// A branch set aside is not streaming: its messages are shown as a finished session's.
const IDLE = Object.freeze({ messages: [], status: "idle" });

/**
 * The `switchBranch` that shows `path` (assistant-ui's visible messages after a BranchPicker
 * click), or undefined: the first branch on it is the one clicked to; what follows it is
 * assistant-ui's guess, and the branch's own forks say which of their alternatives it shows.
 */
export const switchTo = (path, switches) => path.map((message) => switches.get(message.id)).find((step) => step !== undefined);
