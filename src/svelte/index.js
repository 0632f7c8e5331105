// chat-session-reducer/svelte: useAgentSession(options) for Svelte 5, on the session controller
// (chat-session-reducer/session), which does everything but the rendering. A plain module on
// svelte/reactivity's createSubscriber (no compiler needed): its fields are reactive getters
// holding the reducer's own objects, so a keyed {#each} compares them by identity.
import { createSubscriber } from "svelte/reactivity";
import { createAgentSession } from "chat-session-reducer/session";

/**
 * A chat connected to an agent endpoint: the React hook's return value with its fields as
 * reactive getters (`chat.messages`, `chat.status`), its actions as functions (`chat.send`), and
 * `setOptions` for options that change. Started once a field is read in an effect (a template
 * expression, `$derived`, `$effect`), stopped when no effect reads one any more.
 * @param {import("chat-session-reducer/svelte").UseAgentSessionOptions} options
 */
export function useAgentSession(options) {
  const session = createAgentSession(options);
  const subscribe = createSubscriber((update) => {
    const unsubscribe = session.subscribe(update);
    // What opening the stored conversation changed before this listener was there.
    update();
    return unsubscribe;
  });
  /** @type {Record<string, unknown>} */
  const chat = { setOptions: (next) => session.setOptions(next) };
  for (const [name, value] of Object.entries(session.getSnapshot())) {
    // The actions are stable for the controller's life; the rest is read from the newest snapshot.
    if (typeof value === "function") chat[name] = value;
    else {
      Object.defineProperty(chat, name, {
        enumerable: true,
        get() {
          subscribe();
          return session.getSnapshot()[name];
        },
      });
    }
  }
  return chat;
}
