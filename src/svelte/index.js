// chat-session-reducer/svelte: useAgentSession(options), a Svelte store on the session controller
// (chat-session-reducer/session), which does everything but the rendering. A plain module on
// svelte/store: no compiler needed, and the store's value is the reducer's own objects.
import { readable } from "svelte/store";
import { createAgentSession } from "chat-session-reducer/session";

/**
 * A chat connected to an agent endpoint: a readable store whose value is what the React hook
 * returns (read it as `$chat.messages`), with the hook's actions on the store itself
 * (`chat.send(text)`) and `setOptions` for options that change. Started by the store's first
 * subscriber (a component reading `$chat`), stopped when the last one is gone.
 * @param {import("chat-session-reducer/svelte").UseAgentSessionOptions} options
 */
export function useAgentSession(options) {
  const session = createAgentSession(options);
  const { subscribe } = readable(session.getServerSnapshot(), (set) => {
    // On the server the store keeps the snapshot before anything stored was opened, as React's.
    if (typeof window === "undefined") return undefined;
    let shown;
    const update = () => {
      const snapshot = session.getSnapshot();
      // A store tells its subscribers of every set object; only a new snapshot is news.
      if (snapshot !== shown) set((shown = snapshot));
    };
    const unsubscribe = session.subscribe(update);
    update();
    return unsubscribe;
  });
  const actions = Object.entries(session.getSnapshot()).filter(([, value]) => typeof value === "function");
  return { ...Object.fromEntries(actions), subscribe, setOptions: (next) => session.setOptions(next) };
}
