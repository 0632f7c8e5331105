// The README's examples, run as written against the built package (pkg/): the plain examples
// in Node, and the React examples (useAgentSession, then useReducer) rendered with react-dom in
// a jsdom window whose sessionStorage (a global, as in a jsdom test environment) the package uses.
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { transform } from "esbuild";
import { JSDOM } from "jsdom";

const root = fileURLToPath(new URL("../../", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");

// The fenced blocks of a language, in order.
function blocks(language) {
  return [...readme.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((match) => match[1]);
}

// A scratch project where the package resolves by name, as after `npm install`, and React (and
// Redux Toolkit) resolve to the very copies this repository installed.
function project() {
  const dir = mkdtempSync(join(tmpdir(), "readme-example-"));
  mkdirSync(join(dir, "node_modules", "@reduxjs"), { recursive: true });
  symlinkSync(join(root, "pkg"), join(dir, "node_modules", "chat-session-reducer"), "dir");
  for (const name of ["react", "@reduxjs/toolkit"]) symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name), "dir");
  return dir;
}

async function importModule(dir, name, source) {
  const file = join(dir, name);
  writeFileSync(file, source);
  return import(pathToFileURL(file).href);
}

// The adapters' examples talk to an agent server: tests/adapters/readme.test.mjs runs them, with
// a fetch that answers as the server would.
const plainExamples = blocks("js").filter((block) => !block.includes('from "chat-session-reducer/'));

for (const [index, example] of plainExamples.entries()) {
  test(`the README's example ${index + 1} prints what its comments say`, async () => {
    const printed = [];
    const log = console.log;
    console.log = (...values) => printed.push(values.join(" "));
    try {
      await importModule(project(), `example-${index + 1}.mjs`, example);
    } finally {
      console.log = log;
    }
    // The comment after each console.log, up to a ": " that starts an explanation, quotes removed.
    const expected = [...example.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((match) => match[1].split(": ")[0].replace(/^"|"$/g, ""));
    assert.ok(expected.length > 0, "the example says what it prints");
    assert.deepEqual(printed, expected);
  });
}

// A jsdom window as the global one: the package finds sessionStorage through globalThis, as in a
// browser or a jsdom test environment.
// One window for the process (as one page), emptied for each example.
const dom = new JSDOM("<!doctype html>", { url: "http://localhost/" });
Object.assign(globalThis, { window: dom.window, Window: dom.window.Window, document: dom.window.document, navigator: dom.window.navigator, sessionStorage: dom.window.sessionStorage });
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

function browserGlobals(storedSession) {
  dom.window.document.body.innerHTML = "<div id=root></div>";
  dom.window.sessionStorage.clear();
  dom.window.sessionStorage.setItem("support-chat", JSON.stringify({ format: "chat-session-reducer", version: 1, state: storedSession }));
  return dom;
}

// A conversation saved while a call was running.
const savedMidRun = {
  messages: [
    { id: "u-0", role: "user", parts: [{ type: "text", text: "Earlier question" }] },
    { id: "a-0", role: "assistant", parts: [{ type: "tool", id: "c-0", name: "search", input: {}, state: "running" }] },
  ],
  status: "streaming",
};

async function renderExample(jsx, props) {
  const { code } = await transform(jsx, { loader: "jsx", jsx: "automatic", format: "esm" });
  const { Chat } = await importModule(project(), "chat.mjs", code);
  const React = await import("react");
  const { createRoot } = await import(pathToFileURL(join(root, "node_modules/react-dom/client.js")).href);
  const container = document.getElementById("root");
  const reactRoot = createRoot(container);
  await React.act(async () => reactRoot.render(React.createElement(React.StrictMode, null, React.createElement(Chat, props))));
  const rows = () => [...container.querySelectorAll("p[data-role]")].map((row) => `${row.dataset.role}: ${row.textContent}`);
  return { container, rows, act: React.act, unmount: () => React.act(async () => reactRoot.unmount()) };
}

test("the README's useAgentSession example restores, sends, streams and saves a conversation", async () => {
  const dom = browserGlobals(savedMidRun);
  const requests = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    requests.push({ url, body: JSON.parse(init.body) });
    // An AI SDK route's UI message stream (the example sets protocol: "ai-sdk").
    const chunks = [
      { type: "start", messageId: "a-1" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hi " },
      { type: "text-delta", id: "t", delta: "there" },
      { type: "text-end", id: "t" },
      { type: "finish" },
    ];
    const sse = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + "data: [DONE]\n\n";
    return new Response(sse, { headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" } });
  };
  try {
    const chat = await renderExample(blocks("jsx")[0]);
    assert.deepEqual(chat.rows(), ["user: Earlier question", "assistant: "], "restored from sessionStorage");

    const input = chat.container.querySelector("input");
    await chat.act(async () => {
      Object.getOwnPropertyDescriptor(dom.window.HTMLInputElement.prototype, "value").set.call(input, "Hello");
      input.dispatchEvent(new dom.window.Event("input", { bubbles: true }));
    });
    await chat.act(async () => chat.container.querySelector("form").requestSubmit());
    for (let waited = 0; waited < 1000 && chat.rows().length < 4; waited += 10) await chat.act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    assert.deepEqual(chat.rows(), ["user: Earlier question", "assistant: ", "user: Hello", "assistant: Hi there"]);
    assert.equal(requests.length, 1);
    assert.equal(requests[0].url, "/api/chat");
    assert.deepEqual(requests[0].body.messages.map((message) => message.role), ["user", "assistant", "user"]);

    const saved = JSON.parse(dom.window.sessionStorage.getItem("support-chat"));
    assert.equal(saved.state.status, "idle");
    assert.equal(saved.state.messages[1].parts[0].state, "cancelled", "the running call was stopped on load");
    assert.equal(saved.state.messages[3].parts[0].text, "Hi there");
    await chat.unmount();
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("the README's useAgentSession example: Stop stops the reply and sends nothing; Send is another button, not Stop turned into it", async () => {
  const dom = browserGlobals({ messages: [], status: "idle" });
  const requests = [];
  const realFetch = globalThis.fetch;
  // A reply that streams its first words and then waits, until the request is aborted.
  globalThis.fetch = async (url, init) => {
    requests.push(JSON.parse(init.body));
    const first = ['data: {"type":"start","messageId":"a-1"}\n\n', 'data: {"type":"text-start","id":"t"}\n\n', 'data: {"type":"text-delta","id":"t","delta":"Once"}\n\n'];
    const body = new ReadableStream({
      start(controller) {
        for (const event of first) controller.enqueue(new TextEncoder().encode(event));
        init.signal.addEventListener("abort", () => controller.error(init.signal.reason));
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" } });
  };
  try {
    const chat = await renderExample(blocks("jsx")[0]);
    const input = chat.container.querySelector("input");
    await chat.act(async () => {
      Object.getOwnPropertyDescriptor(dom.window.HTMLInputElement.prototype, "value").set.call(input, "Tell me a story");
      input.dispatchEvent(new dom.window.Event("input", { bubbles: true }));
    });
    await chat.act(async () => chat.container.querySelector("form").requestSubmit());
    for (let waited = 0; waited < 1000 && !chat.rows().includes("assistant: Once"); waited += 10) await chat.act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    const stop = [...chat.container.querySelectorAll("button")].find((button) => button.textContent === "Stop");
    await chat.act(async () => stop.click());
    assert.deepEqual(chat.rows(), ["user: Tell me a story", "assistant: Once"]);
    assert.equal(requests.length, 1, "Stop sent no message");
    assert.deepEqual([...chat.container.querySelectorAll("button")].map((button) => button.textContent), ["Send"]);
    // Send is another element than Stop (keyed): in a browser, React renders the click's update
    // before the click's default action, and a Stop button turned into the submit button would
    // then submit the form (jsdom renders it only after, so the element itself is checked).
    assert.equal(stop.isConnected, false, "the Stop button was turned into the Send button");
    await chat.unmount();
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("the README's useReducer example restores, streams and saves a conversation", async () => {
  const dom = browserGlobals(savedMidRun);
  const onSend = (dispatch) => {
    dispatch({ type: "send", id: "u-1", text: "Hello" });
    dispatch({ type: "part", part: { type: "text-delta", text: "Hi " } });
    dispatch({ type: "part", part: { type: "text-delta", text: "there" } });
    dispatch({ type: "part", part: { type: "finish" } });
  };
  const { container, rows, act, unmount } = await renderExample(blocks("jsx")[1], { onSend });
  assert.deepEqual(rows(), ["user: Earlier question", "assistant: "], "restored from sessionStorage");
  const restored = JSON.parse(dom.window.sessionStorage.getItem("support-chat"));
  assert.equal(restored.state.messages[1].parts[0].state, "running", "restoring alone does not rewrite what is stored");

  await act(async () => container.querySelector("button").dispatchEvent(new dom.window.MouseEvent("click", { bubbles: true })));
  assert.deepEqual(rows(), ["user: Earlier question", "assistant: ", "user: Hello", "assistant: Hi there"]);
  const saved = JSON.parse(dom.window.sessionStorage.getItem("support-chat"));
  assert.equal(saved.state.status, "idle");
  assert.equal(saved.state.messages[1].parts[0].state, "cancelled", "the running call was stopped on load");
  assert.equal(saved.state.messages[3].parts[0].text, "Hi there");
  await unmount();
});
