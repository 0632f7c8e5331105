// The test's chat (App.svelte), or at /?readme the packed README's example, which run.mjs writes
// into Readme.svelte as the README has it.
import { mount } from "svelte";
import App from "./App.svelte";
import Readme from "./Readme.svelte";

// Per message id, how often its row rendered (mounted, or given a changed message): read by the test.
window.rowRenders = {};
mount(location.search === "?readme" ? Readme : App, { target: document.getElementById("app") });
