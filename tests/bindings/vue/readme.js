// The packed README's Vue example, which run.mjs writes into Readme.vue as the README has it.
import { createApp } from "vue";
import Readme from "./Readme.vue";

createApp(Readme).mount("#app");
