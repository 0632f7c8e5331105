// chat-session-reducer/assistant-ui: assistant-ui's components rendering a session. The runtime
// is assistant-ui's external store (useExternalStoreRuntime) fed by the session controller
// (useAgentSession's, or one the app made): our state is the one truth, assistant-ui's
// callbacks become the session's actions, and branches come from `forks` (convert.js).

import { useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useExternalStoreRuntime, useRuntimeAdapters } from "@assistant-ui/react";
import { useAgentSession } from "chat-session-reducer/react";
import { callsOfLastTurn } from "../session/calls.js";
import { invalidInput } from "../shared/coded-error.js";
import { createConverter, switchTo, toRepository } from "./convert.js";

const isController = (given) => typeof given?.subscribe === "function" && typeof given.getSnapshot === "function";

/** The session of a controller the app made (createAgentSession), rendered as the hook renders its own. */
function useControllerSession(controller) {
  return useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getServerSnapshot);
}

/** The text of a message assistant-ui's composer sent. */
const textOf = (message) => message.content.filter((part) => part.type === "text").map((part) => part.text).join("\n");

/** A data URL's media type, else undefined. */
const mediaTypeOf = (url) => /^data:([^;,]+)/.exec(url)?.[1];

/** An image, file or text content part (of the message or of an attachment) as one of our user parts. */
function userPartOf(part, attachment) {
  if (part.type === "image") {
    const mediaType = attachment?.contentType ?? mediaTypeOf(part.image) ?? "image/*";
    return { type: "data", name: "file", data: { mediaType, url: part.image, ...(attachment?.name && { filename: attachment.name }) } };
  }
  if (part.type === "file") {
    const filename = part.filename ?? attachment?.name;
    return { type: "data", name: "file", data: { mediaType: part.mimeType, url: part.data, ...(filename && { filename }) } };
  }
  if (part.type === "text" && attachment !== undefined) return { type: "text", text: part.text };
  if (part.type === "data") return { type: "data", name: part.name, data: part.data, ...(part.id !== undefined && { id: part.id }) };
  return undefined;
}

