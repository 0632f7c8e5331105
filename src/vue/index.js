// chat-session-reducer/vue: useAgentSession(options), a Vue 3 composable on the session
// controller (chat-session-reducer/session), which does everything but the rendering.
import { computed, onMounted, onScopeDispose, shallowRef, toValue, watch } from "vue";
import { createAgentSession } from "chat-session-reducer/session";

/**
 * A chat connected to an agent endpoint, for a component's `setup`. `options` are the React
 * hook's: a plain object, a ref, or a getter (`() => ({ api, storageKey: key.value })`) whose
 * reactive reads are watched, each change given to the controller. Returns the hook's fields as
 * read-only refs (`messages`, `status`, …) and its actions as functions.
 * @param {import("vue").MaybeRefOrGetter<import("chat-session-reducer/vue").UseAgentSessionOptions>} options
 */
export function useAgentSession(options) {
  const session = createAgentSession(toValue(options));
  // A shallowRef keeps the reducer's objects as they are, not deep proxies of them: a message
  // that did not change stays the same object, so only the streaming row updates.
  const snapshot = shallowRef(session.getServerSnapshot());
  const refresh = () => {
    snapshot.value = session.getSnapshot();
  };
  // A copy of the options, so that a change of any field of a reactive object is seen.
  watch(() => ({ ...toValue(options) }), (next) => session.setOptions(next));

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
