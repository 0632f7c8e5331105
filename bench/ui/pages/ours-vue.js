// chat-session-reducer/vue on the AI SDK stream, saving to the package's IndexedDB store, each
// save timed. Rows are components with the message as their prop: Vue skips a row whose prop is
// the same object.
import { createApp, defineComponent, h } from "vue";
import { useAgentSession } from "chat-session-reducer/vue";
import { indexedDBStore } from "chat-session-reducer/indexeddb";
import { STORAGE, THREAD, respond, runPage, threadMessages, timedStore, timedWebStorage } from "../harness.js";

const storage = STORAGE === "session" ? timedWebStorage(sessionStorage) : timedStore(indexedDBStore());
const options = { api: respond, protocol: "ai-sdk", initialMessages: threadMessages(), storageKey: `bench-${THREAD}-${Math.random()}`, storage };
const session = {};

const Row = defineComponent({
  props: { message: { type: Object, required: true } },
  setup: (props) => () =>
    h("li", { "data-role": props.message.role }, props.message.parts.map((part, index) => (part.type === "text" ? h("p", { key: index }, part.text) : null))),
});

const App = defineComponent({
  setup() {
    const chat = useAgentSession(options);
    session.send = chat.send;
    return () => h("ol", { "data-bench-list": "" }, chat.messages.value.map((message) => h(Row, { key: message.id, message })));
  },
});

runPage((root) => {
  createApp(App).mount(root);
  return { send: () => session.send("go") };
});
