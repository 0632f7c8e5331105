// createAgentSession: a chat connected to an agent endpoint, for any framework
// (chat-session-reducer/session). It owns everything but rendering: which conversation is shown
// (open.js), its state, run, saves and callbacks (conversation.js), the tabs coordinator, and the
// hand-over to a store of conversations. A binding (React, Vue, Svelte) creates one per
// component, passes the newest options to `setOptions`, subscribes while mounted and renders
// `getSnapshot()`: the first subscriber starts it, the last stops it.

import { checkAction, restoreSessionEntry } from "chat-session-reducer";
import { findCall } from "./calls.js";
import { answerAction, createConversation } from "./conversation.js";
import { newId } from "./ids.js";
import { initialSession, isOpened, opening, sameConversation } from "./open.js";
import { checkProtocolName, loadProtocol } from "./protocols.js";
import { reconnectOptions, resumes, stopOnServer } from "./resume.js";
import { FOLLOW, NEW_CONVERSATION, OPEN, initialHookState, resetsConversation } from "./session-state.js";
import { invalid, invalidInput } from "../shared/coded-error.js";

/** @typedef {import("chat-session-reducer").SessionState} SessionState */
/** @typedef {import("chat-session-reducer/session").AgentSessionOptions} AgentSessionOptions */
/** @typedef {import("chat-session-reducer/session").SendOptions} SendOptions */
/** @typedef {import("chat-session-reducer/session").ApproveOptions} ApproveOptions */
/** A store of conversations as the controller holds conversations in it (src/conversations/index.js).
 *  @typedef {import("chat-session-reducer/conversations").Conversations & { restore?: (id: string) => any, take: (id: string) => any, show: (id: string, conversation: any) => void, leave: (id: string, conversation: any, options: any) => void }} HeldConversations */

// What the snapshot's `queue` is when nothing is queued: the same array every time.
/** @type {readonly import("chat-session-reducer").QueuedMessage[]} */
const NOTHING_QUEUED = Object.freeze([]);

/** Throws a coded TypeError naming the first option that is wrong. @param {AgentSessionOptions} options */
export function checkOptions(options) {
  if (options === null || typeof options !== "object") throw invalid("options", "an object");
  checkProtocolName(options.protocol ?? "actions");
  if (options.api === undefined) throw invalid("options.api", "a URL or a function");
  reconnectOptions(options.reconnect);
  if (options.history !== undefined && typeof options.history !== "string" && !(options.history instanceof URL)) throw invalid("options.history", "a URL");
  // The server's bounds of `limit` (chat-session-reducer/server's page.js, MAX_PAGE).
  const pageSize = options.historyPageSize;
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 1000)) throw invalid("options.historyPageSize", "an integer from 1 to 1000");
  if (options.conversations !== undefined && typeof options.id !== "string") throw invalid("options.id", "a string (with conversations)");
  // `tabs: true` was never enough: the coordinator is chat-session-reducer/tabs's, imported by the app.
  if (options.tabs !== undefined && typeof options.tabs?.connect !== "function") throw invalid("options.tabs", "coordinateTabs()");
  // Not designed together yet: whose run a background conversation's is when several tabs show the list.
  if (options.tabs !== undefined && options.conversations !== undefined) {
    throw invalidInput("options.tabs", "not with options.conversations (a store of conversations coordinates no tabs yet)");
  }
}

/** The options as the conversation uses them: the protocol named, and with a store of
 *  conversations, the store's storage key for `id`. */
function withKey(options) {
  const protocol = options.protocol ?? "actions";
  const store = options.conversations;
  return store === undefined ? { ...options, protocol } : { ...options, protocol, storageKey: store.keyOf(options.id), storage: store.storage };
}

const identityOf = ({ storageKey, storage, id }) => ({ storageKey, storage, id });

