// Renders useAgentSession in the test runner's DOM (jsdom) with React's act(), and a scripted
// endpoint that streams what the test writes. Shared by the Vitest and the Jest consumers: plain
// ES modules and createElement, so neither runner needs a transform.

import { StrictMode, act, createElement } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { useAgentSession } from "chat-session-reducer/react";
import { drop, liveReply, mockEndpoint, raw } from "chat-session-reducer/testing";

export { drop, mockEndpoint, raw };

globalThis.IS_REACT_ACT_ENVIRONMENT = true;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (advancing React) until `predicate()` holds; fails after two seconds. */
export async function until(predicate, what = predicate.toString()) {
  for (let waited = 0; waited < 2000; waited += 5) {
    if (predicate()) return;
    await act(() => sleep(5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * An agent endpoint the test drives, made with the package's own chat-session-reducer/testing:
 * each request gets a live reply that streams what the test writes with `write(frame)` /
 * `writeLine(text)`, until `end()` (or an HTTP error when `status` is not 200). `requests` holds
 * each request as the endpoint recorded it (url, method, headers, parsed body, signal).
 */
export function scriptedAgent({ status = 200 } = {}) {
  let reply;
  const endpoint = mockEndpoint("actions", () => (status === 200 ? (reply = liveReply()) : { status, body: { error: "refused by the test" } }));
  const agent = {
    requests: endpoint.requests,
    /** An `api` function: (body, signal) => Response. */
    api: endpoint.api,
    /** A `fetch` stand-in for a URL `api`. */
    fetch: endpoint.fetch,
    /** A line sent as it is (a malformed frame, say). */
    writeLine(text) {
      reply.raw(text + "\n");
    },
    write(frame) {
      agent.writeLine(JSON.stringify(frame));
    },
    part(part, within) {
      agent.write(within === undefined ? { type: "part", part } : { type: "part", part, within });
    },
    end() {
      reply.end();
    },
  };
  return agent;
}

function probe(options, result) {
  return function Probe(props) {
    const session = useAgentSession(props.options ?? options);
    result.session = () => session;
    result.renders += 1;
    return createElement("p", null, `${session.messages.length} messages, ${session.status}`);
  };
}

/**
 * Mounts a component calling useAgentSession(options) in Strict Mode. Returns `session()`
 * (the hook's latest return value), `renders` (how many times it rendered), `container`,
 * `rerender(options)` (the component rendered again with other options) and `unmount()`.
 */
export async function renderHook(options, { strict = true, container = document.createElement("div") } = {}) {
  const result = { renders: 0, container };
  const Probe = probe(options, result);
  const element = (props) => (strict ? createElement(StrictMode, null, createElement(Probe, props)) : createElement(Probe, props));
  const root = createRoot(container);
  await act(async () => root.render(element({})));
  result.rerender = (next) => act(async () => root.render(element({ options: next })));
  result.unmount = () => act(async () => root.unmount());
  return result;
}

/**
 * Renders the component on the "server" (renderToString), then hydrates that markup in Strict
 * Mode as a page would. Returns what renderHook does, plus `html` (the server's markup) and
 * `problems`: every recoverable hydration error and every console error or warning meanwhile.
 */
export async function hydrateHook(options) {
  const result = { renders: 0, container: document.createElement("div"), problems: [] };
  const Probe = probe(options, result);
  const element = createElement(StrictMode, null, createElement(Probe));
  const original = { error: console.error, warn: console.warn };
  console.error = (...args) => result.problems.push(`console.error: ${args.join(" ")}`);
  console.warn = (...args) => result.problems.push(`console.warn: ${args.join(" ")}`);
  try {
    result.html = renderToString(element);
    result.container.innerHTML = result.html;
    let root;
    await act(async () => {
      root = hydrateRoot(result.container, element, { onRecoverableError: (error) => result.problems.push(`recoverable: ${error.message}`) });
    });
    result.unmount = () => act(async () => root.unmount());
  } finally {
    Object.assign(console, original);
  }
  return result;
}

/** The server's markup of a component calling useAgentSession(options): what a render throws, thrown. */
export function renderToStringOf(options) {
  return renderToString(createElement(probe(options, { renders: 0 })));
}

export function textOf(message) {
  return message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
}