/** The parts sent after the text: the attachments as `"file"` data parts (SPEC v3 send with parts), in order. */
function partsOf(message) {
  const parts = [
    ...message.content.filter((part) => part.type !== "text").map((part) => userPartOf(part)),
    ...(message.attachments ?? []).flatMap((attachment) => attachment.content.map((part) => userPartOf(part, attachment))),
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : { parts };
}

/** The call an approval answer is for: its approval id, or (a `toolPhase` question) its own id. */
const callOfApproval = (messages, approvalId) =>
  callsOfLastTurn(messages).find((part) => part.approval?.id === approvalId) ?? callsOfLastTurn(messages).find((part) => part.id === approvalId);

/** Our queue as assistant-ui's queue items (the text first, then the files). */
const queueItemsOf = (queue) =>
  queue.map(({ id, text, parts = [] }) => ({
    id,
    prompt: text,
    parts: [{ type: "text", text }, ...parts.filter((part) => part.type === "data" && part.name === "file").map((part) => ({ type: "file", data: part.data.url, mimeType: part.data.mediaType, ...(part.data.filename && { filename: part.data.filename }) }))],
  }));

/** assistant-ui's queue surface over the session's queue: one lane (a send while a reply streams is queued by the reducer). */
function queueAdapter(session, send) {
  return {
    items: queueItemsOf(session.queue),
    steerItems: [],
    enqueue: send,
    steer: send,
    move: () => {},
    edit: (id, message) => {
      session.unqueue(id);
      send(message);
    },
    remove: (id) => session.unqueue(id),
  };
}

/**
 * The session's actions as the external store's callbacks; `current()` is the newest session,
 * `shown()` the newest repository's maps (toRepository: `ours`, `switches`).
 */
function callbacks(current, shown) {
  const send = (message) => current().send(textOf(message), partsOf(message));
  const ourId = (id) => (id === null ? null : (shown().ours.get(id) ?? id));
  return {
    send,
    onNew: async (message) => send(message),
    onEdit: async (message) => {
      if (message.sourceId !== null) current().edit(ourId(message.sourceId), textOf(message));
    },
    onReload: async (shownParent) => {
      const parentId = ourId(shownParent);
      const { messages, state } = current();
      // A failed reply is sent again (retry: its partial text is no alternative to keep); any other is set aside as a branch.
      if (state.status === "error" && parentId === messages.findLast((message) => message.role === "user")?.id) return current().retry();
      const next = messages[messages.findIndex((message) => message.id === parentId) + 1];
      current().regenerate(parentId !== null && next?.role === "assistant" ? next.id : undefined);
    },
    onCancel: async () => current().stop(),
    onResume: async () => current().continue(),
    onAddToolResult: ({ toolCallId, result, isError }) => {
      if (!isError) return current().answer(toolCallId, result);
      const message = typeof result === "string" ? result : JSON.stringify(result ?? "The tool failed");
      current().fail(toolCallId, { message });
    },
    /** @param {import("@assistant-ui/react").RespondToToolApprovalOptions} options */
    onRespondToToolApproval: ({ approvalId, approved, reason, text }) => {
      const session = current();
      const call = callOfApproval(session.messages, approvalId);
      if (call === undefined) return;
      if (!approved) return session.deny(call.id, reason);
      session.approve(call.id, { ...(reason !== undefined && { reason }), ...(text !== undefined && { output: text }) });
    },
    // assistant-ui hands over the path its BranchPicker chose; the session switches to it.
    setMessages: (path) => {
      const step = switchTo(path, shown().switches);
      if (step !== undefined) current().switchBranch(step.after, step.to);
    },
  };
}

// useLayoutEffect warns when it runs on the server (React 18); there is no frame to save there.
const useClientLayoutEffect = typeof document === "undefined" ? () => {} : useLayoutEffect;

/**
 * Hands the adapter to assistant-ui's runtime in the commit, before the paint (its own
 * useEffect does it after: the rows it re-renders from there are a frame late when the session
 * renders on an animation frame). Left to assistant-ui when it adapts the store itself (a
 * RuntimeAdapterProvider's feedback or history), or its runtime has no `_core.setAdapter`.
 */
function useAdapterInCommit(runtime, adapter) {
  const { feedback, history } = useRuntimeAdapters() ?? {};
  const own = feedback === undefined && history === undefined;
  useClientLayoutEffect(() => {
    if (own && typeof runtime._core?.setAdapter === "function") runtime._core.setAdapter(adapter);
  });
}

/**
 * An assistant-ui runtime for a session: `given` is useAgentSession's options (the runtime makes
 * the session) or a session controller (createAgentSession). `extra` adds assistant-ui's own
 * adapters (attachments, feedback, speech, threadList) as useExternalStoreRuntime takes them.
 */
export function useAgentSessionRuntime(given, extra = {}) {
  const [controlled] = useState(() => isController(given));
  if (controlled !== isController(given)) throw invalidInput("given", "options or a controller for the runtime's whole life, not one then the other");
  // The kind never changes (checked above), so the same hooks run on every render.
  const session = controlled ? useControllerSession(given) : useAgentSession(given);
  const latest = useRef(session);
  latest.current = session;
  const [convert] = useState(createConverter);
  const { state } = session;
  const tree = useMemo(() => toRepository(state, convert), [state, convert]);
  const shown = useRef(tree);
  shown.current = tree;
  const wired = useMemo(() => callbacks(() => latest.current, () => shown.current), []);
  const queue = useMemo(() => queueAdapter(session, wired.send), [session.queue, wired]);
  const { send, ...handlers } = wired;
  /** @type {import("@assistant-ui/react").ExternalStoreAdapter} */
  const adapter = { messageRepository: tree.repository, isRunning: state.status === "streaming", queue, ...handlers, ...extra };
  const runtime = useExternalStoreRuntime(adapter);
  useAdapterInCommit(runtime, adapter);
  return runtime;
}

/**
 * assistant-ui's thread list over a store of conversations (chat-session-reducer/conversations):
 * the store's list, `id` the conversation shown, `onSwitch(id)` to show another (a new one has
 * the store's new id). Each thread's `custom` holds `status`, `unread` and `waiting`.
 */
export function useConversationsThreadList({ conversations, id, onSwitch }) {
  const list = useSyncExternalStore(conversations.subscribe, conversations.list, () => EMPTY);
  const threads = useMemo(() => list.map((entry) => ({ status: "regular", id: entry.id, title: entry.title, custom: { status: entry.status, unread: entry.unread, waiting: entry.waiting } })), [list]);
  const latest = useRef(onSwitch);
  latest.current = onSwitch;
  return useMemo(
    () => ({
      threadId: id,
      threads,
      onSwitchToNewThread: () => latest.current(conversations.create()),
      onSwitchToThread: (threadId) => latest.current(threadId),
      onDelete: (threadId) => conversations.remove(threadId),
    }),
    [id, threads, conversations],
  );
}

/** @type {any[]} */
const EMPTY = /** @type {any} */ (Object.freeze([]));
