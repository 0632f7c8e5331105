// The packed README's Svelte example, which run.mjs writes into Readme.svelte as the README has it.
import { mount } from "svelte";
import Readme from "./Readme.svelte";

mount(Readme, { target: document.getElementById("app") });
