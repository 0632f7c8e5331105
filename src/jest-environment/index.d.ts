// chat-session-reducer/jest-environment: jest-environment-jsdom with Node's fetch and streams globals.
import { TestEnvironment } from "jest-environment-jsdom";

/** The globals it takes from Node where jsdom leaves them out. */
export declare const FROM_NODE: readonly string[];

/** Use as Jest's `testEnvironment: "chat-session-reducer/jest-environment"`. */
export default class JsdomWithWebStreams extends TestEnvironment {}
