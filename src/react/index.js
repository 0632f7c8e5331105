// useAgentSession: a chat connected to an agent endpoint. The session lives in sessionReducer;
// this hook starts a request whenever the reducer starts a run (send, retry, continue, an answer
// that lets the agent go on, edit, regenerate, a finish that sends the queue), streams the
// response into the session once per animation frame, aborts it when the run ends early (Stop,
// Reset, unmount, an edit or regenerate while it streams, another conversation opened; with a
// store of conversations, the last two hand it to the store instead), keeps the session in
// storage, and calls the app's callbacks (callbacks.js).
//
// Server rendering: see storage.js. Which conversation is shown: conversation.js.

import { useCallback, useEffect, useMemo, useReducer, useRef } from "react";
import { checkAction } from "chat-session-reducer";
import { runEnded, useRunCallbacks, dataPartsOf } from "./callbacks.js";
import { initialSession, isOpened, useOpenConversation } from "./conversation.js";
import { createFrameQueue } from "./frameQueue.js";
import { newId } from "./ids.js";
import { checkProtocolName, loadProtocol } from "./protocols.js";
import { runReply, stopOnServer } from "./resume.js";
import { ANSWER, FAILED, NEW_CONVERSATION, OPEN, STREAMED, hookReducer, initialHookState, resetsConversation } from "./session.js";
import { createSaver, useClientLayoutEffect, useStoredSession } from "./storage.js";
import { useTabs } from "./tabs.js";

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer/react").UseAgentSessionOptions} UseAgentSessionOptions */
/** @typedef {import("chat-session-reducer/react").ApproveOptions} ApproveOptions */
/** @typedef {import("chat-session-reducer/react").SendOptions} SendOptions */
/** The store's side for the hook (src/conversations/index.js), beside its public API.
 *  @typedef {import("chat-session-reducer/conversations").Conversations & { hold: Function, take: (id: string) => { hook: any, run: any } | undefined, show: (id: string, session: SessionState) => void }} HeldConversations */

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

/** Calls `onData`, outside the stream's reading: what it throws is the app's, reported as an
 *  uncaught error, and never ends the run. */
function toApp(onData, part) {
  queueMicrotask(() => onData(part));
}

/**
 * Starts the run the session streams: its request (`{ options, session, chatId, startedBy }`),
 * read into the frame queue. Returns what stops it (the effect's cleanup). `run` is the run's number;
 * `onData` calls the newest options' onData (an app's inline callback changes every render);
 * `resumed`: the run is one the server still produces, reconnected to (resume.js). What it
 * dispatches goes to `dispatchToHook` until `handTo` gives it another owner (the background,
 * and back); `log` keeps what it dispatched that the owner's state may not have applied yet.
 * `tabs`: the tabs coordinator (chat-session-reducer/tabs), when the hook has one.
 */
function startRun(request, run, dispatchToHook, throttle, onData, resumed, tabs) {
  const controller = new AbortController();
  let owner = dispatchToHook;
  const log = [];
  const dispatch = (action) => {
    log.push(action);
    owner(action);
  };
  // Tagged with its run, so what it delivers after the next run began is dropped (session.js).
  const queue = createFrameQueue((action) => dispatch({ type: STREAMED, run, action }), throttle);
  let replyEnded = false;
  const report = {
    deliver(actions) {
      for (const part of dataPartsOf(actions)) toApp(onData, part);
      queue.push(actions);
    },
    ended: () => (replyEnded = true),
    failed: (details) => dispatch({ type: FAILED, run, details }),
    transient: (part) => toApp(onData, part),
  };
  const send = () => void runReply(request, controller, report, resumed);
  // With tabs, once this tab holds the conversation's stream lock.
  if (tabs === undefined) send();
  else tabs.gate(send, controller.signal);
  return {
    number: run,
    queue,
    /** What it dispatched after `last` (the owner's state's `last`), dropping what came before. */
    unapplied(last) {
      log.splice(0, log.indexOf(last) + 1);
      return [...log];
    },
    handTo(next) {
      owner = next;
    },
    stop() {
      queue.close();
      tabs?.release();
      // A reply that ended is not aborted: the server would take it for the user's Stop.
      if (!replyEnded) controller.abort();
    },
  };
}

/**
 * The hook's rules, for a store of conversations (chat-session-reducer/conversations) to drive a
 * run handed to it as the hook would: its reducer, a run's start, the callbacks of a run that
 * ended (with `answer(part)`, the action of an answer), the saves.
 */
