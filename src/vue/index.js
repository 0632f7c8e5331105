// chat-session-reducer/vue: useAgentSession(options), a Vue 3 composable on the session
// controller (chat-session-reducer/session), which does everything but the rendering.
import { computed, onMounted, onScopeDispose, shallowRef, toRaw, toValue, watch } from "vue";
import { createAgentSession } from "chat-session-reducer/session";

/**
 * A chat connected to an agent endpoint, for a component's `setup`. `options` are the React
 * hook's: a plain object, a ref, or a getter (`() => ({ api, storageKey: key.value })`) whose
 * reactive reads are watched, each change given to the controller. Returns the hook's fields as
 * read-only refs (`messages`, `status`, …) and its actions as functions.
 * @param {import("vue").MaybeRefOrGetter<import("chat-session-reducer/vue").UseAgentSessionOptions>} options
 */
export function useAgentSession(options) {
  // The options now, each field read (so that what a getter or a reactive object reads is watched)
  // and unwrapped from Vue's proxies, which the reducer must not keep (initialMessages, say); what
  // is no object goes to the controller as it is, to be refused there.
  /** @returns {import("chat-session-reducer/session").AgentSessionOptions} */
  const current = () => {
    const value = toValue(options);
    if (value === null || typeof value !== "object") return value;
    return /** @type {any} */ (Object.fromEntries(Object.entries(value).map(([name, field]) => [name, toRaw(field)])));
  };
  const session = createAgentSession(current());
  // A shallowRef keeps the reducer's objects as they are, not deep proxies of them: a message
  // that did not change stays the same object, so only the streaming row updates.
  const snapshot = shallowRef(session.getServerSnapshot());
  const refresh = () => {
    snapshot.value = session.getSnapshot();
  };
  watch(current, (next) => session.setOptions(next));

  // Started once mounted (never on the server), stopped with the component.
  let unsubscribe;
  onMounted(() => {
    unsubscribe = session.subscribe(refresh);
    refresh();
  });
  onScopeDispose(() => unsubscribe?.());

  /** @type {Record<string, unknown>} */
  const returned = {};
  for (const [name, value] of Object.entries(snapshot.value)) {
    // The actions are stable for the controller's life; the rest follows the snapshot.
    returned[name] = typeof value === "function" ? value : computed(() => snapshot.value[name]);
  }
  return returned;
}
