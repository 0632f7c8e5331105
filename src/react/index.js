// useAgentSession: a chat connected to an agent endpoint. The session lives in sessionReducer;
// this hook starts a request whenever the reducer starts a run (send, retry, continue, an answer
// that lets the agent go on, edit, regenerate, a finish that sends the queue), streams the
// response into the session once per animation frame, aborts it when the run ends early (Stop,
// Reset, unmount, an edit or regenerate while it streams), and keeps the session in storage.
//
// Server rendering: see storage.js.

import { useCallback, useEffect, useId, useMemo, useReducer, useRef } from "react";
import { checkAction } from "chat-session-reducer";
import { createFrameQueue } from "./frameQueue.js";
import { newId } from "./ids.js";
import { checkProtocolName, loadProtocol } from "./protocols.js";
import { startRun, stopOnServer, useResumeAfterReload } from "./resume.js";
import { ANSWER, STREAMED, hookReducer, initialHookState } from "./session.js";
import { useClientLayoutEffect, useStoredSession } from "./storage.js";

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer/react").UseAgentSessionOptions} UseAgentSessionOptions */
/** @typedef {import("chat-session-reducer/react").ApproveOptions} ApproveOptions */
/** @typedef {import("chat-session-reducer/react").SendOptions} SendOptions */

// What the hook returns as `queue` when nothing is queued: the same array on every render.
/** @type {readonly import("chat-session-reducer").QueuedMessage[]} */
const NOTHING_QUEUED = Object.freeze([]);

function findCall(messages, callId) {
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== "tool") continue;
      if (part.id === callId) return part;
      const nested = part.agent === undefined ? undefined : findCall(part.agent.messages, callId);
      if (nested !== undefined) return nested;
    }
  }
  return undefined;
}

/** @param {UseAgentSessionOptions} options */
export function useAgentSession(options) {
  const { storageKey, storage, throttle = "frame" } = options;
  const protocolName = options.protocol ?? "actions";
  // Checked while rendering on purpose: a wrong protocol name is the app's bug, shown at once.
  checkProtocolName(protocolName);
  if (options.api === undefined) {
    throw Object.assign(new TypeError("options.api: expected a URL or a function"), { code: "invalid", path: "options.api" });
  }

  const [{ session, runs, resumes }, dispatchToHook] = useReducer(hookReducer, initialHookState);
  const chatId = useId();
  // The newest options and session, read when a run starts or a button is pressed.
  /** @type {import("react").RefObject<{ options: UseAgentSessionOptions, session: SessionState } | undefined>} */
  const latest = useRef(undefined);
  useClientLayoutEffect(() => {
    latest.current = { options: { ...options, protocol: protocolName }, session };
  });
  // Set by the layout effect above, which runs before any effect or event handler.
  const newest = () => /** @type {NonNullable<typeof latest.current>} */ (latest.current);
  /** @type {import("react").RefObject<ReturnType<typeof createFrameQueue> | undefined>} */
  const currentRun = useRef(undefined);

  const storageError = useStoredSession(storageKey, storage, session, dispatchToHook);
  useResumeAfterReload(options, protocolName, dispatchToHook);

  // The protocol's adapter is loaded ahead of the first run.
  useEffect(() => void loadProtocol(protocolName).catch(() => {}), [protocolName]);

  const streaming = session.status === "streaming";
  useEffect(() => {
    if (!streaming) return;
    const { options: runOptions, session: runSession } = newest();
    const request = { options: runOptions, session: runSession, chatId: runOptions.storageKey ?? chatId };
    const controller = new AbortController();
    // Tagged with its run, so what it delivers after the next run began is dropped (session.js).
    const queue = createFrameQueue((action) => dispatchToHook({ type: STREAMED, run: runs, action }), throttle);
    currentRun.current = queue;
    let replyEnded = false;
    void startRun(request, controller, queue.push, () => (replyEnded = true), resumes === runs);
    return () => {
      queue.close();
      if (currentRun.current === queue) currentRun.current = undefined;
      // A reply that ended is not aborted: the server would take it for the user's Stop.
      if (!replyEnded) controller.abort();
    };
    // A run is keyed by its number; the options it needs are read when it starts.
  }, [streaming, runs]);

  const dispatch = useCallback((action) => dispatchToHook(checkAction(action)), []);

  const dispatchAnswer = useCallback((part) => dispatchToHook({ type: ANSWER, answer: checkAction({ type: "part", part }) }), []);

  // What arrived before Stop, an edit or a regenerate is applied with it, in one render: the reply
  // it ends (or sets aside as a branch) keeps all it received.
  // The user ends the run: with `resume`, the server is told (a closed connection is only a disconnect).
  const endOnServer = () => {
    const { options: current, session: ending } = newest();
    stopOnServer(current, current.protocol, ending, current.storageKey ?? chatId);
  };
  const afterArrived = useCallback((action) => {
    endOnServer();
    dispatchToHook({ type: "batch", actions: [...(currentRun.current?.take() ?? []), action] });
  }, []);

  const actions = useMemo(
    () => ({
      dispatch,
      // While a reply streams the reducer queues the message; it is sent when the run finishes.
      send: (text, /** @type {SendOptions} */ { parts, metadata } = {}) =>
        dispatch({ type: "send", id: newId("user"), text, ...(parts === undefined ? {} : { parts }), ...(metadata === undefined ? {} : { metadata }) }),
      stop: () => afterArrived({ type: "stop" }),
      edit: (messageId, text) => afterArrived(checkAction({ type: "edit", messageId, id: newId("user"), text })),
      regenerate: (messageId) => afterArrived(checkAction(messageId === undefined ? { type: "regenerate" } : { type: "regenerate", messageId })),
      switchBranch: (after, to) => dispatch({ type: "switchBranch", after, to }),
      unqueue: (id) => dispatch({ type: "unqueue", id }),
      retry: () => dispatch({ type: "retry" }),
      continue: () => dispatch({ type: "continue" }),
      reset: () => {
        endOnServer();
        dispatch({ type: "reset" });
      },
      approve: (callId, /** @type {ApproveOptions} */ { input, output, reason } = {}) =>
        dispatchAnswer({
          type: "tool-approval-response",
          id: callId,
          approved: true,
          ...(reason === undefined ? {} : { reason }),
          ...(input === undefined ? {} : { input }),
          ...(output === undefined ? {} : { output }),
        }),
      deny: (callId, reason) =>
        dispatchAnswer({ type: "tool-approval-response", id: callId, approved: false, ...(reason === undefined ? {} : { reason }) }),
      // A call that asked a question (an approval or an interrupt) takes the answer as its
      // approval; a client-side tool call takes it as its result.
      answer: (callId, output) => {
        const call = findCall(newest().session.messages, callId);
        dispatchAnswer(call?.approval !== undefined ? { type: "tool-approval-response", id: callId, approved: true, output } : { type: "tool-result", id: callId, output });
      },
    }),
    [dispatch, dispatchAnswer, afterArrived],
  );

  const queued = session.queue ?? NOTHING_QUEUED;
  return { state: session, messages: session.messages, status: session.status, error: session.error, queue: queued, storageError, ...actions };
}
