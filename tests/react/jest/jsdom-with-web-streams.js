// jsdom as a browser has it: jest-environment-jsdom leaves out the fetch and streams globals
// that Node provides (TextEncoder, TextDecoder, ReadableStream, Response, …), which any code
// reading a streamed response needs. This environment hands Node's own to the test.
import { TestEnvironment } from "jest-environment-jsdom";

const FROM_NODE = ["TextEncoder", "TextDecoder", "ReadableStream", "WritableStream", "TransformStream", "Request", "Response", "Headers", "fetch", "structuredClone"];

export default class JsdomWithWebStreams extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of FROM_NODE) if (this.global[name] === undefined) this.global[name] = globalThis[name];
  }
}
