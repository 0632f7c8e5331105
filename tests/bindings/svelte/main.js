import { mount } from "svelte";
import App from "./App.svelte";

// Per message id, how often its row rendered (mounted, or given a changed message): read by the test.
window.rowRenders = {};
mount(App, { target: document.getElementById("app") });
