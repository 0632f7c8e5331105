// The glue between useAgentSession and `options.tabs` (coordinateTabs() of
// chat-session-reducer/tabs, src/tabs/, which knows nothing of React): the coordinator is
// connected to the hook's key and storage, and given the hook's own dispatches.

import { useEffect } from "react";
import { resumes } from "./resume.js";
import { FOLLOW } from "./session.js";

/**
 * Keeps `tabs.current` the coordinator of the conversation under the hook's key (undefined
 * without `options.tabs` or a key). Called after the hook's storage and run effects: an unmount's
 * last save and the run's stop go through it before it closes. `actions`: the hook's own.
 * @param {import("react").RefObject<any>} tabs
 * @param {import("chat-session-reducer/react").UseAgentSessionOptions} options
 */
export function useTabs(tabs, { storageKey, storage, tabs: coordinate }, newest, dispatchToHook, actions) {
  useEffect(() => {
    const connected = storageKey === undefined ? undefined : newest().options.tabs?.connect(storageKey, storage, {
      newest,
      follow: (session, id, resume) => dispatchToHook({ type: FOLLOW, session, id, resume }),
      resumes: () => resumes(newest().options, newest().options.protocol),
      actions: () => actions,
    });
    tabs.current = connected;
    return () => {
      connected?.close();
      tabs.current = undefined;
    };
  }, [storageKey, storage, coordinate === undefined]);
}