/** @param {AgentSessionOptions} options */
export function createAgentSession(options) {
  checkOptions(options);
  let given = options;
  let shownOptions = withKey(options);
  const listeners = new Set();
  let started = false;
  /** The tabs coordinator's connection while started (chat-session-reducer/tabs). */
  let tabs;
  /** The conversation opened, `{ storageKey, storage, id }`; an asynchronous store's answer awaited. */
  let shown;
  /** @type {{ before: any, cancelled: boolean } | undefined} */
  let awaiting;
  let lastShown;
  /** The stop the last unsubscribe scheduled, until it runs or a subscriber comes back. */
  let stopping;

  /** The Stop being told to the server, until it is answered. @type {Promise<void> | undefined} */
  let stoppingOnServer;

  const owner = {
    options: () => shownOptions,
    tabs: () => tabs,
    serverStop: () => stoppingOnServer,
    shows: (state) => isOpened(state.opened, shownOptions),
    changed() {
      const state = conversation.state();
      const store = /** @type {HeldConversations | undefined} */ (given.conversations);
      // The thread list's entry of the conversation on screen (never unread).
      if (store !== undefined && state.session !== lastShown && owner.shows(state)) {
        lastShown = state.session;
        store.show(idNow(), conversation);
      }
      for (const listener of [...listeners]) listener();
    },
  };
  /** A conversation not opened yet: the initial one (initialState, initialMessages), with a new id. */
  const initialConversation = () => createConversation(initialHookState(initialSession(given), newId("chat")), owner);
  let conversation = initialConversation();
  const idNow = () => conversation.id();

  /** Not opened yet (the options changed again, or it stopped): what is shown stays as before. */
  function cancelAwaiting() {
    if (awaiting === undefined) return;
    awaiting.cancelled = true;
    shown = awaiting.before;
    awaiting = undefined;
  }

  /** Opens the conversation the options name, unless it is the one shown (see open.js); `left`:
   *  the options of the conversation shown until now. */
  function open(left = shownOptions) {
    cancelAwaiting();
    const before = shown;
    const wanted = identityOf(shownOptions);
    shown = wanted;
    // At the start without a key, the initial conversation is already the one shown.
    if (before === undefined ? wanted.storageKey === undefined : sameConversation(before, wanted)) return;
    if (given.conversations !== undefined) return openFromStore(before, wanted, left);
    if (before !== undefined && (before.storageKey !== wanted.storageKey || before.storage !== wanted.storage)) conversation.closeSaver();
    const stored = wanted.storageKey === undefined ? undefined : restoreSessionEntry(wanted.storageKey, wanted.storage);
    openEntry(stored, before);
  }

  /** Opens the stored entry `stored`, or once it is read (a Promise); `before`: the conversation
   *  shown until now, shown again if the options change before the entry is read. */
  function openEntry(stored, before) {
    if (!(stored instanceof Promise)) return conversation.dispatch(opening(shownOptions, stored));
    // An action taken on the session shown before the store answered wins (session-state.js, OPEN).
    const wait = { before, cancelled: false };
    const at = shownOptions;
    const over = before === undefined ? conversation.state().session : undefined;
    awaiting = wait;
    stored.then((entry) => {
      if (wait.cancelled) return;
      awaiting = undefined;
      conversation.dispatch({ ...opening(at, entry), over });
    });
  }

  /** With a store of conversations: the one left goes on there, the one wanted is taken from it. */
  function openFromStore(before, wanted, left) {
    const store = /** @type {HeldConversations} */ (given.conversations);
    if (before !== undefined) {
      leave(left);
      conversation = initialConversation();
    }
    const taken = store.take(wanted.id);
    lastShown = undefined;
    if (taken === undefined) {
      // The store's entry: its storage's, or the server's copy, read first (its `remote`).
      const stored = store.restore?.(wanted.id) ?? restoreSessionEntry(wanted.storageKey, wanted.storage);
      // Until it is read, the conversation shown is this one, not opened (nothing saved), and the
      // store lists it as it was (opened, it is shown there: owner.changed).
      if (!(stored instanceof Promise)) store.show(wanted.id, conversation);
      openEntry(stored, wanted);
    } else {
      conversation = taken;
      taken.handTo(owner);
      taken.dispatch({ type: OPEN, live: true, id: wanted.id, opened: wanted });
    }
    if (started) conversation.hold(true);
  }

  /** The conversation shown with options `left` is no longer: handed to the store while it streams, else closed. */
  function leave(left) {
    // Another controller took it meanwhile (a chat remounted on the same conversation).
    if (conversation.owner() !== owner) return;
    const store = /** @type {HeldConversations | undefined} */ (given.conversations);
    if (store === undefined) return conversation.close();
    store.leave(left.id, conversation, left);
  }

  /** Issue 34, older history (chat-session-reducer/history, loaded with the `history` option's
   *  first use): the cursor of each conversation's next older page, and the page being loaded. */
  const older = new Map();
  let loadingOlder;
  const hasOlder = () => given.history !== undefined && (older.has(idNow()) ? older.get(idNow()) !== null : conversation.state().session.messages.length > 0);
  const history = (name) =>
    import("chat-session-reducer/history").then((module) => module[name](given, idNow, () => conversation.state().session, (action) => conversation.dispatch(checkAction(action)), older));
  const openNewestPage = () => given.history !== undefined && void history("openNewestPage");
  /** Puts the next older page in front; one at a time. */
  const loadOlder = () =>
    hasOlder()
      ? (loadingOlder ??= history("loadOlder").finally(() => {
          loadingOlder = undefined;
          owner.changed();
        }))
      : Promise.resolve();

  const host = {
    newest: () => ({ options: shownOptions, session: conversation.state().session, id: idNow(), follows: conversation.state().follows, runStart: conversation.state().runStart }),
    follow: (session, id, resume, runStart) => conversation.dispatch({ type: FOLLOW, session, id, resume, runStart }),
    resumes: () => resumes(shownOptions, shownOptions.protocol),
    actions: () => actions,
  };
  const connectTabs = () => {
    const { storageKey, storage } = shownOptions;
    tabs = storageKey === undefined ? undefined : given.tabs?.connect(storageKey, storage, host);
  };
  const disconnectTabs = () => {
    tabs?.close();
    tabs = undefined;
  };

  function start() {
    started = true;
    connectTabs();
    open();
    conversation.hold(true);
    openNewestPage();
    void loadProtocol(shownOptions.protocol).catch(() => {});
  }

  function shutDown() {
    stopping = undefined;
    started = false;
    cancelAwaiting();
    leave(shownOptions);
    // A store of conversations holds what was left: started again, it is taken back from there.
    if (given.conversations !== undefined) shown = undefined;
    disconnectTabs();
  }

  const dispatch = (action) => {
    const checked = checkAction(action);
    // A reset starts a new conversation: a new id with it.
    conversation.dispatch(resetsConversation(checked) ? { type: NEW_CONVERSATION, action: checked, id: newId("chat") } : checked);
  };
  const dispatchAnswer = (part) => conversation.dispatch(answerAction(part));
  // The user ends the run: with `resume`, the server is told (a closed connection is only a disconnect).
  const endOnServer = () => {
    const told = stopOnServer(shownOptions, conversation.state().session, idNow(), conversation.position());
    if (told === undefined) return;
    stoppingOnServer = told;
    void told.then(() => stoppingOnServer === told && (stoppingOnServer = undefined));
  };
  // What arrived before Stop, an edit or a regenerate is applied with it.
  const afterArrived = (action) => {
    endOnServer();
    conversation.afterArrived(action);
  };
  const actions = {
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
      const initial = initialSession(given);
      dispatch(initial.messages.length === 0 ? { type: "reset" } : { type: "batch", actions: [{ type: "reset" }, { type: "load", state: initial }] });
    },
    // SPEC v3 load: a state streaming is loaded with stop applied, so its request is aborted.
    load: (state) => afterArrived(checkAction({ type: "load", state })),
    setMessages: (messages) => {
      const { forks, ...current } = conversation.state().session;
      const next = typeof messages === "function" ? messages(current.messages) : messages;
      // The branches belonged to the messages replaced.
      afterArrived(checkAction({ type: "load", state: { ...current, messages: next } }));
    },
    // SPEC v3 stop in a session in error: the error goes, and nothing else changes.
    clearError: () => {
      if (conversation.state().session.status === "error") dispatch({ type: "stop" });
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
    deny: (callId, reason) => dispatchAnswer({ type: "tool-approval-response", id: callId, approved: false, ...(reason === undefined ? {} : { reason }) }),
    // A client-side call that failed: it ends `error` (tool-error), and the agent goes on as after an answer.
    fail: (callId, error) => dispatchAnswer({ type: "tool-error", id: callId, error }),
    // A call that asked a question (an approval or an interrupt) takes the answer as its
    // approval; a client-side tool call takes it as its result.
    answer: (callId, output) => {
      const call = findCall(conversation.state().session.messages, callId);
      dispatchAnswer(call?.approval !== undefined ? { type: "tool-approval-response", id: callId, approved: true, output } : { type: "tool-result", id: callId, output });
    },
  };
  // While another tab streams, what the user does is sent to it.
  const forwarding = (coordinator) => coordinator?.forward(actions, () => tabs) ?? actions;
  let exposed = forwarding(given.tabs);

  const snapshotOf = createSnapshots();
  const getSnapshot = () => snapshotOf(conversation.state(), conversation.storageError(), idNow(), exposed, hasOlder(), loadOlder);
  const serverSnapshot = getSnapshot();

  return {
    ...actions,
    loadOlder,
    subscribe(listener) {
      listeners.add(listener);
      stopping = undefined;
      if (!started) start();
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0 || !started) return;
        // A microtask later, unless subscribed again meanwhile (React Strict Mode's second mount):
        // a stop there would abort the run and write a save that is not due yet.
        const scheduled = (stopping = () => stopping === scheduled && shutDown());
        queueMicrotask(scheduled);
      };
    },
    getSnapshot,
    getServerSnapshot: () => serverSnapshot,
    /** @param {AgentSessionOptions} next */
    setOptions(next) {
      checkOptions(next);
      const before = shownOptions;
      if ((next.tabs === undefined) !== (given.tabs === undefined)) exposed = forwarding(next.tabs);
      given = next;
      shownOptions = withKey(next);
      if (!started) return;
      if (before.protocol !== shownOptions.protocol) void loadProtocol(shownOptions.protocol).catch(() => {});
      const keyChanged = before.storageKey !== shownOptions.storageKey || before.storage !== shownOptions.storage;
      const tabsChanged = (before.tabs === undefined) !== (next.tabs === undefined);
      if (keyChanged || tabsChanged) disconnectTabs();
      if (!sameConversation(shown, identityOf(shownOptions))) {
        open(before);
        openNewestPage();
      }
      if (keyChanged || tabsChanged) connectTabs();
      // The snapshot's id is the option's when it has one.
      if (before.id !== next.id || tabsChanged) owner.changed();
    },
  };
}

