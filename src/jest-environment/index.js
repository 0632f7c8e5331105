// chat-session-reducer/jest-environment: jsdom as a browser has it, for Jest. jest-environment-jsdom
// leaves out the fetch and streams globals that Node provides and a browser has (TextEncoder,
// TextDecoder, ReadableStream, Response, …), which anything reading a streamed response needs,
// so a test of useAgentSession failed on them. This environment hands the test Node's own.
import { TestEnvironment } from "jest-environment-jsdom";

/** The globals a browser has and jsdom does not, taken from Node where jsdom leaves them out. */
export const FROM_NODE = [
  "TextEncoder",
  "TextDecoder",
  "ReadableStream",
  "WritableStream",
  "TransformStream",
  "Request",
  "Response",
  "Headers",
  "fetch",
  "structuredClone",
];

export default class JsdomWithWebStreams extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of FROM_NODE) if (this.global[name] === undefined) this.global[name] = globalThis[name];
  }
}
