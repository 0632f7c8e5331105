// The test's chat (App.vue), or at /?readme the packed README's example, which run.mjs writes
// into Readme.vue as the README has it.
import { createApp } from "vue";
import App from "./App.vue";
import Readme from "./Readme.vue";

// Per message id, how often its row rendered (mounted or updated): read by the test.
window.rowRenders = {};
createApp(location.search === "?readme" ? Readme : App).mount("#app");
