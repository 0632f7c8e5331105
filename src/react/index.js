// useAgentSession: the React binding of the session controller (chat-session-reducer/session),
// which owns everything but rendering. One controller per component: the newest options are
// passed to it after each render, and the component renders its snapshot
// (useSyncExternalStore). Server rendering and hydration render the snapshot from before
// anything stored was opened; the stored conversation is opened right after hydration, before
// the browser paints.

import { useEffect, useLayoutEffect, useReducer, useState, useSyncExternalStore } from "react";
import { checkOptions, createAgentSession } from "chat-session-reducer/session";

/** @typedef {import("chat-session-reducer/react").UseAgentSessionOptions} UseAgentSessionOptions */

// useLayoutEffect warns when it runs on the server (React 18); there is nothing to open there.
const useClientLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

const nothing = () => {};

/** @param {UseAgentSessionOptions} options */
export function useAgentSession(options) {
  // Checked while rendering on purpose: a wrong option is the app's bug, shown at once.
  checkOptions(options);
  const [session] = useState(() => createAgentSession(options));
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getServerSnapshot);
  const [, rerender] = useReducer((count) => count + 1, 0);
  // Callbacks and the conversation shown are read from the newest options.
  useClientLayoutEffect(() => session.setOptions(options));
  // Started in the layout phase, so what it opens is rendered before the first paint
  // (useSyncExternalStore subscribes only after the paint).
  useClientLayoutEffect(() => {
    const unsubscribe = session.subscribe(nothing);
    if (session.getSnapshot() !== snapshot) rerender();
    return unsubscribe;
  }, [session]);
  return snapshot;
}
