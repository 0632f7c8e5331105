// chat-session-reducer/testing: an agent endpoint for tests of a chat UI without a model. It
// answers each request with the next scripted reply, framed as the protocol frames it, and
// `recordResponse` turns a real response into such a reply. A script is plain JSON, so a
// recorded one can be saved as a fixture.
import { PROTOCOLS } from "../adapters/protocols.js";
import { invalid } from "../shared/coded-error.js";

// The import of the descriptor of the protocol `name`, one the hook speaks: loaded with its
// adapter when a request first needs it, it says how a server frames a reply (`headers`,
// `write`, `end`) and how it is read back (`read`).
function descriptorLoader(name) {
  if (!Object.hasOwn(PROTOCOLS, name)) {
    throw invalid("protocol", `one of ${Object.keys(PROTOCOLS).map((key) => `"${key}"`).join(", ")}`);
  }
  return PROTOCOLS[name].load;
}

/** A pause of `ms` milliseconds before the next step (a timer, so fake timers drive it). */
export function wait(ms) {
  return { wait: ms };
}

/** The connection drops here: reading the body fails with `TypeError("network error")`, as fetch's does. */
export function drop() {
  return { drop: true };
}

/** Text sent as it is, unframed: a malformed frame, or half of one. */
export function raw(text) {
  return { raw: text };
}

// What a step of a reply is: a frame (anything with a `type`) or one of wait, drop, raw.
function stepKind(step, path) {
  if (step === null || typeof step !== "object" || Array.isArray(step)) throw invalid(path, "a frame or a step object");
  if (typeof step.type === "string") return "frame";
  if (typeof step.wait === "number" && step.wait >= 0 && Number.isFinite(step.wait)) return "wait";
  if (step.drop === true) return "drop";
  if (typeof step.raw === "string") return "raw";
  throw invalid(path, "a frame (with a string type), { wait: ms }, { drop: true } or { raw: text }");
}

// A reply that is an HTTP answer rather than a stream: { status, body?, headers? }.
function isHttpReply(reply) {
  return reply !== null && typeof reply === "object" && !Array.isArray(reply) && typeof reply.status === "number";
}

function checkReply(reply, path) {
  if (typeof reply === "function" || reply instanceof LiveReply || isHttpReply(reply)) return;
  if (!Array.isArray(reply)) throw invalid(path, "an array of steps, { status, body? }, a liveReply() or a function");
  reply.forEach((step, index) => stepKind(step, `${path}[${index}]`));
}

/**
 * A reply the test writes while it runs: frames written before the request arrives wait for it.
 * `end()` finishes the reply, `drop()` drops the connection.
 */
class LiveReply {
  #steps = [];
  /** @type {(value?: unknown) => void} */
  #wake = () => {};
  #ended = false;