/** The snapshot of a state: the same object while the state, the storage error, the id and the
 *  actions are the same; its `error` the same object while the failure is. */
function createSnapshots() {
  let last;
  let error;
  return (state, storageError, id, actions, hasOlder, loadOlder) => {
    if (last !== undefined && last.state === state && last.storageError === storageError && last.id === id && last.actions === actions && last.hasOlder === hasOlder) return last.snapshot;
    const { session, runs, failure } = state;
    // The failure's details (HTTP status, body, cause) join the session's error while it is the current run's.
    const detailed = session.error !== undefined && failure?.run === runs ? failure : undefined;
    if (error === undefined || error.of !== session.error || error.failure !== detailed) {
      error = { of: session.error, failure: detailed, value: detailed === undefined ? session.error : { ...session.error, ...detailed.details } };
    }
    // "reconnecting": the run's connection broke and is being reconnected (resume.js); "submitted":
    // the request is sent and nothing of the reply has arrived yet (a run another tab streams has).
    const streaming = session.status === "streaming";
    const status = streaming && state.reconnecting === runs ? "reconnecting" : streaming && !state.follows && state.streamed !== runs ? "submitted" : session.status;
    const snapshot = { id, state: session, messages: session.messages, status, error: error.value, queue: session.queue ?? NOTHING_QUEUED, storageError, hasOlder, ...actions, loadOlder };
    last = { state, storageError, id, actions, hasOlder, snapshot };
    return snapshot;
  };
}