const RULES = { reduce: hookReducer, startRun, runEnded, createSaver, answer: (part) => ({ type: ANSWER, answer: checkAction({ type: "part", part }) }) };

const invalidOption = (name, expected) =>
  Object.assign(new TypeError(`options.${name}: expected ${expected}`), { code: "invalid", path: `options.${name}` });

/** @param {UseAgentSessionOptions} options */
export function useAgentSession(options) {
  const { throttle = "frame" } = options;
  const conversations = /** @type {HeldConversations | undefined} */ (options.conversations);
  const protocolName = options.protocol ?? "actions";
  // Checked while rendering on purpose: a wrong protocol name is the app's bug, shown at once.
  checkProtocolName(protocolName);
  if (options.api === undefined) throw invalidOption("api", "a URL or a function");
  if (conversations !== undefined && typeof options.id !== "string") throw invalidOption("id", "a string (with conversations)");
  // `tabs: true` was never enough: the coordinator is chat-session-reducer/tabs's, imported by the app.
  if (options.tabs !== undefined && typeof options.tabs?.connect !== "function") throw invalidOption("tabs", "coordinateTabs()");
  // Not designed together yet: whose run a background conversation's is when several tabs show the list.
  if (options.tabs !== undefined && conversations !== undefined) {
    throw Object.assign(new TypeError("options.tabs: not with options.conversations (a store of conversations coordinates no tabs yet)"), { code: "invalid", path: "options.tabs" });
  }
  // With a store of conversations, a conversation's storage key is the store's for its id.
  const shown = conversations === undefined ? options : { ...options, storageKey: conversations.keyOf(/** @type {string} */ (options.id)), storage: conversations.storage };
  const { storageKey, storage } = shown;

  // The initial conversation's id is made on the client too, so render it only after hydration
  // (or pass `id`): the server's is another.
  const [hook, dispatchToHook] = useReducer(hookReducer, options, (first) => initialHookState(initialSession(first), newId("chat")));
  const { session, runs, resumes } = hook;
  const id = options.id ?? hook.id;
  // The newest options, session and id, read when a run starts or a button is pressed.
  /** @type {import("react").RefObject<{ options: UseAgentSessionOptions, session: SessionState, id: string, startedBy: { trigger: string, messageId?: string } | undefined, follows: boolean, hook: typeof hook } | undefined>} */
  const latest = useRef(undefined);
  useClientLayoutEffect(() => {
    latest.current = { options: { ...options, protocol: protocolName }, session, id, startedBy: hook.startedBy, follows: hook.follows, hook };
    // What the hook's state has applied of the run is no longer needed for a hand-over.
    currentRun.current?.unapplied(hook.last);
  });
  // Set by the layout effect above, which runs before any effect or event handler.
  const newest = () => /** @type {NonNullable<typeof latest.current>} */ (latest.current);
  /** @type {import("react").RefObject<ReturnType<typeof startRun> | undefined>} */
  const currentRun = useRef(undefined);

  // With a store of conversations: the run of the conversation left (another opened, or the hook
  // unmounted) goes on in the background, and a conversation reopened is taken back from it with
  // its run (no request repeated).
  const handOver = (/** @type {string} */ leftId) => {
    const { hook: left, options: at } = newest();
    const run = currentRun.current;
    if (conversations === undefined || run === undefined || left.session.status !== "streaming") return;
    currentRun.current = undefined;
    conversations.hold(leftId, left, run, run.unapplied(left.last), { ...RULES, options: at, throttle });
  };
  const switchOver =
    conversations &&
    ((before) => {
      if (before !== undefined) handOver(before.id);
      const taken = conversations.take(/** @type {string} */ (options.id));
      if (taken === undefined) return undefined;
      if (taken.run !== undefined) {
        taken.run.handTo(dispatchToHook);
        currentRun.current = taken.run;
      }
      return { type: OPEN, live: taken.hook, id: options.id };
    });
  // Layout cleanups run before the run effect's: unmounted, the hook hands its run over first.
  useClientLayoutEffect(() => () => handOver(newest().id), []);
  useOpenConversation(shown, session, dispatchToHook, switchOver);
  const opened = isOpened(hook.opened, shown);
  // The tabs coordinator (useTabs, below).
  /** @type {import("react").RefObject<any>} */
  const tabs = useRef(undefined);
  const storageError = useStoredSession(storageKey, storage, session, id, opened, tabs);
  // The thread list's entry of the conversation on screen (title, status, waiting; never unread).
  useEffect(() => {
    if (conversations !== undefined && opened) conversations.show(id, session);
  }, [conversations, id, session, opened]);

  // The protocol's adapter is loaded ahead of the first run.
  useEffect(() => void loadProtocol(protocolName).catch(() => {}), [protocolName]);

  const streaming = session.status === "streaming";
  // A run another tab streams is followed, not requested (chat-session-reducer/tabs).
  const { follows } = hook;
  useEffect(() => {
    if (!streaming || follows) return;
    // A run taken back from the background streams already (switchOver).
    let run = /** @type {ReturnType<typeof startRun>} */ (currentRun.current);
    if (run?.number !== runs) {
      const { options: runOptions, session: runSession, id: chatId, startedBy } = newest();
      const onData = (part) => newest().options.onData?.(part);
      run = startRun({ options: runOptions, session: runSession, chatId, startedBy }, runs, dispatchToHook, throttle, onData, resumes === runs, tabs.current);
      currentRun.current = run;
    }
    return () => {
      // A run handed to the background is the store's to stop.
      if (currentRun.current !== run) return;
      run.stop();
      currentRun.current = undefined;
    };
    // A run is keyed by its number (and a run taken back, by the state it came with); the
    // options it needs are read when it starts.
  }, [streaming, runs, hook.adopted, follows]);

  const dispatch = useCallback((action) => {
    const checked = checkAction(action);
    // A reset starts a new conversation: a new id with it.
    dispatchToHook(resetsConversation(checked) ? { type: NEW_CONVERSATION, action: checked, id: newId("chat") } : checked);
  }, []);

  const dispatchAnswer = useCallback((part) => dispatchToHook(RULES.answer(part)), []);

  // What arrived before Stop, an edit or a regenerate is applied with it, in one render: the reply
  // it ends (or sets aside as a branch) keeps all it received.
  // The user ends the run: with `resume`, the server is told (a closed connection is only a disconnect).
  const endOnServer = () => {
    const { options: current, session: ending, id: chatId } = newest();
    stopOnServer(current, ending, chatId);
  };
  const afterArrived = useCallback((action) => {
    endOnServer();
    dispatchToHook({ type: "batch", actions: [...(currentRun.current?.queue.take() ?? []), action] });
  }, []);

  useRunCallbacks(hook, newest, dispatchAnswer);

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
      // Back to the initial conversation (initialState, initialMessages), with a new id.
      reset: () => {
        endOnServer();
        const initial = initialSession(newest().options);
        dispatch(initial.messages.length === 0 ? { type: "reset" } : { type: "batch", actions: [{ type: "reset" }, { type: "load", state: initial }] });
      },
      // SPEC v3 load: a state streaming is loaded with stop applied, so its request is aborted.
      load: (state) => afterArrived(checkAction({ type: "load", state })),
      setMessages: (messages) => {
        const { forks, ...current } = newest().session;
        const next = typeof messages === "function" ? messages(current.messages) : messages;
        // The branches belonged to the messages replaced.
        afterArrived(checkAction({ type: "load", state: { ...current, messages: next } }));
      },
      // SPEC v3 stop in a session in error: the error goes, and nothing else changes (the run
      // that failed left no call open), so no row of its own.
      clearError: () => {
        if (newest().session.status === "error") dispatch({ type: "stop" });
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
  useTabs(tabs, options, newest, dispatchToHook, actions);
  // While another tab streams, what the user does is sent to it.
  const forwards = options.tabs !== undefined;
  const exposed = useMemo(() => options.tabs?.forward(actions, () => tabs.current) ?? actions, [actions, forwards]);

  // The failure's details (HTTP status, body, cause) join the session's error while it is the
  // failure of the current run.
  const { failure } = hook;
  const error = useMemo(
    () => (session.error !== undefined && failure?.run === runs ? { ...session.error, ...failure.details } : session.error),
    [session.error, failure, runs],
  );
  // "submitted": the request is sent and nothing of the reply has arrived yet.
  const status = streaming && hook.streamed !== runs ? "submitted" : session.status;
  const queued = session.queue ?? NOTHING_QUEUED;
  return { id, state: session, messages: session.messages, status, error, queue: queued, storageError, ...exposed };
}