  #push(step) {
    if (this.#ended) throw new Error("liveReply: the reply has already ended");
    this.#steps.push(step);
    this.#wake();
  }
  write(frame) {
    stepKind(frame, "frame");
    this.#push(frame);
  }
  raw(text) {
    this.#push(raw(String(text)));
  }
  end() {
    this.#push({ end: true });
    this.#ended = true;
  }
  drop() {
    this.#push(drop());
    this.#ended = true;
  }
  async *steps() {
    for (;;) {
      while (this.#steps.length === 0) await new Promise((resolve) => (this.#wake = resolve));
      const step = this.#steps.shift();
      if (step.end) return;
      yield step;
      if (step.drop) return;
    }
  }
}

/** A reply written by the test as it goes (see `LiveReply`). */
export function liveReply() {
  return new LiveReply();
}

// Resolves after `ms`, or rejects with the signal's reason when it aborts first.
function sleep(ms, signal) {
  return new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

// The reply's body: each pull plays steps until one sends bytes, the reply ends or the
// connection drops, so a drop comes after the consumer has read everything sent before it (as
// over a network). An abort errors the body with the signal's reason, as fetch's does.
function streamedResponse(protocol, steps, { delay, signal }) {
  const iterator = Symbol.asyncIterator in steps ? steps[Symbol.asyncIterator]() : steps[Symbol.iterator]();
  const encoder = new TextEncoder();
  let frames = 0;
  let forgetAbort = () => {};
  const body = new ReadableStream(
    {
      start(controller) {
        if (!signal) return;
        const onAbort = () => controller.error(signal.reason);
        signal.addEventListener("abort", onAbort, { once: true });
        forgetAbort = () => signal.removeEventListener("abort", onAbort);
      },
      async pull(controller) {
        for (;;) {
          const { done, value: step } = await iterator.next();
          if (done) {
            forgetAbort();
            if (protocol.end !== "") controller.enqueue(encoder.encode(protocol.end));
            return controller.close();
          }
          const kind = stepKind(step, "step");
          if (kind === "wait") await sleep(step.wait, signal);
          else if (kind === "drop") {
            forgetAbort();
            return controller.error(new TypeError("network error"));
          } else if (kind === "raw" && step.raw !== "") return controller.enqueue(encoder.encode(step.raw));
          else if (kind === "frame") {
            if (frames++ > 0 && delay > 0) await sleep(delay, signal);
            return controller.enqueue(encoder.encode(protocol.write(step)));
          }
        }
      },
      cancel() {
        forgetAbort();
        iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: protocol.headers });
}

function httpResponse({ status, body = "", headers = {} }) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const type = typeof body === "string" ? "text/plain" : "application/json";
  return new Response(status === 204 || status === 304 ? null : text, { status, headers: { "content-type": type, ...headers } });
}

function responseFor(protocol, reply, options) {
  if (isHttpReply(reply)) return httpResponse(reply);
  const steps = reply instanceof LiveReply ? reply.steps() : reply;
  return streamedResponse(protocol, steps, options);
}

function parsedBody(body) {
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function recordedRequest(input, init = {}) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : String(input?.url ?? input);
  const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
  return { url, method: init.method ?? "GET", headers, body: parsedBody(init.body), signal: init.signal ?? undefined };
}

// The reply to request `index` (from 0): the script's, or what a function makes of the request.
async function replyTo(replies, request, index) {
  const scripted = typeof replies === "function" ? replies : replies[index];
  if (scripted === undefined) {
    throw new Error(`mockEndpoint: request ${index + 1} has no scripted reply (the script has ${replies.length})`);
  }
  if (typeof scripted !== "function") return scripted;
  const reply = await scripted(request, index);
  checkReply(reply, typeof replies === "function" ? `replies(request ${index + 1})` : `replies[${index}]()`);
  return reply;
}

/**
 * An endpoint that answers request N with `replies[N]`, framed for `protocol`. A reply is an
 * array of steps (frames, `wait(ms)`, `drop()`, `raw(text)`), an HTTP answer `{ status, body? }`,
 * a `liveReply()`, or a function of the request that returns one; `replies` itself may be such a
 * function, called for every request. `delay` is a pause before each frame after the first. Use
 * `fetch` where the app fetches a URL, `api` as the hook's `api`.
 */
export function mockEndpoint(protocol, replies, { delay = 0 } = {}) {
  const loadDescriptor = descriptorLoader(protocol);
  if (typeof replies !== "function") {
    if (!Array.isArray(replies)) throw invalid("replies", "an array of replies, or a function");
    replies.forEach((reply, index) => checkReply(reply, `replies[${index}]`));
  }
  const requests = [];
  const answer = async (request) => {
    const index = requests.push(request) - 1;
    request.signal?.throwIfAborted();
    const reply = await replyTo(replies, request, index);
    return responseFor(await loadDescriptor(), reply, { delay, signal: request.signal });
  };
  return {
    requests,
    fetch: (input, init) => answer(recordedRequest(input, init)),
    api: (body, signal) => answer({ url: "", method: "POST", headers: {}, body, signal }),
  };
}

/**
 * A real response as a scripted reply: its frames (with `wait` steps for the pauses between
 * them when `timing` is set, and a final `drop()` if the connection dropped), or `{ status, body }`
 * for an HTTP error.
 */
export async function recordResponse(response, protocol, { timing = false } = {}) {
  const loadDescriptor = descriptorLoader(protocol);
  if (!response.ok) return { status: response.status, body: parsedBody(await response.text()) };
  const steps = [];
  let last = Date.now();
  try {
    for await (const frame of (await loadDescriptor()).read(response)) {
      const now = Date.now();
      if (timing && steps.length > 0 && now > last) steps.push(wait(now - last));
      last = now;
      steps.push(frame);
    }
  } catch (error) {
    // A dropped connection fails as fetch fails, with a plain TypeError; anything else (an abort,
    // a malformed frame) is not part of the reply.
    if (!(error instanceof TypeError) || "code" in error) throw error;
    steps.push(drop());
  }
  return steps;
}
