import { createApp } from "vue";
import App from "./App.vue";

// Per message id, how often its row rendered (mounted or updated): read by the test.
window.rowRenders = {};
createApp(App).mount("#app");
